"""The default study's node-budget rows are the same games on every machine: three of them (one
per search family, those that play no tuned weights) rerun here, in a copy of the workflow, give
the result files that docs/digests/default.json holds from the run docs/ shows (made on another
machine: every CI run is a check on one more)."""

import subprocess
import sys
from pathlib import Path

import pytest
from workflow_runs import ROOT, SNAKEMAKE, workdir

from g2048.study.config import load_config

pytestmark = pytest.mark.slow

ROWS = ("expectimax-2k-nodes", "mc-40-nodes", "hybrid-120-nodes")


def test_the_rows_are_node_budget_rows_of_the_default_study() -> None:
    entries = {
        e["name"]: e for e in load_config(ROOT / "config" / "config.yaml")["benchmark"]["entries"]
    }
    for name in ROWS:
        agent = entries[name]["agent"]
        assert agent["budget_nodes"] > 0 and not agent.get("budget_ms")
        assert "weights" not in entries[name]
    assert {entries[name]["agent"]["name"] for name in ROWS} == {
        "expectimax",
        "montecarlo",
        "hybrid",
    }


def test_node_budget_rows_replay_the_digested_games(tmp_path: Path) -> None:
    where = workdir(tmp_path / "default")
    targets = [f"results/benchmark/{name}.csv" for name in ROWS]
    run = subprocess.run(
        [SNAKEMAKE, "--configfile", "config/config.yaml", "--cores", "2", *targets],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    digests = ROOT / "docs" / "digests" / "default.json"
    verify = subprocess.run(
        [
            sys.executable,
            "-m",
            "g2048",
            "verify",
            str(digests),
            "--results",
            "results",
            "--partial",
        ],
        cwd=where,
        capture_output=True,
        text=True,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    merged = {p.name for p in (where / "results" / "benchmark").glob("*.csv")}
    assert merged == {f"{name}.csv" for name in ROWS}  # what verify compared
