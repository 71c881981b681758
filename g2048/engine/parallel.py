"""Thread counts: validation, and numba's thread count as a scoped setting."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba


def max_threads() -> int:
    """The most threads numba can use in this process (NUMBA_NUM_THREADS, default: cores)."""
    return int(numba.config.NUMBA_NUM_THREADS)


def check_threads(threads: object) -> int:
    """`threads` as a validated positive integer."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    return threads


@contextmanager
def thread_count(threads: int) -> Iterator[None]:
    """Run the enclosed parallel numba code on `threads` threads, then restore the old count."""
    check_threads(threads)
    if threads > max_threads():
        raise ValueError(
            f"threads={threads} exceeds the {max_threads()} threads numba was started with "
            "(set NUMBA_NUM_THREADS to allow more)"
        )
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)
