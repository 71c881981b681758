"""Helpers of the end-to-end tests: run the workflow in a scratch copy, compare result files."""

import shutil
import subprocess
import sys
from pathlib import Path

from g2048.study.digests import first_difference, result_digests

ROOT = Path(__file__).resolve().parent.parent
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def workdir(base: Path) -> Path:
    """A copy of the workflow (not its results) to run in."""
    base.mkdir(parents=True, exist_ok=True)
    for name in ("Snakefile", "config", "workflow", "profiles"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, base / name)
    return base


def snakemake(where: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    """The smoke study's `snakemake` with `args`, interrupted (SIGINT, so that a cluster run
    cancels its jobs) after `timeout` seconds."""
    return subprocess.run(
        ["timeout", "-s", "INT", str(timeout), SNAKEMAKE, "--configfile", "config/smoke.yaml"]
        + list(args),
        cwd=where,
        capture_output=True,
        text=True,
    )


def assert_same_results(a: Path, b: Path) -> None:
    """The two runs' result files are identical but for their timing columns and provenance."""
    difference = first_difference(result_digests(a / "results"), result_digests(b / "results"), b)
    assert difference is None, difference
