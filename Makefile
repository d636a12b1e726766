# Build, test and book targets for shibumi-system. GNU make; needs only Python 3.11+ and pip.
#
#   make test         builds the book, installs chromium if missing, runs every test but the slow ones
#                     on every core
#                     (extra args: make test PYTEST_ARGS="-k spline")
#   make test-slow    the exhaustive / long checks (pytest -m slow)
#   make bench        benchmarks/bench.py: every game's playouts and MCTS speed
#   make bench-browser  benchmarks/browser.py: the board in chromium (start-up, AI reply, speed)
#   make strong-play  regenerate the chapters' table of MCTS-against-MCTS results (slow)
#                     (only some games: make strong-play STRONG_ARGS="--only spline,span")
#   make book         build the rule book into _build/html, warnings are errors
#   make serve        build the book if needed and serve it (static files) on http://127.0.0.1:8000/ (PORT=...)
#   make chromium     install Debian's chromium for the browser tests if it is missing
#   make lock         re-resolve requirements.txt into requirements.lock
#   make clean        remove build outputs and caches (keeps .venv); distclean also removes .venv
#
# Every target that needs Python makes .venv first (once; again only when
# requirements.txt, requirements.lock or pyproject.toml change).

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.DEFAULT_GOAL := help

# Interpreter for the venv: $(PYTHON) if given, else python3.11, else python3; it must be 3.11+.
PYTHON ?=
PY_CANDIDATES := $(if $(PYTHON),$(PYTHON),python3.11 python3)
PIP_VERSION := 26.3
# Shell snippet: sets $$py to the first candidate that runs and is 3.11+, or to "".
FIND_PYTHON = py=; for c in $(PY_CANDIDATES); do \
  if command -v "$$c" >/dev/null 2>&1 && "$$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then py=$$c; break; fi; \
  done

VENV := .venv
STAMP := $(VENV)/.stamp
VPY := $(VENV)/bin/python
PIP := $(VPY) -m pip --disable-pip-version-check
# -qq: errors only. This machine's pip config adds local extra indexes that print one
# "Location ... is ignored" warning per package; PIP_QUIET=-q (or empty) shows more.
PIP_QUIET ?= -qq

PYTEST_ARGS ?=
BENCH_ARGS ?=
STRONG_ARGS ?=
PORT ?= 8000

# One build at a time: two at once on a stale book collide in the notebook cache,
# so each takes _build/.lock (flock, util-linux) and a second one waits.
# The boards in the pages run the engine packed by tools/pack_engine.py (_build/engine).
BOOK_BUILD := mkdir -p _build && flock _build/.lock sh -c '$(VPY) tools/pack_engine.py && \
  $(VENV)/bin/jupyter-book build . --all -W -n --keep-going' 
BOOK_INDEX := _build/html/index.html
BOOK_SOURCES := _config.yml _toc.yml tools/pack_engine.py $(shell find book notebooks -type f -not -path '*/.ipynb_checkpoints/*' 2>/dev/null)
ENGINE_SOURCES := $(shell find shibumi -name '*.py' -o -name '*.json' 2>/dev/null)
# The widget JavaScript and MathJax, from the npm registry (tools/fetch_js.py).
VENDOR_STAMP := _vendor/.stamp
CHROMIUM := /usr/bin/chromium
# The notebooks' cached outputs are keyed on their code only: when the engine
# changes, drop the cache so every page runs again.
DROP_STALE_CACHE = if [ -d _build/.jupyter_cache ] && [ -n "$$(find shibumi \( -name '*.py' -o -name '*.json' \) -newer _build/.jupyter_cache)" ]; then \
  echo "engine changed since the last build: executing every page again"; rm -rf _build/.jupyter_cache; fi

.PHONY: help venv test test-slow bench bench-browser strong-play book serve chromium lock check-pins clean distclean

help:
	@sed -n 's/^#   //p' $(firstword $(MAKEFILE_LIST))

venv: $(STAMP)

