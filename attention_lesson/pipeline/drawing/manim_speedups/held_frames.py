"""Held frames nearly free: a wait (a step holding its last frame while its voice speaks) writes one
picture `repeat` times, and manim converts the RGBA array to the stream's pixel format and x264 codes it
again for each of them.

- A hold that is a whole mp4 segment (manim's `wait`: the segment's one write) is coded by x264 for its
  first SETTLE frames only; every further frame is a P slice of skipped macroblocks numbered as the
  next picture (`repeated`, pipeline/drawing/h264.py). Still one packet per frame: constant frame rate, the
  same frame count and duration.
- Any other hold is converted once and the same converted frame encoded `repeat` times (`encoded`).

`install()` puts `write_frame` in place of manim's `VideoSegmentEncoder.write_frame` in this process
(manim_speedups.install, through the gate); manim's files stay as they are. A stream
whose pixel format is not known, goes through manim's own code; a drawn frame (repeat 1) is encoded as
manim encodes it, its pixels wrapped rather than copied (`_drawn`). `ATTENTION_LESSON_HOLDS=manim` in the
environment sends every frame through manim's code, `=encode` converts once but encodes every frame
(for the tests' comparisons and for measuring: scripts/benchmark.py).
"""

from __future__ import annotations

import functools
import os
from fractions import Fraction

from . import patches

ENV = "ATTENTION_LESSON_HOLDS"
_manim_write_frame = None  # manim's VideoSegmentEncoder.write_frame, once installed
SETTLE = 12  # frames of a hold x264 codes before its last packet is repeated (see `repeated`)

# `write_frame` does manim's work with the encoder's own state (its stream, container and next timestamp,
# set by its constructor) and its checks; `converted` does what PyAV's encoder does to a frame
RELIES_ON = (
    "manim.scene.video_segment_encoder.VideoSegmentEncoder.write_frame",
    "manim.scene.video_segment_encoder.VideoSegmentEncoder._validate_frame",
    "manim.scene.video_segment_encoder.VideoSegmentEncoder._operation_error",
    "manim.scene.video_segment_encoder.VideoSegmentEncoder._stream",
    "manim.scene.video_segment_encoder.VideoSegmentEncoder._container",
    "manim.scene.video_segment_encoder.VideoSegmentEncoder._next_pts",
    "manim.scene.video_segment_encoder.VideoSegmentEncoder.spec",
    "av.video.reformatter.VideoReformatter.reformat",
)


def install() -> None:
    """Use `write_frame` for every video segment manim encodes in this process."""
    global _manim_write_frame
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    _manim_write_frame = patches.replace(VideoSegmentEncoder, "write_frame", write_frame)


def write_frame(self, pixels, *, repeat: int = 1) -> None:
    """manim's write_frame (encode `pixels` at the segment's next timestamps), a held picture
    converted once and, where the hold is the whole segment, coded once (`repeated`)."""
    stream = getattr(self, "_stream", None)
    mode = os.environ.get(ENV, "")
    if mode == "manim" or not getattr(stream, "pix_fmt", None) or not pixels.flags.c_contiguous:
        return _manim_write_frame(self, pixels, repeat=repeat)
    self._validate_frame(pixels, repeat)
    if repeat == 1:
        return _drawn(self, pixels)
    try:
        frame = converted(stream, pixels)
        whole = mode != "encode" and self._next_pts == 0 and repeat >= 2 * SETTLE  # the segment is the hold
        packets = repeated(self, frame, repeat) if whole else None
        if packets is None:
            packets = encoded(self, frame, repeat)  # moves _next_pts frame by frame
        else:
            self._next_pts += repeat
        for packet in packets:
            self._container.mux(packet)
    except BaseException as error:
        raise self._operation_error("encode", error) from error


def _drawn(enc, pixels) -> None:
    """A drawn frame, encoded as manim encodes it, but the RGBA array wrapped, not copied into the frame:
    manim hands the writer a copy of the camera's pixels that it owns and never touches again
    (`SceneFileWriter.write_frame`), so the copy PyAV's `from_ndarray` makes is one too many (its cost:
    docs/performance.md)."""
    import av

    try:
        for packet in encoded(enc, av.VideoFrame.from_numpy_buffer(pixels, format="rgba"), 1):
            enc._container.mux(packet)
    except BaseException as error:
        raise enc._operation_error("encode", error) from error


def encoded(enc, frame, repeat: int):
    """The packets of `frame` encoded `repeat` times at the segment's next timestamps."""
    rate = enc.spec.frame_rate
    time_base = Fraction(rate.denominator, rate.numerator)
    for _ in range(repeat):
        frame.pts = enc._next_pts
        frame.time_base = time_base
        enc._next_pts += 1
        yield from enc._stream.encode(frame)


