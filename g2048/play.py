"""The batch game runner: many games in parallel, each a pure function of its seed."""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed

import numpy as np
import pandas as pd
from numba import njit

from g2048 import evaluators
from g2048.agents import STATS_SIZE, TABLE_BITS, AgentConfig, choose_move
from g2048.agents.expectimax import new_table
from g2048.engine.bitboard import (
    OVERFLOW,
    empty_count,
    is_game_over,
    max_rank,
    shift_scored,
    spawn_tile,
    start_board,
)
from g2048.engine.parallel import check_threads, max_threads, thread_count
from g2048.engine.rng import mix64, seed_state

_AGENT_STREAM = np.uint64(0xA6E47A6E47A6E47A)  # separates the agent's random stream from spawns
COLUMNS = (
    "game",
    "seed",
    "score",
    "max_tile",
    "moves",
    "empty_mean",
    "nodes",
    "overflow",
    "depth_mean",
    "depths",
    "timed",
    "parallel",
    "seconds",
)


@njit(cache=True)
def game_streams(seed: np.uint64) -> tuple[np.ndarray, np.ndarray]:
    """A game's two generator states: its spawns, and its agent's own draws (rollouts)."""
    return seed_state(seed), seed_state(mix64(np.uint64(seed) ^ _AGENT_STREAM))


@njit(cache=True, nogil=True)
def play_on(
    kind, params, ev_kind, weights, tables, b, spawns, rng, tt, stats, moves, max_moves, stop
) -> tuple:  # noqa: ANN001  # fmt: skip
    """The game loop, which play_game runs to the end and g2048.cli.watch one move a call: from
    board b after `moves` moves, the agent chooses (its search counts go to stats), the board
    moves and a tile spawns, until no move is left, `max_moves` moves are played in all or
    stop[0] is set. Returns (board, score gained, moves in all, sum of empty cells over the new
    positions, ended, overflow, last direction or -1): ended when the game is over at the
    board, overflow when it ended only for lack of a merge of two 32768 tiles."""
    score = 0
    empty_sum = 0
    ended = overflow = False
    last = -1
    while moves < max_moves and not stop[0]:
        # (np.int64: a literal 0 would compile choose_move once more, see agents.deepening)
        d = choose_move(kind, params, ev_kind, weights, tables, b, rng, tt, np.int64(moves), stats)
        if d < 0:  # no move that changes the board, unless merging two 32768 tiles
            ended, overflow = True, not is_game_over(b)
            break
        after, gained = shift_scored(b, d)
        if gained >= OVERFLOW:
            ended = overflow = True
            break
        score += gained
        b = spawn_tile(after, spawns)
        moves += 1
        empty_sum += empty_count(b)
        last = d
    return b, score, moves, empty_sum, ended, overflow, last


@njit(cache=True, nogil=True)
def play_game(seed, kind, params, ev_kind, weights, tables, max_moves, stop) -> tuple:  # noqa: ANN001
    """One game from its seed: (score, max rank, moves, sum of empty cells over the positions
    faced, search nodes, overflow flag, moves decided at each search depth). The spawns and
    the agent draw from separate streams, so agents compared on one seed face the same spawn
    stream. The game ends early, unfinished, once stop[0] is set (by another thread)."""
    spawns, rng = game_streams(seed)
    tt = new_table(int(params[TABLE_BITS]))
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    b = start_board(spawns)
    start_empty = empty_count(b)
    b, score, moves, empty_sum, _, overflow, _ = play_on(
        kind,
        params,
        ev_kind,
        weights,
        tables,
        b,
        spawns,
        rng,
        tt,
        stats,
        np.int64(0),
        max_moves,
        stop,
    )
    return score, max_rank(b), moves, start_empty + empty_sum, stats[0], overflow, stats[2:]


def depth_counts(reached: np.ndarray) -> str:
    """Moves per search depth as 'depth:moves' pairs, e.g. '5:210 7:42' ('none' without
    search)."""
    return " ".join(f"{d}:{n}" for d, n in enumerate(reached) if n) or "none"


def evaluator_rows(
    agent: AgentConfig, evaluator: str, weights: object = None
) -> tuple[int, np.ndarray, np.ndarray]:
    """(kind, weights[k, d], tables[k, n]) for the agent: k = 3 rows for switching, else 1.

    `weights`: None (the evaluator's defaults), one vector, or the agent's k rows; for the
    ntuple evaluator, a network or its file (one row, its table not copied)."""
    evaluators.check_downgrade(evaluator, agent.downgrade)
    evaluators.check_rules(evaluator, agent.rules)
    if evaluator == evaluators.ntuple.NAME:
        if agent.weight_rows != 1:
            raise ValueError(f"agent {agent.name!r} needs a weighted heuristic, not {evaluator!r}")
        kind, w, table = evaluators.prepare(evaluator, weights, agent.downgrade)
        return kind, w[None, :], table[None, :]
    rows = np.atleast_2d(
        evaluators.check_weights(evaluator) if weights is None else np.asarray(weights, float)
    )
    if rows.shape[0] != agent.weight_rows:
        raise ValueError(
            f"agent {agent.name!r} takes {agent.weight_rows} weight vector(s), got {rows.shape[0]}"
        )
    prepared = [evaluators.prepare(evaluator, row) for row in rows]
    return (
        prepared[0][0],
        np.ascontiguousarray([p[1] for p in prepared]),
        np.ascontiguousarray([p[2] for p in prepared]),
    )


