"""Rollouts for Monte Carlo valuation: play on from a board with a cheap policy.

`random` chooses uniformly among legal moves. `biased` is source 004's heuristic playout: a
softmax (temperature 100) over a quick score (10 x max tile if it sits in a corner, 3 x max
tile on an edge, + 20 per empty cell, + 0.1 x the move's score), used alone for the first 20
moves and mixed with 30% uniform moves after that. The softmax subtracts the largest score
first, which the source's exp(h / 100) omits and overflows on large tiles. `evaluator` plays the
agent's evaluator greedily: the move with the best value after it (+ its score, for an
afterstate network), ties to the first direction.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.engine.bitboard import (
    CORNER_CELLS,
    EDGE_CELLS,
    OVERFLOW,
    cells_of_rank,
    empty_count,
    max_rank,
    play_random,
    shift_scored,
    spawn_tile,
)
from g2048.engine.rng import mix64, next_float, seed_state
from g2048.evaluators import adds_rewards, evaluate

POLICIES = ("random", "biased", "evaluator")  # a policy's number is its index here
RANDOM_POLICY, BIASED_POLICY, EVALUATOR_POLICY = (
    POLICIES.index(name) for name in ("random", "biased", "evaluator")
)
_TEMPERATURE = 100.0
_GREEDY_MOVES = 20
_UNIFORM_SHARE = 0.3


@njit(cache=True)
def merge_potential(b: np.uint64) -> int:
    """The score of a board made only by merging 2s: sum of (rank - 1) * 2**rank over tiles.

    A legal move raises it by exactly the move's score; a spawned 4 raises it by 4 unscored.
    """
    total = 0
    while b:
        r = np.int64(b & np.uint64(0xF))
        if r > 1:
            total += (r - 1) << r
        b >>= np.uint64(4)
    return total


@njit(cache=True)
def _quick_score(after: np.uint64, gained: int) -> float:
    rank = max_rank(after)
    top = cells_of_rank(after, rank)  # the cells holding the max tile
    place = 0.0
    if top & CORNER_CELLS:
        place = 10.0
    elif top & EDGE_CELLS:
        place = 3.0
    return place * (1 << rank) + 20.0 * empty_count(after) + 0.1 * gained


@njit(cache=True)
def _biased_move(b: np.uint64, state: np.ndarray, moves_done: int) -> tuple[int, np.uint64, int]:
    afters = np.empty(4, dtype=np.uint64)
    gains = np.zeros(4, dtype=np.int64)
    scores = np.full(4, -np.inf)
    legal = 0
    for d in range(4):
        afters[d], gains[d] = shift_scored(b, d)
        if afters[d] != b:
            scores[d] = _quick_score(afters[d], gains[d])
            legal += 1
    if legal == 0:
        return -1, b, 0
    uniform = moves_done >= _GREEDY_MOVES and next_float(state) < _UNIFORM_SHARE
    top = scores.max()
    weights = np.zeros(4)
    for d in range(4):
        if scores[d] > -np.inf:
            weights[d] = 1.0 if uniform else np.exp((scores[d] - top) / _TEMPERATURE)
    r = next_float(state) * weights.sum()
    chosen = -1
    for d in range(4):
        if weights[d] > 0.0:
            chosen = d
            r -= weights[d]
            if r < 0.0:
                break
    return chosen, afters[chosen], gains[chosen]


@njit(cache=True)
def evaluator_move(b: np.uint64, ev) -> tuple[int, np.uint64, int]:  # noqa: ANN001
    """The evaluator's greedy move from b: (direction or -1, board after it, its score)."""
    kind, weights, table = ev
    rewards = adds_rewards(kind)
    best, chosen, board, score = -np.inf, -1, b, 0
    for d in range(4):
        after, gained = shift_scored(b, d)
        if after != b:
            v = evaluate(kind, after, weights, table, True) + (gained if rewards else 0)
            if v > best:
                best, chosen, board, score = v, d, after, gained
    return chosen, board, score


@njit(cache=True)
def rollout_gain(b: np.uint64, spawn_first: bool, policy: int, step_cap: int, state, ev) -> int:  # noqa: ANN001
    """Score gained by playing on from b until no move is left or step_cap moves (0: no cap).

    spawn_first: b was just moved and its tile has not spawned yet. ev: the agent's
    (evaluator kind, weights, table), for the evaluator policy.
    """
    cap = step_cap if step_cap > 0 else 1 << 62
    if spawn_first:
        b = spawn_tile(b, state)
    if policy == RANDOM_POLICY:
        return play_random(b, state, cap)[1]
    total = 0
    moves = 0
    while moves < cap:
        if policy == BIASED_POLICY:
            d, after, gained = _biased_move(b, state, moves)
        else:
            d, after, gained = evaluator_move(b, ev)
        if d < 0 or gained >= OVERFLOW:
            break
        total += gained
        b = spawn_tile(after, state)
        moves += 1
    return total


@njit(cache=True)
def rollout_state(base: np.uint64, b: np.uint64, i: int) -> np.ndarray:
    """The generator of rollout i from board b in a decision whose agent drew `base`: every
    rollout has its own, so rollouts can run in any order, on any thread, and equal boards
    in one decision are valued by the same rollouts."""
    return seed_state((np.uint64(base) ^ mix64(np.uint64(b))) + np.uint64(i))


@njit(cache=True)
def mean_rollout_gain(
    b: np.uint64,
    spawn_first: bool,
    rollouts: int,
    policy: int,
    step_cap: int,
    base: np.uint64,
    ev,  # noqa: ANN001
) -> float:
    """Mean score gained over rollouts 0 .. rollouts - 1 from b (see rollout_state)."""
    total = 0
    for i in range(rollouts):
        total += rollout_gain(b, spawn_first, policy, step_cap, rollout_state(base, b, i), ev)
    return total / rollouts
