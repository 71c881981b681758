"""The workflow as a Snakemake user checks it: `snakemake --lint` finds nothing, and the conda
environment of every rule is the one tools/conda_env.py makes from requirements.lock."""

import subprocess
import sys
from pathlib import Path

from workflow_runs import ROOT, SNAKEMAKE, workdir

ENV_FILE = ROOT / "workflow" / "envs" / "g2048.yaml"


def test_snakemake_lint_finds_nothing(tmp_path: Path) -> None:
    where = workdir(tmp_path / "lint")
    run = subprocess.run([SNAKEMAKE, "--lint"], cwd=where, capture_output=True, text=True)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-3000:]
    assert "Lints for" not in output and "good condition" in output, output[-3000:]


def test_every_rule_has_the_conda_environment_made_from_the_lock() -> None:
    made = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "conda_env.py"), str(ROOT / "requirements.lock")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert ENV_FILE.read_text() == made.stdout, "run `make lock` (or tools/conda_env.py)"
    pinned = [
        line.split(" \\")[0] for line in (ROOT / "requirements.lock").read_text().splitlines()
    ]
    pinned = [p for p in pinned if "==" in p]
    assert pinned and all(f'- "{p} --hash=sha256:' in made.stdout for p in pinned)
    rules = sorted((ROOT / "workflow" / "rules").glob("*.smk"))
    text = "\n".join(path.read_text() for path in rules)
    assert text.count("\nrule ") + text.startswith("rule ") == text.count(
        "    conda:\n        ENV\n"
    )
