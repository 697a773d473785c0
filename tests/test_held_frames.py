"""Held frames (pipeline/drawing/manim_speedups/held_frames.py): converted once, the same packets as
manim's own path for every format the pipeline writes; a hold that is a whole H.264 segment coded once
and then repeated with skipped-macroblock P slices (pipeline/drawing/h264.py), read back by FFmpeg's own
bitstream reader and decoder; a hold showing its step's last drawn frame; renders with holds that do not
change (frames, frame count, duration) whether the optimisation is on or off."""

import json
import math
import os
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from attention_lesson.pipeline import ffmpeg
from attention_lesson.pipeline.drawing import h264
from attention_lesson.pipeline.drawing.manim_speedups import frame_handover, held_frames
from scenes import registry
from scenes.common.style import FAST
from scenes.registry import SceneInfo

from .cli_helpers import cli
from .test_render import probe

pytestmark = pytest.mark.render

BLINK = SceneInfo("blink", "Blink", package="tests.fixtures", titles={"zh": "闪", "en": "Blink"})
FORMATS = [  # (container, codec, pixel format, options): what the pipeline has manim write
    ("mp4", "libx264", "yuv420p", ffmpeg.X264_OPTIONS),
    ("webm", "libvpx-vp9", "yuv420p", {"crf": "23"}),
    ("webm", "libvpx-vp9", "yuva420p", {"crf": "23"}),
    ("mov", "prores_ks", "yuva444p10le", {"profile": "4444"}),
]
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng: scripts/setup.sh")


def picture(seed: int, w: int = 96, h: int = 64) -> np.ndarray:
    """An RGBA picture of a few rectangles, some of them half transparent."""
    rng = np.random.default_rng(seed)
    a = np.zeros((h, w, 4), np.uint8)
    for _ in range(8):
        x, y = rng.integers(0, w - 8), rng.integers(0, h - 8)
        a[y:y + rng.integers(4, 32), x:x + rng.integers(4, 48)] = rng.integers(0, 256, 4)
    return a


def packets(path: Path) -> bytes:
    """The md5 of each video packet, as FFmpeg reads them."""
    return subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:v", "-c", "copy", "-f",
                           "framemd5", "-"], capture_output=True, check=True).stdout


def segment(tmp_path, fmt, mode: str, monkeypatch) -> bytes:
    """One segment as manim's encoder writes it (a drawn frame, a hold of 30, again), as the md5 of
    each video packet."""
    from manim._config.video_encoder import VideoEncoderSpec
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    held_frames.install()
    monkeypatch.setenv(held_frames.ENV, mode)
    ext, codec, pix, options = fmt
    spec = VideoEncoderSpec(ext, codec, pix, 96, 64, Fraction(15), tuple(options.items()))
    target = tmp_path / f"{mode}.{ext}"
    enc = VideoSegmentEncoder(target=target, spec=spec)
    for seed in (1, 2):
        enc.write_frame(picture(seed), repeat=1)
        enc.write_frame(picture(seed + 10), repeat=30)
    enc.finish()
    return packets(target)


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f"{f[1]}-{f[2]}")
def test_same_packets_as_manims_path(tmp_path, monkeypatch, fmt):
    ours, manims = (segment(tmp_path, fmt, mode, monkeypatch) for mode in ("", "manim"))
    assert ours == manims
    assert ours.count(b"\n0,") == 62  # every frame is encoded: constant frame rate


def hold(tmp_path, monkeypatch, mode: str, frames: int, w: int = 320, h: int = 180) -> Path:
    """A segment that is one hold (as manim writes a wait): one write of `frames` repeats."""
    from manim._config.video_encoder import VideoEncoderSpec
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    held_frames.install()
    monkeypatch.setenv(held_frames.ENV, mode)
    spec = VideoEncoderSpec("mp4", "libx264", "yuv420p", w, h, Fraction(30),
                            tuple(ffmpeg.X264_OPTIONS.items()))
    enc = VideoSegmentEncoder(target=tmp_path / f"hold-{mode or 'repeat'}.mp4", spec=spec)
    enc.write_frame(picture(5, w, h), repeat=frames)
    enc.finish()
    return enc.target


def trace(path: Path, field: str) -> list[int]:
    """A slice header field of every picture, as FFmpeg's own H.264 reader (trace_headers) reads it."""
    log = subprocess.run(["ffmpeg", "-v", "trace", "-i", str(path), "-c", "copy", "-bsf:v", "trace_headers",
                          "-f", "null", "-"], capture_output=True, text=True, check=True).stderr
    return [int(line.rsplit("=", 1)[1]) for line in log.splitlines() if re.search(rf"\] \d+ +{field} ", line)]