def agent_params(
    agent: AgentConfig, evaluator: str, tables: np.ndarray, threads: int = 1
) -> np.ndarray:
    """agent.params for games with `evaluator` (prepared `tables`): with star, the bound of the
    evaluator's values it prunes with."""
    upper = evaluators.upper_bound(evaluator, tables) if agent.star else np.inf
    return agent.params(threads, upper)


def pinned_cores(cores: int) -> list[int]:
    """The CPUs a timed phase plays on, one game on each (`play_games(cores=...)`): of the
    CPUs this process may run on (its affinity), the last `cores` at most, less one (the
    lowest) left to the workflow's own process and the job's main thread when there are two
    or more: 1 CPU or 2 play one game at a time, 16 play 15 at once."""
    check_threads(cores)
    allowed = sorted(os.sched_getaffinity(0))[-cores:]
    return allowed[1:] if len(allowed) > 1 else allowed


def _pinning(cores: Sequence[int]) -> Callable[[], None]:
    """A thread pool's initializer that pins each new worker thread to a core of its own."""
    free: queue.SimpleQueue[int] = queue.SimpleQueue()
    for core in cores:
        free.put(core)

    def pin() -> None:
        os.sched_setaffinity(0, {free.get_nowait()})  # 0: the calling thread, on Linux

    return pin


def play_games(
    agent: AgentConfig,
    seeds: np.ndarray,
    evaluator: str = "nneonneo",
    weights: object = None,
    threads: int = 1,
    max_moves: int = 0,
    progress: Callable[[int, int], None] | None = None,
    cores: Sequence[int] = (),
) -> pd.DataFrame:
    """Play one game per seed on `threads` threads; one row per game, columns COLUMNS.

    Every column but `seconds` is a function of (agent, evaluator, weights, seed) alone,
    whatever `threads` is, unless the agent has a time budget (`agent.timed`, column `timed`)
    or searches in parallel (`agent.parallel`, column `parallel`: the games are played one at a
    time, each move searched on `threads` threads (at most numba's), and `nodes` then depends
    on the threads' timing). `depth_mean` and `depths`: the search depth that decided each
    move (see depth_counts).
    max_moves > 0 stops a game after that many moves. progress(done, total) is called after each
    game. Games run in a thread pool over the GIL-free numba `play_game` rather than in a prange
    loop, so that each game can be timed and reported; an exception in the calling thread
    (KeyboardInterrupt) cancels the games not yet started, stops the running ones within a move
    and propagates. `cores` (CPU numbers, `pinned_cores`): play len(cores) games at once
    instead of `threads`, each worker thread pinned to a core of its own (os.sched_setaffinity),
    so that a timed game's clock never runs on while its thread waits for a core; the games'
    rows keep their seeds' order whatever the cores.
    """
    check_threads(threads)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    if max_moves < 0:
        raise ValueError(f"max_moves must be >= 0, got {max_moves}")
    ev_kind, w, tables = evaluator_rows(agent, evaluator, weights)
    search_threads = min(threads, max_threads()) if agent.parallel else 1
    params = agent_params(agent, evaluator, tables, search_threads)
    limit = max_moves if max_moves > 0 else 1 << 62
    out = np.zeros((seeds.size, 6), dtype=np.int64)
    reached = np.zeros((seeds.size, STATS_SIZE - 2), dtype=np.int64)
    seconds = np.zeros(seeds.size)
    stop = np.zeros(1, dtype=np.int64)
    if seeds.size:  # compile or load from the cache now, not inside the first game's time
        play_game(seeds[0], agent.kind, params, ev_kind, w, tables, 0, stop)

    def run(i: int) -> None:
        t0 = time.perf_counter()
        with thread_count(search_threads):  # numba's thread count is per calling thread
            game = play_game(seeds[i], agent.kind, params, ev_kind, w, tables, limit, stop)
        out[i], reached[i] = game[:6], game[6]
        seconds[i] = time.perf_counter() - t0

    if cores:
        pool = ThreadPoolExecutor(max_workers=len(cores), initializer=_pinning(cores))
    else:
        pool = ThreadPoolExecutor(max_workers=1 if agent.parallel else threads)
    try:
        futures = [pool.submit(run, i) for i in range(seeds.size)]
        for done, future in enumerate(as_completed(futures)):
            future.result()
            if progress is not None:
                progress(done + 1, seeds.size)
    except BaseException:  # an error or Ctrl-C: drop the queued games, stop the running ones
        stop[0] = 1
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    ranks = out[:, 1]
    return pd.DataFrame(
        {
            "game": np.arange(seeds.size),
            "seed": seeds,
            "score": out[:, 0],
            "max_tile": np.where(ranks > 0, 1 << ranks, 0),
            "moves": out[:, 2],
            "empty_mean": out[:, 3] / (out[:, 2] + 1),
            "nodes": out[:, 4],
            "overflow": out[:, 5].astype(bool),
            "depth_mean": reached @ np.arange(reached.shape[1]) / np.maximum(reached.sum(1), 1),
            "depths": [depth_counts(r) for r in reached],
            "timed": agent.timed,
            "parallel": agent.parallel,
            "seconds": seconds,
        },
        columns=list(COLUMNS),
    )
