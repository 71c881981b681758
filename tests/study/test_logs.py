"""The log of a pipeline job's script: Ctrl-C (SIGINT) or SIGTERM ends the job with one line and
exit status 128 + the signal's number."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from g2048.study.records.logs import INTERRUPTED

ROOT = Path(__file__).resolve().parents[2]

# A job's script as workflow/scripts/ write them: the log first, then work (here, games that
# outlast the test) that Ctrl-C interrupts.
SCRIPT = """
import sys
from g2048.agents import AgentConfig
from g2048.engine.rng import game_seeds
from g2048.play import play_games
from g2048.study.records.logs import script_log

log = script_log(sys.argv[1])
play_games(AgentConfig("greedy"), game_seeds(1, "warm-up", 1))  # compiled or loaded
log("playing")
play_games(AgentConfig("expectimax", depth=5), game_seeds(1, "long", 1000), threads=1)
"""


@pytest.mark.parametrize(
    ("sig", "line"),
    [
        (signal.SIGINT, "interrupted (SIGINT, e.g. Ctrl-C)"),
        (signal.SIGTERM, "interrupted (SIGTERM, e.g. kill, timeout or a time limit)"),
    ],
)
def test_a_signal_ends_a_job_with_one_line_and_its_exit_status(
    tmp_path: Path, sig: int, line: str
) -> None:
    log = tmp_path / "job.log"
    job = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(log)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        # as a terminal's job gets it: a shell's background job (`make test &`) ignores SIGINT
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 300
        while not (log.exists() and "playing" in log.read_text()):
            assert job.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        time.sleep(0.5)
        job.send_signal(sig)
        assert job.wait(timeout=10) == 128 + sig
        assert INTERRUPTED == 130
    finally:
        job.kill()
    lines = log.read_text().splitlines()
    assert lines[-1].endswith(f"{line}: the job stopped; the same snakemake command runs it again")
    assert "Traceback" not in log.read_text() and lines[-2].endswith("playing")