def test_a_repeated_hold_is_a_valid_constant_rate_stream(tmp_path, monkeypatch):
    repeat, manim = hold(tmp_path, monkeypatch, "", 150), hold(tmp_path, monkeypatch, "manim", 150)
    a, b = (frames(p, w=320, h=180) for p in (repeat, manim))
    assert len(a) == len(b) == 150 and ffmpeg.video_duration(repeat) == ffmpeg.video_duration(manim) == 5
    packets = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries",
                              "packet=pts,duration", "-of", "csv=p=0", str(repeat)],
                             capture_output=True, text=True, check=True).stdout.split()
    pts = sorted(int(p.split(",")[0]) for p in packets)
    assert len(pts) == 150 and len({b - a for a, b in zip(pts, pts[1:])}) == 1  # one frame each, evenly
    settled = a[held_frames.SETTLE - 1:]
    assert all(np.array_equal(f, a[-1]) for f in settled)  # the skipped slices change nothing
    assert np.abs(a.astype(int) - b.astype(int)).mean() < 0.5  # the picture manim's path shows
    frame_num, poc = trace(repeat, "frame_num"), trace(repeat, "pic_order_cnt_lsb")
    assert len(frame_num) == len(poc) == 150
    assert frame_num == [n % 16 for n in range(150)] and poc == [2 * n % 64 for n in range(150)]
    assert repeat.stat().st_size < manim.stat().st_size
    subprocess.run(["ffmpeg", "-v", "error", "-xerror", "-err_detect", "explode", "-i", str(repeat),
                    "-f", "null", "-"], check=True)  # FFmpeg's decoder finds nothing wrong


def test_h264_escaping_round_trips():
    rbsp = bytes([0, 0, 0, 0, 0, 1, 0, 0, 2, 7, 0, 0, 3, 0, 0])
    assert h264.escape(rbsp) == bytes([0, 0, 3, 0, 0, 3, 0, 1, 0, 0, 3, 2, 7, 0, 0, 3, 3, 0, 0, 3])
    assert h264.unescape(h264.escape(rbsp)) == rbsp


