"""Helpers of the end-to-end tests: run the workflow in a scratch copy, compare result files."""

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

from g2048.report.tables import TIMING_COLUMNS

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


def result_files(where: Path) -> dict[str, object]:
    """Every CSV and JSON under results/, timing columns dropped."""
    out: dict[str, object] = {}
    for path in sorted((where / "results").rglob("*")):
        key = str(path.relative_to(where))
        if path.suffix == ".csv":
            df = pd.read_csv(path)
            out[key] = df.drop(columns=[c for c in df.columns if c in TIMING_COLUMNS])
        elif path.suffix == ".json":
            out[key] = path.read_bytes()
    return out


def assert_same_results(a: Path, b: Path) -> None:
    """The two runs' result files are identical but for their timing columns."""
    first, second = result_files(a), result_files(b)
    assert first.keys() == second.keys()
    for key, value in first.items():
        if isinstance(value, pd.DataFrame):
            pd.testing.assert_frame_equal(value, second[key], check_exact=True, obj=key)
        else:
            assert value == second[key], key
