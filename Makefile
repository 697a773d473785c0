# The two quick-start commands; each first sets up whatever is missing (scripts/setup.sh).
.PHONY: setup lesson test

setup:
	@./scripts/setup.sh

lesson: setup
	.venv/bin/attention-lesson lesson

test: setup
	.venv/bin/python -m pytest
