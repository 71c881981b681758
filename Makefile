# Two entry points: `make run` (the study, on all cores) and `make test` (the whole test suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Stamp of the test tools and the SLURM plugin installed into $(VENV) (requirements-test.lock).
TEST_ENV := $(VENV)/.test-tools
CORES ?= $(shell nproc)
CONFIG ?= config/config.yaml

.PHONY: venv venv-cluster lock run warm sample-paper test test-fast test-slurm test-browser lint bench bench-peers layers docs digests verify clean

# Two environments, each installed from a lock of exact versions and hashes (pip's hash-checking
# mode), then the package itself without dependencies. `make venv` and `make run`: the study's
# packages alone (requirements.lock). The targets that test or lint add the test tools and the
# SLURM executor plugin (requirements-test.lock: the same versions, and those). Each compiles
# its modules to bytecode but for the packages' own test suites, which nothing here runs
# (COMPILE; Python would compile a module at each job's start where PYTHONDONTWRITEBYTECODE is
# set). README: the sizes.
COMPILE := $(BIN)/python -m compileall -q -j 0 -x '/tests?/' $(VENV)/lib > /dev/null
$(BIN)/activate: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --no-compile --require-hashes -r requirements.lock
	$(BIN)/pip install --quiet --no-compile --no-deps -e .
	$(COMPILE)
	touch $@

$(TEST_ENV): $(BIN)/activate requirements-test.lock
	$(BIN)/pip install --quiet --no-compile --require-hashes -r requirements-test.lock
	$(COMPILE)
	touch $@

# Refresh the locks after a change of dependencies in pyproject.toml (newest versions allowed):
# the test lock first, then the run lock within it (so both hold the same versions), then the
# rules' conda environment from the run lock.
lock:
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet uv
	.lock-venv/bin/uv pip compile pyproject.toml --extra test --extra cluster \
	    --python-version 3.11 --generate-hashes --upgrade -o requirements-test.lock
	.lock-venv/bin/uv pip compile pyproject.toml --constraint requirements-test.lock \
	    --python-version 3.11 --generate-hashes -o requirements.lock
	$(PYTHON) tools/conda_env.py requirements.lock > workflow/envs/g2048.yaml
	rm -rf .lock-venv

venv: $(BIN)/activate

# The study's environment with the SLURM executor plugin (profiles/slurm), from the test lock.
venv-cluster: $(TEST_ENV)

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

test: $(TEST_ENV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q

# The tests of a few seconds or less, for a quick check while editing (about a minute on 2 cores
# with a warm numba cache); `make test` runs them all.
test-fast: $(TEST_ENV)
	$(BIN)/python -m pytest -q -m "not slow and not slurm and not browser"

# The smoke study through profiles/slurm on a single-node SLURM started here (root, Debian).
test-slurm: $(TEST_ENV)
	.ci/slurm-test.sh

# The smoke study's report opened in headless Chromium (installed from Debian if missing).
test-browser: $(TEST_ENV)
	.ci/browser-test.sh

lint: $(TEST_ENV)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(BIN)/activate
	$(BIN)/python -m g2048 bench

# g2048's speed beside other programs, from their source: PEERS is a checkout of
# nneonneo/2048-ai or TDL2048+, or a folder holding them. Each is built in a scratch folder and
# run interleaved with g2048, each pair's ratio printed (tools/bench_peers.py says what is timed).
bench-peers: $(BIN)/activate
	$(if $(PEERS),,$(error give the peers' source: make bench-peers PEERS=path))
	$(BIN)/python tools/bench_peers.py $(PEERS)

# The package's layer graph, read off the imports (needs Graphviz's dot).
layers: $(TEST_ENV)
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
