"""The sources' own rules of search, so that a source's claim is judged on its own play (issue 50):
`AgentConfig.rules` "source001" (source 001's Python expectimax) or "source004" (source 004's
Java ExpectimaxAI, MonteCarloAI and HybridAI). The board engine and the evaluators are the
project's; only what the sources' searches do differently from g2048's is here, each rule read
from the source's code (tests/oracles holds the programs and compares their moves):

- A board with no legal move is valued by the evaluator like any board (g2048: DEAD_VALUE, below
  every live board), at any depth.
- A chance node's arithmetic. Source 001 adds 0.9 x the value of each cell's 2, then 0.1 x its
  4's, and divides the total by the empty cells; source 004 adds (0.9 / n) x the 2's value and
  (0.1 / n) x the 4's (g2048: 0.9 x two + 0.1 x four per cell, the sum divided by n). Equal in
  exact arithmetic, they round differently and so break near-ties differently.
- The root's order: the first best move wins, source 001 trying left, up, right, down, source
  004 up, down, left, right (g2048's order).
- Source 004's Monte Carlo valuation (MonteCarloAI; HybridAI's leaves): the mean final score of
  `rollouts` playouts from the board, each a uniformly random legal move (`nextInt` over the
  legal directions in up, down, left, right order) then the source's spawn (`nextInt` over the
  empty cells in row-major order, `nextDouble() < 0.9` for a 2), until no move is left. A
  playout starts by moving from the board it values: below a root move, from the afterstate,
  with no tile spawned first. Every number comes, in the source's order, from one
  java.util.Random stream (g2048.engine.javarng) seeded per decision: the source draws from a
  `new Random()` per board copy and per playout, which no program can seed; one stream draws the
  same uniform numbers and makes the source's moves reproducible. A score is counted from 0 at
  the root (the source adds the game's score so far, the same to every move).
MonteCarloAI is HybridAI at depth 1: both value each root move by the rollouts of its afterstate.
No cutoff, table, budget or parallel search: the sources have none.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.engine.bitboard import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    empty_count,
    empty_mask,
    is_game_over,
    shift,
    shift_scored,
)
from g2048.engine.javarng import next_double, next_int
from g2048.evaluators import evaluate

RULES = ("g2048", "source001", "source004")
G2048, SOURCE001, SOURCE004 = range(len(RULES))
# The order in which each rule's root tries the directions (the first best wins).
ORDERS = np.array(
    [[UP, DOWN, LEFT, RIGHT], [LEFT, UP, RIGHT, DOWN], [UP, DOWN, LEFT, RIGHT]], dtype=np.int64
)
TWO_PROB, FOUR_PROB = 0.9, 0.1


@njit(cache=True)
def source_spawn(b: np.uint64, state: np.ndarray) -> np.uint64:
    """Source 004's Game2048.addRandomTile: a 2 (nextDouble() < 0.9) or a 4 on the nextInt(n)-th
    of the n empty cells in row-major order (the board's nibble order); b must not be full."""
    cells = empty_mask(b)
    for _ in range(next_int(state, empty_count(b))):
        cells &= cells - np.uint64(1)
    cell = cells & (~cells + np.uint64(1))
    return b | (cell * np.uint64(1 if next_double(state) < 0.9 else 2))


@njit(cache=True)
def source_playout(b: np.uint64, state: np.ndarray) -> int:
    """The score a playout of source 004's (randomPlayout) makes from b, moving first."""
    gained = 0
    legal = np.empty(4, dtype=np.int64)
    while not is_game_over(b):
        n = 0
        for d in range(4):
            if shift(b, d) != b:
                legal[n] = d
                n += 1
        b, score = shift_scored(b, legal[next_int(state, n)])
        gained += score
        b = source_spawn(b, state)
    return gained


@njit(cache=True)
def _leaf(b, score, rollouts, ev, state) -> float:  # noqa: ANN001
    """A leaf's value: the evaluator's (every board valued, a dead one too) or, with rollouts,
    the mean final score of that many playouts from b (score: made so far)."""
    if rollouts == 0:
        return evaluate(ev[0], b, ev[1], ev[2], True)
    total = 0
    for _ in range(rollouts):
        total += score + source_playout(b, state)
    return total / rollouts


@njit(cache=True)
def _chance_value(b, score, plies, rules, rollouts, ev, state) -> float:  # noqa: ANN001
    """The value of the chance node b (a board just moved, score made so far) searched `plies`
    plies deep by the source's rules, depth first in the source's order (which fixes the
    order of the random draws): an explicit stack (numba caches no self-recursive function
    that calls into other modules); frame k holds the node k plies below b."""
    boards = np.empty(plies + 1, dtype=np.uint64)
    scores = np.empty(plies + 1, dtype=np.int64)
    steps = np.zeros(plies + 1, dtype=np.int64)  # a move node's next direction, a chance
    totals = np.zeros(plies + 1)  # node's next child (2 x cell + tile); its sum or best
    boards[0], scores[0], top = np.uint64(b), score, 0
    if plies == 0:
        return _leaf(boards[0], score, rollouts, ev, state)
    totals[0] = 0.0
    while True:
        node, chance, child = boards[top], (top & 1) == 0, np.uint64(0)
        n = gained = 0
        if chance:
            cells = empty_mask(node)
            n = empty_count(node)
            k = steps[top]
            if k < 2 * n:  # the (k // 2)-th empty cell, with a 2 (k even) or a 4
                for _ in range(k // 2):
                    cells &= cells - np.uint64(1)
                child = node | ((cells & (~cells + np.uint64(1))) << np.uint64(k & 1))
        else:
            while steps[top] < 4 and child == 0:
                after, gained = shift_scored(node, steps[top])
                steps[top] += 1
                if after != node:
                    child = after
        if child:  # value the child: a leaf, or push its frame
            rem = plies - top - 1
            if rem == 0 or is_game_over(child):
                value = _leaf(child, scores[top] + gained, rollouts, ev, state)
            else:
                top += 1
                boards[top], scores[top], steps[top] = child, scores[top - 1] + gained, 0
                totals[top] = 0.0 if (top & 1) == 0 else -np.inf
                continue
        else:  # the node is done: its value, folded into its parent's
            # (a move node pushed has a legal move: a dead board was valued as a leaf)
            value = totals[top] / n if chance and rules == SOURCE001 else totals[top]
            if top == 0:
                return value
            top -= 1
        _fold(totals, steps, boards, top, value, rules)


@njit(cache=True, inline="always")
def _fold(totals, steps, boards, top, value, rules) -> None:  # noqa: ANN001
    """Fold a child's value into frame `top`: a move node keeps the greatest, a chance node
    adds its cell's 2 or 4 by the rule's arithmetic (steps[top] then moves to the next child)."""
    if top & 1:
        totals[top] = max(totals[top], value)
        return
    four = steps[top] & 1
    prob = FOUR_PROB if four else TWO_PROB
    if rules == SOURCE004:
        prob /= empty_count(boards[top])
    totals[top] += prob * value
    steps[top] += 1


@njit(cache=True)
def source_values(b, depth, rules, rollouts, ev, state) -> tuple:  # noqa: ANN001
    """Each direction's value from root board b (-inf: illegal) by the source's rules: `depth`
    plies (1 = move, then value the afterstate), leaves by the evaluator ev = (kind, weights,
    table) or, with rollouts > 0, by that many of source 004's playouts drawn from `state`
    (g2048.engine.javarng)."""
    b = np.uint64(b)
    values = np.full(4, -np.inf)
    for d in ORDERS[rules]:
        after, score = shift_scored(b, d)
        if after != b:
            values[d] = _chance_value(after, score, depth - 1, rules, rollouts, ev, state)
    return values[0], values[1], values[2], values[3]


@njit(cache=True)
def first_best(values, rules) -> int:  # noqa: ANN001
    """The first best of the root's move values in the order of `rules` (an index of RULES:
    g2048 and source 004 try up, down, left, right), -1 when none is legal."""
    best, top = -1, -np.inf
    for d in ORDERS[rules]:
        if values[d] > top:
            best, top = d, values[d]
    return best
