"""The pipeline's stages as plain functions: each takes settings and inputs and returns what
the Snakemake script writes. Scripts in workflow/scripts only adapt files to these calls."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from g2048.play import play_games
from g2048.rng import game_seeds
from g2048.selection import select_balanced, switching_rows
from g2048.study import METHODS, agent_config, as_weight_rows
from g2048.tuning.objectives import OBJECTIVES, tune_cem, tune_nsga2

Log = Callable[[str], None]


def game_progress(log: Log, label: str) -> Callable[[int, int], None]:
    """A play_games progress callback that logs games done / total, elapsed time and ETA."""
    start = time.perf_counter()
    step = 1

    def report(done: int, total: int) -> None:
        nonlocal step
        if done >= step or done == total:
            elapsed = time.perf_counter() - start
            eta = elapsed / done * (total - done)
            log(f"{label}: {done}/{total} games, {elapsed:.1f} s elapsed, ETA {eta:.0f} s")
            step = max(step + 1, int(done * 1.5))

    return report


def tune(
    method: str, settings: dict, seed: int, threads: int, log: Log
) -> tuple[dict, pd.DataFrame]:
    """One tuning run: (result for JSON, per-generation history)."""
    agent = agent_config(settings["agent"])
    if method == "nsga2":
        result = tune_nsga2(
            settings["evaluator"],
            agent=agent,
            games=settings["games"],
            pop_size=settings["pop_size"],
            generations=settings["generations"],
            seed=seed,
            threads=threads,
            fresh_seeds=settings["fresh_seeds"],
            progress=log,
        )
        front = result.rank == 0
        data = {
            "X": result.X,
            "F": result.F,
            "rank": result.rank,
            "front": np.flatnonzero(front),
            "objectives": list(OBJECTIVES),
            "ref_point": result.ref_point,
        }
    elif method == "cem":
        result = tune_cem(
            settings["evaluator"],
            agent=agent,
            games=settings["games"],
            max_moves=settings["max_moves"],
            population=settings["population"],
            iterations=settings["iterations"],
            seed=seed,
            threads=threads,
            fitness=settings["fitness"],
            progress=log,
        )
        data = {"mean": result.mean, "std": result.std, "best_x": result.best_x}
        data["best_f"] = result.best_f
    else:
        raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    data.update(method=method, seed=seed, settings=settings)
    return data, result.history


def select(tuned: dict) -> dict:
    """The weights a tuning run offers: NSGA-II's balanced front point and the switching rows,
    or CEM's final mean."""
    settings = tuned["settings"]
    out = {"method": tuned["method"], "seed": tuned["seed"], "evaluator": settings["evaluator"]}
    if tuned["method"] == "cem":
        return out | {"weights": tuned["mean"]}
    front = np.asarray(tuned["front"])
    X = np.asarray(tuned["X"])[front]
    F = np.asarray(tuned["F"])[front]
    return out | {
        "weights": X[select_balanced(F)],
        "switching": switching_rows(settings["evaluator"], X, F),
        "objectives": F[select_balanced(F)],
    }


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
    """Per-game records of one weight set (rows: one vector, or three for switching)."""
    agent = agent_config(agent_spec)
    rows = as_weight_rows(weights)
    return play_games(
        agent,
        seeds,
        evaluator,
        None if rows is None else (rows if agent.weight_rows > 1 else rows[0]),
        threads=threads,
        max_moves=max_moves,
        progress=game_progress(log, label),
    )


def validation_seeds(study_seed: int, games: int) -> np.ndarray:
    """Fresh game seeds of the validate stage (its own purpose: disjoint from tuning's)."""
    return game_seeds(study_seed, "validate", games)


def benchmark_seeds(study_seed: int, start: int, count: int) -> np.ndarray:
    """Game seeds of the benchmark, common to every entry so that comparisons are paired."""
    return game_seeds(study_seed, "benchmark", count, start)


def pick_tuned(selected: list[dict], summaries: list[pd.DataFrame]) -> dict:
    """Of one method's selected weight sets, the one whose validation games scored best."""
    means = [float(df.score.mean()) for df in summaries]
    best = int(np.argmax(means))
    return selected[best] | {"validation_mean_scores": means}


def script_log(path: str) -> Log:
    """The log of a Snakemake script: a Log appending timestamped lines to `path`, line
    buffered (progress survives a crash and can be followed with tail -f); stderr goes there
    too, so warnings and tracebacks land in the job's log."""
    stream = open(path, "a", buffering=1)  # noqa: SIM115 (open for the script's lifetime)
    sys.stderr = stream

    def log(line: str) -> None:
        stream.write(f"{time.strftime('%H:%M:%S')} {line}\n")

    return log