def converted(stream, pixels):
    """The RGBA array as a frame in the stream's pixel format and size, converted the way the encoder
    converts a frame it is given in another format (PyAV's `_prepare_frames_for_encode`)."""
    import av
    from av.video.reformatter import VideoReformatter

    frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
    ctx = stream.codec_context
    if frame.format.name == stream.pix_fmt and (frame.width, frame.height) == (ctx.width, ctx.height):
        return frame
    return VideoReformatter().reformat(frame, ctx.width, ctx.height, ctx.format, threads=ctx.thread_count)


def repeated(enc, frame, repeat: int):
    """A segment that is one hold, as packets: its first SETTLE frames as x264 codes them (an I frame,
    then P frames), then for each further frame a P slice of skipped macroblocks (`skip_slice`),
    numbered as the next picture. None where that does not apply: not H.264 in mp4, or the packets did
    not decode to the same picture (then every frame is encoded)."""
    from .. import h264

    if enc.spec.codec != "libx264" or enc.spec.container_format != "mp4":
        return None
    container, twin = _twin(enc.spec)
    packets = _settle(twin, frame)
    stream = enc._stream
    stream.codec_context.open(strict=False)
    skip = skip_slice(enc.spec)
    if skip is None or twin.codec_context.extradata != stream.codec_context.extradata:
        return None  # not the same sequence and picture parameters: the packets would not fit
    try:
        last, before = (h264.Slice.of_packet(skip.stream, bytes(p)) for p in (packets[-1], packets[-2]))
    except (h264.Unsupported, IndexError):  # a stream it does not rewrite, or a truncated header
        return None
    poc_step = (last.poc_lsb - before.poc_lsb) if last.poc_at is not None else 0
    copies = [_copy(packets[-1], skip.numbered(last.frame_num + i, (last.poc_lsb or 0) + i * poc_step), i)
              for i in range(1, repeat - SETTLE + 1)]
    if not _still(twin, packets + copies[:2]):
        return None
    for p in packets + copies:
        p.stream = stream
    return packets + copies


@functools.lru_cache(maxsize=8)
def skip_slice(spec):
    """x264's P packet for a frame identical to its reference (flat grey, coded exactly), as a
    `h264.Slice` of this stream's parameters; None if x264 coded no such packet."""
    import av

    from .. import h264

    container, twin = _twin(spec)
    grey = av.VideoFrame(spec.width, spec.height, spec.pixel_format)
    for plane in grey.planes:
        plane.update(bytes([128]) * plane.buffer_size)
    packets = _settle(twin, grey)
    try:
        skip = h264.Slice.of_packet(h264.Stream.from_headers(bytes(twin.codec_context.extradata)),
                                    bytes(packets[-1]))
    except (h264.Unsupported, IndexError):  # a stream it does not rewrite, or a truncated header
        return None
    return skip if _still(twin, packets) else None


def _twin(spec):
    """A stream made as manim makes a segment's (same codec, rate, options), in memory."""
    import io

    import av

    container = av.open(io.BytesIO(), mode="w", format=spec.container_format)
    twin = container.add_stream(spec.codec, rate=spec.frame_rate, options=dict(spec.options))
    twin.pix_fmt, twin.width, twin.height = spec.pixel_format, spec.width, spec.height
    return container, twin


def _settle(twin, frame) -> list:
    """The first SETTLE frames of the hold through the twin's encoder: an I frame, then P frames
    (forced, so that no B frame follows the last P in decoding order), flushed."""
    from av.video.frame import PictureType

    packets = []
    rate = twin.codec_context.framerate
    for n in range(SETTLE):
        frame.pts, frame.time_base = n, Fraction(rate.denominator, rate.numerator)
        frame.pict_type = PictureType.P if n else PictureType.NONE
        packets += twin.encode(frame)
    frame.pict_type = PictureType.NONE
    packets += twin.encode()
    return packets


def _copy(last, data: bytes, i: int):
    import av

    p = av.Packet(data)
    p.pts, p.dts, p.time_base, p.duration = last.pts + i, last.dts + i, last.time_base, last.duration
    return p


def _still(twin, packets) -> bool:
    """Whether the packets decode without error and their last three frames are the same picture."""
    import av
    import numpy as np

    dec = av.CodecContext.create("h264", "r")
    dec.extradata = twin.codec_context.extradata
    frames = []
    try:
        for p in packets:
            frames += dec.decode(av.Packet(bytes(p)))
        frames += dec.decode(None)
    except av.error.FFmpegError:
        return False
    last = [f.to_ndarray() for f in frames[-3:]]
    return len(frames) == len(packets) and all(np.array_equal(last[0], f) for f in last[1:])
