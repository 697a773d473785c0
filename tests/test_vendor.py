"""The npm files the wheel carries (attention_lesson/web/vendor/, made by scripts/vendor.sh) are the ones
package-lock.json pins: their recorded versions equal the lock's, reveal.js's files and kokoro-js's voices
equal the installed packages' byte for byte, and the CodeMirror bundle is what esbuild makes of the locked
packages today."""

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "attention_lesson" / "web" / "vendor"
NODE = ROOT / "node_modules"


def locked() -> dict[str, str]:
    packages = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    return {k.removeprefix("node_modules/"): v["version"] for k, v in packages.items() if k}


def test_recorded_versions_are_the_locked_ones():
    recorded = json.loads((VENDOR / "versions.json").read_text(encoding="utf-8"))
    lock = locked()
    assert {"codemirror", "@codemirror/view", "@codemirror/legacy-modes", "reveal.js"} <= set(recorded)
    assert {name: lock.get(name) for name in recorded} == recorded
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert recorded["reveal.js"] == package["reveal.js"] and recorded["codemirror"] == package["codemirror"]


def test_reveal_files_are_the_installed_package_s():
    files = sorted(p for p in (VENDOR / "reveal.js").rglob("*") if p.is_file())
    assert {"dist/reveal.js", "dist/theme/black.css", "dist/theme/white.css", "LICENSE"} <= \
        {p.relative_to(VENDOR / "reveal.js").as_posix() for p in files}
    for p in files:
        assert p.read_bytes() == (NODE / "reveal.js" / p.relative_to(VENDOR / "reveal.js")).read_bytes(), p


def test_the_script_makes_the_same_folder(tmp_path):
    """scripts/vendor.sh run again (esbuild from npm) makes every vendored file byte for byte."""
    if not (NODE / ".bin" / "esbuild").exists():
        pytest.fail("esbuild is missing: run ./scripts/setup.sh (npm ci)", pytrace=False)
    subprocess.run(["bash", "scripts/vendor.sh", str(tmp_path / "v")], cwd=ROOT, check=True,
                   capture_output=True)
    made = {p.relative_to(tmp_path / "v"): p.read_bytes() for p in (tmp_path / "v").rglob("*") if p.is_file()}
    kept = {p.relative_to(VENDOR): p.read_bytes() for p in VENDOR.rglob("*") if p.is_file()}
    assert made.keys() == kept.keys() and [p for p in made if made[p] != kept[p]] == []
    assert b"EditorView" in made[Path("codemirror.js")]


def test_kokoro_voices_are_the_installed_package_s():
    """The Mandarin voices the wheel carries are kokoro-js's files byte for byte, the ones kokoro.py names,
    with kokoro-js's licence and a NOTICE naming them and the locked version."""
    from attention_lesson.pipeline.voice import kokoro

    folder = VENDOR / "kokoro-js"
    voices = sorted(p.name for p in (folder / "voices").iterdir())
    assert voices == sorted(f"{v}.bin" for v in kokoro.VENDORED)
    assert kokoro.DEFAULT_VOICE["zh"] in kokoro.VENDORED
    for name in [f"voices/{v}" for v in voices] + ["LICENSE"]:
        assert (folder / name).read_bytes() == (NODE / "kokoro-js" / name).read_bytes(), name
    assert (folder / "voices" / voices[0]).stat().st_size == 510 * 256 * 4
    assert "Apache License" in (folder / "LICENSE").read_text(encoding="utf-8")
    notice = (folder / "NOTICE").read_text(encoding="utf-8")
    assert f"kokoro-js {locked()['kokoro-js']}" in notice and all(v in notice for v in kokoro.VENDORED)
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert package["kokoro-js"] == locked()["kokoro-js"]
