"""Tuning methods compared with their seeds as replicates.

A tuning run is repeated with several optimiser seeds; each seed selects one weight set, and
the test stage plays every set on the same test games in the game the run was tuned in (its
agent, depth and move cap), as it plays its evaluator's baseline. A ranking by one pick per
method ranks the luck of single runs. Here a run's value is the mean over its seeds of each
seed's mean score, with a Student t interval over the seeds (n - 1 degrees of freedom): it
covers the run-to-run variation and, inside each seed's mean, the game noise. Against its
evaluator's baseline, each seed's mean and the baseline's on the same games form a pair, and the
seeds are the replicates (`compare`: a paired t over the seeds, the one-sample t of each seed's
paired difference); two runs that tune the same evaluator share no seeds' picks, so `compare`
takes Welch's t over their seeds' means. The p-values of each table are Holm-corrected over its
rows.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from g2048.report.stats import ALPHA, compare, mean_ci, replicates_needed
from g2048.report.tables import describe_agent, with_holm
from g2048.study.config import run_method, tuned_evaluator, tuning_game, weight_runs
from g2048.study.methods import get_method
from g2048.study.naming import candidate_name


@dataclass(frozen=True)
class TunedRun:
    """A tuning run as the comparison sees it: its name, its method's label, the evaluator whose
    weights it tunes, its seeds, whether its method is the control every tuner must beat, and
    the game its seeds' picks are tested in (a label)."""

    name: str
    label: str
    evaluator: str
    seeds: tuple[int, ...] | list[int]
    control: bool = False
    tested_in: str = ""


def _seed_games(games: dict[str, pd.DataFrame], run: TunedRun) -> list[pd.DataFrame]:
    return [games[candidate_name(run.name, seed)] for seed in run.seeds]


def _paired_mean(df: pd.DataFrame, base: pd.DataFrame) -> float:
    """The baseline's mean score on a weight set's games (refused unless the same seeds)."""
    if not np.array_equal(df["seed"].to_numpy(), base["seed"].to_numpy()):
        raise ValueError("a weight set was not played on its baseline's seeds")
    return float(base["score"].mean())


def _seed_means(games: dict[str, pd.DataFrame], run: TunedRun) -> pd.Series:
    """Each seed's pick's mean score, indexed by its weight set's name."""
    names = [candidate_name(run.name, seed) for seed in run.seeds]
    return pd.Series([games[n]["score"].mean() for n in names], index=names, dtype=float)


def _spread(samples: list[np.ndarray]) -> tuple[float, float]:
    """(between, within): the variance of a seed's true mean across seeds and the per-game
    variance inside a seed, from each seed's per-game values (the seeds' means' variance less
    the games' share of it, floored at 0)."""
    within = float(np.mean([x.var(ddof=1) for x in samples]))
    means = np.array([x.mean() for x in samples])
    games = np.mean([x.size for x in samples])
    return max(0.0, float(means.var(ddof=1)) - within / games), within


def _power(samples: list[np.ndarray], target: float, seeds: int, m: int) -> dict[str, float]:
    """The comparison's target difference (points) and the seeds and test games it needs for
    POWER at level ALPHA / m (`replicates_needed`), from the measured spread of `samples`."""
    between, within = _spread(samples)
    games = int(np.mean([x.size for x in samples]))
    k, n = replicates_needed(between, within, games, seeds, target, ALPHA / max(m, 1))
    return {"target": target, "seeds_needed": k, "games_needed": n}


def control_means(games: dict[str, pd.DataFrame], runs: list[TunedRun]) -> dict[str, float]:
    """The mean test score of each evaluator's control (random search), the mean over its
    seeds: the scale of the study's target difference for that evaluator."""
    return {r.evaluator: float(_seed_means(games, r).mean()) for r in runs if r.control}


def _goal(target: float, evaluator: str, controls: dict[str, float], fallback: float) -> float:
    """The target difference in points: `target` x the evaluator's control mean, or x
    `fallback` (its baseline's or the other run's mean) where it has no control."""
    return target * controls.get(evaluator, fallback)


