"""Progress reports of long stages: timestamped log lines with elapsed time and ETA."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable

from g2048.study.signals import stop_quietly, stopped_status

Log = Callable[[str], None]


def timing(done: int, total: int, start: float) -> str:
    """'<elapsed> s elapsed, ETA <rest> s' after `done` of `total` equal steps begun at `start`
    (a time.perf_counter() reading)."""
    elapsed = time.perf_counter() - start
    return f"{elapsed:.1f} s elapsed, ETA {elapsed / done * (total - done):.0f} s"


def game_progress(log: Log, label: str) -> Callable[[int, int], None]:
    """A play_games progress callback that logs games done / total, elapsed time and ETA, at
    geometrically spaced counts (and the last)."""
    start = time.perf_counter()
    step = 1

    def report(done: int, total: int) -> None:
        nonlocal step
        if done >= step or done == total:
            log(f"{label}: {done}/{total} games, {timing(done, total, start)}")
            step = max(step + 1, int(done * 1.5))

    return report


class ReportedError(ValueError):
    """An error whose message says all a user needs (what is wrong where, and the remedy, as
    a bad result file's does): a script ends on it with that line, without a traceback."""


# The exit status of a job stopped by SIGINT (Ctrl-C), as a shell gives a command it stops.
INTERRUPTED = stopped_status(signal.SIGINT)


def script_log(path: str) -> Log:
    """The log of a Snakemake script: a Log appending timestamped lines to `path`, line
    buffered (progress survives a crash and can be followed with tail -f); stderr goes there
    too, so warnings and tracebacks land in the job's log. A ReportedError that ends the
    script is logged as its message alone; SIGINT (Ctrl-C) or SIGTERM ends it at once with
    one line and exit status 128 + the signal's number (g2048.study.signals), never a
    traceback."""
    stream = open(path, "a", buffering=1)  # noqa: SIM115 (open for the script's lifetime)
    sys.stderr = stream
    stop_quietly(stream)

    def report(kind: type, error: BaseException, trace: object) -> None:
        if isinstance(error, ReportedError):
            stream.write(f"error: {error}\n")
        else:
            sys.__excepthook__(kind, error, trace)

    sys.excepthook = report

    def log(line: str) -> None:
        stream.write(f"{time.strftime('%H:%M:%S')} {line}\n")

    return log
