"""Stopping a run: SIGINT (Ctrl-C) and SIGTERM (kill, timeout, a cluster's time limit) stop the
smoke study's `snakemake` and its jobs within seconds, wherever they land (a job's start-up, its
imports, its games), without a traceback; the same command resumes the run to the committed
results (g2048.study.signals)."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workflow_runs import ROOT, SNAKEMAKE, workdir

from g2048.study.records.integrity import verify

pytestmark = pytest.mark.slow  # snakemake runs of the smoke study

COMMAND = [SNAKEMAKE, "--configfile", "config/smoke.yaml"]
# The same through the wrapper that `make run` uses, which stops quietly from its first instant
WRAPPED = [sys.executable, "-m", "g2048.study.run", "--configfile", "config/smoke.yaml"]
# What no stop may print, Snakemake's reports of the jobs it stopped included
NOISE = re.compile(r"Traceback|KeyboardInterrupt|Exception|Error in rule|CalledProcessError")


def start(where: Path, cores: int, command: list[str] = COMMAND) -> subprocess.Popen:
    """The smoke study's run in its own process group, as a terminal starts a command (SIGINT
    not ignored, as it is in a shell's background job)."""
    return subprocess.Popen(
        [*command, "--cores", str(cores)],
        cwd=where,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def stop(run: subprocess.Popen, sig: int, group: bool = True) -> tuple[float, str]:
    """Send `sig` to the run's process group (or to Snakemake's process alone): the seconds
    until every process of the group ended, and the run's output."""
    t0 = time.monotonic()
    (os.killpg if group else os.kill)(run.pid, sig)
    output, _ = run.communicate(timeout=120)
    while subprocess.run(["pgrep", "-g", str(run.pid)], capture_output=True).returncode == 0:
        assert time.monotonic() - t0 < 60, "a job outlived its run"
        time.sleep(0.05)
    return time.monotonic() - t0, output


def catches(pid: int, sig: int) -> bool:
    """Whether process `pid` has a handler of `sig` installed (Linux: /proc): of SIGTERM,
    the wrapper's (installed after its SIGINT one; Python's own catches SIGINT from the start)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = int(re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.M)[1], 16)
    return bool(mask >> (sig - 1) & 1)


def job_logs(where: Path) -> str:
    return "".join(p.read_text() for p in (where / "logs").rglob("*.log"))


def wait_for(condition, seconds: float = 600) -> None:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("sig", "group"), [(signal.SIGINT, True), (signal.SIGTERM, True), (signal.SIGTERM, False)]
)
def test_a_signal_stops_the_run_at_once_wherever_it_lands(
    tmp_path: Path, sig: int, group: bool
) -> None:
    """The signal lands at several delays after a job started (in Snakemake's preamble, the
    package's imports, the loading of compiled code, the games): every time the run and its
    jobs end within 10 s, one line says so, and neither the run nor a job's log shows a
    traceback or a failed job. To Snakemake's process alone (kill <pid>), SIGTERM stops its
    jobs too. The run goes on from where it stopped each time."""
    where = workdir(tmp_path / "run")
    scripts = where / ".snakemake" / "scripts"
    name = signal.Signals(sig).name
    for delay in (0.0, 0.05, 0.15, 0.3, 0.6, 1.0, 2.0):
        run = start(where, 1)
        wait_for(lambda: scripts.exists() and any(scripts.iterdir()))  # a job is starting
        time.sleep(delay)
        seconds, output = stop(run, sig, group)
        print(f"{name} to {'the group' if group else 'snakemake'} {delay} s after a job's "
              f"start: stopped in {seconds:.2f} s")  # fmt: skip
        assert seconds < 10, (delay, seconds)
        assert run.returncode != 0
        assert f"interrupted ({name}, " in output, output[-3000:]
        assert not NOISE.search(output), (delay, output[-3000:])
        assert not NOISE.search(job_logs(where)), delay


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_wrapper_stops_quietly_from_the_start_and_unlocked(tmp_path: Path, sig: int) -> None:
    """`python -m g2048.study.run` (make run's snakemake) stopped from its first instruction
    on (before it, Python's own start-up of some 30 ms), while Snakemake starts (its imports,
    the Snakefile's, the check of the results, the DAG, the lock) or runs its first job: one
    line, exit status 128 + the signal, and the directory unlocked (plain snakemake printed a
    traceback on Ctrl-C there, and SIGTERM could leave it locked after the DAG)."""
    where = workdir(tmp_path / "run")
    name = signal.Signals(sig).name
    for delay in (0.0, 0.1, 0.3, 0.6, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0):
        run = start(where, 1, WRAPPED)
        wait_for(lambda run=run: catches(run.pid, signal.SIGTERM))  # its first instruction
        time.sleep(delay)
        seconds, output = stop(run, sig)
        print(f"{name} {delay} s after the start: stopped in {seconds:.2f} s")
        assert seconds < 10 and run.returncode == 128 + sig, (delay, output[-3000:])
        assert f"interrupted ({name}, " in output, output[-3000:]
        assert not NOISE.search(output), (delay, output[-3000:])
        assert not list((where / ".snakemake" / "locks").glob("*")), delay


def test_sigterm_stops_a_run_and_the_same_command_resumes_it_to_the_same_results(
    tmp_path: Path,
) -> None:
    """SIGTERM to the smoke study's run on 2 cores once some jobs have finished and others
    run: every process ends within 10 s; the same command then finishes the run, whose
    result files match the committed digests."""
    where = workdir(tmp_path / "run")
    run = start(where, 2)
    wait_for(lambda: len(list((where / "results").rglob("*.csv"))) >= 12)
    seconds, output = stop(run, signal.SIGTERM)
    assert seconds < 10, seconds
    assert not NOISE.search(output), output[-3000:]
    print(f"stopped {seconds:.2f} s after SIGTERM")
    resumed = subprocess.run([*COMMAND, "--cores", "2"], cwd=where, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr[-4000:]
    assert verify(ROOT / "docs" / "digests" / "smoke.json", where / "results") is None
