"""The summary tables: reach rates and cost, paired comparisons with the reference, config order
and labels, the table files."""

import numpy as np
import pandas as pd
import pytest
from frames import games

from g2048.report.stats import holm
from g2048.report.tables import (
    benchmark_table,
    comparison_table,
    describe_agent,
    holm_note,
    leader_table,
    moves_gain,
    summary_row,
    transfer_table,
    validation_table,
    write_table,
)


def test_summary_row_counts_reach_rates_and_cost() -> None:
    row = summary_row(games([1000, 3000, 5000, 7000], [512, 2048, 4096, 8192]))
    assert row["games"] == 4
    assert row["score_mean"] == 4000 and row["score_median"] == 4000
    assert row["reach_2048"] == 0.75 and row["reach_4096"] == 0.5 and row["reach_8192"] == 0.25
    assert row["reach_2048_low"] < 0.75 < row["reach_2048_high"]
    assert row["ms_per_move"] == pytest.approx(1000 * 2.0 / (100 + 110 + 120 + 130))
    assert row["max_tile_median"] == 3072


def test_validation_table_pairs_every_set_with_the_reference() -> None:
    base = games([100, 200, 300], [256, 256, 256])
    better = games([150, 260, 330], [256, 512, 512])
    worse = games([90, 150, 310], [256, 256, 256])
    sets = {"base": base, "better": better, "worse": worse}
    table = validation_table(sets, "base").set_index("name")
    assert np.isnan(table.loc["base", "diff_vs_reference"])  # compares nothing, counts in no m
    assert table.loc["better", "diff_vs_reference"] == pytest.approx(140 / 3)
    small, large = sorted(table["t_pvalue"].dropna())
    assert sorted(table["holm_pvalue"].dropna()) == pytest.approx(
        [2 * small, max(2 * small, large)]
    )
    assert "over the 2 comparisons of this table (sets vs base)" in holm_note(table, "sets vs base")


def test_transfer_table_pairs_each_depth_with_the_reference_and_holm_corrects() -> None:
    rows = {
        ("ref", 1): games([10, 20, 30], [8, 8, 8]),
        ("ref", 2): games([100, 200, 300], [8, 8, 8]),
        ("a", 1): games([12, 25, 31], [8, 8, 8]),
        ("a", 2): games([90, 150, 310], [8, 8, 8]),
    }
    table = transfer_table(rows, "ref").set_index(["name", "depth"])
    assert table.loc[("a", 1), "diff_vs_reference"] == pytest.approx(8 / 3)
    assert table.loc[("a", 2), "diff_vs_reference"] == pytest.approx(-50 / 3)
    assert np.isnan(table.loc[("ref", 2), "holm_pvalue"])
    small, large = sorted(table["t_pvalue"].dropna())  # two comparisons: m = 2
    assert sorted(table["holm_pvalue"].dropna()) == pytest.approx(
        [2 * small, max(2 * small, large)]
    )


def test_validation_table_refuses_unpaired_games() -> None:
    base = games([100, 200], [256, 256], seeds=[1, 2])
    other = games([100, 200], [256, 256], seeds=[1, 3])
    with pytest.raises(ValueError, match="seeds"):
        validation_table({"base": base, "other": other}, "base")


def test_benchmark_table_keeps_config_order_and_labels() -> None:
    entries = [
        {"name": "b", "agent": {"name": "greedy"}, "evaluator": "ovolve", "games": 2},
        {"name": "a", "agent": {"name": "expectimax", "depth": 5, "cutoff": 1e-4},
         "evaluator": "nsga4", "weights": "tuned:nsga2", "games": 2},
    ]  # fmt: skip
    table = benchmark_table({"a": games([1, 2], [2, 4]), "b": games([3, 4], [8, 16])}, entries)
    assert list(table.name) == ["b", "a"]
    assert table.loc[1, "agent"] == "expectimax d5 cutoff 0.0001"
    assert table.loc[1, "weights"] == "tuned:nsga2" and table.loc[0, "weights"] == "defaults"


def test_benchmark_table_sums_the_depths_and_marks_timed_rows() -> None:
    entries = [
        {"name": "fixed", "agent": {"name": "expectimax", "depth": 3}, "evaluator": "ovolve"},
        {"name": "timed", "agent": {"name": "expectimax", "depth": 9, "budget_ms": 5},
         "evaluator": "ovolve"},
        {"name": "mc", "agent": {"name": "montecarlo"}, "evaluator": "ovolve"},
    ]  # fmt: skip
    deep = games([1, 2], [2, 4]).assign(depths=["3:10 5:30", "5:50 7:10"])
    mc = games([1, 2], [2, 4]).assign(depths="none")
    table = benchmark_table({"fixed": games([1, 2], [2, 4]), "timed": deep, "mc": mc}, entries)
    assert table.depth_mean.iloc[0] == 3.0 and table.depths.iloc[0] == "3:100%"
    assert table.depth_mean.iloc[1] == (3 * 10 + 5 * 80 + 7 * 10) / 100
    assert table.depths.iloc[1] == "3:10% 5:80% 7:10%"
    assert np.isnan(table.depth_mean.iloc[2]) and table.depths.iloc[2] == "none"
    assert table.timed.tolist() == [False, True, False]
    assert table.nodes_per_move.iloc[0] == 2000 / 210


