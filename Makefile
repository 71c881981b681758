# Two entry points: `make run` (the study, on all cores) and `make test` (the whole test suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= $(shell nproc)

.PHONY: run test lint bench clean

$(BIN)/activate: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/activate
	$(BIN)/snakemake --cores $(CORES)

test: $(BIN)/activate
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q

lint: $(BIN)/activate
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(BIN)/activate
	$(BIN)/python -m g2048 bench

clean:
	rm -rf $(VENV) .snakemake results logs benchmarks
