"""The pipeline's stages as plain functions: each takes settings and inputs and returns what
the Snakemake script writes. Scripts in workflow/scripts only adapt files to these calls."""

from __future__ import annotations

import hashlib
import time

import numpy as np
import pandas as pd

from g2048 import source_digest
from g2048.engine.rng import game_seeds
from g2048.evaluators.ntuple import Network
from g2048.learning.td import train
from g2048.play import play_games
from g2048.study.config import agent_config, shard_range
from g2048.study.naming import (
    BENCHMARK_PURPOSE,
    NETWORK_EVALUATOR,
    TD_RUN,
    VALIDATE_PURPOSE,
    WEIGHT_TUNERS,
    parse_weights,
    selected_weights,
    tuning_purpose,
)
from g2048.study.objectives import DEFAULT_FITNESS
from g2048.study.progress import Log, game_progress, timing
from g2048.study.results import read_games
from g2048.study.runners import tune_cem, tune_cmaes, tune_nsga2
from g2048.study.selection import can_switch, select_balanced, switching_rows

_TUNERS = {"nsga2": tune_nsga2, "cem": tune_cem, "cmaes": tune_cmaes}
_RUN_KEYS = ("name", "method", "evaluator", "agent", "games")  # the rest: the tuner's settings


def tune(
    run: str, settings: dict, seed: int, study_seed: int, threads: int, log: Log
) -> tuple[dict, pd.DataFrame]:
    """One tuning run (`settings`: an entry of the config's `tune.runs`, named `run`) with
    optimiser seed `seed`, its games seeded from `study_seed` and the run's name: (result for
    JSON, per-step history)."""
    method = settings["method"]
    if method not in WEIGHT_TUNERS:
        raise ValueError(f"unknown method {method!r}; known: {', '.join(WEIGHT_TUNERS)}")
    options = {k: v for k, v in settings.items() if k not in _RUN_KEYS}
    if "noise" in options:
        options["noise"] = tuple(options["noise"])
    tuned = _TUNERS[method](
        settings["evaluator"],
        agent=agent_config(settings["agent"]),
        games=settings["games"],
        seed=seed,
        run=run,
        study_seed=study_seed,
        threads=threads,
        progress=log,
        **options,
    )
    result = tuned.result
    if method == "nsga2":
        data = {
            "X": result.X,
            "F": result.F,
            "rank": result.rank,
            "front": np.flatnonzero(result.rank == 0),
            "ref_point": result.ref_point,
        }
    else:
        data = {"mean": result.mean, "best_x": result.best_x, "best_f": result.best_f}
        data |= {"elite": result.elite}
        data |= {"std": result.std} if method == "cem" else {"sigma": result.sigma}
    if tuned.reevaluation is not None:
        again = tuned.reevaluation
        data["reevaluation"] = {
            "X": again.X,
            "train": again.train,
            "fresh": again.fresh,
            "games": again.games,
        }
    # what selection judges candidates by: NSGA-II's first objective, or the fitness
    data["judged_by"] = "score" if method == "nsga2" else options.get("fitness", DEFAULT_FITNESS)
    data.update(run=run, method=method, seed=seed, study_seed=study_seed, settings=settings)
    return data | {"games_played": tuned.games_played}, result.history


def train_td(
    settings: dict, seed: int, study_seed: int, network_path: str, checkpoint: str, log: Log
) -> tuple[dict, pd.DataFrame, Network]:
    """One TD(0) training run (games seeded from `study_seed` and the run's name): (result for
    JSON, naming the network's file `network_path` and the digest of its weights; learning
    curve; network). Resumes from `checkpoint` when it holds this run's state (same settings,
    seeds and numba code)."""
    purpose = tuning_purpose(TD_RUN, seed)
    start = time.perf_counter()
    first = 0  # games done before this process started (a resumed run)

    def resumed(done: int) -> None:
        nonlocal first
        first = done
        log(f"resumed from {checkpoint} after {done} games")

    def progress(done: int, total: int, row: dict) -> None:
        log(
            f"{done}/{total} games: mean score {row['mean_score']:.0f}, 2048 in "
            f"{row['reach_2048']:.1%}, {row['moves_per_s']:.0f} moves/s, "
            + timing(done - first, total - first, start)
        )

    network, curve = train(
        settings["network"],
        settings["games"],
        lambda at, count: game_seeds(study_seed, purpose, count, at),
        alpha=settings["alpha"],
        coherence=settings.get("coherence", False),
        checkpoint=checkpoint,
        checkpoint_every=settings["checkpoint_every"],
        # a checkpoint of other code is never resumed either
        key={"study_seed": study_seed, "purpose": purpose, "code": source_digest(numba_only=True)},
        progress=progress,
        resumed=resumed,
    )
    data = {
        "run": TD_RUN,
        "method": "td",
        "seed": seed,
        "study_seed": study_seed,
        "settings": settings,
        "network": network_path,
        "network_sha256": hashlib.sha256(network.lut.tobytes()).hexdigest(),
        "games": settings["games"],
        "games_played": settings["games"],
    }
    return data, curve, network


