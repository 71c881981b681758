"""How deep a search goes for one move: a fixed depth, nneonneo's adaptive depth, or iterative
deepening under a node or time budget (source 004, 6.2).

Adaptive depth (`depth: auto`) is nneonneo/2048-ai's rule: depth_limit = max(3, distinct tiles
- 2) of its move layers, i.e. 2 x depth_limit + 1 plies here (M C M ... E).

Under a budget the search runs depths 1, 1 + STEP, 1 + 2 x STEP, ... up to the agent's depth (which
ends the sequence even off it) and plays the move of the deepest completed iteration (depth 1 always
completes: it is the root's four moves). An iteration is abandoned when the nodes of all iterations
of this move exceed the node budget, or at the deadline. Under a node budget an iteration is not
started when the last iterations predict that it cannot finish (its nodes predicted as the last
iteration's times the growth from the iteration before): the nodes a move uses are its cost on the
study's node axis, and an abandoned iteration would spend them for nothing. Under a time budget the
next iteration always starts while time is left: the time of a move is its budget whatever it does,
and an iteration predicted to overrun sometimes finishes (a deeper move for free). Each iteration
has its own transposition-table stamp, so the deepest completed iteration returns exactly the values
of a fixed-depth search to that depth (with a cutoff, a value cached by a shallower iteration would
differ from the one the fixed search computes); a move with a single legal direction is played at
once. A node budget gives byte-identical games; a time budget does not (its depth depends on the
machine's speed). The hybrid agent deepens the same way with its rollouts per leaf fixed (the clock
is then read at every node: a leaf's rollouts take as long as a thousand evaluations).

STEP is 2 (odd depths only: every iteration ends on afterstates, as nneonneo's search does).
Measured against STEP 1 (all depths) at a budget of 10 000 nodes per move (nneonneo, cutoff
1e-4, 30 paired games): mean score 72 854 vs 63 519, difference +9 335 [-4 497, 23 166] (95%),
at the same mean depth reached (5.0 vs 5.1 plies): an even last ply values boards to move,
which the heuristic was not made for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.agents.expectimax import NO_LIMIT, move_values, shallow_values
from g2048.agents.parallel import split_move_values
from g2048.engine.bitboard import distinct_ranks
from g2048.engine.clock import monotonic_ns

STEP = 2
MAX_PLIES = 27  # 2 x (15 distinct tiles - 2) + 1, the deepest adaptive depth
_REACHED = 2  # stats[_REACHED + d]: moves decided by a search to depth d
# Arguments as numpy scalars: numba types a plain constant passed to a function as a literal,
# and compiles the callee once more for it (a minute for move_values).
_NONE, _ZERO, _ONE, _NO = np.int64(NO_LIMIT), np.int64(0), np.int64(1), np.bool_(False)


@njit(cache=True)
def auto_depth(b: np.uint64) -> int:
    """nneonneo's adaptive depth for board b, in plies."""
    return 2 * max(3, distinct_ranks(b) - 2) + 1


@njit(cache=True, inline="always")
def _legal_count(values: tuple) -> int:
    count = 0
    for v in values:
        count += v > -np.inf
    return count


@njit(cache=True, inline="always")
def _values(b, depth, ev, mc, cutoff, tt, stamp, stats, limit, deadline, split, upper) -> tuple:  # noqa: ANN001, E501
    """move_values of the root, searched by `split` threads (depth >= 3: no node limit),
    without the stack (shallow_values: 1-3 plies, no rollouts, no Star1) or serially (split
    0); upper: the leaves' bound for Star1 (inf: none)."""
    if split and depth >= 3:
        return split_move_values(b, depth, ev, mc, cutoff, tt, stamp, stats, deadline, split, upper)
    if depth <= 3 and not mc[0] and upper == np.inf:
        return shallow_values(b, depth, ev[0], ev[1], ev[2], stats, limit, deadline)
    return move_values(b, depth, ev, mc, cutoff, tt, stamp, stats, limit, deadline, 1.0, _NO, upper)


@njit(cache=True, inline="always")
def search_values(
    b, depth, cutoff, budget_ms, budget_nodes, ev, mc, tt, stamp, stats, split, upper
):  # noqa: ANN001, ANN201, E501
    """The root's move values (-inf: illegal) from the search depth rule: depth plies (0:
    auto_depth), or with budget_ms > 0 or budget_nodes > 0 iterative deepening up to depth
    plies by STEP; split > 0: search each depth's root subtrees on that many threads
    (g2048.agents.parallel); upper < inf: Star1 pruning with that bound of the leaves' values.
    stats[0], stats[1]: nodes, table hits; stats[2 + d] += 1 for the depth d that decided the
    move (if any move is legal)."""
    if depth == 0:
        depth = auto_depth(b)
    stamp = stamp * (MAX_PLIES + 1)  # one stamp per (move, iteration): see the module notes
    if budget_ms <= 0.0 and budget_nodes <= 0:
        values, _ = _values(
            b, depth, ev, mc, cutoff, tt, stamp + depth, stats, _NONE, _ZERO, split, upper
        )
        stats[_REACHED + depth] += _legal_count(values) > 0
        return values
    start = monotonic_ns()
    deadline = start + np.int64(budget_ms * 1e6) if budget_ms > 0.0 else 0
    limit = budget_nodes if budget_nodes > 0 else NO_LIMIT
    before = stats[0]
    best, reached = (
        _values(b, _ONE, ev, mc, cutoff, tt, stamp + 1, stats, _NONE, _ZERO, _ZERO, upper)[0],
        1,
    )
    used = last_nodes = stats[0] - before
    growth = 0.0
    d = min(1 + STEP, depth)
    while d > reached and _legal_count(best) > 1:
        if growth > 0.0 and used + last_nodes * growth > limit:
            break  # an iteration predicted to overrun the node budget (see the module notes)
        before = stats[0]
        values, done = _values(
            b, d, ev, mc, cutoff, tt, stamp + d, stats, limit - used, deadline, split, upper
        )
        nodes = stats[0] - before
        used += nodes
        if not done:
            break
        growth = nodes / last_nodes
        best, reached, last_nodes = values, d, nodes
        d = min(d + STEP, depth)
    stats[_REACHED + reached] += _legal_count(best) > 0
    return best
