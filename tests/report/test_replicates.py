"""Tuning methods compared with their seeds as replicates: intervals over seeds, paired
differences to the baseline per seed, Welch between runs of one evaluator, Holm over a table."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from frames import games
from scipy import stats

from g2048.report.replicates import (
    TunedRun,
    evaluator_baselines,
    method_pairs,
    method_table,
    tuned_runs,
)
from g2048.report.stats import holm, mean_ci
from g2048.study.config import load_config

BASE = [1000, 2000, 3000, 4000]


def sets(run: str, shifts: list[float]) -> dict[str, pd.DataFrame]:
    """A run's seed picks, seed k scoring the base games + shifts[k-1] (with a little noise)."""
    wiggle = np.array([3.0, -1.0, 2.0, -4.0])
    return {
        f"{run}-s{k}": games(list(np.array(BASE) + shift + k * wiggle), [8] * 4)
        for k, shift in enumerate(shifts, start=1)
    }


GAMES = (
    {"base": games(BASE, [8] * 4)}
    | sets("steady", [100, 110, 90])
    | sets("lucky", [10, 900, -500])
    | sets("other", [40, 50, 60])
)
RUNS = [
    TunedRun("steady", "CEM", "cem8", (1, 2, 3)),
    TunedRun("lucky", "CMA-ES", "cem8", (1, 2, 3)),
    TunedRun("other", "NSGA-II", "nsga4", (1, 2, 3)),
]


def test_a_runs_interval_is_over_its_seeds_so_it_covers_run_to_run_variation() -> None:
    table = method_table(GAMES, RUNS, {"cem8": "base"}).set_index("run")
    means = [GAMES[f"lucky-s{k}"].score.mean() for k in (1, 2, 3)]
    assert table.loc["lucky", "seed_scores"] == " ".join(f"{m:.0f}" for m in means)
    assert table.loc["lucky", ["score_mean", "score_low", "score_high"]].tolist() == (
        pytest.approx(mean_ci(means))
    )
    steady = table.loc["steady", "score_high"] - table.loc["steady", "score_low"]
    lucky = table.loc["lucky", "score_high"] - table.loc["lucky", "score_low"]
    assert lucky > 10 * steady  # same games per seed: the width is the seeds' spread
    assert table.loc["lucky", "seeds"] == 3 and table.loc["lucky", "games_per_seed"] == 4


def test_each_seeds_paired_difference_to_the_baseline_is_one_replicate() -> None:
    table = method_table(GAMES, RUNS, {"cem8": "base"}).set_index("run")
    diffs = [(GAMES[f"steady-s{k}"].score - GAMES["base"].score).mean() for k in (1, 2, 3)]
    assert table.loc["steady", "diff_vs_baseline"] == pytest.approx(np.mean(diffs))
    assert table.loc["steady", "t_pvalue"] == pytest.approx(stats.ttest_1samp(diffs, 0).pvalue)
    assert table.loc["steady", "t_pvalue"] < 0.05 < table.loc["lucky", "t_pvalue"]
    assert np.isnan(table.loc["other", "diff_vs_baseline"])  # nsga4 has no baseline here
    assert table.holm_pvalue.tolist() == pytest.approx(holm(table.t_pvalue).tolist(), nan_ok=True)


def test_runs_are_paired_only_with_runs_of_the_same_evaluator_by_welch() -> None:
    pairs = method_pairs(GAMES, RUNS)
    assert pairs[["run", "versus"]].values.tolist() == [["steady", "lucky"]]
    a = [GAMES[f"steady-s{k}"].score.mean() for k in (1, 2, 3)]
    b = [GAMES[f"lucky-s{k}"].score.mean() for k in (1, 2, 3)]
    welch = stats.ttest_ind(a, b, equal_var=False)
    assert pairs.t_pvalue[0] == pytest.approx(welch.pvalue)
    low, high = welch.confidence_interval()
    assert (pairs.diff_low[0], pairs.diff_high[0]) == pytest.approx((low, high))
    assert pairs.holm_pvalue[0] == pytest.approx(welch.pvalue)  # one comparison: m = 1
    assert method_pairs(GAMES, RUNS[2:]).empty


def test_a_pick_played_on_other_seeds_than_its_baseline_is_refused() -> None:
    moved = GAMES | {"steady-s2": games(BASE, [8] * 4, seeds=[9, 8, 7, 6])}
    with pytest.raises(ValueError, match="baseline's seeds"):
        method_table(moved, RUNS, {"cem8": "base"})


def test_the_shipped_config_compares_every_run_with_its_evaluators_baseline() -> None:
    config = load_config(Path(__file__).resolve().parents[2] / "config" / "config.yaml")
    runs = {run["name"]: run for run in tuned_runs(config)}
    assert runs["cem"] == {
        "name": "cem",
        "label": "CEM",
        "control": False,
        "evaluator": "cem8",
        "seeds": config["tune"]["seeds"],
        "tested_in": "greedy, 800 moves",
    }
    assert runs["nneonneo-cem"]["tested_in"] == "expectimax d3 cutoff 0.0001, 100000 moves"
    assert runs["random-search"]["control"] and "td" not in runs  # networks: the learned table
    assert evaluator_baselines(config) == {
        "classic4": "hand-classic4",
        "nsga4": "equal-nsga4",
        "cem8": "cem-prior",
        "nneonneo": "nneonneo",
    }
