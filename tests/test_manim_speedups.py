"""manim's speed-ups behind one gate (pipeline/drawing/manim_speedups): every member a patch relies on
resolves on the installed manim; a member gone is named and nothing is applied, with one warning;
ATTENTION_LESSON_PLAIN_MANIM=1 leaves manim's methods as they are; and a render with the speed-ups
writes the frames and the sound plain manim writes (held frames aside: their repeated slices decode to
within half a level of manim's, tests/test_held_frames.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attention_lesson.pipeline.drawing import manim_speedups, pieces

ROOT = Path(__file__).parent.parent
WARNING = "manim's speed-ups are off"
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng: scripts/setup.sh")

# In a fresh process: install(), twice, then whether each patched method is still manim's. argv[1]
# names a CairoRenderer member to take away first ("-": none).
PROBE = """
import sys
from manim import Mobject
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from attention_lesson.pipeline.drawing import worker

patched = [(CairoRenderer, "render"), (CairoRenderer, "play"), (VideoSegmentEncoder, "write_frame"),
           (Mobject, "add_updater"), (Mobject, "__deepcopy__")]
originals = [vars(cls)[name] for cls, name in patched]
if sys.argv[1] != "-":
    delattr(CairoRenderer, sys.argv[1])
applied = [worker.install(), worker.install()]
print(applied, [vars(cls)[name] is f for (cls, name), f in zip(patched, originals)])
"""


def probe(gone: str = "-", **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != manim_speedups.ENV} | env
    environ["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-c", PROBE, gone], capture_output=True, text=True, env=environ,
                          cwd=ROOT, check=True, timeout=120)


def test_every_member_relied_on_resolves_on_the_installed_manim():
    names = manim_speedups.relied_on()
    assert len(names) > 20 and all(n.startswith(("manim.", "manim_slides.", "av.")) for n in names)
    assert manim_speedups.other_version() is None, "the patches were written for another manim"
    assert manim_speedups.missing() == []


def test_a_name_that_is_not_there_does_not_resolve():
    assert manim_speedups.resolves("manim.renderer.cairo_renderer.CairoRenderer.play")
    assert manim_speedups.resolves("manim.scene.video_segment_encoder.VideoSegmentEncoder._next_pts")
    assert not manim_speedups.resolves("manim.renderer.cairo_renderer.CairoRenderer.no_such_method")
    assert not manim_speedups.resolves("manim.no_such_module.Thing")
    assert not manim_speedups.resolves("no_such_package_at_all.x")


def test_a_member_taken_away_is_named(monkeypatch):
    from manim.renderer.cairo_renderer import CairoRenderer

    monkeypatch.delattr(CairoRenderer, "update_skipping_status")
    assert manim_speedups.missing() == ["manim.renderer.cairo_renderer.CairoRenderer.update_skipping_status"]


def test_a_member_gone_applies_nothing_and_warns_once():
    r = probe("update_skipping_status")
    assert r.stdout.splitlines()[-1] == "[False, False] [True, True, True, True, True]"
    warned = [line for line in r.stderr.splitlines() if WARNING in line]
    assert len(warned) == 1 and "CairoRenderer.update_skipping_status" in warned[0], r.stderr


def test_with_every_member_there_all_are_applied():
    r = probe()
    assert r.stdout.splitlines()[-1] == "[True, True] [False, False, False, False, False]"
    assert WARNING not in r.stderr


def test_plain_manim_applies_nothing_and_says_nothing():
    r = probe(**{manim_speedups.ENV: "1"})
    assert r.stdout.splitlines()[-1] == "[False, False] [True, True, True, True, True]"
    assert WARNING not in r.stderr


def test_another_manim_is_named_and_nothing_is_applied(monkeypatch, capsys):
    from scenes.common import manim_gate

    monkeypatch.setattr(manim_gate, "WRITTEN_FOR", {"manim": "0.0.1"})  # the one table of releases
    assert manim_speedups.other_version().startswith("manim ") and "0.0.1" in manim_speedups.other_version()
    assert not manim_speedups.wanted()
    assert manim_speedups._install() is False  # the gate itself: it returns before applying any
    warned = [line for line in capsys.readouterr().err.splitlines() if WARNING in line]
    assert len(warned) == 1 and "manim 0.22.0 (written for 0.0.1)" in warned[0]


def test_no_scene_in_pieces_on_plain_manim(monkeypatch):
    monkeypatch.delenv(pieces.ENV, raising=False)
    monkeypatch.delenv(manim_speedups.ENV, raising=False)
    assert pieces.count(1, 2, 8, "medium") == 3
    monkeypatch.setenv(manim_speedups.ENV, "1")
    assert pieces.count(1, 2, 8, "medium") == 1


def cli(args: list[str], cwd: Path, **env: str) -> None:
    """attention-lesson ARGS in a process of its own (the fixture scenes registered): the gate decides
    once a process, so each way is a fresh one."""
    environ = {k: v for k, v in os.environ.items()
               if k not in (manim_speedups.ENV, "ATTENTION_LESSON_HOLDS", pieces.ENV)} | env
    environ["PYTHONPATH"] = str(ROOT)
    r = subprocess.run([sys.executable, "-m", "tests.fixtures.cli_with_fixtures", *args, "-q"],
                       capture_output=True, text=True, env=environ, cwd=cwd, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert WARNING not in r.stderr


def framemd5(path: Path, stream: str) -> list[str]:
    """Each decoded frame (or audio packet) of the stream: its timestamps and md5, as FFmpeg lists them."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", f"0:{stream}", "-f", "framemd5",
                          "-"], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if not line.startswith("#")]