def test_a_short_hold_is_encoded_frame_by_frame(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(held_frames, "repeated", lambda *a: calls.append(1))
    hold(tmp_path, monkeypatch, "", 2 * held_frames.SETTLE - 1)
    assert not calls


def test_a_hold_is_converted_once(tmp_path, monkeypatch):
    calls = []
    real = held_frames.converted
    monkeypatch.setattr(held_frames, "converted", lambda *a: calls.append(1) or real(*a))
    segment(tmp_path, FORMATS[0], "", monkeypatch)
    assert len(calls) == 2  # one per hold; a drawn frame is converted by the encoder, as in manim


def frames(path, alpha=False, w=854, h=480, decoder=("-c:v", "libvpx-vp9")):
    """Every frame decoded, rgb24; with alpha rgba (for VP9 through libvpx, which decodes its alpha)."""
    decoder = list(decoder) if alpha else []
    raw = subprocess.run(["ffmpeg", "-v", "error", *decoder, "-i", str(path), "-f", "rawvideo", "-pix_fmt",
                          "rgba" if alpha else "rgb24", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, h, w, 4 if alpha else 3)


@pytest.fixture
def blink(monkeypatch, tmp_path):
    monkeypatch.setattr(registry, "SCENES", (BLINK,))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@needs_espeak
def test_a_held_step_shows_its_last_drawn_frame(blink, monkeypatch):
    """Every frame of a hold decodes to its step's last frame (ProRes codes each frame on its own, so
    the same picture decodes the same; x264 refines a still picture over its first few frames), and
    the render converted each hold once."""
    saved = blink / "holds"
    saved.mkdir()
    real = held_frames.converted

    def spy(stream, pixels):  # the render's worker is forked from this process: it has the spy
        (saved / str(len(list(saved.iterdir())))).touch()
        return real(stream, pixels)

    monkeypatch.setattr(held_frames, "converted", spy)
    cli("render", "blink", "--voice", "draft", "--format", "mov", "--transparent", "--out", "v", "-q")
    codec = probe(blink / "v" / "blink.mov")["streams"][0]  # --transparent mov: ProRes 4444, with alpha
    assert codec["codec_name"] == "prores" and codec["codec_tag_string"] == "ap4h"
    assert codec["pix_fmt"].startswith("yuva444p")
    steps = json.loads((blink / "v" / "blink.steps.json").read_text(encoding="utf-8"))["steps"]
    assert len(list(saved.iterdir())) == len(steps)  # one hold a step, each converted once
    video, fps = frames(blink / "v" / "blink.mov", alpha=True, decoder=[]), 15
    assert len(video) == round(steps[-1]["end"] * fps)
    for s in steps:  # each step: one animation of FAST seconds (manim draws ceil(FAST * fps) frames)
        first, end = round(s["start"] * fps) + math.ceil(FAST * fps), round(s["end"] * fps)
        assert end - first >= 15, s  # the voice holds it a second or more
        assert all(np.array_equal(f, video[end - 1]) for f in video[first:end]), s["step"]
        assert not np.array_equal(video[first - 1], video[first])  # drawn, then held


@needs_espeak
@pytest.mark.parametrize("fmt", [("mp4",), ("webm", "--transparent")], ids="-".join)
def test_holds_change_nothing_in_a_render(blink, monkeypatch, fmt):
    """Converted once: the same frames as manim's path. Repeated (mp4, the default): as many frames,
    as long, each within half a level on average (x264 no longer refines a held picture). VP9 with
    alpha (webm's default converts once: nothing else applies there, so "encode" is not drawn again;
    plain VP9's packets are test_same_packets_as_manims_path's), in English: a see-through background,
    opaque drawing, its title the English lesson's."""
    ext = fmt[0]
    modes = ("", "encode", "manim") if ext == "mp4" else ("", "manim")
    out = {}
    for mode in modes:
        monkeypatch.setenv(held_frames.ENV, mode)
        cli("render", "blink", "--voice", "draft", "--format", *fmt, "--fps", "5",
            *(["--lang", "en"] if ext == "webm" else []), "--out", f"out-{mode or 'repeat'}", "-q")
        out[mode] = blink / f"out-{mode or 'repeat'}" / f"blink.{ext}"
    if ext == "webm":
        assert probe(out[""])["streams"][0]["codec_name"] == "vp9"
        assert probe(out[""], "format_tags=title")["format"]["tags"]["title"] == \
            "The attention mechanism – Blink"
    got = {m: frames(out[m], alpha="--transparent" in fmt) for m in modes}
    default, each = got[""], got["manim"]
    once = got.get("encode", default)  # webm: the default is converted once
    assert once.shape == each.shape and np.array_equal(once, each)  # the same frames, as many
    assert default.shape == each.shape
    assert max(np.abs(a.astype(int) - b.astype(int)).mean() for a, b in zip(default, each)) < 0.5
    if "--transparent" in fmt:
        assert once[..., 3].min() == 0 and once[..., 3].max() == 255  # the alpha was compared too
    assert len({ffmpeg.duration(p) for p in out.values()}) == 1
    if ext == "mp4":
        assert len({ffmpeg.video_duration(p) for p in out.values()}) == 1


def test_drawn_frames_handed_over_uncopied_write_manims_packets(blink, monkeypatch):
    """A drawn frame goes to the encoder as the camera drew it
    (pipeline/drawing/manim_speedups/frame_handover.py): the same packets as manim's copy, and the
    camera's cairo contexts do not pile up with the frames."""
    seen = blink / "handed"
    seen.mkdir()
    real = frame_handover.handed_over

    def spy(camera):  # the render's worker is forked from this process: it has the spy
        drawn = camera.pixel_array
        frame = real(camera)
        contexts = len(camera.pixel_array_to_cairo_context)
        mode = os.environ[frame_handover.ENV] or "view"
        name = f"{mode}-{frame is drawn}-{contexts}-{len(list(seen.iterdir()))}"
        (seen / name).touch()
        return frame

    monkeypatch.setattr(frame_handover, "handed_over", spy)
    out = {}
    for mode in ("", "copy"):
        monkeypatch.setenv(frame_handover.ENV, mode)
        cli("render", "blink", "--out", f"out-{mode or 'view'}", "-q")
        out[mode] = packets(blink / f"out-{mode or 'view'}" / "blink.mp4")
    assert out[""] == out["copy"] and out[""].count(b"\n0,") > 30
    calls = [p.name.split("-")[:3] for p in seen.iterdir()]
    views, copies = (sum(m == mode for m, _, _ in calls) for mode in ("view", "copy"))
    assert views == copies == 2 * math.ceil(FAST * 15)  # its two plays' drawn frames, both times
    assert all((was == "True") == (mode == "view") for mode, was, _ in calls)  # not copied, or copied
    assert all(int(contexts) <= 1 for _, _, contexts in calls)  # the drawn frames' contexts dropped
