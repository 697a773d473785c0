# The two quick-start commands; each first sets up whatever is missing (scripts/setup.sh). The tests
# start with the linter (ruff: pyflakes, pycodestyle, import order; pyproject.toml).
.PHONY: setup lesson test

setup:
	@./scripts/setup.sh

lesson: setup
	.venv/bin/attention-lesson lesson

test: setup
	.venv/bin/ruff check .
	.venv/bin/python -m pytest
