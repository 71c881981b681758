# Two entry points: `make run` (the study, on all cores) and `make test` (the whole test suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= $(shell nproc)
CONFIG ?= config/config.yaml

.PHONY: venv lock run warm sample-paper test test-fast test-slurm test-browser lint bench layers docs digests verify clean

# The environment is installed from requirements.lock (exact versions and hashes of everything,
# tests and the SLURM plugin included), then the package itself without dependencies.
$(BIN)/activate: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

# Refresh the lock after a change of dependencies in pyproject.toml (newest versions allowed).
lock:
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet uv
	.lock-venv/bin/uv pip compile pyproject.toml --extra test --extra cluster \
	    --python-version 3.11 --generate-hashes --upgrade -o requirements.lock
	rm -rf .lock-venv

venv: $(BIN)/activate

# Snakemake through g2048.study.run, which Ctrl-C or SIGTERM (kill, timeout, a time limit) stops
# at any instant in one line, the directory unlocked: the same command resumes the run.
# The kernels are compiled first, in a step of their own (`make warm`: a few minutes once per
# version of the code, seconds after), so that no job's time includes them.
run: $(BIN)/activate
	$(BIN)/python -m g2048 check-config $(CONFIG)
	$(BIN)/python -m g2048.study.warm $(CONFIG)
	$(BIN)/python -m g2048.study.run --cores $(CORES) --configfile $(CONFIG)

# Compile the kernels that the study of CONFIG calls into the cache, before its run.
warm: $(BIN)/activate
	$(BIN)/python -m g2048 check-config $(CONFIG)
	$(BIN)/python -m g2048.study.warm $(CONFIG)

# The paper study's sample (issue 51), on idle cores (its timed rows) and for hours: a recorded
# default study, then one job of each kind of work of config/paper.yaml that the default does
# not play and the first moves of the rows too slow for a job (g2048.study.sample), then plan's
# predictions of the paper study on 16 and 64 cores and on SLURM (the README's paper column).
# `make -n sample-paper` lists the steps; SAMPLE_DRY=1 lists the sampled jobs without running.
PAPER_PLAN := $(BIN)/python -m g2048 plan --configfile config/paper.yaml --rates-from config/config.yaml
sample-paper: $(BIN)/activate
	$(BIN)/python -m g2048 check-config config/config.yaml config/paper.yaml
	$(if $(SAMPLE_DRY),,$(BIN)/python -m g2048.study.warm config/config.yaml)
	$(if $(SAMPLE_DRY),,$(BIN)/python -m g2048.study.run --cores $(CORES) --configfile config/config.yaml)
	$(BIN)/python -m g2048.study.sample config/paper.yaml --rates-from config/config.yaml \
	    --cores $(CORES) $(if $(SAMPLE_DRY),--dry-run)
	$(if $(SAMPLE_DRY),,$(PAPER_PLAN) --cores 16)
	$(if $(SAMPLE_DRY),,$(PAPER_PLAN) --cores 64)
	$(if $(SAMPLE_DRY),,$(PAPER_PLAN) --cluster)

# Rerun the default study, or only TARGETS (files or rules, e.g. TARGETS=results/benchmark/greedy.csv),
# and compare its result files with the digests of the run that docs/ shows.
verify: $(BIN)/activate
	$(BIN)/python -m g2048.study.run --cores $(CORES) $(TARGETS)
	$(BIN)/python -m g2048 verify docs/digests/default.json $(if $(TARGETS),--partial)

test: $(BIN)/activate
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q

# The tests of a few seconds or less, for a quick check while editing (about a minute on 2 cores
# with a warm numba cache); `make test` runs them all.
test-fast: $(BIN)/activate
	$(BIN)/python -m pytest -q -m "not slow and not slurm and not browser"

# The smoke study through profiles/slurm on a single-node SLURM started here (root, Debian).
test-slurm: $(BIN)/activate
	.ci/slurm-test.sh

# The smoke study's report opened in headless Chromium (installed from Debian if missing).
test-browser: $(BIN)/activate
	.ci/browser-test.sh

lint: $(BIN)/activate
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(BIN)/activate
	$(BIN)/python -m g2048 bench

# The package's layer graph, read off the imports (needs Graphviz's dot).
layers: $(BIN)/activate
	$(BIN)/python tests/test_layers.py | dot -Tpng -Gdpi=100 -o docs/layers.png

# Copy a finished study's summary tables and key figures to docs/ (committed, shown in README),
# emptying docs/tables and docs/figures first so that they hold this run's files alone, then
# write the digests of its result files (what `make verify` compares with) and of those copies
# (what tests/test_docs.py checks docs/ against), and its job records (docs/jobs.tsv: what
# `plan` predicts this config from on a fresh clone).
DOC_TABLES := benchmark validation tuning methods method_pairs comparisons transfer \
	transfer_leaders claims progress
DOC_FIGURES := cost_strength cost_strength_column benchmark_reach pareto_fronts \
	tuning_differences hypervolume tuner_progress depth_transfer td_learning
docs:
	rm -rf docs/tables docs/figures
	mkdir -p docs/tables docs/figures
	cp $(DOC_TABLES:%=results/tables/%.md) docs/tables/
	cp $(DOC_FIGURES:%=results/figures/%.png) docs/figures/
	cp results/findings.md docs/findings.md
	cp results/provenance/summary.json docs/provenance.json
	$(BIN)/python -m g2048.study.jobrecords docs/jobs.tsv config/config.yaml \
	    --note "default study (config/config.yaml) at $$(git rev-parse --short HEAD)"
	$(BIN)/python -m g2048 digest --force --out docs/digests/default.json \
	    --note "default study (config/config.yaml) at $$(git rev-parse --short HEAD)" \
	    --docs docs/tables docs/figures

# The smoke study's digests, which the tests (and so CI, on a fresh machine) compare with; run
# after a change that changes results on purpose.
digests: $(BIN)/activate
	rm -rf .smoke && mkdir .smoke && cp -r Snakefile config workflow profiles .smoke/
	cd .smoke && ../$(BIN)/snakemake --configfile config/smoke.yaml --cores $(CORES)
	$(BIN)/python -m g2048 digest --force --results .smoke/results --out docs/digests/smoke.json \
	    --note "smoke study (config/smoke.yaml)"
	rm -rf .smoke

clean:
	rm -rf $(VENV) .snakemake .smoke .smoke-tests results logs benchmarks
	rm -rf $${XDG_CACHE_HOME:-$$HOME/.cache}/g2048  # compiled numba code, one folder per source version
