"""The not-flattened rule on synthetic progress curves: a run whose last gain exceeds twice its
standard error is still improving, one that is flat, falling or within its noise has
flattened; the table and the findings name each run by the rule."""

import numpy as np
import pandas as pd
import pytest

from g2048.report.convergence import (
    FLATTENED,
    IMPROVING,
    UNDECIDED,
    last_gain,
    progress_curves,
    progress_table,
    still_improving,
)
from g2048.report.findings import convergence_findings, findings_page


def curve(run: str, seed: int, means: list[float], se: float, gain_se: float) -> pd.DataFrame:
    """One seed's progress frame (as stages.held_out_progress writes it): a point per 100
    training games."""
    n = len(means)
    gains = np.concatenate([[np.nan], np.diff(means)])
    return pd.DataFrame(
        {
            "run": run,
            "method": "cem",
            "evaluator": "cem8",
            "seed": seed,
            "step": np.arange(n),
            "evaluations": 10 * np.arange(1, n + 1),
            "training_games": 100 * np.arange(1, n + 1),
            "measure": "log2_max_tile",
            "progress_games": 50,
            "mean": means,
            "se": se,
            "gain": gains,
            "gain_se": np.where(np.isnan(gains), np.nan, gain_se),
        }
    )


def seeds(run: str, lasts: list[float], gain_se: float = 0.02) -> list[pd.DataFrame]:
    """Seeds rising from 8 to 9 by their next-to-last point, then gaining `lasts[s]`."""
    return [
        curve(run, s + 1, [8.0, 9.0, 9.0 + last], 0.05, gain_se) for s, last in enumerate(lasts)
    ]


def verdicts(frames: list[pd.DataFrame]) -> dict[str, str]:
    table = progress_table(frames)
    return dict(zip(table.run, table.verdict, strict=True))


def test_a_run_that_gains_well_beyond_its_noise_is_still_improving() -> None:
    assert verdicts(seeds("rising", [0.3, 0.25, 0.35])) == {"rising": IMPROVING}


@pytest.mark.parametrize(
    ("lasts", "why"),
    [
        ([0.0, 0.0, 0.0], "flat"),
        ([-0.3, -0.2, -0.25], "falling"),
        ([0.3, -0.3, 0.05], "seeds disagree: the gain is within its spread over seeds"),
    ],
)
def test_a_flat_falling_or_noisy_run_has_flattened(lasts: list[float], why: str) -> None:
    assert verdicts(seeds("run", lasts)) == {"run": FLATTENED}, why


def test_seeds_that_happen_to_agree_do_not_hide_the_games_noise() -> None:
    """Three seeds that gain alike, each within its games' noise: not a sure gain."""
    assert verdicts(seeds("run", [0.1, 0.1, 0.1], gain_se=0.2)) == {"run": FLATTENED}
    gain, se = last_gain(pd.concat(seeds("run", [0.1, 0.1, 0.1], gain_se=0.2)).query("step == 2"))
    assert gain == pytest.approx(0.1) and se == pytest.approx(np.sqrt(3 * 0.2**2) / 3)


def test_one_seed_is_judged_by_its_games_noise() -> None:
    assert verdicts(seeds("one", [0.1], gain_se=0.02)) == {"one": IMPROVING}
    assert verdicts(seeds("one", [0.1], gain_se=0.06)) == {"one": FLATTENED}


def test_the_rule_is_strict_at_twice_the_standard_error() -> None:
    assert still_improving(2.01, 1.0) and not still_improving(2.0, 1.0)


def test_a_run_measured_once_is_undecided() -> None:
    assert verdicts([curve("short", 1, [8.0], 0.1, 0.1)]) == {"short": UNDECIDED}


def test_curves_average_the_seeds_with_their_standard_error() -> None:
    curves = progress_curves(seeds("run", [0.2, 0.4]))
    last = curves.iloc[-1]
    assert last.training_games == 300 and last.seeds == 2
    assert last["mean"] == pytest.approx(9.3)
    assert last.se == pytest.approx(np.std([9.2, 9.4], ddof=1) / np.sqrt(2))
    one = progress_curves(seeds("run", [0.2]))
    assert one.se.tolist() == [0.05, 0.05, 0.05]  # one seed: its games' standard error


def test_the_table_gives_first_next_to_last_and_last_points() -> None:
    row = progress_table(seeds("run", [0.3, 0.25, 0.35])).iloc[0]
    assert (row.first_games, row.before_games, row.games) == (100, 200, 300)
    assert (row.first_value, row.before_value) == (8.0, 9.0)
    assert row.value == pytest.approx(9.3) and row.method == "CEM" and row.points == 3
    # the smallest last gain the rule finds with 80% power: (2 + z_0.8) standard errors
    assert row.detectable_gain == pytest.approx((2 + 0.841621) * row.gain_se, rel=1e-5)


def test_the_findings_name_the_runs_still_improving_and_count_the_flat_ones() -> None:
    table = progress_table(seeds("cem-rising", [0.3, 0.25, 0.35]) + seeds("cmaes", [0, 0, 0]))
    improving, flat = convergence_findings(table)
    assert (
        improving.startswith("Still improving at their last step") and "`cem-rising`" in improving
    )
    assert "+0.3 ± 0.029 from 200 to 300 training games" in improving
    assert "mean log2 max tile" in improving and "`cmaes`" not in improving
    assert flat.startswith("The other 1 run had flattened") and "`cmaes`" in flat
    assert "(a gain of 0.0328 or more would have been found with 80% power)" in flat
    all_flat = convergence_findings(progress_table(seeds("cmaes", [0, 0, 0])))
    assert len(all_flat) == 1 and all_flat[0].startswith("All 1 run had flattened")


def test_the_findings_page_has_a_convergence_section_from_the_progress_table() -> None:
    table = progress_table(seeds("cem", [0.3, 0.25, 0.35]))
    page = findings_page({"progress": table}, "footer")
    assert "## Convergence of the tuning runs" in page and "`cem`" in page


def test_a_run_whose_incumbents_did_not_change_says_so_instead_of_a_detectable_gain() -> None:
    """Random search's incumbent often stays put: a gain of 0 on every progress game of every
    seed has no noise to size a detectable gain by."""
    table = progress_table(seeds("random-search", [0, 0, 0], gain_se=0.0))
    row = table.iloc[0]
    assert (row.gain, row.gain_se, row.verdict) == (0, 0, FLATTENED)
    assert np.isnan(row.detectable_gain)
    (flat,) = convergence_findings(table)
    assert "`random-search` unchanged from 200 to 300 training games (no seed's incumbent" in flat
    assert "would have been found" not in flat
