"""Tuning methods compared with their seeds as replicates.

A tuning run is repeated with several optimiser seeds; each seed selects one weight set, and
the test stage plays every set on the same test games in the game the run was tuned in (its
agent, depth and move cap), as it plays its evaluator's baseline. A ranking by one pick per
method ranks the luck of single runs. Here a run's value is the mean over its seeds of each
seed's mean score, with a Student t interval over the seeds (n - 1 degrees of freedom): it
covers the run-to-run variation and, inside each seed's mean, the game noise. Against its
evaluator's baseline each seed's paired difference on the common games is one replicate (a
one-sample t over the seeds); two runs that tune the same evaluator are compared by Welch's t over
their seeds' means. The p-values of each table are Holm-corrected over its rows.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from g2048.report.stats import paired_difference
from g2048.report.tables import describe_agent, with_holm
from g2048.study.config import run_method, tuned_evaluator, tuning_game, weight_runs
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
    """The mean score difference of two weight sets' games on the same seeds."""
    if not np.array_equal(df["seed"].to_numpy(), base["seed"].to_numpy()):
        raise ValueError("a weight set was not played on its baseline's seeds")
    return float((df["score"].to_numpy() - base["score"].to_numpy()).mean())


def _one_sample(values: np.ndarray) -> dict[str, float]:
    """Mean, 95% t interval and two-sided t-test p-value (against 0) of per-seed values: the
    paired difference of the values and zeros."""
    return paired_difference(values, np.zeros_like(values))


def method_table(
    games: dict[str, pd.DataFrame], runs: list[TunedRun], baselines: dict[str, str]
) -> pd.DataFrame:
    """One row per tuning run: its seeds' mean scores, their mean with a t interval over the
    seeds, and, where its evaluator has a baseline (`baselines`: evaluator -> weight set), the
    mean over seeds of each seed's paired score difference to it, with its interval and
    p-value (Holm-corrected over the table as `holm_pvalue`)."""
    rows = []
    for run in runs:
        means = np.array([df["score"].mean() for df in _seed_games(games, run)])
        score = _one_sample(means)
        row = {
            "run": run.name,
            "method": run.label,
            "control": run.control,
            "evaluator": run.evaluator,
            "tested_in": run.tested_in,
            "seeds": len(run.seeds),
            "games_per_seed": len(games[candidate_name(run.name, run.seeds[0])]),
            "seed_scores": " ".join(f"{m:.0f}" for m in means),
            "score_mean": score["mean"],
            "score_low": score["low"],
            "score_high": score["high"],
            "score_sd_seeds": float(means.std(ddof=1)) if means.size > 1 else math.nan,
        }
        base = baselines.get(run.evaluator)
        if base is not None:
            diffs = np.array([_paired_mean(df, games[base]) for df in _seed_games(games, run)])
            gain = _one_sample(diffs)
            row |= {
                "baseline": base,
                "diff_vs_baseline": gain["mean"],
                "diff_low": gain["low"],
                "diff_high": gain["high"],
                "t_pvalue": gain["t_pvalue"],
                "se": gain["se"],
                "df": gain["df"],
            }
        rows.append(row)
    return with_holm(rows)


def _welch(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> dict[str, float]:
    """Mean a - b with Welch's interval and two-sided p-value (NaN with fewer than 2 each)."""
    diff = float(a.mean() - b.mean())
    if a.size < 2 or b.size < 2:
        nan = math.nan
        return {"mean": diff, "low": nan, "high": nan, "t_pvalue": nan, "se": nan, "df": nan}
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = math.sqrt(va + vb)
    if se == 0:
        p = 1.0 if diff == 0 else 0.0
        return {"mean": diff, "low": diff, "high": diff, "t_pvalue": p, "se": 0.0, "df": math.inf}
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = float(stats.t.ppf(0.5 + level / 2, df)) * se
    p = float(2 * stats.t.sf(abs(diff) / se, df))
    return {
        "mean": diff,
        "low": diff - half,
        "high": diff + half,
        "t_pvalue": p,
        "se": se,
        "df": df,
    }


def method_pairs(games: dict[str, pd.DataFrame], runs: list[TunedRun]) -> pd.DataFrame:
    """One row per pair of runs that tune the same evaluator: the difference of their mean
    scores over seeds, with Welch's interval and p-value (Holm-corrected over the table)."""
    means = {
        run.name: np.array([df["score"].mean() for df in _seed_games(games, run)]) for run in runs
    }
    rows = []
    for a, b in itertools.combinations(runs, 2):
        if a.evaluator != b.evaluator:
            continue
        d = _welch(means[a.name], means[b.name])
        rows.append(
            {
                "evaluator": a.evaluator,
                "run": a.name,
                "versus": b.name,
                "diff": d["mean"],
                "diff_low": d["low"],
                "diff_high": d["high"],
                "t_pvalue": d["t_pvalue"],
                "se": d["se"],
                "df": d["df"],
            }
        )
    columns = ["evaluator", "run", "versus", "diff", "diff_low", "diff_high", "t_pvalue"]
    empty = with_holm([]).reindex(columns=[*columns, "holm_pvalue", "mdd"])
    return with_holm(rows) if rows else empty


def game_label(game: dict) -> str:
    """A short label of a tuning game (`config.tuned_game_for`), e.g. 'greedy, 800 moves'."""
    cap = game["max_moves"]
    return describe_agent(game["agent"]) + (f", {cap} moves" if cap else "")


def tuned_runs(config: dict) -> list[dict]:
    """The config's weight-tuning runs as `TunedRun` fields (plain data, a Snakemake
    parameter); networks are compared in the learned table."""
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