def method_table(
    games: dict[str, pd.DataFrame],
    runs: list[TunedRun],
    baselines: dict[str, str],
    target: float = math.nan,
) -> pd.DataFrame:
    """One row per tuning run: its seeds' mean scores, their mean with a t interval over the
    seeds, and, where its evaluator has a baseline (`baselines`: evaluator -> weight set), the
    mean over seeds of each seed's paired score difference to it, with its interval and
    p-value (Holm-corrected over the table as `holm_pvalue`: the family of the runs against
    their hand baselines), and what a difference of `target` x the evaluator's control mean
    (the baseline's where it has no control) needs: `seeds_needed` at the games played,
    `games_needed` at the seeds run (80% power, level ALPHA / m as `mdd`)."""
    controls = control_means(games, runs)
    m = sum(run.evaluator in baselines for run in runs)
    rows = []
    for run in runs:
        means = _seed_means(games, run)
        score = mean_ci(means)
        row = {
            "run": run.name,
            "method": run.label,
            "control": run.control,
            "evaluator": run.evaluator,
            "tested_in": run.tested_in,
            "seeds": len(run.seeds),
            "games_per_seed": len(games[candidate_name(run.name, run.seeds[0])]),
            "seed_scores": " ".join(f"{m:.0f}" for m in means),
            "score_mean": score[0],
            "score_low": score[1],
            "score_high": score[2],
            "score_sd_seeds": float(means.std(ddof=1)) if means.size > 1 else math.nan,
        }
        base = baselines.get(run.evaluator)
        if base is not None:
            # the baseline's mean on each seed's games (the same games): pairs over the seeds
            paired = pd.Series(
                [_paired_mean(df, games[base]) for df in _seed_games(games, run)],
                index=means.index,
            )
            gain = compare(means, paired)
            diffs = [
                df["score"].to_numpy(float) - games[base]["score"].to_numpy(float)
                for df in _seed_games(games, run)
            ]
            goal = _goal(target, run.evaluator, controls, float(games[base]["score"].mean()))
            row |= _power(diffs, goal, len(run.seeds), m) if len(run.seeds) > 1 else {}
            row |= {
                "baseline": base,
                "test": gain["test"],
                "diff_vs_baseline": gain["mean"],
                "diff_low": gain["low"],
                "diff_high": gain["high"],
                "t_pvalue": gain["t_pvalue"],
                "se": gain["se"],
                "df": gain["df"],
            }
        rows.append(row)
    return with_holm(rows)


def _difference(d: dict) -> dict:
    """A `compare` result as a table's columns: its test, the difference with its interval,
    the t-test's p-value, and the standard error and degrees of freedom `with_holm` reads."""
    return {
        "test": d["test"],
        "diff": d["mean"],
        "diff_low": d["low"],
        "diff_high": d["high"],
        "t_pvalue": d["t_pvalue"],
        "se": d["se"],
        "df": d["df"],
    }


FAMILY_CONTROL = "against the control"  # each tuner against its evaluator's random search
FAMILY_TUNERS = "between tuners"  # the tuners of one evaluator against one another


def family_rows(pairs: pd.DataFrame, family: str) -> pd.DataFrame:
    """The rows of a method pairs table in one family (none from a table without families)."""
    return pairs[pairs.family == family] if "family" in pairs else pairs.iloc[:0]


