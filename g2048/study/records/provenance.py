"""Where a result was made: the package's source digest, the lock file's digest, the versions
of Python and the numeric libraries, and the CPU. Every job that plays games writes one such
record beside its results (results/provenance/...), and the tables name them in a footer."""

from __future__ import annotations

import hashlib
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


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what the platform module knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


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
    """Write this process's environment as the provenance record of `job`."""
    write_json(path, {"job": job, **environment()})


def summarise(paths: list[str | Path]) -> dict:
    """The distinct environments of a run's records, each with the jobs made in it."""
    groups: dict[str, dict] = {}
    for path in paths:
        record = read_json(path)
        job = record.pop("job")
        key = repr(sorted(record.items()))
        groups.setdefault(key, {"environment": record, "jobs": []})["jobs"].append(job)
    return {"environments": [groups[k] for k in sorted(groups)]}


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
