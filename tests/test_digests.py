"""What every digest hashes exists: the files a scene's or a product's output depends on are read from
the modules (a package's files, a product's modules by import), and a listed path that is missing is an
error, never an empty file (a moved module would otherwise fall out of every digest without a sound)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from attention_core import LANGS
from attention_lesson.outputs.registry import PRODUCTS
from attention_lesson.pipeline import manifest
from attention_lesson.pipeline.plan import PIPELINE, ROOT, SHARED_CODE, VOICE_CODE, code_files
from scenes.registry import existing

DRAWING = sorted((PIPELINE / "drawing").glob("*.py"))
SPEEDUPS = sorted((PIPELINE / "drawing" / "manim_speedups").glob("*.py"))


def test_every_scene_digest_lists_files_that_exist():
    for scene in existing():
        for lang in LANGS:
            files = code_files(scene, lang, voice="draft")
            missing = [str(p) for p in files if not Path(p).is_file()]
            assert missing == [], (scene.id, lang)
            assert ROOT / "scenes" / "i18n" / lang / f"{scene.module}.toml" in files, scene.id


def test_the_shared_code_is_read_from_the_packages():
    """Every drawing module but the runner (it schedules, draws nothing), manim's speed-ups with their
    gate, the ffmpeg settings, the scenes' common modules and the core; the voice's modules for a voiced
    render."""
    names = {p.relative_to(ROOT).as_posix() for p in SHARED_CODE}
    assert {p.relative_to(ROOT).as_posix() for p in DRAWING
            if p.name not in ("__init__.py", "runner.py")} <= names
    assert {p.relative_to(ROOT).as_posix() for p in SPEEDUPS} <= names  # __init__.py: the gate
    assert "attention_lesson/pipeline/drawing/runner.py" not in names
    assert {"attention_lesson/pipeline/ffmpeg.py",
            "attention_lesson/pipeline/drawing/manim_speedups/patches.py", "scenes/common/base.py",
            "attention_core/attention.py"} <= names
    voice = {p.name for p in VOICE_CODE}
    assert {"speakers.py", "loudness.py", "track.py", "recordings.py"} <= voice
    assert all(p.is_file() for p in (*SHARED_CODE, *VOICE_CODE))


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_every_product_digest_lists_files_that_exist(name):
    code = PRODUCTS[name].code
    assert code, name
    assert [c for c in code if not (ROOT / c).is_file()] == []


def test_the_lesson_product_names_the_voice_it_lays():
    code = PRODUCTS["lesson"].code
    assert {"attention_lesson/pipeline/join.py", "attention_lesson/pipeline/voice/track.py",
            "attention_lesson/pipeline/voice/loudness.py"} <= set(code)


def test_a_missing_file_is_an_error_naming_it(tmp_path):
    (tmp_path / "here.py").write_text("x = 1\n")
    h = hashlib.sha256()
    manifest.hash_files(h, [tmp_path / "here.py"], tmp_path)
    with pytest.raises(FileNotFoundError, match="gone.py"):
        manifest.hash_files(hashlib.sha256(), [tmp_path / "here.py", tmp_path / "gone.py"], tmp_path)


def test_the_choices_default_to_what_the_commands_default_to():
    from attention_lesson.outputs.files import KEY_FRAMES
    from attention_lesson.pipeline.products import Choices

    assert Choices().handout_frames == KEY_FRAMES


def test_a_digest_is_every_file_s_name_and_bytes_in_the_order_of_their_parts():
    """hash_files keeps each file's bytes for the process; the hash is the one of the files read in the
    order pathlib sorts them (`scenes/common/x.py` before `scenes/common.py`)."""
    files = code_files(existing()[0], "zh", "draft")
    reference = hashlib.sha256()
    for p in sorted(Path(f) for f in files):
        reference.update(str(p.relative_to(ROOT)).encode())
        reference.update(p.read_bytes())
    for _ in range(2):  # read, then kept
        h = hashlib.sha256()
        manifest.hash_files(h, [str(f) for f in reversed(files)], ROOT)
        assert h.hexdigest() == reference.hexdigest()


def test_a_folder_sorts_before_a_file_of_its_name_as_pathlib_sorts_them(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.py").write_text("b\n")
    (tmp_path / "a.py").write_text("a\n")
    h = hashlib.sha256()
    manifest.hash_files(h, [tmp_path / "a.py", tmp_path / "a" / "b.py"], tmp_path)
    assert h.hexdigest() == hashlib.sha256(b"a/b.pyb\na.pya\n").hexdigest()


def test_a_kept_file_is_read_again_once_it_changes(tmp_path):
    path = tmp_path / "here.py"
    path.write_text("x = 1\n")
    assert manifest.file_bytes(str(path)) == b"x = 1\n"
    path.write_text("x = 22\n")
    assert manifest.file_bytes(str(path)) == b"x = 22\n"


@pytest.mark.parametrize("dist", ["manim", "jieba", "manim-slides", "numpy"])
def test_the_versions_a_digest_holds_are_importlib_metadata_s(dist):
    from importlib.metadata import version

    assert manifest._version(dist) == version(dist)
