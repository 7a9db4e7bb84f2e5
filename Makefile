# Every target installs what it needs into .venv first, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test explore test-llm bench demo docs lint typecheck compose-config clean

PARTS := instrumentation judge core collector assembly scorers dashboards examples

# pip is quiet, so each step says what it does and how long it usually takes (2-3 minutes in all on a fresh
# clone with a warm package cache, up to 5 on a slow network); the last line says how long it took.
# The eight parts build with the venv's own setuptools (--no-build-isolation): pip otherwise makes a throwaway
# environment and installs setuptools into it for each part, a quarter of the install's CPU time. 70.1 is the
# first setuptools that builds an editable wheel without the separate wheel package.
$(STAMP): $(addsuffix /pyproject.toml,$(PARTS))
	@start=$$(date +%s); \
	echo "make install: 1/3 creating $(VENV) (a few seconds)"; \
	$(PYTHON) -m venv $(VENV) && \
	echo "make install: 2/3 upgrading pip and setuptools (about 10 s)" && \
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=70.1' && \
	echo "make install: 3/3 installing the 8 parts and about 150 dependencies (usually 2-3 min, up to 5)" && \
	$(BIN)/pip install --quiet --no-build-isolation -e './instrumentation[test]' -e './judge[test]' -e './core[test]' -e './collector[test]' \
		-e './assembly[test]' -e './scorers[test]' -e './dashboards[test]' -e './examples[demo]' && \
	touch $(STAMP) && \
	echo "make install: done in $$(( $$(date +%s) - start )) s; next: . $(VENV)/bin/activate"

install: $(STAMP)

# One worker per core (at most 4: the tests that time servers and kill processes want a core of their own).
# Each worker takes a contiguous share of the suite in collection order (slow files first, tests/conftest.py)
# and steals from the others when done, so a minute-long test never starts last and modules stay together.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist worksteal tests

# Property tests with fresh random examples, ROUNDS times (make test draws the same ones every run).
ROUNDS ?= 5
explore: $(STAMP)
	for round in $$(seq $(ROUNDS)); do RAGPULSE_HYPOTHESIS_PROFILE=explore $(BIN)/python -m pytest -q -n auto \
		--maxprocesses 4 $$(grep -rl "@given" tests) || exit 1; done

test-llm: $(STAMP)
	$(BIN)/python -m pytest -q -m llm tests

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

demo: $(STAMP)
	$(BIN)/ragpulse demo

# The documentation site, into site/ (tests/test_docs.py builds it the same way in make test).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

lint: $(STAMP)
	$(BIN)/ruff check $(PARTS) tests benchmarks docker scripts docs/hooks

typecheck: $(STAMP)
	$(BIN)/mypy $(addsuffix /src,$(filter-out examples,$(PARTS))) examples/src/ragpulse_demo scripts docs/hooks

compose-config:
	$(PYTHON) docker/compose_check.py

clean:
	rm -rf $(VENV) .ragpulse .pytest_cache .mypy_cache .ruff_cache site