def method_pairs(
    games: dict[str, pd.DataFrame], runs: list[TunedRun], target: float = math.nan
) -> pd.DataFrame:
    """One row per pair of runs that tune the same evaluator, in two families (`family`): each
    tuner against its evaluator's control (random search at the same budget, read tuner -
    control) and the tuners against one another. Each row: the difference of their mean
    scores over seeds, with Welch's interval and p-value (Holm-corrected within its family),
    and what a difference of `target` x the evaluator's control mean (the second run's where
    it has none) needs (seeds per run, test games; the two runs' spreads summed)."""
    means = {run.name: _seed_means(games, run) for run in runs}
    controls = control_means(games, runs)
    same = [
        (b, a) if a.control and not b.control else (a, b)
        for a, b in itertools.combinations(runs, 2)
        if a.evaluator == b.evaluator and not (a.control and b.control)
    ]
    same.sort(key=lambda pair: not pair[1].control)  # the family against the control first
    sizes = {f: sum((b.control) == (f == FAMILY_CONTROL) for _, b in same)
             for f in (FAMILY_CONTROL, FAMILY_TUNERS)}  # fmt: skip
    rows = []
    for a, b in same:
        family = FAMILY_CONTROL if b.control else FAMILY_TUNERS
        d = compare(means[a.name], means[b.name])
        spreads = [_spread([df["score"].to_numpy(float) for df in _seed_games(games, r)])
                   for r in (a, b)]  # fmt: skip
        goal = _goal(target, a.evaluator, controls, float(means[b.name].mean()))
        seeds, n = int(min(len(a.seeds), len(b.seeds))), len(games[means[a.name].index[0]])
        level = ALPHA / sizes[family]
        k, t = replicates_needed(*np.sum(spreads, axis=0), n, seeds, goal, level)
        rows.append(
            {
                "family": family,
                "evaluator": a.evaluator,
                "run": a.name,
                "versus": b.name,
                **_difference(d),
                "target": goal,
                "seeds_needed": k,
                "games_needed": t,
            }
        )
    columns = ["family", "evaluator", "run", "versus", "test", "diff", "diff_low", "diff_high"]
    empty = with_holm([]).reindex(columns=[*columns, "t_pvalue", "holm_pvalue", "mdd"])
    return with_holm(rows, family="family") if rows else empty


def overfitting_table(tuning: pd.DataFrame) -> pd.DataFrame:
    """Per tuning run (random search, whose selection value means something else, and networks
    left out): each seed's pick's mean score on its selection games against its test games in
    the same game, paired over the seeds (test - selection: below 0, the pick was chosen on
    luck its test games do not share), Holm over the runs, with the smallest difference each
    test could find (`mdd`)."""
    rows = []
    picks = tuning.dropna(subset=["selection_score", "test_score"])
    for run, seeds in picks.groupby("run", sort=False):
        if get_method(seeds["method"].iloc[0]).control:
            continue
        selection = seeds.set_index("seed")["selection_score"]
        test = seeds.set_index("seed")["test_score"]
        d = compare(test, selection)
        rows.append(
            {
                "run": run,
                "method": seeds["method"].iloc[0],
                "evaluator": seeds["evaluator"].iloc[0],
                "seeds": len(seeds),
                "selection_score": float(selection.mean()),
                "test_score": float(test.mean()),
                **_difference(d),
            }
        )
    return with_holm(rows)


def game_label(game: dict) -> str:
    """A short label of a tuning game (`config.tuned_game_for`), e.g. 'greedy, 800 moves'."""
    cap = game["max_moves"]
    return describe_agent(game["agent"]) + (f", {cap} moves" if cap else "")


def tuned_runs(config: dict) -> list[dict]:
    """The config's weight-tuning runs as `TunedRun` fields (plain data, a Snakemake
    parameter); networks are compared in the comparisons table."""
    return [
        {
            "name": run,
            "label": run_method(config, run).label,
            "control": run_method(config, run).control,
            "evaluator": tuned_evaluator(config, run),
            "seeds": list(config["tune"]["seeds"]),
            "tested_in": game_label(tuning_game(config, run)),
        }
        for run in weight_runs(config)
    ]


def evaluator_baselines(config: dict) -> dict[str, str]:
    """The validation baseline each tuned evaluator is compared with: the first baseline of
    the config's `validate.baselines` that plays it (none for an evaluator without one)."""
    out: dict[str, str] = {}
    for baseline in config["validate"]["baselines"]:
        out.setdefault(baseline["evaluator"], baseline["name"])
    return out
