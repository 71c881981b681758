#!/usr/bin/env bash
# The cluster stage of CI (`make test-slurm`): start a single-node SLURM, run tests/workflow/test_slurm.py
# (the smoke study through profiles/slurm), and stop every daemon it started, even on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
trap '.ci/slurm-down.sh' EXIT
.ci/slurm-up.sh
# SIGINT, not TERM: an interrupted Snakemake cancels its SLURM jobs.
timeout -s INT 2400 .venv/bin/python -m pytest -q --durations=0 -m slurm tests/workflow/test_slurm.py
