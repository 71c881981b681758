"""Afterstate TD(0) and TD(lambda) self-play training of n-tuple networks (Szubert &
Jaskowski, CIG 2014): `train` runs the settings of a `TDConfig` (g2048.learning.recipes) block
by block through the kernels compiled for its network (g2048.learning.kernels, where the
algorithm is described), checking the weights and saving checkpoints (g2048.learning.trainer)
between blocks, so a killed run resumes to the result of an uninterrupted one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from g2048 import file_sha256
from g2048.engine.parallel import check_threads, thread_count
from g2048.evaluators.ntuple import (
    Network,
    initial_network,
    load_network,
    network_tuples,
    pattern_cells,
    stage_text,
)
from g2048.learning.kernels import EPISODE, kernels
from g2048.learning.recipes import TDConfig
from g2048.learning.trainer import CURVE_COLUMNS, Trainer, block_row, checkpoint_key


def start_network(config: TDConfig) -> Network:
    """The network of the file `config.from_` (TDL2048+'s -i), checked: a network file
    (load_network) with the SHA-256 `config.from_sha256`, holding the tuples of
    `config.network` (by any name) in its stages; ValueError in one line naming what differs."""
    path = config.from_
    try:
        digest = file_sha256(path)
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    if digest != config.from_sha256:
        raise ValueError(
            f"{path}: its SHA-256 is {digest[:16]}..., not {config.from_sha256[:16]}... as "
            "from_sha256 says: replaced since?"
        )
    loaded = load_network(path)
    wanted = network_tuples(config.network)
    if loaded.tuples != wanted or loaded.stages != config.stages:
        raise ValueError(
            f"{path}: holds {loaded.name} ({pattern_cells(loaded.tuples)})"
            f"{stage_text(loaded.stages) or ' in 1 stage'}, not {config.network} "
            f"({pattern_cells(wanted)}){stage_text(config.stages) or ' in 1 stage'}"
        )
    return Network(config.network, loaded.lut, loaded.stages)


def stages_in_use(network: Network) -> int:
    """The last stage whose weights are not all 0 (0 for one stage): a stage above it starts
    as a copy of the one below when a game first reaches it (weight promotion), as in a fresh
    run, and the stages up to it keep their weights."""
    tables = network.lut.reshape(len(network.stages) + 1, -1)
    used = [k for k in range(1, len(tables)) if tables[k].any()]
    return used[-1] if used else 0


def train(
    config: TDConfig,
    seeds: Callable[[int, int], np.ndarray],
    *,
    checkpoint: str | Path | None = None,
    key: dict | None = None,
    progress: Callable[[int, int, dict], None] | None = None,
    resumed: Callable[[int], None] | None = None,
    threads: int = 1,
    note: Callable[[str], None] | None = None,
) -> tuple[Network, pd.DataFrame]:
    """Train an n-tuple network as `config` says (its settings: g2048.learning.recipes):
    (network, curve).

    seeds(start, count): the seeds of games start..start+count-1. The curve has a row per
    `config.block` games (CURVE_COLUMNS; moves_per_s is the training rate, the only timing
    column). With `checkpoint`, the state is saved every `checkpoint_every` games and a run
    resumes from a checkpoint whose `key` (the run's settings) matches; a resumed run ends
    with the same network and curve as an uninterrupted one. progress(games done, games,
    curve row as a dict) follows each block; resumed(games done) is called when a checkpoint
    is resumed, note(line) when one cannot be read (training then starts from game 0).

    batch > 1 trains in rounds of `batch` games: a round's games are played with the weights
    as they stood at its start, on `threads` threads, then their updates are made in game
    order, so the result depends on batch but not on threads. batch=1 is the serial algorithm
    (threads then do not apply). lock_free plays and learns a block's games on `threads`
    threads at once, sharing the weights without locks (TDL2048+'s way, with batch 1): no
    serial phase, but not reproducible to the bit, since which update lands first depends on
    the threads' timing.

    tc_games > 0 learns the last `tc_games` games by TC at `tc_alpha` (with `coherence` off
    before them): TDL2048+'s OTD+TC schedule, optimistic TD then TC (Guei et al. 2021).
    stages: the tile thresholds of a multistage network (Yeh et al. 2017; `ntuple`), each
    stage's table promoted from the one before it before its first update (`_promote`).
    from_: start from a network file's weights instead (`start_network`, TDL2048+'s -i).
    lambda > 0 learns by TD(lambda): each afterstate towards the lambda-return of its episode,
    computed backwards once the game ends (`_update`; TDL2048+'s `-l`). TC games use it too.
    """
    check_threads(threads)
    c = config
    network, games, stages, tc_games, tc_from = c.network, c.games, c.stages, c.tc_games, c.tc_from
    start = start_network(c) if c.from_ else initial_network(network, c.init, stages)
    trainer = Trainer(start, c.coherence or tc_games > 0)
    if c.from_:
        trainer.promoted[:] = stages_in_use(start)
    path = Path(checkpoint) if checkpoint is not None else None
    digest = checkpoint_key(c.checkpoint_settings() | (key or {}))
    if path is not None and trainer.restore(path, digest, games, note) and resumed is not None:
        resumed(trainer.games_done)

    def train_games(seeds: np.ndarray, records: np.ndarray, tc: bool) -> None:
        serial, rounds, lockfree = kernels(network, stages)[1 if tc else 0]
        rate = (float(c.tc_alpha if tc and tc_games else c.alpha), float(c.lambda_))
        state = (
            trainer.table,
            rate,
            trainer.tc_e,
            trainer.tc_a,
            records,
            EPISODE,
            trainer.promoted,
        )
        if c.lock_free:
            with thread_count(threads):
                lockfree(seeds, *state)
        elif c.batch == 1:
            serial(seeds, *state)
        else:
            with thread_count(threads):
                rounds(seeds, *state, (c.batch, threads))

    def learning_rates(first: int, last: int) -> str:
        """The settings that stepped the weights in games first+1..last (for a diverged run)."""
        rates = [f"alpha {c.alpha}"] if not tc_games or first < tc_from else []
        rates += [f"tc_alpha {c.tc_alpha} (TC)"] if tc_games and last > tc_from else []
        rates += ["coherence on"] if c.coherence else []
        rates += [f"lambda {c.lambda_}"] if c.lambda_ else []
        rates += [f"init {c.init}"] if c.init else []
        return ", ".join(rates)

    checked = trainer.games_done  # weights checked finite (a resumed checkpoint's are)
    # compile (or load from the cache) now, not inside the first block's time
    for tc, used in ((False, tc_from > 0), (True, tc_from < games)):
        if used:
            train_games(np.zeros(0, dtype=np.uint64), np.zeros((0, 3), dtype=np.int64), tc)
    while trainer.games_done < games:
        done = trainer.games_done
        count = min(c.block, games - done, tc_from - done if done < tc_from else games)
        records = np.zeros((count, 3), dtype=np.int64)
        t0 = time.perf_counter()
        train_games(seeds(done, count), records, done >= tc_from)
        trainer.games_done += count
        row = block_row(trainer.games_done, records, time.perf_counter() - t0)
        trainer.curve.append(row)
        if progress is not None:
            progress(trainer.games_done, games, dict(zip(CURVE_COLUMNS, row, strict=True)))
        if trainer.games_done % c.checkpoint_every == 0 or trainer.games_done == games:
            trainer.check_finite(checked, learning_rates(checked, trainer.games_done))
            checked = trainer.games_done
            if path is not None and trainer.games_done % c.checkpoint_every == 0:
                trainer.save(path, digest)
    curve = pd.DataFrame(trainer.curve, columns=list(CURVE_COLUMNS))
    curve["games"] = curve["games"].astype(np.int64)
    lut = trainer.table.view(np.float32)[: trainer.network.lut.size]
    return Network(network, lut, stages), curve
