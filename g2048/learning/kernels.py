"""The kernels of afterstate TD(0) self-play for n-tuple networks (Szubert & Jaskowski, CIG
2014): a game played and learned from, compiled per network; `g2048.learning.td.train` drives
them.

Each training game is played greedily by the network being learned (the move with the best
reward + V(afterstate), ties to the first direction), its spawns drawn from the game's own seed,
so a run is a pure function of (network, settings, game seeds). Updates are made backwards over
the episode once it ends, as in the public TDL2048 demo: the last afterstate moves towards 0,
each earlier one towards the next move's reward + the next afterstate's value just updated
(TD(lambda) mixes in the next afterstate's own target: its lambda-return, as TDL2048+'s `-l`).
The error is taken against the afterstate's current value, as the demo's current code does;
older copies of the demo take the value the afterstate had when its move was chosen, and with
weights shared across an episode those stale errors add up (measured here: a two-4-tuple
network at alpha 0.1 falls from 1 098 to 711 mean score over 4 000 games with stale errors and
rises to 7 771 with current ones; the four 6-tuple network collapsed from 35 338 to 8 796
between two blocks at 39 000 games). The step alpha * error is divided over the m x 8 weights a
value reads. With `coherence`, each weight's step is scaled by its temporal-coherence rate
|E| / A (Jaskowski 2018, TC(0); E sums the weight's errors, A their absolute values; 1 while A
is 0).

The kernels are compiled per network (`kernels`), its tuples constants of the code, and read
the same weights in the same order as the generic evaluator (`ntuple.value`), so a run is the
same to the bit either way (tested against a step-by-step reference). A move's four afterstates
have their entries computed and prefetched before any value is summed, the entries of the
afterstate chosen are kept for its update, and the backward pass prefetches AHEAD updates on
and sums each updated value alongside the next afterstate's current one: the memory waits
overlap instead of adding up (the tables are far larger than the caches). With batch > 1,
games are played in rounds (`train_rounds`), in parallel.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
from numba import njit, prange

from g2048.engine.bitboard import OVERFLOW, max_rank, shift_scored, spawn_tile, start_board
from g2048.engine.lockfree import fetch_add
from g2048.engine.rng import seed_state
from g2048.evaluators.ntuple import (
    SYMMETRIES,
    lut_size,
    network_shape,
    network_staging,
    network_tuples,
    prefetch,
    shape_base,
    shape_indices,
)

# Columns of the per-game records `train_games` fills.
SCORE, MAX_RANK, MOVES = range(3)
# The backward pass prefetches the entries of the update this many afterstates ahead (a power
# of 2 less 1: rows of the ring are picked by a mask).
AHEAD = 3
EPISODE = 4096  # the moves of a game the episode buffers hold at first (they grow on demand)


@njit(cache=True, inline="always")
def _sum(lut, path, o, size) -> float:  # noqa: ANN001
    """The value whose lut entries are path[o : o + size]: their sum, in order, in float64."""
    total = 0.0
    for k in range(o, o + size):
        total += lut[path[k]]
    return total


@njit(cache=True, inline="always")
def _greedy_move(b, shape, staging, lut, rows) -> tuple[int, np.uint64, int]:  # noqa: ANN001
    """The network's move from b: the best reward + V(afterstate), ties to the first direction
    (as `evaluator_move` with the ntuple evaluator); (-1, b, 0) when no move is left. The lut
    entries of every legal afterstate d go to rows[d x m x 8 :] and are prefetched, before the
    first value is summed from them (so the memory waits of the four values overlap)."""
    size = len(shape) * SYMMETRIES
    moves = (shift_scored(b, 0), shift_scored(b, 1), shift_scored(b, 2), shift_scored(b, 3))
    for d in range(4):
        if moves[d][0] != b:
            shape_indices(moves[d][0], shape, staging, rows, d * size, lut)
    best, chosen, board, score = -np.inf, -1, b, 0
    for d in range(4):
        after, gained = moves[d]
        if after != b:
            v = _sum(lut, rows, d * size, size) + gained
            if v > best:
                best, chosen, board, score = v, d, after, gained
    return chosen, board, score


@njit(cache=True, inline="always")
def _learn(target, before, alpha, lut, path, o, p, size, tc_e, tc_a, coherent) -> tuple:  # noqa: ANN001
    """Move the value whose lut entries are path[o : o + size], now `before`, towards `target`
    (TD error x alpha, split over the weights, TC-scaled when `coherent`): (its updated value,
    the value whose entries are path[p : p + size] after the update; 0 when p < 0). A weight
    read twice (a board with symmetries) is stepped twice, and the updated values are read
    after all the steps; the two sums run side by side, each in its own order."""
    step = alpha * (target - before) / size
    if coherent:
        for k in range(o, o + size):
            i = path[k]
            rate = abs(tc_e[i]) / tc_a[i] if tc_a[i] > 0 else 1.0
            tc_e[i] += np.float32(step)
            tc_a[i] += np.float32(abs(step))
            lut[i] += np.float32(rate * step)
    else:
        step32 = np.float32(step)
        for k in range(o, o + size):
            lut[path[k]] += step32
    if p < 0:
        return _sum(lut, path, o, size), 0.0
    updated = following = 0.0
    for k in range(size):
        updated += lut[path[o + k]]
        following += lut[path[p + k]]
    return updated, following


@njit(cache=True, inline="always")
def _prefetch_update(lut, path, o, size, tc_e, tc_a, coherent) -> None:  # noqa: ANN001
    """Prefetch the entries path[o : o + size] of an update (and their TC accumulators)."""
    for k in range(o, o + size):
        prefetch(lut, path[k])
        if coherent:
            prefetch(tc_e, path[k])
            prefetch(tc_a, path[k])


@njit(cache=True, inline="always")
def _play(seed, shape, staging, lut, moves, path, rewards) -> tuple[int, int, np.uint64]:  # noqa: ANN001
    """Play the game of `seed` greedily with the network (learning nothing): (moves, score,
    final board). Move i's reward goes to rewards[i] and the entries of its afterstate to
    path[i x m x 8 :], for the moves that fit (rewards.size); moves: scratch for the entries of
    the four afterstates of a move."""
    size = len(shape) * SYMMETRIES
    spawns = seed_state(seed)
    b = start_board(spawns)
    n = 0
    score = 0
    while True:
        d, after, gained = _greedy_move(b, shape, staging, lut, moves)
        if d < 0 or gained >= OVERFLOW:
            break
        if n < rewards.size:
            for k in range(size):
                path[n * size + k] = moves[d * size + k]
            rewards[n] = gained
        n += 1
        score += gained
        b = spawn_tile(after, spawns)
    return n, score, b


@njit(cache=True, inline="always")
def _update(n, path, rewards, size, rate, lut, tc_e, tc_a, coherent) -> None:  # noqa: ANN001
    """The updates of an episode of n moves (as `_play` records it), backwards from its end,
    rate = (alpha, lambda); the entries of the update AHEAD afterstates on are prefetched
    meanwhile. Each afterstate moves towards the lambda-return of the moves after it, r +
    (lambda x its target + (1 - lambda) x V), V the next afterstate's value just updated (the
    last one's target 0): TD(0) with lambda 0, TDL2048+'s backward TD(lambda) otherwise."""
    alpha, lam = rate
    for i in range(n - 1, max(n - 1 - AHEAD, -1), -1):
        _prefetch_update(lut, path, i * size, size, tc_e, tc_a, coherent)
    target = 0.0
    before = _sum(lut, path, (n - 1) * size, size) if n > 0 else 0.0
    for i in range(n - 1, -1, -1):
        if i >= AHEAD:
            _prefetch_update(lut, path, (i - AHEAD) * size, size, tc_e, tc_a, coherent)
        # the update of afterstate i, then its updated value and afterstate i - 1's current one
        o, p = i * size, (i - 1) * size
        updated, before = _learn(target, before, alpha, lut, path, o, p, size, tc_e, tc_a, coherent)
        if lam > 0:
            target = rewards[i] + (lam * target + (1.0 - lam) * updated)
        else:
            target = rewards[i] + updated


@njit(cache=True, inline="always")
def _promote(lut, promoted, b, staging) -> None:  # noqa: ANN001
    """Weight promotion (Jaskowski 2018) before the updates of a game that ended on board b:
    each stage it reached whose table has not been used yet (promoted[0]: the last stage in
    use) starts as a copy of the table of the stage before it."""
    if len(staging) > 1:
        stride = staging[0]
        stage = np.int64(shape_base(b, staging) // stride)
        while promoted[0] < stage:
            k = np.uint64(promoted[0] + 1)
            lut[k * stride : (k + 1) * stride] = lut[(k - 1) * stride : k * stride]
            promoted[0] += 1


@njit(cache=True, inline="always")
def _learn_game(seed, net, lut, moves, path, rewards, rate, tc, promoted, record):  # noqa: ANN001, ANN202
    """Play the game of `seed` and learn from it (`_play`, then `_promote` and `_update`);
    net = (shape, staging); rate = (alpha, lambda); tc = (tc_e, tc_a, coherent); record =
    (score, max rank, moves). A
    game longer than the episode buffers hold is played again into buffers twice its length:
    (path, rewards) as they are now."""
    shape, staging = net
    size = len(shape) * SYMMETRIES
    n, score, b = _play(seed, shape, staging, lut, moves, path, rewards)
    if n > rewards.size:
        path = np.empty(2 * n * size, dtype=path.dtype)
        rewards = np.empty(2 * n, dtype=np.int64)
        n, score, b = _play(seed, shape, staging, lut, moves, path, rewards)
    _promote(lut, promoted, b, staging)
    _update(n, path, rewards, size, rate, lut, tc[0], tc[1], tc[2])
    record[SCORE] = score
    record[MAX_RANK] = max_rank(b)
    record[MOVES] = n
    return path, rewards


def _train_kernels(
    shape: tuple, staging: tuple, index: type, coherent: bool
) -> tuple[Callable, ...]:
    """The training kernels of one network (its `network_shape` and `network_staging`, lut
    indices of type `index`), with or without TC (all constants of the code): serial, in
    rounds, and lock-free."""
    size = len(shape) * SYMMETRIES  # the weights a value reads
    net = (shape, staging)

    @njit(cache=True)
    def train_games(seeds, table, rate, tc_e, tc_a, records, capacity, promoted) -> None:  # noqa: ANN001
        """Play and learn from one game per seed, in order; records[i] = (score, max rank,
        moves). table: the lut (viewed as float64, updated in place); rate: (alpha, lambda)
        (`_update`); tc_e, tc_a: the
        temporal-coherence accumulators (float32, lut-sized; empty without TC); capacity: the
        moves an episode holds before it grows; promoted[0]: the last stage whose table is in
        use (`_promote`)."""
        lut = table.view(np.float32)
        tc = (tc_e, tc_a, coherent)
        moves = np.empty(4 * size, dtype=index)
        # the episode: the entries of each afterstate chosen, and the reward on the way to it
        path = np.empty(capacity * size, dtype=index)
        rewards = np.empty(capacity, dtype=np.int64)
        for g in range(seeds.size):
            path, rewards = _learn_game(
                seeds[g], net, lut, moves, path, rewards, rate, tc, promoted, records[g]
            )

    @njit(cache=True, parallel=True)
    def train_lockfree(seeds, table, rate, tc_e, tc_a, records, capacity, promoted) -> None:  # noqa: ANN001
        """train_games with the games on every thread at once, sharing the weights without
        locks (TDL2048+'s and Jaskowski's way): which update lands first depends on the
        threads' timing, so the result is not reproducible to the bit."""
        lut = table.view(np.float32)
        tc = (tc_e, tc_a, coherent)
        for g in prange(seeds.size):
            moves = np.empty(4 * size, dtype=index)
            path = np.empty(capacity * size, dtype=index)
            rewards = np.empty(capacity, dtype=np.int64)
            _learn_game(seeds[g], net, lut, moves, path, rewards, rate, tc, promoted, records[g])

    @njit(cache=True, parallel=True)
    def train_rounds(seeds, table, rate, tc_e, tc_a, records, capacity, promoted, plan) -> None:  # noqa: ANN001
        """train_games in rounds of `batch` games, plan = (batch, threads): a round's games are
        played on `threads` threads, each taking the next game left (they differ in length),
        with the weights as they stood at the round's start, then their updates are made in
        game order (each game's promotion first); the same result on any number of threads."""
        batch, threads = plan
        lut = table.view(np.float32)
        tc = (tc_e, tc_a, coherent)
        cap = capacity  # moves recorded per game
        path = np.empty((batch, cap * size), dtype=index)
        rewards = np.empty((batch, cap), dtype=np.int64)
        played = np.zeros((batch, 3), dtype=np.int64)
        finals = np.zeros(batch, dtype=np.uint64)
        taken = np.zeros(1, dtype=np.int64)  # the round's games taken (`fetch_add`)
        for start in range(0, seeds.size, batch):
            m = min(batch, seeds.size - start)
            while True:
                taken[0] = 0
                for _ in prange(threads):  # each thread plays the next game left
                    while True:
                        j = fetch_add(taken, 1)
                        if j >= m:
                            break
                        moves = np.empty(4 * size, dtype=index)
                        n, score, b = _play(
                            seeds[start + j], shape, staging, lut, moves, path[j], rewards[j]
                        )
                        played[j, MOVES] = n
                        played[j, SCORE] = score
                        played[j, MAX_RANK] = max_rank(b)
                        finals[j] = b
                longest = played[:m, MOVES].max()
                if longest <= cap:
                    break
                cap = 2 * longest  # a longer game than any so far: grow, play them again
                path = np.empty((batch, cap * size), dtype=index)
                rewards = np.empty((batch, cap), dtype=np.int64)
            for j in range(m):
                _promote(lut, promoted, finals[j], staging)
                _update(played[j, MOVES], path[j], rewards[j], size, rate, lut, tc[0], tc[1], tc[2])
                records[start + j] = played[j]

    return train_games, train_rounds, train_lockfree


