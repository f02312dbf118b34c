# Two commands for a newcomer: `make lab` and `make test`. Each builds .venv from nothing when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test test-fast setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# the "python3" kernel JupyterLab starts is this virtualenv's Python (ipywidgets need it)
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (kschedlearn)"
	touch $(STAMP)

setup: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

# The inner loop: everything except the few slow end-to-end tests (marked `slow`).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

# Local only (127.0.0.1) and behind a fresh random token; opens notebook 00 in notebooks/.
LAB_PORT ?= 8888
LAB_ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
lab: $(STAMP)
	@token=$$($(BIN)/python -c 'import secrets; print(secrets.token_hex(24))'); \
	echo "JupyterLab: http://127.0.0.1:$(LAB_PORT)/lab/tree/00-start-here.ipynb?token=$$token"; \
	exec $(BIN)/jupyter lab --ip=127.0.0.1 --port=$(LAB_PORT) --IdentityProvider.token=$$token \
		--ServerApp.root_dir=notebooks --LabApp.default_url=/lab/tree/00-start-here.ipynb $(LAB_ALLOW_ROOT)

clean:
	rm -rf $(VENV)