def select(tuned: dict) -> dict:
    """The weights a tuning run offers: NSGA-II's balanced front point and (for an evaluator
    with empty-cells and corner features) the switching rows, the CEM's or CMA-ES's final
    mean, or a td run's network (its file).

    Noise-aware selection: when the run re-evaluated its final candidates on fresh seeds,
    NSGA-II's balanced point and switching rows are taken on the fresh values and CEM and
    CMA-ES pick the candidate (mean or last elite) with the best fresh value; `train` and
    `fresh` then give the pick's values on the last training seeds and on the fresh ones."""
    settings = tuned["settings"]
    out = {"run": tuned["run"], "method": tuned["method"], "seed": tuned["seed"]}
    if tuned["method"] == "td":
        return out | {"evaluator": NETWORK_EVALUATOR, "weights": tuned["network"]}
    out["evaluator"] = settings["evaluator"]
    again = tuned.get("reevaluation")
    if tuned["method"] != "nsga2":
        if again is None:
            return out | {"weights": tuned["mean"]}
        best = int(np.argmax(again["fresh"]))
        return out | {
            "weights": np.asarray(again["X"])[best],
            "train": again["train"][best],
            "fresh": again["fresh"][best],
        }
    front = np.asarray(tuned["front"])
    X = np.asarray(tuned["X"])[front]
    F = np.asarray(tuned["F"])[front]
    judged = F if again is None else np.asarray(again["fresh"])
    pick = select_balanced(judged)
    out |= {"weights": X[pick], "objectives": F[pick]}
    if can_switch(settings["evaluator"]):
        out["switching"] = switching_rows(settings["evaluator"], X, judged)
    if again is not None:
        out |= {"train": again["train"][pick], "fresh": again["fresh"][pick]}
    return out


def play_weight_set(
    evaluator: str,
    weights: object,
    agent_spec: dict,
    seeds: np.ndarray,
    threads: int,
    log: Log,
    label: str,
    max_moves: int = 0,
) -> pd.DataFrame:
    """Per-game records of one weight set: None (the evaluator's defaults), one vector, or the
    switching agent's three rows."""
    return play_games(
        agent_config(agent_spec),
        seeds,
        evaluator,
        weights,
        threads=threads,
        max_moves=max_moves,
        progress=game_progress(log, label),
    )


def entry_weights(entry: dict, selection: dict | None) -> object:
    """The weights a benchmark entry plays: its own (None = defaults), or, for a `tuned:` or
    `front:` spec, those of the selection file the spec names."""
    spec = parse_weights(entry.get("weights"))
    if spec is None:
        return entry.get("weights")
    if selection is None:
        raise ValueError(f"benchmark entry {entry['name']!r} needs the {spec} selection file")
    return selected_weights(selection, spec.switching)


def validation_seeds(study_seed: int, games: int) -> np.ndarray:
    """Fresh game seeds of the validate stage (its own purpose: disjoint from tuning's)."""
    return game_seeds(study_seed, VALIDATE_PURPOSE, games)


def benchmark_seeds(study_seed: int, start: int, count: int) -> np.ndarray:
    """Game seeds of the benchmark, common to every entry so that comparisons are paired."""
    return game_seeds(study_seed, BENCHMARK_PURPOSE, count, start)


def pick_tuned(selected: list[dict], summaries: list[pd.DataFrame]) -> dict:
    """Of one method's selected weight sets, the one whose validation games scored best."""
    means = [float(df.score.mean()) for df in summaries]
    best = int(np.argmax(means))
    return selected[best] | {"validation_mean_scores": means}


def benchmark_games(
    path: str, study_seed: int, games: int, shards: int = 1, shard: int = 0
) -> pd.DataFrame:
    """The checked games of a benchmark entry of `games` games (or of one of its shards)."""
    start, count = shard_range(games, shards, shard)
    return read_games(path, benchmark_seeds(study_seed, start, count), start)


def validation_games(path: str, study_seed: int, games: int) -> pd.DataFrame:
    """The checked games of one weight set of the validate stage."""
    return read_games(path, validation_seeds(study_seed, games))
