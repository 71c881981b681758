"""`python -m g2048.study.run ARGS`: `snakemake ARGS` (its command line, e.g. --cores 2
--configfile config/smoke.yaml), which SIGINT (Ctrl-C) and SIGTERM stop from its first instant
in one line, never with a traceback, the directory unlocked (g2048.study.signals). `make run`
runs the study so."""

import sys

from g2048.study.signals import run_snakemake

if __name__ == "__main__":
    sys.exit(run_snakemake(sys.argv[1:]))