def videos(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.mp4"))


@pytest.mark.render
@needs_espeak
def test_a_render_with_the_speedups_is_plain_manims(tmp_path):
    """blink, voiced (spoken waits: held frames), its step clips; with the speed-ups in 2 pieces (-j 2,
    720p at 5 fps: skipped animations, borrowed segments, frames handed over uncopied), on plain manim
    whole. With held frames encoded frame by frame (ATTENTION_LESSON_HOLDS=encode; coded once they are
    within half a level: tests/test_held_frames.py) every decoded frame is plain manim's, and the sound
    and the subtitles are the same. Its slides (a clip a step) too."""
    video = ["render", "blink", "--voice", "draft", "--sections", "--quality", "medium", "--fps", "5",
             "-j", "2"]
    cli([*video, "--out", "encode"], tmp_path, ATTENTION_LESSON_HOLDS="encode")
    cli([*video, "--out", "plain"], tmp_path, **{manim_speedups.ENV: "1"})
    slides = ["slides", "blink", "--voice", "draft", "--to", "html", "-j", "1"]
    cli([*slides, "--out", "slides-fast"], tmp_path, ATTENTION_LESSON_HOLDS="encode")
    cli([*slides, "--out", "slides-plain"], tmp_path, **{manim_speedups.ENV: "1"})

    plain, fast = tmp_path / "plain", tmp_path / "encode"
    names = videos(plain)
    assert len(names) == 3 and videos(fast) == names
    for name in names:
        manims = framemd5(plain / name, "v")
        assert len(manims) > 10
        assert framemd5(fast / name, "v") == manims, name
        assert framemd5(fast / name, "a") == framemd5(plain / name, "a"), name
    for side in ("blink.srt", "blink.steps.json"):
        assert (fast / side).read_bytes() == (plain / side).read_bytes(), side

    slides_plain = tmp_path / "slides-plain"
    clips = videos(slides_plain)
    assert len(clips) >= 2 and videos(tmp_path / "slides-fast") == clips
    for name in clips:
        for stream in ("v", "a"):
            assert framemd5(tmp_path / "slides-fast" / name, stream) == framemd5(slides_plain / name, stream)


def test_the_slides_reaches_into_manim_slides_are_checked_with_the_patches():
    """The Deck's private manim-slides members are in missing()'s list: a release without them fails here."""
    names = manim_speedups.relied_on()
    assert "manim_slides.slide.base.BaseSlide._save_slides" in names
    assert "manim_slides.convert.read_image_from_video_file" in names
    assert manim_speedups.resolves("manim_slides.slide.base.BaseSlide._base_slide_config")
    assert not manim_speedups.resolves("manim_slides.slide.base.BaseSlide._no_such_member")
