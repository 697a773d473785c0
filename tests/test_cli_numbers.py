"""The light CLI commands through click's CliRunner."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from attention_core import __version__
from attention_lesson.cli import main


def run(*args):
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_numbers_json_default_is_river_scaled():
    data = json.loads(run("numbers", "--json"))
    for key in ("tokens", "d_k", "mode", "q", "k", "v", "scores", "scaled", "weights", "output"):
        assert key in data
    assert data["tokens"] == ["by", "the", "river", "bank"] and data["mode"] == "scaled"
    assert data["d_k"] == 4
    np.testing.assert_allclose(data["q"][3], [2.3, 2.3, 0, 0])
    np.testing.assert_allclose(data["scores"][3], [0.92, 0, 4.6, 1.38])
    np.testing.assert_allclose(data["scaled"][3], [0.46, 0, 2.3, 0.69])
    assert list(np.round(data["weights"][3], 2)) == [0.11, 0.07, 0.69, 0.14]
    assert list(np.round(data["output"][3], 2) + 0.0) == [1.43, 0.06, 0.14, 0.0]
    # full precision, not rounded
    assert data["weights"][3][2] != round(data["weights"][3][2], 4)


@pytest.mark.parametrize("mode", ["scaled", "unscaled", "uniform"])
def test_numbers_json_modes_and_context(mode):
    data = json.loads(run("numbers", "--json", "--context", "savings", "--mode", mode))
    assert data["tokens"] == ["at", "the", "savings", "bank"] and data["mode"] == mode
    np.testing.assert_allclose(np.sum(data["weights"], axis=1), 1.0)
    if mode == "uniform":
        np.testing.assert_allclose(data["weights"], 0.25)


def test_numbers_table():
    out = run("numbers")
    assert "by the river bank" in out and "geography" in out
    assert "2.3000" in out and "0.6854" in out
    assert "bank→river" in out


def test_check_default(tmp_path):
    from attention_core.lesson import resolve
    out = run("check", str(resolve("default")))
    assert "OK" in out and "context river: by the river bank" in out and "focus: bank" in out


def test_version_and_help():
    assert __version__ in run("--version")
    for cmd in ([], ["numbers"], ["check"]):
        assert "Usage" in run(*cmd, "--help")


def test_bad_mode_is_usage_error():
    r = CliRunner().invoke(main, ["numbers", "--mode", "cubic"])
    assert r.exit_code == 2 and "cubic" in r.output
