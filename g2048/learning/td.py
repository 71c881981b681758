"""Afterstate TD(0) self-play for n-tuple networks (Szubert & Jaskowski, CIG 2014).

Each training game is played greedily by the network being learned (the move with the best
reward + V(afterstate), ties to the first direction), its spawns drawn from the game's own seed,
so a run is a pure function of (network, settings, game seeds). Updates are made backwards over
the episode once it ends, as in the public TDL2048 demo: the last afterstate moves towards 0,
each earlier one towards the next move's reward + the next afterstate's value just updated.
The error is taken against the afterstate's current value, as the demo's current code does;
older copies of the demo take the value the afterstate had when its move was chosen, and with
weights shared across an episode those stale errors add up (measured here: a two-4-tuple
network at alpha 0.1 falls from 1 098 to 711 mean score over 4 000 games with stale errors and
rises to 7 771 with current ones; the four 6-tuple network collapsed from 35 338 to 8 796
between two blocks at 39 000 games). The step alpha * error is divided over the m x 8 weights a
value reads. With `coherence`, each weight's step is scaled by its temporal-coherence rate
|E| / A (Jaskowski 2018, TC(0); E sums the weight's errors, A their absolute values; 1 while A
is 0).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from numba import njit

from g2048.agents.rollout import evaluator_move
from g2048.engine.bitboard import OVERFLOW, max_rank, spawn_tile, start_board
from g2048.engine.rng import seed_state
from g2048.evaluators import AFTERSTATE
from g2048.evaluators.ntuple import SYMMETRIES, Network, indices, prepare, zero_network

# Columns of the per-game records `train_games` fills.
SCORE, MAX_RANK, MOVES = range(3)


@njit(cache=True)
def _learn(after, target, alpha, weights, lut, idx, tc_e, tc_a) -> float:  # noqa: ANN001
    """Move V(after) towards `target` (TD error x alpha, split over the weights, TC-scaled when
    tc_e is not empty); the updated V(after)."""
    indices(after, weights, idx)
    before = 0.0
    for i in idx:
        before += lut[i]
    step = alpha * (target - before) / idx.size
    for i in idx:
        if tc_e.size:
            rate = abs(tc_e[i]) / tc_a[i] if tc_a[i] > 0 else 1.0
            tc_e[i] += np.float32(step)
            tc_a[i] += np.float32(abs(step))
            lut[i] += np.float32(rate * step)
        else:
            lut[i] += np.float32(step)
    updated = 0.0
    for i in idx:
        updated += lut[i]
    return updated


@njit(cache=True)
def train_games(seeds, weights, table, alpha, tc_e, tc_a, records) -> None:  # noqa: ANN001
    """Play and learn from one game per seed, in order; records[i] = (score, max rank, moves).

    weights, table: the network as `ntuple.prepare` gives it (table is updated in place).
    tc_e, tc_a: the temporal-coherence accumulators (float32, lut-sized), or empty arrays.
    """
    lut = table.view(np.float32)
    ev = (AFTERSTATE, weights, table)
    idx = np.empty(int(weights[0]) * SYMMETRIES, dtype=np.int64)
    afters = np.empty(4096, dtype=np.uint64)
    rewards = np.empty(4096, dtype=np.int64)
    for g in range(seeds.size):
        spawns = seed_state(seeds[g])
        b = start_board(spawns)
        n = 0
        score = 0
        while True:
            d, after, gained = evaluator_move(b, ev)
            if d < 0 or gained >= OVERFLOW:
                break
            if n == afters.size:  # grow the episode's buffers
                afters = np.concatenate((afters, np.empty_like(afters)))
                rewards = np.concatenate((rewards, np.empty_like(rewards)))
            afters[n] = after
            rewards[n] = gained
            n += 1
            score += gained
            b = spawn_tile(after, spawns)
        target = 0.0
        for i in range(n - 1, -1, -1):
            target = rewards[i] + _learn(afters[i], target, alpha, weights, lut, idx, tc_e, tc_a)
        records[g, SCORE] = score
        records[g, MAX_RANK] = max_rank(b)
        records[g, MOVES] = n


CURVE_COLUMNS = (
    "games",
    "mean_score",
    "mean_moves",
    "reach_2048",
    "reach_4096",
    "reach_8192",
    "moves_per_s",
)
CHECKPOINT_VERSION = 1


def block_row(games: int, records: np.ndarray, seconds: float) -> list[float]:
    """A learning-curve row for the block of games that ends at `games`."""
    ranks = records[:, MAX_RANK]
    moves = records[:, MOVES]
    return [
        games,
        records[:, SCORE].mean(),
        moves.mean(),
        *((ranks >= r).mean() for r in (11, 12, 13)),
        moves.sum() / max(seconds, 1e-9),
    ]


def checkpoint_key(settings: dict) -> str:
    """The digest that ties a checkpoint to the run's settings (never resumed under others)."""
    text = json.dumps({"version": CHECKPOINT_VERSION, **settings}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Trainer:
    """A TD(0) run's state: the network (and TC accumulators), games done and the curve."""

    network: Network
    coherence: bool
    games_done: int = 0
    curve: list[list[float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        size = self.network.lut.size if self.coherence else 0
        self.tc_e = np.zeros(size, dtype=np.float32)
        self.tc_a = np.zeros(size, dtype=np.float32)
        self.weights, self.table = prepare(self.network)

    def save(self, path: Path, key: str) -> None:
        """Write a checkpoint atomically (a kill mid-write leaves the previous one)."""
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as f:
            np.savez(
                f,
                key=np.array(key),
                name=np.array(self.network.name),
                games_done=np.array(self.games_done),
                table=self.table,
                tc_e=self.tc_e,
                tc_a=self.tc_a,
                curve=np.array(self.curve, dtype=np.float64).reshape(-1, len(CURVE_COLUMNS)),
            )
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    def restore(self, path: Path, key: str) -> bool:
        """Resume from the checkpoint at `path` if it exists and holds this run's key."""
        if not path.exists():
            return False
        try:
            with np.load(path, allow_pickle=False) as data:
                if str(data["key"]) != key or str(data["name"]) != self.network.name:
                    return False
                self.table[:] = data["table"]
                self.tc_e[:] = data["tc_e"]
                self.tc_a[:] = data["tc_a"]
                self.games_done = int(data["games_done"])
                self.curve = data["curve"].tolist()
        except (OSError, KeyError, ValueError, zipfile.BadZipFile):
            return False
        return True


def train(
    network: str,
    games: int,
    seeds: Callable[[int, int], np.ndarray],
    *,
    alpha: float = 0.1,
    coherence: bool = False,
    block: int = 1000,
    checkpoint: str | Path | None = None,
    checkpoint_every: int = 10000,
    key: dict | None = None,
    progress: Callable[[int, int, dict], None] | None = None,
    resumed: Callable[[int], None] | None = None,
) -> tuple[Network, pd.DataFrame]:
    """Train an n-tuple network from zero weights on `games` TD(0) games: (network, curve).

    seeds(start, count): the seeds of games start..start+count-1. The curve has a row per
    `block` games (CURVE_COLUMNS; moves_per_s is the training rate, the only timing column).
    With `checkpoint`, the state is saved every `checkpoint_every` games (a multiple of
    `block`) and a run resumes from a checkpoint whose `key` (the run's settings) matches;
    a resumed run ends with the same network and curve as an uninterrupted one.
    progress(games done, games, curve row as a dict) follows each block; resumed(games done)
    is called when a checkpoint is resumed.
    """
    if games < 1 or block < 1:
        raise ValueError(f"games and block must be >= 1, got {games}, {block}")
    if not alpha > 0:
        raise ValueError(f"alpha must be > 0, got {alpha}")
    if checkpoint_every < 1 or checkpoint_every % block:
        raise ValueError(
            f"checkpoint_every must be a positive multiple of block ({block}), "
            f"got {checkpoint_every}"
        )
    trainer = Trainer(zero_network(network), coherence)
    path = Path(checkpoint) if checkpoint is not None else None
    settings = {"network": network, "alpha": alpha, "coherence": coherence, "block": block}
    digest = checkpoint_key(settings | (key or {}))
    if path is not None and trainer.restore(path, digest) and resumed is not None:
        resumed(trainer.games_done)
    none = (np.zeros(0, dtype=np.uint64), np.zeros((0, 3), dtype=np.int64))
    # compile (or load from the cache) now, not inside the first block's time
    train_games(none[0], trainer.weights, trainer.table, alpha, trainer.tc_e, trainer.tc_a, none[1])
    while trainer.games_done < games:
        count = min(block, games - trainer.games_done)
        records = np.zeros((count, 3), dtype=np.int64)
        t0 = time.perf_counter()
        train_games(
            seeds(trainer.games_done, count),
            trainer.weights,
            trainer.table,
            alpha,
            trainer.tc_e,
            trainer.tc_a,
            records,
        )
        trainer.games_done += count
        row = block_row(trainer.games_done, records, time.perf_counter() - t0)
        trainer.curve.append(row)
        if progress is not None:
            progress(trainer.games_done, games, dict(zip(CURVE_COLUMNS, row, strict=True)))
        if path is not None and trainer.games_done % checkpoint_every == 0:
            trainer.save(path, digest)
    curve = pd.DataFrame(trainer.curve, columns=list(CURVE_COLUMNS))
    curve["games"] = curve["games"].astype(np.int64)
    return Network(network, trainer.table.view(np.float32)[: trainer.network.lut.size]), curve
