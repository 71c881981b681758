"""The smoke study through profiles/slurm on a real SLURM (.ci/slurm-up.sh; `make test-slurm`):
a job of every game-playing rule gives results byte-identical to a local run's (the committed
smoke digests, which `make test` checks a whole local run against), every game job runs as a
SLURM job under the profile's account, and a failing job is reported as a failure, not a hang."""

import re
import subprocess
from pathlib import Path

import pytest
import yaml
from workflow_runs import ROOT, snakemake, workdir

from g2048.study.records.integrity import verify

pytestmark = pytest.mark.slurm
# The profile unchanged, but for how long Snakemake waits between status queries after a job
# ends (the profile's 20 s spare a real cluster's sacct; here, 2 CPUs and a hundred seconds-long
# jobs, they would make the wait most of the test's time)
PROFILE = ("--workflow-profile", "profiles/slurm", "--slurm-init-seconds-before-status-checks", "2")
ACCOUNT = yaml.safe_load((ROOT / "profiles/slurm/config.yaml").read_text())["default-resources"][
    "slurm_account"
]


def sacct(*job_ids: str) -> dict[str, tuple[str, str]]:
    """Job id -> (account, state) of the given SLURM jobs, from the accounting database."""
    out = subprocess.run(
        ["sacct", "-X", "-n", "-P", "-o", "JobID,Account,State", "-j", ",".join(job_ids)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {job: (account, state) for job, account, state in (r.split("|") for r in out.split())}


def submitted(output: str) -> list[str]:
    """The SLURM job ids a Snakemake run reports having submitted."""
    return re.findall(r"submitted with SLURM jobid (\d+)", output)


@pytest.fixture(scope="module", autouse=True)
def cluster() -> None:
    up = subprocess.run(["sinfo", "-h", "-o", "%a"], capture_output=True, text=True)
    if up.returncode != 0 or "up" not in up.stdout:
        pytest.fail(f"no SLURM cluster answers (start one with .ci/slurm-up.sh): {up.stderr}")


# One target (and so every job it needs) per rule that plays games: tuning and training (two
# seeds each, their picks), a run's held-out progress, a validation, a transfer and two
# benchmark rows, each in its shards.
# The whole smoke study's 70 cluster jobs would add nothing but minutes: the same rules, the
# same profile, more often.
TARGETS = (
    "results/benchmark/balanced-d2.csv",
    "results/benchmark/ntuple-d1.csv",
    "results/tune/nsga2/seed1_progress.csv",
    "results/validate/hand-classic4.csv",
    "results/transfer/nneonneo/depth1.csv",
)


def test_the_smoke_study_on_slurm_equals_the_local_run(tmp_path: Path) -> None:
    where = workdir(tmp_path / "slurm")
    # one CPU per job, so that the CI node's two CPUs run two jobs at a time (the profile asks
    # two per job); results do not depend on threads, which the digests check once more
    one_cpu = ("--set-threads", "tune=1", "validate=1", "transfer=1", "benchmark_shard=1")
    # the targets after a flag: --configfile (first) and --set-threads take lists
    run = snakemake(where, "--printshellcmds", *TARGETS, *PROFILE, *one_cpu, timeout=1500)
    assert run.returncode == 0, run.stderr[-4000:]
    smoke = ROOT / "docs" / "digests" / "smoke.json"
    difference = verify(smoke, where / "results", partial=True)
    assert difference is None, difference
    for target in TARGETS:
        assert (where / target).is_file(), target
    jobs = submitted(run.stdout + run.stderr)
    plan = snakemake(where, "-n", *TARGETS, "--forceall", "--quiet", "rules")
    assert len(jobs) == cluster_jobs(plan.stdout + plan.stderr), plan.stdout
    assert set(sacct(*jobs).values()) == {(ACCOUNT, "COMPLETED")}


def cluster_jobs(dry_run_summary: str) -> int:
    """Jobs of the rules that play games (the others are localrules), from the job counts
    of `snakemake -n --quiet rules`."""
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", dry_run_summary, flags=re.M))
    rules = ("tune", "train", "progress", "validate", "transfer", "benchmark_shard")
    return sum(int(counts[rule]) for rule in rules)


def test_a_failing_job_is_reported_not_waited_for(tmp_path: Path) -> None:
    where = workdir(tmp_path / "failing")
    script = where / "workflow" / "scripts" / "tune.py"
    script.write_text('raise SystemExit("forced failure (test_slurm)")\n' + script.read_text())
    run = snakemake(where, *PROFILE, "results/tune/nsga2/seed1.json", timeout=600)
    output = run.stdout + run.stderr
    assert run.returncode not in (0, 124), output[-4000:]  # 124: timed out, i.e. it hung
    assert "Error in rule tune" in output
    jobs = submitted(output)
    assert len(jobs) == 2  # the job and its one retry (the profile's retries: 1)
    assert set(sacct(*jobs).values()) == {(ACCOUNT, "FAILED")}
    assert not (where / "results" / "tune" / "nsga2" / "seed1.json").exists()
    logs = list((where / ".snakemake" / "slurm_logs" / "rule_tune").rglob("*.log"))
    assert len(logs) == 2 and all("forced failure" in p.read_text() for p in logs)
