"""Expectimax search over player moves and exact chance layers, with an optional probability
cutoff and a transposition table (the structure of nneonneo/2048-ai, made reproducible).

`depth` counts plies below the root board: 1 = M E (greedy), 2 = M C E, 3 = M C M E, ...
A chance node whose path probability falls below `cutoff` is valued by the static evaluation
of its board (0 disables the cutoff). The table caches chance-node values keyed by
(board, remaining depth) for the current decision only (entries carry the decision's stamp);
with cutoff 0 a cached value equals the recomputed one exactly.

Leaves are valued by the evaluator or, for the hybrid agent (seed 004, 4.4), by Monte Carlo
rollouts: merge_potential(leaf) + mean rollout gain, which is the expected final score up to
the score already made and the 4 points of each 4 spawned along the search path (the same in
expectation below every move of a max node at fixed depth, so decisions do not change).

The tree is walked with an explicit stack, not recursion: a numba call costs several ns per
array argument, and numba's cache mishandles self-recursive functions that call into other
modules. Shared state travels as tuples: `ev` = (evaluator kind, weights, table); `mc` =
(rollouts, policy, step cap, rng state), rollouts 0 = static evaluation; `tt` = (keys, values)
(see new_table). `stats` counts nodes visited [0] and table hits [1].
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.agents.rollout import mean_rollout_gain, merge_potential
from g2048.board import count_empty, empty_mask, shift
from g2048.evaluators import evaluate
from g2048.rng import mix64

NEG_INF = -np.inf
# Columns of the stack frames: boards (uint64), counters (int64), reals (float64).
_BOARD, _CELLS, _CELL = range(3)
_REMAINING, _NEXT, _EMPTIES, _SLOT, _CHANCE = range(5)
_PROB, _ACC, _TWO = range(3)


@njit(cache=True)
def new_table(log2_size: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty transposition table of 2**log2_size slots (log2_size 0: caching off):
    keys[2i], keys[2i + 1] = board, tag of slot i (tag = stamp << 8 | remaining); values[i]."""
    size = 1 << log2_size
    keys = np.zeros(2 * size, dtype=np.uint64)
    keys[1::2] = np.uint64(0xFFFFFFFFFFFFFFFF)  # a tag no decision uses
    return keys, np.zeros(size, dtype=np.float64)


@njit(cache=True, inline="always")
def _leaf(b, spawn_pending, ev, mc) -> float:  # noqa: ANN001
    """Static value of a leaf: the evaluator's, or rollouts' when mc asks for them."""
    if mc[0] > 0:
        return merge_potential(b) + mean_rollout_gain(b, spawn_pending, mc[0], mc[1], mc[2], mc[3])
    return evaluate(ev[0], b, ev[1], ev[2])


@njit(cache=True, inline="always")
def _max_of_leaves(b, ev, mc, stats) -> float:  # noqa: ANN001
    """A max node with one ply left: the best leaf among its moves (a dead board's own value)."""
    best = NEG_INF
    for d in range(4):
        after = shift(b, d)
        if after != b:
            stats[0] += 1
            best = max(best, _leaf(after, True, ev, mc))
    return _leaf(b, False, ev, mc) if best == NEG_INF else best


@njit(cache=True, inline="always")
def _chance_of_leaves(b, ev, mc, stats) -> float:  # noqa: ANN001
    """A chance node with one ply left: the expected leaf over every spawn."""
    n = count_empty(b)
    stats[0] += 2 * n
    total = 0.0
    cells = empty_mask(b)
    while cells:
        cell = cells & (~cells + np.uint64(1))
        cells ^= cell
        two = _leaf(b | cell, False, ev, mc)
        total += 0.9 * two + 0.1 * _leaf(b | (cell << np.uint64(1)), False, ev, mc)
    return total / n


