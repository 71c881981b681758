"""Parallel search within one move: the root's spawned boards (each legal move x each empty cell x
2 or 4) are searched as separate subtrees on numba's threads, which claim them one at a time from
an atomic counter, and share one transposition table.

The values equal a serial search's bit for bit, on any number of threads: a subtree's value is
a function of its board, depth and path probability alone; the table changes no value (see
g2048.agents.expectimax), whichever thread wrote an entry and in whatever order; an entry torn by
two threads writing its slot at once fails its checksum and reads as a miss; and the root's
values are summed from the subtrees' in the serial search's order. The nodes visited do depend on
the threads' timing (which subtree finds a shared entry first), so node budgets are refused with
parallel search, and its node counts are not byte-reproducible.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from g2048.agents.expectimax import (
    FOUR_PROB,
    NEG_INF,
    NO_LIMIT,
    TWO_PROB,
    four_values,
    move_values,
    rollout_leaf,
)
from g2048.engine.bitboard import empty_count, empty_mask, move_score, shift
from g2048.engine.lockfree import fetch_add
from g2048.evaluators import adds_rewards, evaluate

# Start numba's threading layer now: code that calls split_move_values, loaded from numba's cache
# without compiling anything parallel first, would otherwise find its entry points missing (and
# crash). g2048.agents imports this module, so it runs before any agent code is loaded.
numba.get_num_threads()

# numpy scalars, not constants, which numba would type as literals: see deepening
_NONE, _SHARED = np.int64(NO_LIMIT), np.bool_(True)


@njit(cache=True)
def _subtrees(b: np.uint64) -> tuple[np.ndarray, np.ndarray]:
    """The root's spawned boards in serial search order, with their path probabilities."""
    count = 0
    for d in range(4):
        after = shift(b, d)
        if after != b:
            count += 2 * empty_count(after)
    boards = np.empty(count, dtype=np.uint64)
    probs = np.empty(count)
    k = 0
    for d in range(4):
        after = shift(b, d)
        if after == b:
            continue
        n = empty_count(after)
        cells = empty_mask(after)
        while cells:
            cell = cells & (~cells + np.uint64(1))
            cells ^= cell
            boards[k], probs[k] = after | cell, TWO_PROB / n
            boards[k + 1], probs[k + 1] = after | (cell << np.uint64(1)), FOUR_PROB / n
            k += 2
    return boards, probs


@njit(cache=True)
def _subtree_value(b, depth, prob, ev, mc, cutoff, tt, stamp, stats, deadline, upper) -> tuple:  # noqa: ANN001, E501
    """The value of move node b (a spawned board) searched to `depth` plies, as the serial search
    values it below the root, and whether the search completed."""
    values, done = move_values(
        b, depth, ev, mc, cutoff, tt, stamp, stats, _NONE, deadline, prob, _SHARED, upper
    )
    best = max(max(values[0], values[1]), max(values[2], values[3]))
    if best == NEG_INF:  # no legal move: a leaf
        kind, weights, table = ev
        best = rollout_leaf(b, False, mc, ev) if mc[0] else evaluate(kind, b, weights, table)
    return best, done


@njit(cache=True, parallel=True)
def split_move_values(
    b, depth, ev, mc, cutoff, tt, stamp, stats, deadline, threads, upper
) -> tuple:  # noqa: ANN001, E501
    """move_values(b, depth, ...) (depth >= 3) with the root's subtrees searched by `threads`
    workers on numba's threads: the same values, and whether every subtree completed before
    the deadline (ns, 0: none). upper: as for move_values (Star1 prunes within each subtree;
    every root value is exact)."""
    b = np.uint64(b)
    boards, probs = _subtrees(b)
    count = boards.size
    values = np.empty(count)
    done = np.ones(count, dtype=np.bool_)
    counts = np.zeros((count, 2), dtype=np.int64)  # nodes, table hits of each subtree
    claimed = np.zeros(1, dtype=np.int64)
    for _ in prange(threads):  # (numba.get_num_threads() here would make it uncacheable)
        while True:
            i = fetch_add(claimed, 1)
            if i >= count:
                break
            values[i], done[i] = _subtree_value(
                boards[i],
                depth - 2,
                probs[i],
                ev,
                mc,
                cutoff,
                tt,
                stamp,
                counts[i],
                deadline,
                upper,
            )
    rewards = adds_rewards(ev[0]) and not mc[0]
    result = np.full(4, NEG_INF)
    k = 0
    nodes = 1
    for d in range(4):
        after = shift(b, d)
        if after == b:
            continue
        acc = 0.0
        n = empty_count(after)
        for _ in range(n):
            acc += TWO_PROB * values[k] + FOUR_PROB * values[k + 1]
            k += 2
        result[d] = acc / n + (move_score(b, d) if rewards else 0.0)
        nodes += 1
    stats[0] += nodes + counts[:, 0].sum()
    stats[1] += counts[:, 1].sum()
    return four_values(result), done.all()
