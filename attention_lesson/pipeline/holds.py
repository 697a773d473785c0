"""Held frames converted once: a wait (a step holding its last frame while its voice speaks) writes one
picture `repeat` times, and manim converts the RGBA array to the stream's pixel format again for each of
them. Here the picture is converted once and the same converted frame is encoded `repeat` times, at
consecutive timestamps: every frame is still encoded (constant frame rate), with the same pixels.

`install()` puts `write_frame` in place of manim's `VideoSegmentEncoder.write_frame` in this process
(the worker does it before it renders); manim's files stay as they are. A single frame, or a stream
whose pixel format is not known, goes through manim's own code. `ATTENTION_LESSON_HOLDS=manim` in the
environment sends every frame through manim's code (to measure against; docs/performance.md).
"""

from __future__ import annotations

import os
from fractions import Fraction

ENV = "ATTENTION_LESSON_HOLDS"
_manim_write_frame = None  # manim's VideoSegmentEncoder.write_frame, once installed


def install() -> None:
    """Use `write_frame` for every video segment manim encodes in this process (once per process)."""
    global _manim_write_frame
    if _manim_write_frame is not None:
        return
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    _manim_write_frame = VideoSegmentEncoder.write_frame
    VideoSegmentEncoder.write_frame = write_frame


def write_frame(self, pixels, *, repeat: int = 1) -> None:
    """manim's write_frame (encode `pixels` at the segment's next timestamps), converting a held
    picture to the stream's pixel format once."""
    stream = getattr(self, "_stream", None)
    if repeat == 1 or os.environ.get(ENV) == "manim" or not getattr(stream, "pix_fmt", None):
        return _manim_write_frame(self, pixels, repeat=repeat)
    self._validate_frame(pixels, repeat)
    rate = self.spec.frame_rate
    time_base = Fraction(rate.denominator, rate.numerator)
    try:
        frame = converted(stream, pixels)
        for _ in range(repeat):
            frame.pts = self._next_pts
            frame.time_base = time_base
            self._next_pts += 1
            for packet in stream.encode(frame):
                self._container.mux(packet)
    except BaseException as error:
        raise self._operation_error("encode", error) from error


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
