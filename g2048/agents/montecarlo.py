"""Monte Carlo move values (seed 004, 4.3): each legal move's score plus the mean score that
rollouts gain after it, with a fixed number of rollouts per move or as many as a budget allows.

Rollouts run in rounds of one per legal move, so every move gets the same number. Rollout i after a
move draws from its own generator (rollout.rollout_state): the values do not depend on the order the
rollouts run in, and the gains are summed as integers (exactly). A node budget counts rollouts:
rounds run while the next one fits. A time budget runs rounds while the next one is predicted (from
the mean round so far) to end before the deadline; one round always runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.agents.rollout import rollout_gain, rollout_state
from g2048.engine.bitboard import shift_scored
from g2048.engine.clock import monotonic_ns


@njit(cache=True)
def montecarlo_values(b, rollouts, budget_ms, budget_nodes, mc, ev, stats) -> np.ndarray:  # noqa: ANN001
    """The value of each direction from b (-inf: illegal): `rollouts` per move, or rounds
    while budget_ms (> 0) or budget_nodes (> 0, in rollouts) lasts. mc = (unused, rollout
    policy, step cap, the decision's rollout base); ev: the agent's evaluator (evaluator
    policy). stats[0] += rollouts played."""
    _, policy, step_cap, base = mc
    values = np.full(4, -np.inf)
    afters = np.empty(4, dtype=np.uint64)
    gains = np.zeros(4, dtype=np.int64)
    legal = 0
    for d in range(4):
        afters[d], gains[d] = shift_scored(b, d)
        legal += afters[d] != b
    if legal == 0:
        return values
    start = monotonic_ns()
    sums = np.zeros(4, dtype=np.int64)
    rounds = 0
    while True:
        for d in range(4):
            if afters[d] != b:
                state = rollout_state(base, afters[d], rounds)
                sums[d] += rollout_gain(afters[d], True, policy, step_cap, state, ev)
        rounds += 1
        if budget_nodes > 0:
            if (rounds + 1) * legal > budget_nodes:
                break
        elif budget_ms > 0.0:
            now = monotonic_ns()
            if now + (now - start) / rounds > start + budget_ms * 1e6:
                break
        elif rounds == rollouts:
            break
    stats[0] += rounds * legal
    for d in range(4):
        if afters[d] != b:
            values[d] = gains[d] + sums[d] / rounds
    return values
