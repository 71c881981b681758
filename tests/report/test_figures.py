"""The figures' print style: legible text, integer ticks on counting axes, no error bar on an
empty bar, nothing clipped at the top, no score interval below zero."""

import numpy as np
import pandas as pd
from matplotlib.collections import LineCollection

from g2048.report import figures
from g2048.report.figures import spread_labels
from g2048.report.tables import REACH


def reach_table(rates: list[float], scores: list[float], lows: list[float]) -> pd.DataFrame:
    rows = []
    for i, (rate, score, low) in enumerate(zip(rates, scores, lows, strict=True)):
        row = {"name": f"row{i}", "score_mean": score, "score_low": low}
        row |= {"score_high": score + 100.0, "ms_per_move": 0.1 * (i + 1)}
        row |= {"algorithm": "expectimax", "evaluator": "nneonneo", "budget_ms": 0.0}
        for tile in REACH:
            row |= {f"reach_{tile}": rate, f"reach_{tile}_low": max(rate - 0.1, 0.0)}
            row[f"reach_{tile}_high"] = min(rate + 0.1, 1.0)
        rows.append(row)
    return pd.DataFrame(rows)


def error_bars(ax) -> list[np.ndarray]:  # noqa: ANN001
    """The segments of the error bars of an axes."""
    return [s for c in ax.collections if isinstance(c, LineCollection) for s in c.get_segments()]


def test_counting_axes_have_integer_ticks() -> None:
    history = pd.DataFrame({"generation": [0, 1, 2], "hypervolume": [0.1, 0.2, 0.25]})
    ax = figures.hypervolume({"nsga2": [history]}).axes[0]
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks)


def test_reach_bars_show_no_error_bar_on_an_empty_bar_and_fit_a_full_one() -> None:
    table = reach_table([0.0, 1.0], [100.0, 200.0], [50.0, 150.0])
    ax = figures.benchmark_reach(table).axes[0]
    segments = [
        s for c in ax.collections if isinstance(c, LineCollection) for s in c.get_segments()
    ]
    assert len(segments) == len(REACH)  # one error bar per tile of the full row, none for row0
    assert all(np.isclose(seg[:, 0], seg[0, 0]).all() and seg[:, 1].min() > 0 for seg in segments)
    assert ax.get_ylim()[1] > 1.0
    assert ax.get_legend().get_texts()[0].get_fontsize() >= 9


def test_score_intervals_are_not_drawn_below_zero() -> None:
    table = reach_table([0.5, 0.5], [100.0, 200.0], [-300.0, 150.0])
    ax = figures.cost_strength(table).axes[0]
    assert min(seg[:, 1].min() for seg in error_bars(ax)) == 0.0


def test_cost_strength_joins_each_algorithms_budgets_in_order() -> None:
    table = reach_table([0.5] * 5, [100.0, 300.0, 200.0, 400.0, 150.0], [50.0] * 5)
    table["algorithm"] = ["expectimax", "expectimax", "montecarlo", "montecarlo", "expectimax"]
    table["budget_ms"] = [10.0, 1.0, 1.0, 10.0, 0.0]  # the last row has no budget
    ax = figures.cost_strength(table).axes[0]
    lines = {line.get_label(): line for line in ax.get_lines() if line.get_linestyle() == "-"}
    assert sorted(lines) == [
        "expectimax (nneonneo) at 1, 10 ms",
        "montecarlo (nneonneo) at 1, 10 ms",
    ]
    np.testing.assert_array_equal(
        lines["expectimax (nneonneo) at 1, 10 ms"].get_ydata(), [300, 100]
    )
    np.testing.assert_array_equal(
        lines["montecarlo (nneonneo) at 1, 10 ms"].get_ydata(), [200, 400]
    )


def test_the_palette_is_the_colour_blind_safe_one() -> None:
    fig = figures.hypervolume(
        {"a": [pd.DataFrame({"generation": [0, 1], "hypervolume": [0.1, 0.2]})]}
    )
    line = fig.axes[0].get_lines()[0]
    assert line.get_color() == figures.PALETTE[0]


def test_tuner_progress_groups_runs_judged_alike_and_shares_the_step_panel() -> None:
    cem = pd.DataFrame(
        {
            "iteration": [0, 1],
            "evaluations": [4, 8],
            "best_f": [1.0, 2.0],
            "mean_f": [0.5, 1.0],
            "std_0": [0.1, 0.05],
            "std_1": [0.3, 0.15],
        }
    )
    cma = pd.DataFrame({"iteration": [0, 1], "evaluations": [4, 8], "best_f": [1.5, 2.5],
                        "mean_f": [0.5, 1.0], "sigma": [0.1, 0.08]})  # fmt: skip
    runs = {
        "cem": {"evaluator": "cem8", "judged_by": "log2_max_tile", "histories": [cem, cem]},
        "cmaes": {"evaluator": "cem8", "judged_by": "log2_max_tile", "histories": [cma]},
        "nn-cem": {"evaluator": "nneonneo", "judged_by": "score", "histories": [cem]},
    }
    runs = {name: run | {"label": name} for name, run in runs.items()}
    fig = figures.tuner_progress(runs)
    assert len(fig.axes) == 3  # two groups, then the step sizes of all three runs
    assert [ax.get_ylabel() for ax in fig.axes[:2]] == ["log2_max_tile", "score"]
    steps = {line.get_label(): line.get_ydata() for line in fig.axes[2].get_lines()}
    np.testing.assert_allclose(steps["cem (mean)"], [0.2, 0.1])  # the std's mean over weights
    np.testing.assert_allclose(steps["cmaes (mean)"], [0.1, 0.08])


def test_depth_transfer_draws_one_line_per_weight_set_in_depth_order() -> None:
    table = pd.DataFrame({"name": ["a", "a", "b", "b"], "depth": [2, 1, 1, 2],
                          "score_mean": [20.0, 10.0, 5.0, 30.0],
                          "score_low": [-5.0, 8.0, 4.0, 25.0],
                          "score_high": [45.0, 12.0, 6.0, 35.0]})  # fmt: skip
    ax = figures.depth_transfer(table).axes[0]
    lines = {bars.get_label(): bars.lines[0] for bars in ax.containers}
    assert list(lines) == ["a", "b"]
    np.testing.assert_array_equal(lines["a"].get_xdata(), [1, 2])
    np.testing.assert_array_equal(lines["a"].get_ydata(), [10.0, 20.0])
    assert all(seg[:, 1].min() >= 0 for seg in error_bars(ax))


def test_spread_labels_separates_close_labels_and_leaves_lone_ones() -> None:
    x = np.array([0.0, 0.1, 0.2, 3.0])
    y = np.array([100.0, 99.0, 98.0, 99.0])
    heights = spread_labels(x, y, gap=5.0, width=0.5)
    assert heights[0] == 100 and heights[3] == 99  # the highest and the lone one stay
    near = np.sort(heights[:3])
    assert (np.diff(near) >= 5.0 - 1e-12).all()  # close ones at least a gap apart, top down
    assert heights[1] == 95 and heights[2] == 90
