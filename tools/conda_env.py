"""`python tools/conda_env.py LOCK`: the conda environment of every rule (workflow/envs/g2048.yaml,
which `make lock` writes with it) made from the hash-pinned lock file LOCK: Python 3.11 from
conda-forge and, through pip, each of the lock's packages at its version with its hashes (pip
then installs in hash-checking mode). Snakemake keys a conda environment on its file's
contents: a new lock makes a new file, and so a new environment. Standard library only."""

import json
import re
import sys
from pathlib import Path

HEADER = """\
# Made from requirements.lock by `make lock` (tools/conda_env.py): do not edit. The software of
# every rule (their `conda:` directive), which `snakemake --sdm conda` installs: Python 3.11 and,
# through pip, each package of the lock at its version, hash-checked. The jobs find the g2048
# package in the checkout (workflow/rules/common.smk).
channels:
  - conda-forge
  - nodefaults
dependencies:
  - python =3.11
  - pip
  - pip:
"""


def requirements(lock: str) -> list[str]:
    """The lock's requirements, one line each (`name==version --hash=sha256:...`), in order:
    its backslash-continued lines joined, its comments dropped."""
    text = re.sub(r"\\\n", " ", lock)
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    return [" ".join(line.split()) for line in lines if line.strip()]


def conda_env(lock: str) -> str:
    """The environment file of the lock whose text is `lock`."""
    return HEADER + "".join(f"      - {json.dumps(r)}\n" for r in requirements(lock))


if __name__ == "__main__":
    sys.stdout.write(conda_env(Path(sys.argv[1]).read_text()))