$(STAMP): requirements.txt requirements.lock pyproject.toml
	@$(FIND_PYTHON); \
	if [ -z "$$py" ]; then \
	  echo "error: Python 3.11 or newer is needed to make $(VENV); tried: $(PY_CANDIDATES)" >&2; \
	  for c in $(PY_CANDIDATES); do command -v "$$c" >/dev/null 2>&1 && echo "  $$c is $$("$$c" --version 2>&1)" >&2; done; \
	  echo "  install Python 3.11+ or name one: make PYTHON=/path/to/python3.12 ..." >&2; \
	  exit 1; \
	fi; \
	"$$py" tools/check_pins.py; \
	if ! $(VPY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then \
	  echo "Creating $(VENV) with $$py ($$("$$py" --version 2>&1))"; \
	  "$$py" -m venv --clear $(VENV); \
	fi
	@echo "Installing requirements.txt at the versions of requirements.lock into $(VENV) (~30-60 s)"
	$(PIP) install $(PIP_QUIET) --upgrade pip==$(PIP_VERSION)
	$(PIP) install $(PIP_QUIET) -r requirements.txt -c requirements.lock
	$(PIP) install $(PIP_QUIET) --no-deps -e .
	$(PIP) check
	@touch $@

# -n auto: one pytest worker per core (pytest-xdist); the tests share nothing but files.
test: $(STAMP) $(BOOK_INDEX) chromium
	$(VPY) -m pytest -q -n auto $(PYTEST_ARGS)

test-slow: $(STAMP)
	$(VPY) -m pytest -q -n auto -m slow $(PYTEST_ARGS)

bench: $(STAMP)
	$(VPY) benchmarks/bench.py $(BENCH_ARGS)

bench-browser: $(STAMP) $(BOOK_INDEX) chromium
	$(VPY) benchmarks/browser.py $(BENCH_ARGS)

# The chapters' "first player under search" table (shibumi/book/strong_play.json):
# MCTS against MCTS in every contested game, about an hour on two cores.
strong-play: $(STAMP)
	$(VPY) -m shibumi.book.strong_play $(STRONG_ARGS)

$(VENDOR_STAMP): tools/fetch_js.py tools/widgets/require-config.js
	python3 tools/fetch_js.py
	@touch $@

# Always a full build (--all): incremental builds miss html_extra_path changes.
book: $(STAMP) $(VENDOR_STAMP)
	@$(DROP_STALE_CACHE)
	$(BOOK_BUILD)
	@touch _build/.jupyter_cache

$(BOOK_INDEX): $(BOOK_SOURCES) $(ENGINE_SOURCES) $(STAMP) $(VENDOR_STAMP)
	@$(DROP_STALE_CACHE)
	$(BOOK_BUILD)
	@touch $@ _build/.jupyter_cache

# Debian's chromium for the browser tests (Playwright drives it; it never downloads one).
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
	  echo "Installing Debian's chromium for the browser tests (apt-get, ~1-2 min)"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq chromium >/dev/null; \
	fi
	@test -x $(CHROMIUM) || { echo "error: $(CHROMIUM) is missing and could not be installed" >&2; exit 1; }

serve: $(STAMP) $(BOOK_INDEX)
	$(VPY) tools/serve.py --port $(PORT) --directory _build/html

# Resolve requirements.txt afresh in a throw-away venv and freeze it into requirements.lock.
lock:
	@$(FIND_PYTHON); [ -n "$$py" ] || { echo "error: Python 3.11 or newer is needed" >&2; exit 1; }; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	"$$py" -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install $(PIP_QUIET) --disable-pip-version-check --upgrade pip==$(PIP_VERSION); \
	"$$tmp/venv/bin/python" -m pip install $(PIP_QUIET) --disable-pip-version-check -r requirements.txt; \
	"$$tmp/venv/bin/python" -m pip check; \
	{ echo "# Every package of the development environment at an exact version."; \
	  echo "# Generated by \`make lock\` from requirements.txt with $$("$$tmp/venv/bin/python" --version) and pip $(PIP_VERSION); do not edit."; \
	  "$$tmp/venv/bin/python" -m pip freeze --disable-pip-version-check; } > requirements.lock; \
	echo "wrote requirements.lock ($$(grep -c '==' requirements.lock) packages)"

check-pins:
	python3 tools/check_pins.py

clean:
	rm -rf _build _vendor .pytest_cache .hypothesis build dist *.egg-info screenshots
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
