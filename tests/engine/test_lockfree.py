"""The atomic counter from which the threads of a parallel loop claim work items."""

import numpy as np
from numba import njit, prange

from g2048.engine.lockfree import fetch_add
from g2048.engine.parallel import thread_count


@njit(parallel=True)
def _claim_all(tasks: int, threads: int, counter: np.ndarray, claimed: np.ndarray) -> None:
    for _ in prange(threads):
        while True:
            task = fetch_add(counter, 1)
            if task >= tasks:
                break
            claimed[task] += 1


def test_threads_claiming_from_the_counter_claim_each_item_exactly_once() -> None:
    tasks = 200_000
    for threads in (1, 2):
        counter = np.zeros(1, dtype=np.int64)
        claimed = np.zeros(tasks, dtype=np.int64)
        with thread_count(threads):
            _claim_all(tasks, threads, counter, claimed)
        assert (claimed == 1).all()
        assert counter[0] == tasks + threads  # each thread's last claim found none left
