"""The closed sets an option takes are types the type checker holds callers to (pipeline/plan.py's
Literal types, checked by mypy in `make test`) and the same sets the command line offers at run time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import get_args

from attention_core import MODES
from attention_lesson.pipeline import plan

ROOT = Path(__file__).parent.parent


def test_each_type_is_the_set_the_command_line_offers():
    assert get_args(plan.Quality) == tuple(plan.QUALITIES)
    assert get_args(plan.Format) == plan.FORMATS
    assert get_args(plan.Mode) == MODES
    assert get_args(plan.Kind) == plan.KINDS


def test_the_type_checker_refuses_a_quality_no_command_offers(tmp_path):
    caller = tmp_path / "caller.py"
    caller.write_text("from attention_lesson.pipeline.plan import RenderOptions\n"
                      "RenderOptions(lesson='a.toml', context='river', quality='hig')\n"
                      "RenderOptions(lesson='a.toml', context='river', quality='high', kind='frames')\n",
                      encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental",
                        str(caller)], capture_output=True, text=True, cwd=ROOT)
    errors = [line for line in r.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "caller.py:2:" in errors[0] and "Literal['hig']" in errors[0], r.stdout


def test_a_voice_value_is_read_in_one_place():
    """--voice's strings mean one thing everywhere: VoiceSource.of reads them and gives them back as
    given; the output folder's tag, the speaker and whether every step is neural follow from it (a Kokoro
    voice file gets a folder of its own, never the draft voice's)."""
    from attention_lesson.pipeline.plan import voice_tag
    from attention_lesson.pipeline.voice.source import VoiceSource
    from attention_lesson.pipeline.voice.speakers import is_folder, neural, speaker_for

    cases = {"draft": ("draft", "", False, "-voice"), "neural": ("neural", "", True, "-neural"),
             "piper:/m/v.onnx": ("piper", "/m/v.onnx", True, "-neural"),
             "kokoro:/v/voices.npz#zf_x": ("kokoro", "/v/voices.npz#zf_x", True, "-voice-kokoro-voices-zf_x"),
             "/rec/folder": ("folder", "/rec/folder", False, "-voice")}
    for value, (kind, ref, speaks_all, tag) in cases.items():
        chosen = VoiceSource.of(value)
        assert (chosen.kind, chosen.ref, str(chosen)) == (kind, ref, value)
        assert (neural(value), is_folder(value), voice_tag(value)) == (speaks_all, kind == "folder", tag)
    assert speaker_for("kokoro:/v/voices.npz#zf_x", "zh").model == "/v/voices.npz#zf_x"
    assert speaker_for("piper:/m/v.onnx", "en").kind == "piper"
