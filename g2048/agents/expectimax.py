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
from g2048.board import count_empty, empty_mask, shift
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


@njit(cache=True, error_model="numpy")
def _subtree(b, remaining, ev, mc, cutoff, tt, stamp, stats, frames) -> float:  # noqa: ANN001
    """Value of the chance node b (a board just after a root move) with `remaining` plies.

    `frames` = (boards, ints, reals), scratch stack arrays of at least `remaining` rows. Each
    pass of the loop values one node (`child`: the root first) if it is a leaf, a node one ply
    above the leaves or cached, or pushes a frame for it; then folds the value into the frames
    above it and generates the next child. (error_model="numpy": no zero check on the divisions
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
        elif child_rem == 1 and child_chance:  # the expected leaf over every spawn
            n = count_empty(child)
            nodes += 2 * n
            total = 0.0
            cells = empty_mask(child)
            while cells:
                cell = cells & (~cells + np.uint64(1))
                cells ^= cell
                for four in range(2):
                    spawned = child | (cell << np.uint64(four))
                    if rollouts:
                        leaf = _rollout_value(spawned, False, mc)
                    else:
                        leaf = evaluate(kind, spawned, weights, table)
                    if four:
                        total += TWO_PROB * value + FOUR_PROB * leaf
                    else:
                        value = leaf
            value = total / n
        elif child_rem == 1:  # the best leaf among the moves (NEG_INF if none: dead)
            value = NEG_INF
            for d in range(4):
                after = shift(child, d)
                if after != child:
                    nodes += 1
                    if rollouts:
                        leaf = _rollout_value(after, True, mc)
                    else:
                        leaf = evaluate(kind, after, weights, table)
                    value = max(value, leaf)
        elif child_chance and mask:
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
        # fold the value into the frames above and find the next child to value
        while True:
            node = boards[top, _BOARD]
            chance = top % 2 == 0
            if known:
                if value == NEG_INF and not chance and ...:
                    pass
            break
