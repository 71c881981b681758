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

Speed notes (numba): the tree is walked with an explicit stack, not recursion, because numba's
cache mishandles self-recursive functions that call into other modules. Shared state travels as
tuples: `ev` = (evaluator kind, weights, table); `mc` = (rollouts, policy, step cap, rng state),
rollouts 0 = static evaluation; `tt` = (keys, values) (see new_table). They are unpacked once
per subtree and every leaf is valued by a direct call: an inlined helper taking an array (or a
tuple holding one) costs two atomic reference-count calls per use around a call that may raise,
more than the evaluation itself. `stats` counts search nodes visited (every board the search
generates: root, chance and move nodes, leaves) [0] and table hits [1].
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.agents.rollout import mean_rollout_gain, merge_potential
from g2048.board import DOWN, LEFT, RIGHT, UP, count_empty, empty_mask, shift
from g2048.evaluators import evaluate
from g2048.rng import mix64

NEG_INF = -np.inf
TWO_PROB, FOUR_PROB = 0.9, 0.1  # the spawn probabilities of a 2 and of a 4
# Columns of the stack frames: boards (uint64), counters (int64), reals (float64). Frame k
# holds the node k plies below the subtree's root: a chance node for even k, a move node for
# odd k. A chance frame's _NEXT is 0 before the 2 in its lowest unspawned cell, 1 before the 4
# (the cell leaves _CELLS then); a move frame's is the next direction to try.
_BOARD, _CELLS = range(2)
_NEXT, _SLOT, _EMPTIES = range(3)
_PROB, _ACC, _TWO = range(3)