@functools.cache
def kernels(
    name: str, stages: tuple[int, ...]
) -> tuple[tuple[Callable, ...], tuple[Callable, ...], Callable]:
    """((train_games, train_rounds, train_lockfree), the same with TC, greedy_games) compiled
    for the network called `name` in `stages` (each on its first call): its tuples and stages
    are constants of the code (`ntuple.network_shape`, `network_staging`), so indices need no
    layout to be read."""
    tuples = network_tuples(name)
    shape, staging = network_shape(tuples), network_staging(tuples, stages)
    index = np.uint32 if lut_size(tuples) * (len(stages) + 1) <= 2**32 else np.uint64

    @njit(cache=True)
    def greedy_games(seeds, table, records) -> None:  # noqa: ANN001
        """Play one game per seed with the network at 1 ply, learning nothing; records as
        train_games'. The same games as the greedy agent's (`play_games`) on these seeds."""
        lut = table.view(np.float32)
        moves = np.empty(4 * len(shape) * SYMMETRIES, dtype=index)
        nothing = (np.empty(0, dtype=index), np.empty(0, dtype=np.int64))  # no episode kept
        for g in range(seeds.size):
            n, score, b = _play(seeds[g], shape, staging, lut, moves, nothing[0], nothing[1])
            records[g, SCORE] = score
            records[g, MAX_RANK] = max_rank(b)
            records[g, MOVES] = n

    return (
        _train_kernels(shape, staging, index, False),
        _train_kernels(shape, staging, index, True),
        greedy_games,
    )
