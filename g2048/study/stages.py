"""The pipeline's stages as plain functions: each takes settings and inputs and returns what
the Snakemake script writes. Scripts in workflow/scripts only adapt files to these calls."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from g2048.engine.rng import game_seeds
from g2048.evaluators.ntuple import Network
from g2048.play import pinned_cores, play_games
from g2048.study.config import agent_config, shard_range
from g2048.study.methods import WeightMethod, get_method
from g2048.study.methods.base import RunSeed, SelectionRule, incumbents
from g2048.study.naming import (
    BENCHMARK_PURPOSE,
    NETWORK_EVALUATOR,
    PROGRESS_PURPOSE,
    VALIDATE_PURPOSE,
    selected_weights,
)
from g2048.study.objectives import game_values
from g2048.study.records.logs import Log, game_progress, timed_line
from g2048.study.results import (
    ResultFileError,
    read_games,
    read_history,
    read_network,
    read_selection,
    read_tune,
)


def tune(
    run: str,
    settings: dict,
    seed: int,
    study_seed: int,
    threads: int,
    log: Log,
    selection: dict,
    checkpoint: str | None = None,
) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """One weight-tuning run (`settings`: an entry of the config's `tune.runs`, named `run`)
    with optimiser seed `seed`, its games seeded from `study_seed` and the run's name, its seed's
    final candidates picked by the study's `selection` rule (`config.selection_rule`): (result
    for JSON, per-step history, cost: one row of its warm-up, wall and CPU seconds), by the
    run's method; with `checkpoint`, resumable from there (`WeightMethod.tune`)."""
    method = get_method(settings["method"])
    if not isinstance(method, WeightMethod):
        raise ValueError(f"method {method.name!r} does not tune weights in tune.runs")
    job = RunSeed(run, settings, seed, study_seed, threads, log, SelectionRule(**selection))
    result, history, cost = method.tune(job, checkpoint)
    return result, history, pd.DataFrame([{"run": run, "seed": seed, **cost}])


