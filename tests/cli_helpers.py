"""Running the CLI in-process through click's CliRunner."""

from click.testing import CliRunner

from attention_lesson.cli import main


def cli(*args, code=0):
    """Run `attention-lesson ARGS`, assert its exit status, return its output."""
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == code, (r.output, r.exception)
    return r.output
