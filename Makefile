# Two commands for a newcomer: `make lab` and `make test`. Each builds .venv from nothing when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test test-fast setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# --no-compile: pip would byte-compile every installed module (~6,000, most never imported);
	# Python compiles what is imported on first use instead (and the test run keeps that cache)
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev,lab]'
	# the "python3" kernel JupyterLab starts is this virtualenv's Python (ipywidgets need it)
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (kschedlearn)"
	touch $(STAMP)

# JupyterLab settings for this project's virtualenv only (the news prompt would cover the
# narration; widget messages must reach the kernel's main thread, which owns the simulations,
# where JupyterLab 4.6 sends them to a kernel subshell's thread by default): an overrides.d file
# in the venv's application settings directory. binder/postBuild installs the same file.
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.d/kschedlearn.json
$(LAB_OVERRIDES): tools/lab/overrides.json $(STAMP)
	mkdir -p $(dir $@)
	cp tools/lab/overrides.json $@

setup: $(STAMP) $(LAB_OVERRIDES)

# Three pytest processes share the suite a whole test file at a time (tools/run_tests.py with
# the tests/file_claims.py plugin: a file's module-scoped worlds are built once), the longest
# files first (tests/conftest.py's LONGEST_FIRST). Three on the CI machine's 2 cores: a process
# often waits (on a notebook kernel, JupyterLab, Chromium, pip, a sandbox child), and a third
# keeps both cores busy then (make test 376.8-391.7 s in pytest with three, four runs, against
# 398.6-418.5 with two and 391.9 with four; make test-fast 50.7 against 53.2 s with two;
# 2026-12-03 session 14; session 13: 392.6 with three against 406.7 with two).
# It replaced pytest-xdist, whose controller process spent ~2 ms of CPU per test on its reports
# on the same cores. PYTEST_WORKERS=0 runs plain pytest in one process.
PYTEST_WORKERS ?= 3

# Compiled modules are cached (in git-ignored __pycache__ folders) even where the environment
# says PYTHONDONTWRITEBYTECODE: without the cache every process, notebook kernel and subprocess
# the suite starts compiles the package and pytest rewrites every test module again (collection
# 9.3 s -> 4.6 s measured, 2026-12-02).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python $(if $(filter 0,$(PYTEST_WORKERS)),-m pytest,tools/run_tests.py --processes $(PYTEST_WORKERS))

# the slowest 30 tests are listed after the run (issue 25: "report the slowest 30")
test: $(STAMP) $(LAB_OVERRIDES)
	$(PYTEST) --durations=30

# The inner loop: the unit tests, the ported Go tables and the properties; the end-to-end tests
# (marked `slow`, or listed in tests/conftest.py's END_TO_END_FILES) run only in `make test`, and
# each property test tries a fifth of its examples here (tests/hypothesis_budget.py), all in `make test`.
test-fast: $(STAMP) $(LAB_OVERRIDES)
	KSCHEDLEARN_FAST_LOOP=1 $(PYTEST) -m "not slow"

# Local only (127.0.0.1) and behind a fresh random token; opens notebook 00. It serves the
# learner's workspace lab/ (untracked): copies of notebooks/ and exercises/ made and kept up to
# date by tools/lab_workspace.py, so running the curriculum never rewrites a committed notebook
# (their saved outputs show the diagrams without a kernel; a learner's runs would overwrite them
# and the next `git pull` would conflict). tests/browser/conftest.py serves copies the same way.
LAB_PORT ?= 8888
LAB_ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
LAB_WORKSPACE := lab
LAB_START := notebooks/00-start-here.ipynb
lab: $(STAMP) $(LAB_OVERRIDES)
	@$(BIN)/python tools/lab_workspace.py $(LAB_WORKSPACE)
	@token=$$($(BIN)/python -c 'import secrets; print(secrets.token_hex(24))'); \
	echo "JupyterLab: http://127.0.0.1:$(LAB_PORT)/lab/tree/$(LAB_START)?token=$$token"; \
	exec $(BIN)/jupyter lab --ip=127.0.0.1 --port=$(LAB_PORT) --IdentityProvider.token=$$token \
		--ServerApp.root_dir=$(LAB_WORKSPACE) --LabApp.default_url=/lab/tree/$(LAB_START) --LabApp.news_url=None \
		$(LAB_ALLOW_ROOT)

clean:
	rm -rf $(VENV)