@njit(cache=True)
def _subtree(b, remaining, ev, mc, cutoff, tt, stamp, stats) -> float:  # noqa: ANN001
    """Value of the chance node b (a board just after a root move) with `remaining` plies."""
    stats[0] += 1
    if remaining == 0:
        return _leaf(b, True, ev, mc)
    if remaining == 1:
        return _chance_of_leaves(b, ev, mc, stats)
    keys, table = tt
    use_tt = table.size > 1
    mask = np.uint64(table.size - 1)
    boards = np.zeros((remaining + 1, 3), dtype=np.uint64)
    ints = np.zeros((remaining + 1, 5), dtype=np.int64)
    reals = np.zeros((remaining + 1, 3))
    # push the root chance node
    boards[0, _BOARD] = b
    boards[0, _CELLS] = empty_mask(b)
    ints[0, _REMAINING] = remaining
    ints[0, _EMPTIES] = count_empty(b)
    ints[0, _SLOT] = -1
    ints[0, _CHANCE] = 1
    reals[0, _PROB] = 1.0
    top = 0
    while True:
        # the next child of the top frame, or its value when it has none left
        node = boards[top, _BOARD]
        rem = ints[top, _REMAINING]
        chance = ints[top, _CHANCE] == 1
        child = node
        prob = reals[top, _PROB]
        done = False
        if chance:
            n = ints[top, _EMPTIES]
            if ints[top, _NEXT] == 0:  # next: a 2 in the next empty cell
                cells = boards[top, _CELLS]
                if cells == 0:
                    done = True
                else:
                    cell = cells & (~cells + np.uint64(1))
                    boards[top, _CELLS] = cells ^ cell
                    boards[top, _CELL] = cell
                    child = node | cell
                    prob = prob * 0.9 / n
            else:  # next: a 4 in the same cell
                child = node | (boards[top, _CELL] << np.uint64(1))
                prob = prob * 0.1 / n
        else:
            d = ints[top, _NEXT]
            while d < 4:
                child = shift(node, d)
                d += 1
                if child != node:
                    break
            ints[top, _NEXT] = d
            done = child == node
        if done:
            if chance:
                value = reals[top, _ACC] / ints[top, _EMPTIES]
                slot = ints[top, _SLOT]
                if slot >= 0:
                    keys[2 * slot] = node
                    keys[2 * slot + 1] = np.uint64((stamp << 8) | rem)
                    table[slot] = value
            else:
                value = reals[top, _ACC]
                if value == NEG_INF:  # no legal move: a dead board
                    value = _leaf(node, False, ev, mc)
            if top == 0:
                return value
            top -= 1
        else:
            # value the child now if it is a leaf or cached; otherwise push it
            stats[0] += 1
            child_rem = rem - 1
            child_chance = not chance
            known = False
            value = 0.0
            slot = -1
            if child_rem == 0 or (child_chance and prob < cutoff):
                value = _leaf(child, child_chance, ev, mc)
                known = True
            elif child_rem == 1:  # the bottom two plies without stack frames: most nodes
                if child_chance:
                    value = _chance_of_leaves(child, ev, mc, stats)
                else:
                    value = _max_of_leaves(child, ev, mc, stats)
                known = True
            elif child_chance and use_tt:
                slot = np.int64(mix64(child ^ np.uint64(child_rem)) & mask)
                tag = np.uint64((stamp << 8) | child_rem)
                if keys[2 * slot] == child and keys[2 * slot + 1] == tag:
                    stats[1] += 1
                    value = table[slot]
                    known = True
            if not known:
                top += 1
                boards[top, _BOARD] = child
                boards[top, _CELLS] = empty_mask(child) if child_chance else np.uint64(0)
                ints[top, _REMAINING] = child_rem
                ints[top, _NEXT] = 0
                ints[top, _EMPTIES] = count_empty(child)
                ints[top, _SLOT] = slot
                ints[top, _CHANCE] = 1 if child_chance else 0
                reals[top, _PROB] = prob
                reals[top, _ACC] = 0.0 if child_chance else NEG_INF
                continue
        # fold `value` into the frame now on top
        if ints[top, _CHANCE] == 1:
            if ints[top, _NEXT] == 0:
                reals[top, _TWO] = value
                ints[top, _NEXT] = 1
            else:
                reals[top, _ACC] += 0.9 * reals[top, _TWO] + 0.1 * value
                ints[top, _NEXT] = 0
        else:
            reals[top, _ACC] = max(reals[top, _ACC], value)


@njit(cache=True)
def move_values(b, depth, ev, mc, cutoff, tt, stamp, stats) -> np.ndarray:  # noqa: ANN001
    """Expectimax value of each direction from root board b (-inf for an illegal move)."""
    values = np.full(4, NEG_INF)
    stats[0] += 1
    for d in range(4):
        after = shift(b, d)
        if after != b:
            values[d] = _subtree(after, depth - 1, ev, mc, cutoff, tt, stamp, stats)
    return values
