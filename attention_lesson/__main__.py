"""`python -m attention_lesson`: the `attention-lesson` command."""

from attention_lesson.cli import main

main(prog_name="attention-lesson")
