"""Helpers of the end-to-end tests: run the workflow in a scratch copy, compare result files."""

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

from g2048 import source_digest
from g2048.study.records.integrity import first_difference, result_digests

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
WORKFLOW = ("Snakefile", "config", "workflow", "profiles")
SMOKE_RUNS = ROOT / ".smoke-tests"


def workdir(base: Path) -> Path:
    """A copy of the workflow (not its results) to run in."""
    base.mkdir(parents=True, exist_ok=True)
    for name in WORKFLOW:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, base / name)
    return base


def workflow_digest() -> str:
    """A digest of all that a smoke run's results follow from: the package's sources, the
    workflow's files and the lock file of the environment."""
    h = hashlib.sha256(source_digest().encode())
    for name in (*WORKFLOW, "requirements.lock"):
        path = ROOT / name
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file() and file.suffix != ".pyc":
                h.update(file.relative_to(ROOT).as_posix().encode())
                h.update(file.read_bytes())
    return h.hexdigest()[:16]


def smoke_study() -> Path:
    """The finished smoke study of this source tree on 2 cores, shared by the test sessions that
    read it (in CI, `make test` runs it and `make test-browser` finds it): run into
    .smoke-tests/<workflow_digest()>, a fresh folder whenever anything it follows from changed."""
    where = SMOKE_RUNS / workflow_digest()
    finished = where / "finished"
    if not finished.exists():
        shutil.rmtree(SMOKE_RUNS, ignore_errors=True)
        run = snakemake(workdir(where), "--cores", "2")
        assert run.returncode == 0, run.stderr[-4000:]
        finished.touch()
    return where


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


def assert_same_results(a: Path, b: Path, partial: bool = False) -> None:
    """The two runs' result files are identical but for their timing columns and provenance;
    with `partial`, b may lack some of a's files (it ran a subset of the jobs)."""
    expected, actual = result_digests(a / "results"), result_digests(b / "results")
    difference = first_difference(expected, actual, b, partial)
    assert difference is None, difference
