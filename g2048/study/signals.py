"""Stopping a run: SIGINT (Ctrl-C) and SIGTERM (kill, timeout, systemd, a cluster's time limit)
stop a Snakemake run and its jobs at once, quietly, and the same command resumes it.

Two halves. A job (`stop_quietly`, which script_log installs) exits at the signal with status
128 + its number and one line in its log, never a traceback: its result files and checkpoints
are written whole or not at all (a killed job is rerun, a checkpoint resumed), so there is
nothing to clean up. Before that, while the job starts (Snakemake's preamble, the package's
imports), it ignores SIGINT (workflow/rules/common.smk starts it so) and dies of SIGTERM as
Python does by default, quietly too. Snakemake's process (`stop_run_on_signals`, installed at
the run's start) takes either signal as Ctrl-C: it sends its running jobs SIGTERM (SIGKILL
after GRACE seconds), stops scheduling and cancels its cluster jobs, and says so in one line
instead of reporting each stopped job as failed. Snakemake's own SIGTERM handler would wait
for the running jobs to end, cluster jobs included. Only the standard library is imported
here, so that a job installs the handler before its heavy imports.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
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


def stop_run_on_signals(jobs: Callable[[], Iterable[int]], logger: logging.Logger) -> None:
    """In Snakemake's process, once its scheduler runs: SIGINT or SIGTERM stops the run as
    Ctrl-C does, to whichever process it was sent. One line on stderr; the running jobs
    (`jobs()`: their process ids) get SIGTERM, then SIGKILL after GRACE seconds; the scheduler
    gets KeyboardInterrupt, on which it starts no job, cancels its cluster jobs and waits for
    its local ones; `logger`'s errors (Snakemake's reports of the jobs stopped) are dropped."""
    stopping = threading.Event()

    def forward() -> None:
        first: dict[int, float] = {}
        while True:
            now = time.monotonic()
            for pid in list(jobs()):
                late = now - first.setdefault(pid, now) > GRACE
                if late or first[pid] == now:
                    with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                        os.kill(pid, signal.SIGKILL if late else signal.SIGTERM)
            time.sleep(0.1)

    def stop(signum: int, frame: object) -> None:
        if stopping.is_set():
            return
        stopping.set()
        logger.addFilter(lambda record: record.levelno < logging.ERROR)
        sys.stderr.write(
            f"interrupted ({_named(signum)}): the running jobs stop; the same snakemake "
            "command resumes the run\n"
        )
        sys.stderr.flush()
        threading.Thread(target=forward, daemon=True).start()
        raise KeyboardInterrupt

    for sig in STOPPING:
        signal.signal(sig, stop)