def test_describe_agent_names_the_rollout_settings() -> None:
    agent = {"name": "hybrid", "depth": 3, "rollouts": 50, "step_cap": 10}
    assert describe_agent(agent) == "hybrid d3 50 rollouts cap 10"
    agent = {"name": "expectimax", "depth": 3, "downgrade": 32768}
    assert describe_agent(agent) == "expectimax d3 downgrade 32768"


def test_write_table_writes_csv_markdown_and_latex(tmp_path) -> None:  # noqa: ANN001
    df = pd.DataFrame({"name": ["x_y"], "value": [1.23456]})
    write_table(df, tmp_path / "t")
    assert pd.read_csv(tmp_path / "t.csv").value[0] == 1.23456
    assert "1.23" in (tmp_path / "t.md").read_text()
    assert r"x\_y" in (tmp_path / "t.tex").read_text()


def test_moves_gain_is_relative_to_the_baseline() -> None:
    base = games([1, 2, 3], [2, 2, 2])
    longer = base.assign(moves=base.moves * 1.2)
    gain, low, high = moves_gain(longer, base)
    assert gain == pytest.approx(0.2)
    assert low <= gain <= high


def test_comparisons_test_each_pair_once_and_correct_timed_pairs_apart() -> None:
    """A pair that is both a network's and a budget's is one row with one test; every two rows
    under a budget are a row (a timed ranking that changes between runs changes no row); Holm
    runs within the timed pairs and within the others."""
    net = games([5, 9, 7, 30], [8, 16, 8, 64])
    near, far = net.assign(score=net.score - [1, 2, 0, 3]), net.assign(score=net.score - 4)
    timed = net.assign(score=net.score - [2, 1, 3, 2], timed=True)
    entries = {"net": net, "near": near, "far": far, "timed": timed}
    pairs = [("net", "near"), ("net", "timed"), ("net", "far")]
    out = comparison_table(pairs, {"1 ms per move": ["far", "net", "timed"]}, entries)
    assert out[["first", "second"]].values.tolist() == [
        ["net", "near"], ["net", "timed"], ["net", "far"], ["timed", "far"],
    ]  # fmt: skip
    assert out.budget.tolist() == ["", "1 ms per move", "1 ms per move", "1 ms per move"]
    assert out.network.tolist() == ["net", "net", "net", ""]
    assert out["rank"].tolist() == [0, 1, 0, 2]  # net > timed > far: neighbours ranked
    swapped = entries | {"net": timed.assign(timed=False), "timed": net.assign(timed=True)}
    again = comparison_table(pairs, {"1 ms per move": ["far", "net", "timed"]}, swapped)
    assert len(again) == len(out)  # another order under the budget: the same rows
    assert set(out.test) == {"paired t"}
    assert out["diff"].tolist()[:3] == [1.5, 2.0, 4.0]
    plain = out[~out.timed]
    assert plain.holm_pvalue.tolist() == pytest.approx(holm(plain.t_pvalue).tolist(), nan_ok=True)
    assert "timed False: 2, timed True: 2" in holm_note(out, "pairs", by="timed")
    assert comparison_table([], {}, entries).empty  # no network rows, no budgets: empty


def test_leader_table_tests_the_top_set_against_the_runner_up_once_per_group() -> None:
    """Per group the highest mean against the next by `compare` (paired: the same games), with
    Holm over the groups; a group of one set has no order to test."""
    base = games([100, 200, 300, 400], [256] * 4)
    sets = {"a": base, "b": base.assign(score=base.score + [30, 50, 20, 40]),
            "c": base.assign(score=base.score + [5, -5, 10, 0])}  # fmt: skip
    groups = {"depth 2": sets, "depth 3": {"a": base, "c": sets["c"]}, "depth 4": {"a": base}}
    out = leader_table(groups)
    assert out.group.tolist() == ["depth 2", "depth 3"]
    assert out[["first", "second"]].values.tolist() == [["b", "c"], ["c", "a"]]
    assert set(out.test) == {"paired t"} and out.games.tolist() == [4, 4]
    assert out["diff"].tolist() == pytest.approx([32.5, 2.5])
    assert out.first_score.tolist() == pytest.approx([285.0, 252.5])
    assert out.holm_pvalue.tolist() == pytest.approx(holm(out.t_pvalue).tolist())
    assert out.diff_low[0] < 32.5 < out.diff_high[0] and "mdd" in out
