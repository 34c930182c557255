# Every target sets up what it needs: a fresh clone runs `make test` or `make demo` directly.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: test lint typecheck unit genai-range docs demo bench install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy src/agentlog

unit: $(STAMP)
	$(BIN)/python -m pytest

# The Gemini adapter's tests again on the lowest and the highest google-genai the `gemini`
# extra allows (the dev venv has the newest one google-adk allows); about a minute the first
# time, 30 s after that.
genai-range: $(STAMP)
	bash scripts/test-genai-range.sh $(BIN)/python

test: lint typecheck unit genai-range

# The documentation site, into site/; --strict makes every warning (a broken link, a reference
# to a name that does not exist) an error. tests/test_docs.py builds it too.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

demo: $(STAMP)
	$(BIN)/agentlog demo

# google-adk, the reference the benchmarks compare against, lives only in .venv-bench. The
# server bench runs agentlog's server from the dev venv (it has the server extra) and
# google-adk's api_server from .venv-bench.
bench:
	bash bench/setup.sh
	.venv-bench/bin/python -m bench.stores $(BENCH_ARGS)
	$(BIN)/python -m bench.server $(BENCH_SERVER_ARGS)

clean:
	rm -rf $(VENV) .venv-genai site .mypy_cache .ruff_cache .pytest_cache build src/*.egg-info
