"""Tuning methods compared with their seeds as replicates: intervals over seeds, paired
differences to the baseline per seed, Welch between runs of one evaluator, Holm over a table."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from frames import games
from scipy import stats

from g2048.report.replicates import (
    FAMILY_CONTROL,
    FAMILY_TUNERS,
    TunedRun,
    evaluator_baselines,
    method_pairs,
    method_table,
    overfitting_table,
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


CONTROLLED = GAMES | sets("control", [0, 20, -20]) | sets("ahead", [400, 420, 380])
WITH_CONTROL = [
    TunedRun("steady", "CEM", "cem8", (1, 2, 3)),
    TunedRun("control", "random search", "cem8", (1, 2, 3), control=True),
    TunedRun("ahead", "CMA-ES", "cem8", (1, 2, 3)),
]


def test_each_tuner_meets_its_control_in_a_family_of_its_own() -> None:
    """The primary family: each tuner against its evaluator's control, read tuner - control
    whichever side the config lists it on, Holm within these pairs only; the tuners against
    one another are a family apart; the target is a fraction of the control's mean."""
    pairs = method_pairs(CONTROLLED, WITH_CONTROL, target=0.1)
    control = pairs[pairs.family == FAMILY_CONTROL]
    assert control[["run", "versus"]].values.tolist() == [["steady", "control"],
                                                          ["ahead", "control"]]  # fmt: skip
    assert pairs[pairs.family == FAMILY_TUNERS][["run", "versus"]].values.tolist() == [
        ["steady", "ahead"]
    ]
    assert control.holm_pvalue.tolist() == pytest.approx(holm(control.t_pvalue).tolist())
    assert (control["diff"] > 0).all()
    mean = np.mean([CONTROLLED[f"control-s{k}"].score.mean() for k in (1, 2, 3)])
    assert pairs.target.tolist() == pytest.approx([0.1 * mean] * 3)
    table = method_table(CONTROLLED, WITH_CONTROL, {"cem8": "base"}, target=0.1)
    assert table.target.tolist() == pytest.approx([0.1 * mean] * 3)


def test_overfitting_pairs_each_methods_selection_and_test_scores_over_its_seeds() -> None:
    tuning = pd.DataFrame(
        {"run": ["cem"] * 3 + ["random"] * 3, "method": ["cem"] * 3 + ["random"] * 3,
         "evaluator": ["cem8"] * 6, "seed": [1, 2, 3] * 2,
         "selection_score": [1000.0, 1100.0, 1200.0, 900.0, 950.0, 990.0],
         "test_score": [900.0, 1010.0, 1080.0, 950.0, 900.0, 1000.0]}
    )  # fmt: skip
    table = overfitting_table(tuning)
    assert table.run.tolist() == ["cem"]  # random search's selection value is its control's
    diffs = np.array([900.0, 1010.0, 1080.0]) - np.array([1000.0, 1100.0, 1200.0])
    assert table["diff"][0] == pytest.approx(diffs.mean())
    assert table.t_pvalue[0] == pytest.approx(stats.ttest_1samp(diffs, 0).pvalue)
    assert table.mdd[0] > 0 and table.test[0] == "paired t"
