"""The study's sets of games, as seeds: training (every tuning step's and every training game),
selection (each run's re-evaluation, on which its choices are made), test (validation, the
depth transfer and the benchmark, which every reported number comes from) and progress (the
held-out games that measure each weight-tuning run's incumbent along the run, for monitoring).
They must be disjoint: no reported number comes from a game on which a choice was made, and
the progress curves come from games no run chose or reported anything on."""

from __future__ import annotations

import numpy as np

from g2048.engine.rng import game_seeds
from g2048.study.config import run_method, run_names, run_settings
from g2048.study.methods import WeightMethod
from g2048.study.naming import (
    BENCHMARK_PURPOSE,
    PROGRESS_PURPOSE,
    VALIDATE_PURPOSE,
    tuning_purpose,
)

SETS = ("training", "selection", "test", "progress")


def game_sets(config: dict) -> dict[str, dict[str, np.ndarray]]:
    """For each set, the seeds each of its purposes plays (purpose -> seeds) in a validated
    study config."""
    sets: dict[str, dict[str, np.ndarray]] = {name: {} for name in SETS}
    study_seed = config["study_seed"]
    for run in run_names(config):
        method, settings = run_method(config, run), run_settings(config, run)
        for seed in config["tune"]["seeds"]:
            if not isinstance(method, WeightMethod):  # a network's self-play games
                purpose = tuning_purpose(method.name, seed)
                sets["training"][purpose] = game_seeds(study_seed, purpose, settings["games"])
                continue
            objective = method.run_objective(run, settings, seed, study_seed)
            for step in range(method.steps(settings)):
                sets["training"][f"{run}-s{seed} step {step}"] = objective.seeds(step)
            games = config["tune"]["selection"]["games"]
            sets["selection"][f"{run}-s{seed}"] = objective.fresh_seeds_of(games)
    sets["test"][VALIDATE_PURPOSE] = game_seeds(
        study_seed, VALIDATE_PURPOSE, config["validate"]["games"]
    )
    most = max(entry["games"] for entry in config["benchmark"]["entries"])
    sets["test"][BENCHMARK_PURPOSE] = game_seeds(study_seed, BENCHMARK_PURPOSE, most)
    progress = config["tune"]["progress"]["games"]
    sets["progress"][PROGRESS_PURPOSE] = game_seeds(study_seed, PROGRESS_PURPOSE, progress)
    return sets


def overlaps(sets: dict[str, dict[str, np.ndarray]]) -> list[str]:
    """Every pair of sets that share a seed, named with a purpose of each side."""
    found = []
    names = [name for name in SETS if name in sets]
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            seen = {int(s): p for p, seeds in sets[a].items() for s in seeds}
            for purpose, seeds in sets[b].items():
                shared = [int(s) for s in seeds if int(s) in seen]
                if shared:
                    found.append(f"{a} ({seen[shared[0]]}) and {b} ({purpose})")
    return found
