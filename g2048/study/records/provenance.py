"""Where a result was made: the package's source digest, the lock file's digest, the versions
of Python and the numeric libraries, the CPU, and the study's config (its file, the file's
SHA-256 and the run's --config overrides). Every job that plays games writes one such record
beside its results (results/provenance/...), and the tables name them in a footer."""

from __future__ import annotations

import hashlib
import json
import os
import platform
from pathlib import Path

import llvmlite
import numba
import numpy as np
import pandas as pd
import scipy

import g2048
from g2048.study.results import read_json, write_json

# The lock file of the checkout the package runs from (an editable install); absent otherwise.
LOCK_FILE = Path(g2048.__file__).resolve().parent.parent / "requirements.lock"
CPU_INFO = Path("/proc/cpuinfo")  # Linux's
# The environment variable through which the workflow hands its jobs the study's config record
# (`study_record`): the jobs inherit it, here or on a cluster node.
STUDY_VARIABLE = "G2048_STUDY"


def _cpu_line(name: str) -> str | None:
    """The value of the first line `name` of CPU_INFO (None: no such line, or no file)."""
    try:
        for line in CPU_INFO.read_text().splitlines():
            if line.startswith(name):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what the platform module knows."""
    return _cpu_line("model name") or platform.processor() or "unknown"


def use_portable_numerics() -> None:
    """Make the jobs this process starts compute alike on every x86-64 CPU (unless the variables
    are set already). numpy's AVX-512 exp, log and pow (Intel's SVML, up to 4 ULP off) and
    OpenBLAS's per-CPU kernels change the last bits of CMA-ES's arithmetic (the cma package's;
    its eigendecompositions), and so its weights: the jobs run numpy on its AVX2 paths, which
    call the C library as on any CPU without AVX-512, and OpenBLAS on the kernels of every
    AVX2 CPU."""
    flags = set((_cpu_line("flags") or "").split())
    if "avx512f" in flags:
        os.environ.setdefault("NPY_DISABLE_CPU_FEATURES", "X86_V4 AVX512_ICL AVX512_SPR")
    if "avx2" in flags:
        os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")


def add_to_python_path(folder: str | Path) -> None:
    """Make the Python of the jobs this process starts find modules in `folder` first (the
    checkout's package, for jobs in an environment without it: `snakemake --sdm conda`)."""
    paths = [str(folder), *filter(None, [os.environ.get("PYTHONPATH")])]
    os.environ["PYTHONPATH"] = os.pathsep.join(paths)


def study_record(config_file: str | Path, overrides: dict[str, object]) -> dict:
    """What a job records of the study it ran in: its config file, the file's SHA-256 and the
    --config overrides of the run (dotted keys, as typed values), which together give every
    value the job used."""
    return {
        "config_file": str(config_file),
        "config_sha256": g2048.file_sha256(config_file),
        "config_overrides": overrides,
    }


def hand_to_jobs(record: dict) -> None:
    """Make `record` (study_record) the study record of the jobs this process starts."""
    os.environ[STUDY_VARIABLE] = json.dumps(record, sort_keys=True)


def numpy_simd() -> str:
    """The SIMD extensions numpy found on this CPU and may dispatch to (e.g. "X86_V3")."""
    try:  # numpy's own record (numpy 2); not a public name, so a job never fails on it
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:
        return "unknown"
    return " ".join(f for f in __cpu_dispatch__ if __cpu_features__.get(f)) or "baseline only"


def lock_digest(path: Path = LOCK_FILE) -> str:
    """The first 16 hex digits of the lock file's SHA-256, or "no lock file"."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "no lock file"


def environment() -> dict[str, str]:
    """This process's environment, as a flat record of strings."""
    return {
        "g2048_source": g2048.source_digest(),
        "lock": lock_digest(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "pandas": pd.__version__,
        "scipy": scipy.__version__,
        "cpu": cpu_model(),
        "numpy_simd": numpy_simd(),
        "numba_svml": str(bool(numba.config.USING_SVML)),
    }


def write_record(path: str | Path, job: str) -> None:
    """Write this process's environment as the provenance record of `job`, with the study
    record the workflow handed it (`hand_to_jobs`; none outside a workflow)."""
    study = os.environ.get(STUDY_VARIABLE)
    study_part = {} if study is None else {"study": json.loads(study)}
    write_json(path, {"job": job, **environment(), **study_part})


def _grouped(records: list[tuple[str, object]], name: str) -> list[dict]:
    """The distinct values of (job, value) pairs, each with its jobs: {name: value, "jobs"}."""
    groups: dict[str, dict] = {}
    for job, value in records:
        key = json.dumps(value, sort_keys=True)
        groups.setdefault(key, {name: value, "jobs": []})["jobs"].append(job)
    return [groups[k] for k in sorted(groups)]


def summarise(paths: list[str | Path]) -> dict:
    """The distinct environments of a run's records, each with the jobs made in it, and the
    distinct studies (config file, its SHA-256, the --config overrides) they were made for."""
    environments, studies = [], []
    for path in paths:
        record = read_json(path)
        job = record.pop("job")
        if "study" in record:
            studies.append((job, record.pop("study")))
        environments.append((job, record))
    return {
        "environments": _grouped(environments, "environment"),
        "studies": _grouped(studies, "study"),
    }


def footer(summary: dict) -> str:
    """One line per environment, for the foot of a table: what made its numbers."""
    lines = []
    for group in summary["environments"]:
        env = group["environment"]
        lines.append(
            f"Made by g2048 source {env['g2048_source']}, lock {env['lock']}, Python "
            f"{env['python']}, numpy {env['numpy']}, numba {env['numba']}, llvmlite "
            f"{env['llvmlite']} on {env['cpu']} ({len(group['jobs'])} jobs)."
        )
    return "\n".join(lines)
