"""Monte Carlo move values (source 004, 4.3): each legal move's score plus the mean score that
rollouts gain after it, with a fixed number of rollouts per move or as many as a budget allows.

Rollout i after a move draws from its own generator (rollout.rollout_state) and the gains are
summed as integers (exactly), so the values do not depend on the order the rollouts run in or on
the threads that run them (source 004's parallel evaluation: `split` runs them on numba's
threads). A fixed count or a node budget (which counts rollouts: max(1, budget // legal moves)
per move) runs every move's rollouts at once. A time budget runs rounds, of one rollout per
legal move (serial) or of ROUND_PER_THREAD per thread per move (split), while the next round is
predicted (from the mean round so far) to end before the deadline; one round always runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from g2048.agents.expectimax import four_values
from g2048.agents.rollout import rollout_gain, rollout_state
from g2048.engine.bitboard import shift_scored
from g2048.engine.clock import monotonic_ns

ROUND_PER_THREAD = 16  # rollouts per thread per move in a round of split search (~50-100 us)


@njit(cache=True, inline="always")
def _gain(afters, k, first, policy, step_cap, base, ev) -> int:  # noqa: ANN001
    """The gain of rollout first + k // len(afters) after move afters[k % len(afters)]."""
    after = afters[k % afters.size]
    state = rollout_state(base, after, first + k // afters.size)
    return rollout_gain(after, True, policy, step_cap, state, ev)


@njit(cache=True)
def _serial_sums(afters, first, count, policy, step_cap, base, ev) -> np.ndarray:  # noqa: ANN001
    """Gains summed per move over rollouts first .. first + count - 1 after each of afters."""
    sums = np.zeros(afters.size, dtype=np.int64)
    for k in range(count * afters.size):
        sums[k % afters.size] += _gain(afters, k, first, policy, step_cap, base, ev)
    return sums


@njit(cache=True, parallel=True)
def _split_sums(afters, first, count, policy, step_cap, base, ev) -> np.ndarray:  # noqa: ANN001
    """_serial_sums with the rollouts run on numba's threads."""
    gains = np.empty(count * afters.size, dtype=np.int64)
    for k in prange(gains.size):
        gains[k] = _gain(afters, k, first, policy, step_cap, base, ev)
    return gains.reshape(count, afters.size).sum(axis=0)


@njit(cache=True)
def montecarlo_values(b, rollouts, budget_ms, budget_nodes, mc, ev, stats, split) -> tuple:  # noqa: ANN001
    """The value of each direction from b (-inf: illegal): `rollouts` per move, or as many as
    budget_ms (> 0) or budget_nodes (> 0, in rollouts) allow; split > 0: on that many of
    numba's threads.
    mc = (unused, rollout policy, step cap, the decision's rollout base); ev: the agent's
    evaluator (evaluator policy). stats[0] += rollouts played."""
    _, policy, step_cap, base = mc
    values = np.full(4, -np.inf)
    moves = np.zeros(4, dtype=np.int64)
    gains = np.zeros(4, dtype=np.int64)
    afters = np.empty(4, dtype=np.uint64)
    legal = 0
    for d in range(4):
        after, gains[d] = shift_scored(b, d)
        if after != b:
            moves[legal], afters[legal] = d, after
            legal += 1
    if legal == 0:
        return four_values(values)
    afters = afters[:legal].copy()  # the legal moves' boards, in direction order
    sums = np.zeros(legal, dtype=np.int64)
    if budget_ms > 0.0:
        per_round = ROUND_PER_THREAD * split if split else 1
        start = monotonic_ns()
        done = 0
        while True:
            if split:
                sums += _split_sums(afters, done, per_round, policy, step_cap, base, ev)
            else:
                sums += _serial_sums(afters, done, per_round, policy, step_cap, base, ev)
            done += per_round
            now = monotonic_ns()
            if now + (now - start) * per_round / done > start + budget_ms * 1e6:
                break
    else:
        done = max(1, budget_nodes // legal) if budget_nodes > 0 else rollouts
        if split:
            sums = _split_sums(afters, 0, done, policy, step_cap, base, ev)
        else:
            sums = _serial_sums(afters, 0, done, policy, step_cap, base, ev)
    stats[0] += done * legal
    for i in range(legal):
        values[moves[i]] = gains[moves[i]] + sums[i] / done
    return four_values(values)
