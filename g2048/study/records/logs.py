"""Progress reports of long stages: timestamped log lines with elapsed time and ETA."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

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


def timed_line(label: str, games: int, at_once: int, cpus: list[int]) -> str:
    """What a job's log says of its timed games (read back by `plan`, `TIMED`): how many, and
    how many at once, each pinned to a CPU of its own."""
    return f"{label}: {games} timed games, {at_once} at once, each on a CPU of its own {cpus}"


# `timed_line`'s numbers, as `plan` reads them back
TIMED = re.compile(r": (\d+) timed games, (\d+) at once, each on a CPU of its own")

# What a job's log says when it compiles the package's kernels into an empty cache (read back
# by `plan`, whose records of such jobs include minutes of compilation).
COMPILING = "compiling kernels"


def kernel_cache() -> Path:
    """The folder of the package's compiled kernels (set by `import g2048`, per source digest)."""
    return Path(os.environ["NUMBA_CACHE_DIR"])


def announce_compiling(log: Log, console: object = None) -> bool:
    """If the cache of compiled kernels is empty, say in the job's log that this job compiles
    them (`COMPILING`), and, once for all the jobs that find it so (the first to create the
    cache's marker), on the console (`console`, default the process's own stderr, which the
    workflow shows): a few minutes, once per version of the code. True if it is empty."""
    cache = kernel_cache()
    if cache.is_dir() and any(cache.rglob("*.nbi")):
        return False
    log(f"{COMPILING} into an empty cache ({cache}): a few minutes, once per version of the code")
    cache.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(cache / "compiling.announced", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return True
    stream = console if console is not None else sys.__stderr__
    print(
        f"g2048: {COMPILING} into an empty cache ({cache}): the first jobs take a few minutes "
        "more, once per version of the code (`make warm` compiles them ahead of a run)",
        file=stream,
        flush=True,
    )
    return True