@njit(cache=True)
def new_table(log2_size: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty transposition table of 2**log2_size slots (log2_size 0: caching off):
    keys[2i], keys[2i + 1] = board, tag of slot i (tag = stamp << 8 | remaining); values[i]."""
    size = 1 << log2_size
    keys = np.zeros(2 * size, dtype=np.uint64)
    keys[1::2] = np.uint64(0xFFFFFFFFFFFFFFFF)  # a tag no decision uses
    return keys, np.zeros(size, dtype=np.float64)


@njit(cache=True)
def _rollout_value(b, spawn_pending, mc) -> float:  # noqa: ANN001
    """A hybrid leaf's value: merge_potential(b) + the mean gain of mc's rollouts from b."""
    return merge_potential(b) + mean_rollout_gain(b, spawn_pending, mc[0], mc[1], mc[2], mc[3])


# `evaluate` compiled into _chance_sum: the two or three plies it covers hold most of the
# tree's nodes, and a leaf there costs no call. Everywhere else the search calls `evaluate`.
_evaluate_inline = njit(inline="always")(evaluate.py_func)


@njit(cache=True, inline="always")
def _all_moves(b):  # noqa: ANN001, ANN202
    """The boards after each direction (b for an illegal move), in straight-line code, where UP
    and DOWN share one transposition."""
    return shift(b, UP), shift(b, DOWN), shift(b, LEFT), shift(b, RIGHT)


@njit(cache=True)
def _chance_sum(kind, b, weights, table, moves_left) -> tuple[float, int]:  # noqa: ANN001
    """Sum over the empty cells of the chance node b of 0.9 x (its child with a 2 there) + 0.1 x
    (with a 4), and the number of nodes below b. The children are leaves (moves_left 0) or move
    nodes above leaves (moves_left 1; a move node without a legal move is a leaf)."""
    total = 0.0
    nodes = 0
    cells = empty_mask(b)
    while cells:
        cell = cells & (~cells + np.uint64(1))
        cells ^= cell
        two = 0.0
        for four in range(2):
            spawned = b | (cell << np.uint64(four))
            value = NEG_INF
            if moves_left:
                for after in _all_moves(spawned):
                    if after != spawned:
                        nodes += 1
                        leaf = _evaluate_inline(kind, after, weights, table, True)
                        value = max(value, leaf)
            if value == NEG_INF:
                value = _evaluate_inline(kind, spawned, weights, table)
            if four:
                total += TWO_PROB * two + FOUR_PROB * value
            else:
                two = value
        nodes += 2
    return total, nodes


@njit(cache=True, error_model="numpy")
def _subtree(b, remaining, ev, mc, cutoff, tt, stamp, stats, frames) -> float:  # noqa: ANN001
    """Value of the chance node b (a board just after a root move) with `remaining` plies.

    `frames` = (boards, ints, reals): scratch stack arrays of at least `remaining` rows. Each
    pass of the loop values one node, `child` (b first), if it is a leaf, one ply above the
    leaves or cached, or else pushes a frame for it; then folds values into the frames above
    and generates the next child. (error_model="numpy" drops the zero checks of the divisions
    by a chance node's empty-cell count, which is never 0.)
    """
    kind, weights, table = ev
    rollouts = mc[0]
    keys, cached = tt
    boards, ints, reals = frames
    mask = np.uint64(cached.size - 1)  # 0: no table
    nodes = 0
    hits = 0
    top = -1  # the frame of the child's parent
    child, child_rem, child_chance, child_prob = b, remaining, True, 1.0
    while True:
        nodes += 1
        known = True
        value = 0.0
        slot = -1
        if child_rem == 0 or (child_chance and child_prob < cutoff):
            if rollouts:
                value = _rollout_value(child, child_chance, mc)
            else:
                value = evaluate(kind, child, weights, table)
        elif child_chance and mask and top >= 0 and child_rem > 1:  # the root is not cached
            slot = np.int64(mix64(child ^ np.uint64(child_rem)) & mask)
            tag = np.uint64((stamp << 8) | child_rem)
            if keys[2 * slot] == child and keys[2 * slot + 1] == tag:
                hits += 1
                value = cached[slot]
            else:
                known = False
        else:
            known = False
        if not known:  # push the child's frame
            top += 1
            boards[top, _BOARD] = child
            boards[top, _CELLS] = empty_mask(child)
            ints[top, _NEXT] = 0
            ints[top, _SLOT] = slot
            ints[top, _EMPTIES] = count_empty(child)
            reals[top, _PROB] = child_prob
            reals[top, _ACC] = 0.0 if child_chance else NEG_INF
            if child_chance and child_rem <= 2 and not rollouts:  # all its children at once
                reals[top, _ACC], below = _chance_sum(kind, child, weights, table, child_rem - 1)
                boards[top, _CELLS] = 0
                nodes += below
        # fold the child's value into the frames above until one has another child to value
        while True:
            if known:
                if value == NEG_INF and not child_chance:  # a move node with no legal move
                    if rollouts:
                        value = _rollout_value(child, False, mc)
                    else:
                        value = evaluate(kind, child, weights, table)
                if top < 0:
                    stats[0] += nodes
                    stats[1] += hits
                    return value
                if top & 1:
                    reals[top, _ACC] = max(reals[top, _ACC], value)
                elif ints[top, _NEXT] == 1:  # the child was the 2
                    reals[top, _TWO] = value
                else:
                    reals[top, _ACC] += TWO_PROB * reals[top, _TWO] + FOUR_PROB * value
            known = True
            node = boards[top, _BOARD]
            child_rem = remaining - top - 1
            if top & 1:  # a move node: its next legal move
                child_chance = True
                child_prob = reals[top, _PROB]
                d = ints[top, _NEXT]
                child = node
                while d < 4 and child == node:
                    child = shift(node, d)
                    d += 1
                ints[top, _NEXT] = d
                if child != node:
                    break
                value = reals[top, _ACC]
                child_chance = False
            else:  # a chance node: its next spawn
                child_chance = False
                cells = boards[top, _CELLS]
                n = ints[top, _EMPTIES]
                if cells:
                    cell = cells & (~cells + np.uint64(1))
                    if ints[top, _NEXT] == 0:
                        child = node | cell
                        child_prob = reals[top, _PROB] * TWO_PROB / n
                        ints[top, _NEXT] = 1
                    else:
                        child = node | (cell << np.uint64(1))
                        child_prob = reals[top, _PROB] * FOUR_PROB / n
                        ints[top, _NEXT] = 0
                        boards[top, _CELLS] = cells ^ cell
                    break
                value = reals[top, _ACC] / n
                slot = ints[top, _SLOT]
                if slot >= 0:
                    keys[2 * slot] = node
                    keys[2 * slot + 1] = np.uint64((stamp << 8) | (child_rem + 1))
                    cached[slot] = value
                child_chance = True
            child = node  # the frame's node, now valued
            top -= 1


@njit(cache=True)
def move_values(b, depth, ev, mc, cutoff, tt, stamp, stats) -> np.ndarray:  # noqa: ANN001
    """Expectimax value of each direction from root board b (-inf for an illegal move)."""
    values = np.full(4, NEG_INF)
    stats[0] += 1
    rows = max(depth, 1)
    frames = (
        np.empty((rows, 2), dtype=np.uint64),
        np.empty((rows, 3), dtype=np.int64),
        np.empty((rows, 3), dtype=np.float64),
    )
    for d in range(4):
        after = shift(b, d)
        if after != b:
            values[d] = _subtree(after, depth - 1, ev, mc, cutoff, tt, stamp, stats, frames)
    return values
