"""Stopping a run: SIGINT (Ctrl-C) and SIGTERM (kill, timeout, systemd, a cluster's time limit)
stop a Snakemake run and its jobs at once, quietly, and the same command resumes it.

A job (`stop_quietly`, which script_log installs) exits at the signal with status 128 + its
number and one line in its log, never a traceback: there is nothing to clean up, as after
SIGKILL (Snakemake reruns a job whose outputs it marked incomplete; a checkpoint is written
to a temporary file, then renamed). Before that, while the job starts (Snakemake's preamble,
the package's imports), it ignores SIGINT (workflow/rules/common.smk starts it so) and dies of
SIGTERM as Python does by default, quietly too. Snakemake's process (`stop_run_on_signals`,
installed as the run starts its jobs) takes either signal as Ctrl-C: it sends its running
script jobs SIGTERM (SIGKILL after GRACE seconds), stops scheduling and cancels its cluster
jobs, and says so in one line instead of reporting each stopped job as failed; Snakemake's own
SIGTERM handler would wait for the running jobs to end, cluster jobs included. Before its jobs
start, `run_snakemake` (`python -m g2048.study.run`, as `make run` runs it) stops Snakemake in
that line too, unlocked, where a Ctrl-C printed a traceback. Only the standard library is
imported here, so that the handlers come before the heavy imports."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

STOPPING = (signal.SIGINT, signal.SIGTERM)
# Who sends each: the line a stopped job or run writes names it.
SENDERS = {signal.SIGINT: "e.g. Ctrl-C", signal.SIGTERM: "e.g. kill, timeout or a time limit"}
# Seconds a job has after SIGTERM before Snakemake's process kills it (a job stops at once
# unless it is inside a long compiled call, such as a block of training games).
GRACE = 5.0


def stopped_status(signum: int) -> int:
    """A process's exit status after signal `signum` stopped it, as a shell gives it."""
    return 128 + signum


def _named(signum: int) -> str:
    return f"{signal.Signals(signum).name}, {SENDERS[signal.Signals(signum)]}"


def stop_quietly(log: TextIO | None = None) -> None:
    """SIGINT and SIGTERM end this process at once with status 128 + the signal's number,
    writing one timestamped line to `log` (a job's log) if given, without a traceback."""

    def stop(signum: int, frame: object) -> None:
        for sig in STOPPING:  # once: a second signal must not interrupt the line
            signal.signal(sig, signal.SIG_IGN)
        # the log full, gone, or in the middle of a line this thread writes: no line
        with contextlib.suppress(OSError, RuntimeError):
            if log is not None:
                log.write(
                    f"{time.strftime('%H:%M:%S')} interrupted ({_named(signum)}): the job "
                    "stopped; the same snakemake command runs it again\n"
                )
                log.flush()
        os._exit(stopped_status(signum))

    for sig in STOPPING:
        signal.signal(sig, stop)


# The signal that stopped this process's run, once one did.
_STOPPED: list[int] = []


def _stopping(signum: int) -> bool:
    """Whether `signum` is the first signal to stop this run: then it says so in one line."""
    if _STOPPED:
        return False
    _STOPPED.append(signum)
    sys.stderr.write(
        f"interrupted ({_named(signum)}): the run stops, its running jobs with it; the same "
        "command resumes it\n"
    )
    sys.stderr.flush()
    return True


def script_jobs(parent: int) -> list[int]:
    """The running script jobs of Snakemake's process `parent`: its children that run a
    Snakemake script (python .snakemake/scripts/tmp....py; the job's Python itself, through the
    `exec` of the rules' shell prefix). Read off /proc (Linux); none elsewhere. Not the other
    commands it runs (a cluster's sbatch, sacct and scancel)."""
    found = []
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            if ppid == parent and b"/.snakemake/scripts/" in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):  # it ended meanwhile
            continue
    return found


def stop_run_on_signals(logger: logging.Logger) -> None:
    """In Snakemake's process, once its scheduler runs: SIGINT or SIGTERM stops the run as
    Ctrl-C does, to whichever process it was sent. One line on stderr; the running jobs
    (script_jobs) get SIGTERM, then SIGKILL after GRACE seconds; the scheduler gets
    KeyboardInterrupt, on which it starts no job, cancels its cluster jobs and waits for its
    local ones; `logger`'s errors (Snakemake's reports of the jobs stopped) are dropped."""

    def forward() -> None:
        first: dict[int, float] = {}
        while True:
            now = time.monotonic()
            for pid in script_jobs(os.getpid()):
                late = now - first.setdefault(pid, now) > GRACE
                if late or first[pid] == now:
                    with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                        os.kill(pid, signal.SIGKILL if late else signal.SIGTERM)
            time.sleep(0.1)

    def stop(signum: int, frame: object) -> None:
        if not _stopping(signum):
            return
        logger.addFilter(lambda record: record.levelno < logging.ERROR)
        threading.Thread(target=forward, daemon=True).start()
        raise KeyboardInterrupt

    for sig in STOPPING:
        signal.signal(sig, stop)


def run_snakemake(argv: list[str]) -> int:
    """`snakemake argv`, stopped by SIGINT or SIGTERM from its first instruction on as it is
    once it runs jobs (stop_run_on_signals): in one line, never a traceback (Snakemake's start,
    its imports and the Snakefile's, printed one on Ctrl-C), its directory unlocked (SIGTERM
    before its scheduler started killed it locked); then exit status 128 + the signal."""

    def stop(signum: int, frame: object) -> None:
        if _stopping(signum):
            raise KeyboardInterrupt

    for sig in STOPPING:
        signal.signal(sig, stop)
    try:
        from snakemake.cli import main

        main(argv)
    except (KeyboardInterrupt, SystemExit) as exc:
        if not _STOPPED:
            raise
        if isinstance(exc, SystemExit) and exc.code not in (0, 1, None):
            raise  # not how a stopped run ends (1): Snakemake's own status
    return stopped_status(_STOPPED[0]) if _STOPPED else 0
