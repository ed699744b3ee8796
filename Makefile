# The two set-up commands of the README: `make site` and `make test`.
# Both create .venv when absent and install atlas-build with its test extras.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=

.PHONY: site test lint typecheck unit coverage browser bench selftest fuzz clean install docs

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	$(BIN)/python -m pip install -q torch==2.13.0 || echo "note: torch 2.13.0 not installable here; torch reference tests will skip"
	touch $@

install: $(STAMP)

# Debian's Chromium drives the browser test (never `playwright install`: no downloads at test
# time); axe-core, the accessibility checker it runs, is an npm package installed under build/.
AXE := build/node-tools/node_modules/axe-core/axe.min.js
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser test"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "note: could not install chromium; the browser test fails in CI and skips elsewhere"; }
	@test -f $(AXE) || npm install --silent --no-audit --no-fund --prefix build/node-tools axe-core@4.14.1 \
	  || echo "note: could not install axe-core; the accessibility test fails in CI and skips elsewhere"

# The site shows each lesson's selftest survivors (docs/site.md), so the mutants run first;
# a kill rate under the gate still builds the site, which shows the survivors.
site: $(STAMP)
	mkdir -p build
	$(BIN)/atlas-build selftest content/ --format json > build/selftest.json || true
	$(BIN)/atlas-build build content/ --selftest build/selftest.json

lint: $(STAMP)
	$(BIN)/ruff check atlas_build tests bench
	$(BIN)/ruff format --check atlas_build tests bench

typecheck: $(STAMP)
	$(BIN)/mypy atlas_build

unit: $(STAMP) browser
	$(BIN)/pytest $(PYTEST_ARGS)

# Line coverage doubles the suite's time (measured: 6.8 s -> 13.7 s on three test files), so
# CI runs without it; `make coverage` prints it.
coverage: $(STAMP) browser
	$(BIN)/pytest --cov=atlas_build --cov-report=term:skip-covered $(PYTEST_ARGS)

test: lint typecheck unit selftest

bench: $(STAMP)
	$(BIN)/python bench/attention.py
	$(BIN)/python bench/build.py

fuzz: $(STAMP)
	ATLAS_HYPOTHESIS=explore ATLAS_FUZZ_PROFILE=long $(BIN)/pytest -p no:cacheprovider \
		tests/test_fuzz.py tests/test_latex_fuzz.py tests/test_hostile_output.py

# Every lesson in content/ must have its checks catch at least 90% of single edits.
selftest: $(STAMP)
	$(BIN)/atlas-build selftest content/ --fail-under 90

# Regenerate docs/claim-kinds.md and the per-kind parameter schemas from the kinds' models.
docs: $(STAMP)
	$(BIN)/python -m atlas_build.claims.docs.docgen

clean:
	rm -rf build site .pytest_cache .mypy_cache .ruff_cache .coverage
