# The two quick-start commands; each first sets up whatever is missing (scripts/setup.sh): `make lesson`
# only what rendering needs, `make test` the test tools too. The tests start with the linter (ruff:
# pyflakes, pycodestyle, import order; pyproject.toml), the type checker (mypy: pyproject.toml's
# [tool.mypy]), the pages' scripts' type check (TypeScript's tsc, from npm:
# attention_lesson/web/tsconfig.json, docs/web.md) and their caps (ESLint: eslint.config.mjs).
# `make docs` builds the guide (Sphinx, docs/conf.py) into docs/_build/html/: open its index.html in a
# browser, no network needed. Warnings are errors; the tests build it the same way (tests/test_docs.py).
.PHONY: lesson test docs

lesson:
	@./scripts/setup.sh lesson
	.venv/bin/attention-lesson lesson

test:
	@./scripts/setup.sh test
	.venv/bin/ruff check .
	.venv/bin/mypy
	node_modules/.bin/tsc -p attention_lesson/web
	node_modules/.bin/eslint attention_lesson/web
	.venv/bin/python -m pytest

docs:
	@./scripts/setup.sh docs
	.venv/bin/python -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "the guide: docs/_build/html/index.html"
