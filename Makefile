# The two quick-start commands; each first sets up whatever is missing (scripts/setup.sh): `make lesson`
# only what rendering needs, `make test` the test tools too. The tests start with the linter (ruff:
# pyflakes, pycodestyle, import order; pyproject.toml) and the pages' scripts' type check (TypeScript's tsc,
# from npm: attention_lesson/web/tsconfig.json, docs/web.md).
.PHONY: lesson test

lesson:
	@./scripts/setup.sh lesson
	.venv/bin/attention-lesson lesson

test:
	@./scripts/setup.sh test
	.venv/bin/ruff check .
	node_modules/.bin/tsc -p attention_lesson/web
	.venv/bin/python -m pytest
