# Two entry points: `make run` (the study, on all cores) and `make test` (the whole test suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= $(shell nproc)

.PHONY: venv run test test-slurm lint bench layers docs clean

$(BIN)/activate: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,cluster]'
	touch $@

venv: $(BIN)/activate

run: $(BIN)/activate
	$(BIN)/snakemake --cores $(CORES)

test: $(BIN)/activate
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q

# The smoke study through profiles/slurm on a single-node SLURM started here (root, Debian).
test-slurm: $(BIN)/activate
	ci/slurm-test.sh

lint: $(BIN)/activate
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(BIN)/activate
	$(BIN)/python -m g2048 bench

# The package's layer graph, read off the imports (needs Graphviz's dot).
layers: $(BIN)/activate
	$(BIN)/python tests/test_layers.py | dot -Tpng -Gdpi=100 -o docs/figures/layers.png

# Copy a finished study's summary tables and key figures to docs/ (committed, shown in README).
docs:
	mkdir -p docs/tables docs/figures
	cp results/tables/benchmark.md results/tables/validation.md results/tables/tuning.md \
	   results/tables/claims.md docs/tables/
	cp results/figures/cost_strength.png results/figures/benchmark_reach.png \
	   results/figures/pareto_fronts.png results/figures/validation_scores.png \
	   results/figures/hypervolume.png results/figures/cem_progress.png docs/figures/

clean:
	rm -rf $(VENV) .snakemake results logs benchmarks
	rm -rf $${XDG_CACHE_HOME:-$$HOME/.cache}/g2048  # compiled numba code, one folder per source version
