"""What the commands write gets the modes any new file gets (0666 and 0777 less the umask), not
mkstemp's 0600: a teacher copying a deck to a web server or a shared drive must not meet "permission
denied". A file the studio saves over keeps its own mode."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from attention_lesson.pipeline.manifest import write_atomically

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "lessons" / "tiny.toml"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_a_new_file_gets_the_umask_s_mode(tmp_path, umask):
    code = ("import os, sys; os.umask(int(sys.argv[2], 8));"
            "from attention_lesson.pipeline.manifest import write_atomically;"
            "from pathlib import Path; write_atomically(Path(sys.argv[1]), 'x')")
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "new.txt"), oct(umask)[2:]], check=True,
                   env=os.environ | {"PYTHONPATH": str(ROOT)})
    assert mode(tmp_path / "new.txt") == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir()] == ["new.txt"]  # no temporary file left


@pytest.mark.parametrize("kept", [0o644, 0o640, 0o600, 0o664])
def test_a_replaced_file_keeps_its_mode(tmp_path, kept):
    path = tmp_path / "lesson.toml"
    path.write_text("old", encoding="utf-8")
    path.chmod(kept)
    write_atomically(path, "new")
    assert path.read_text(encoding="utf-8") == "new" and mode(path) == kept


def test_the_studio_s_save_keeps_a_lesson_file_s_mode(tmp_path):
    from attention_lesson.studio.session import Session

    path = tmp_path / "lesson.toml"
    path.write_text(TINY.read_text(encoding="utf-8"), encoding="utf-8")
    path.chmod(0o644)
    session = Session.open(path, None, "scaled", "en")
    session.save(path.read_text(encoding="utf-8") + "\n# edited\n")
    assert mode(path) == 0o644 and path.read_text(encoding="utf-8").endswith("# edited\n")


def test_a_command_s_outputs_are_readable_by_others(tmp_path):
    """The explorer (no render; the wheel's test checks every command's outputs): every file 0644 and
    every folder 0755 under the usual umask, the manifest too."""
    subprocess.run([sys.executable, "-m", "attention_lesson", "explorer", "--lesson", str(TINY), "--out",
                    "out"],
                   cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(ROOT)}, check=True, capture_output=True,
                   preexec_fn=lambda: os.umask(0o022))
    files = [p for p in (tmp_path / "out").rglob("*")]
    assert any(p.name == "manifest.json" for p in files) and any(p.name == "index.html" for p in files)
    assert {p.relative_to(tmp_path).as_posix(): oct(mode(p)) for p in files
            if mode(p) != (0o755 if p.is_dir() else 0o644)} == {}