def progress_steps(steps: int, points: int) -> list[int]:
    """The steps (0-based) of a run of `steps` steps whose incumbents the progress games
    measure: the last step of each of `points` equal shares of the run, ceil(k x steps /
    points) - 1 for k = 1 .. points, so the last step is one (every step of a shorter run)."""
    if steps < 1 or points < 1:
        raise ValueError(f"steps and points must be >= 1, got {steps} and {points}")
    return sorted({-(-k * steps // points) - 1 for k in range(1, points + 1)})


def progress_seeds(study_seed: int, games: int) -> np.ndarray:
    """The held-out progress games' seeds (their own purpose: disjoint from every other
    stage's), the same for every run, seed and point."""
    return game_seeds(study_seed, PROGRESS_PURPOSE, games)


def held_out_progress(
    run: str,
    settings: dict,
    seed: int,
    study_seed: int,
    history_path: str,
    points: int,
    games: int,
    threads: int,
    log: Log,
    metric: str,
) -> pd.DataFrame:
    """A weight-tuning run's progress on held-out games (monitoring: none of these games is
    part of the run's budget, and nothing the run does depends on them).

    At `points` of its steps (`progress_steps`) the run's incumbent, recorded in its history
    (`history_path`), plays the `games` progress games with the run's own agent, evaluator
    and move cap, valued by the study's `metric` (whatever the run maximises). One row per
    point: the step, the training games played up to it (`training_games`, the
    budget count), the mean over the games with its standard error, the gain on the previous
    point with its paired standard error (the games are common: NaN at the first point), the
    untuned weights' mean on the same games (`baseline`: the evaluator's default weights,
    played alike), and the incumbent's weights."""
    method = get_method(settings["method"])
    history = read_history(history_path, method.name)
    if len(history) != method.steps(settings):
        raise ResultFileError(
            history_path, f"has {len(history)} steps, the run {method.steps(settings)}"
        )
    try:
        W = incumbents(history)
    except ValueError as exc:
        raise ResultFileError(history_path, str(exc)) from None
    steps = progress_steps(len(history), points)
    measure = metric
    objective = method.run_objective(run, settings, seed, study_seed, threads)
    start = time.perf_counter()
    log(f"{run} seed {seed}: steps {steps}, {games} progress games each, by {measure}")
    untuned = objective.evaluator.default_weights[None, :]
    frames = objective.play(np.vstack([W[steps], untuned]), progress_seeds(study_seed, games))
    log(f"played {(len(steps) + 1) * games} games in {time.perf_counter() - start:.1f} s")
    values = np.array([game_values(frame, measure) for frame in frames])  # (points + 1, games)
    values, baseline = values[:-1], float(values[-1].mean())
    gains = np.diff(values, axis=0)
    root = np.sqrt(games)
    nothing = np.full(1, np.nan)
    evaluations = history["evaluations"].to_numpy()[steps]
    table = pd.DataFrame(
        {
            "run": run,
            "method": method.name,
            "evaluator": settings["evaluator"],
            "seed": seed,
            "step": steps,
            "evaluations": evaluations,
            "training_games": evaluations * settings["games"],
            "measure": measure,
            "progress_games": games,
            "mean": values.mean(axis=1),
            "se": values.std(axis=1, ddof=1) / root,
            "gain": np.concatenate([nothing, gains.mean(axis=1)]),
            "gain_se": np.concatenate([nothing, gains.std(axis=1, ddof=1) / root]),
            "baseline": baseline,
        }
    )
    return table.assign(**{f"incumbent_{k}": W[steps, k] for k in range(W.shape[1])})


def train(
    run: str,
    config: Any,  # noqa: ANN401 (the method's settings_class: TDConfig)
    seed: int,
    study_seed: int,
    network_path: str,
    checkpoint: str,
    threads: int,
    log: Log,
) -> tuple[dict, pd.DataFrame, Network]:
    """One training run of a network by the method with its own section `tune.<run>` (td; see
    `methods.td.TD.train`), of the settings `config` (its `settings_class`'s, TDConfig; a
    section of the config becomes one by `method.options`): (result for JSON, learning curve,
    network)."""
    method = get_method(run)
    if not method.trains_network:
        raise ValueError(f"method {method.name!r} trains no network")
    job = RunSeed(run, config, seed, study_seed, threads, log)
    return method.train(job, network_path, checkpoint)


def select(tuned: dict) -> dict:
    """The weights a tuning run's seed offers (its method's `select`): for a weight run the
    study's one pick rule, the final candidate best by mean metric on its selection games
    (`WeightMethod.select`: with its training value `train`, its value of the method's
    objective there `fresh`, and its mean metric `metric`), and for NSGA-II beside it source
    000's balanced front point and (for an evaluator with empty-cells and corner features) the
    switching rows; for a td run its network (its file)."""
    out = {"run": tuned["run"], "method": tuned["method"], "seed": tuned["seed"]}
    return out | get_method(tuned["method"]).select(tuned)


def play_weight_set(
    evaluator: str,
    weights: object,
    agent_spec: dict,
    seeds: np.ndarray,
    threads: int,
    log: Log,
    label: str,
    max_moves: int = 0,
    cores: int | None = None,
) -> pd.DataFrame:
    """Per-game records of one weight set: None (the evaluator's defaults), one vector, or the
    switching agent's three rows; on `threads` threads, but an agent under a time budget plays
    each game on a core of its own (a move's clock runs on while its thread waits for a core):
    as many at once as the job's `cores` (default `threads`) less one left to the workflow's
    own process (`play.pinned_cores`: 2 cores play one game at a time, 16 play 15)."""
    agent = agent_config(agent_spec)
    pinned = pinned_cores(cores or threads) if agent.timed else []
    if pinned:
        log(timed_line(label, len(seeds), len(pinned), pinned))
    return play_games(
        agent,
        seeds,
        evaluator,
        weights,
        threads=len(pinned) if agent.timed else threads,
        max_moves=max_moves,
        progress=game_progress(log, label),
        cores=pinned,
    )


def tuned_weights(
    selection: str,
    record: dict,
    *,
    seed: int | None = None,
    entry: str = "weights",
    networks: Sequence[str] = (),
    runs: Sequence[str] = (),
    seed_selections: Sequence[str] = (),
) -> tuple[str, object]:
    """(evaluator, weights) of a selection file of the run `record` (config.run_record),
    checked: the seed's selection (`seed`) or the run's pick (None). A pick must hold what
    the selection file of the seed it picks holds (`seed_selections`: every seed's, in order;
    the job's inputs), not weights pasted in from elsewhere. Weights: the selection's `entry`
    (naming.SELECTION_ENTRY: its pick's vector, NSGA-II's balanced point or three switching
    rows); for a run that trains networks, the checked Network of the
    selected seed: its file (`networks`) checked against the SHA-256 that its training run
    recorded in its result file (`runs`), both given for `seed`, or for a pick for every seed
    of the run in order (the job's inputs)."""
    data = read_selection(selection, record, seed, pick=seed is None)
    if seed is None:
        if len(seed_selections) != len(record["seeds"]):
            raise ValueError(f"{selection}: give the selection files of seeds {record['seeds']}")
        own = seed_selections[record["seeds"].index(data["seed"])]
        picked = read_selection(own, record, data["seed"])
        differ = [key for key in picked if picked[key] != data.get(key)]
        if differ:
            raise ResultFileError(
                selection,
                f"picks seed {data['seed']}, but its {', '.join(differ)} differ from that "
                f"seed's selection file {own}: edited or replaced since?",
            )
    if data["evaluator"] != NETWORK_EVALUATOR:
        return data["evaluator"], selected_weights(data, entry)
    seeds = [seed] if seed is not None else record["seeds"]
    if len(networks) != len(seeds) or len(runs) != len(seeds):
        raise ValueError(f"{selection}: give the network and run files of seeds {seeds}")
    where = seeds.index(data["seed"])
    tuned = read_tune(runs[where], record, data["seed"])
    network = read_network(
        networks[where], record["network"], tuned["network_sha256"], runs[where], record["stages"]
    )
    return data["evaluator"], network


def validation_seeds(study_seed: int, games: int) -> np.ndarray:
    """Fresh game seeds of the validate stage (its own purpose: disjoint from tuning's)."""
    return game_seeds(study_seed, VALIDATE_PURPOSE, games)


def benchmark_seeds(study_seed: int, start: int, count: int) -> np.ndarray:
    """Game seeds of the benchmark, common to every entry so that comparisons are paired."""
    return game_seeds(study_seed, BENCHMARK_PURPOSE, count, start)


def pick_tuned(selected: list[dict]) -> dict:
    """Of one run's seeds' selections, the one its method values best on the run's selection
    games (`Method.selection_value`): a choice made on no test game."""
    values = [get_method(s["method"]).selection_value(s) for s in selected]
    best = int(np.argmax(values))
    return selected[best] | {"selection_values": values}


def benchmark_games(
    path: str, study_seed: int, games: int, shards: int = 1, shard: int = 0
) -> pd.DataFrame:
    """The checked games of a benchmark entry of `games` games (or of one of its shards)."""
    start, count = shard_range(games, shards, shard)
    return read_games(path, benchmark_seeds(study_seed, start, count), start)


def validation_games(path: str, study_seed: int, games: int) -> pd.DataFrame:
    """The checked games of one weight set of the validate stage."""
    return read_games(path, validation_seeds(study_seed, games))
