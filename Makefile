# Every target installs what it needs into .venv first, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test explore test-llm bench demo docs lint typecheck compose-config clean

PARTS := instrumentation judge core collector assembly scorers dashboards examples

# Each step says what it does and how long it usually takes; the last line says how long it took.
# The eight parts and their ~150 dependencies install with uv (from PyPI, into the venv): from a warm cache it
# links the files instead of unpacking them: 45 s instead of pip's 74 s side by side on the shared 2-core
# machine. Modules are byte-compiled as they are first imported (most of the ~150 packages' never are), which
# saves about 30 s of CPU per install; only a shell with PYTHONDONTWRITEBYTECODE, which would compile them again
# in every process, gets them all compiled up front, the parts' own modules too (~370, under a second): an
# editable install reads them from their folders, so without it every `ragpulse` command in such a shell
# compiled the ~160 it imports as it started (~0.1 s of CPU at each `score --once` from cron). uv reads no pip.conf, so where it cannot reach the index
# (a private mirror), pip installs them instead. Both build the parts with the venv's own setuptools
# (--no-build-isolation), not a throwaway environment per part. 70.1 is the first setuptools that builds an
# editable wheel without the separate wheel package.
EDITABLES := $(foreach part,$(filter-out examples,$(PARTS)),-e './$(part)[test]') -e './examples[demo]'
$(STAMP): $(addsuffix /pyproject.toml,$(PARTS))
	@start=$$(date +%s); \
	echo "make install: 1/3 creating $(VENV) (a few seconds)"; \
	$(PYTHON) -m venv $(VENV) && \
	echo "make install: 2/3 upgrading pip and setuptools, adding uv (about 10 s)" && \
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=70.1' uv && \
	echo "make install: 3/3 installing the 8 parts and about 150 dependencies (usually 20-60 s, up to 5 min)" && \
	{ $(BIN)/uv pip install --quiet $(if $(PYTHONDONTWRITEBYTECODE),--compile-bytecode) --python $(BIN)/python --no-build-isolation $(EDITABLES) || \
		{ echo "make install: uv could not install them; pip instead (2-3 min)" && \
		$(BIN)/pip install --quiet --no-build-isolation $(EDITABLES); }; } && \
	$(if $(PYTHONDONTWRITEBYTECODE),$(BIN)/python -m compileall -q $(addsuffix /src,$(PARTS)) >/dev/null &&) \
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
