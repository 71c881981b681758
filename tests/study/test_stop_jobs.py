"""Snakemake's process stopped by SIGINT or SIGTERM (g2048.study.signals): its script jobs get
SIGTERM, and SIGKILL GRACE seconds later if they are still there; other children are left."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from g2048.study.signals import GRACE

# Snakemake's process as the workflow sets it up (onstart), with three children: a script job
# that dies of SIGTERM, one that does not (stuck in compiled code, it never runs its handler),
# and a command that is no job (a cluster's scancel must not be stopped).
PARENT = """
import logging, subprocess, sys, time
from pathlib import Path
from g2048.study.signals import stop_run_on_signals

scripts = Path(sys.argv[1])
(scripts / "tmpa.quick.py").write_text("import time; time.sleep(600)")
(scripts / "tmpb.stuck.py").write_text(
    "import pathlib, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    "pathlib.Path(sys.argv[0] + '.ready').touch(); time.sleep(600)"
)
names = ("tmpa.quick.py", "tmpb.stuck.py")
quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
jobs = [subprocess.Popen([sys.executable, str(scripts / name)], **quiet) for name in names]
other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], **quiet)
stop_run_on_signals(logging.getLogger("snakemake"))
while not (scripts / "tmpb.stuck.py.ready").exists():
    time.sleep(0.01)
try:
    print("ready", flush=True)
    while True:
        time.sleep(0.05)
except KeyboardInterrupt:
    print([job.wait() for job in jobs], other.poll(), flush=True)
    other.kill()
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_stops_its_script_jobs_and_only_them(tmp_path: Path, sig: int) -> None:
    scripts = tmp_path / ".snakemake" / "scripts"
    scripts.mkdir(parents=True)
    run = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(scripts)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert run.stdout.readline() == "ready\n"
        t0 = time.monotonic()
        run.send_signal(sig)
        out, err = run.communicate(timeout=GRACE + 10)
    finally:
        run.kill()
    assert GRACE < time.monotonic() - t0 < GRACE + 5
    assert out == "[-15, -9] None\n"  # SIGTERM, SIGKILL after GRACE s; the other command runs
    name = signal.Signals(sig).name
    assert err.startswith(f"interrupted ({name}, ") and len(err.splitlines()) == 1, err
