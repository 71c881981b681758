"""What the aggregate stage computes: selection, summary tables, claims, result files."""

import json

import numpy as np
import pandas as pd
import pytest

from g2048.report.claims import (
    CLAIMS,
    QUESTIONS,
    Claim,
    about,
    claims_table,
    find_entry,
    verdict,
)
from g2048.report.figures import spread_labels
from g2048.report.tables import (
    benchmark_table,
    describe_agent,
    learned_table,
    moves_gain,
    summary_row,
    transfer_table,
    validation_table,
    write_table,
)
from g2048.study.results import read_json, write_json
from g2048.study.selection import can_switch, select_balanced, switching_rows
from g2048.study.stages import pick_tuned, select


def games(scores: list[int], tiles: list[int], seeds: list[int] | None = None) -> pd.DataFrame:
    n = len(scores)
    return pd.DataFrame(
        {
            "game": range(n),
            "seed": seeds or list(range(n)),
            "score": scores,
            "max_tile": tiles,
            "moves": [100 + 10 * i for i in range(n)],
            "empty_mean": [5.0] * n,
            "nodes": [1000] * n,
            "overflow": [False] * n,
            "depth_mean": [3.0] * n,
            "depths": [f"3:{100 + 10 * i}" for i in range(n)],
            "timed": [False] * n,
            "seconds": [0.5] * n,
        }
    )


def test_balanced_point_is_nearest_the_ideal_after_scaling() -> None:
    # objective 0 spans 0..1000, objective 1 spans 0..1: unscaled, the first would dominate
    F = np.array([[1000.0, 0.0], [600.0, 0.7], [0.0, 1.0]])
    assert select_balanced(F) == 1


def test_switching_rows_take_the_extremes_of_empty_and_corner_weights() -> None:
    # nsga4 features: monotonicity, empty, merges, corner
    X = np.array([[0.25, 0.25, 0.25, 0.25], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.1, 0.7]])
    F = np.array([[10.0, 10.0], [12.0, 1.0], [1.0, 12.0]])
    rows = switching_rows("nsga4", X, F)
    np.testing.assert_array_equal(rows, X[[0, 1, 2]])


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
    table = validation_table({"base": base, "better": better}, "base").set_index("name")
    assert table.loc["base", "diff_vs_reference"] == 0
    assert table.loc["better", "diff_vs_reference"] == pytest.approx(140 / 3)


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


def test_a_claim_holds_when_the_intervals_overlap() -> None:
    claim = Claim("s", "t", about("ovolve", name="random"), "score_mean", 900.0, 1100.0)
    assert verdict(1050.0, 1300.0, claim) == "held"
    assert verdict(1200.0, 1300.0, claim) == "did not hold"
    assert verdict(100.0, 899.0, claim) == "did not hold"


RANDOM = {"name": "plain-random", "agent": {"name": "random"}, "evaluator": "ovolve", "games": 4}
GREEDY = {"name": "one-ply", "agent": {"name": "greedy"}, "evaluator": "ovolve", "games": 4}


def test_claims_find_their_rows_by_what_they_play_not_by_name() -> None:
    d4 = {"name": "expectimax", "depth": 4}
    entries = [
        RANDOM,
        {"name": "x", "agent": d4, "evaluator": "classic4", "weights": [4, 1, 0.3, 1]},
        {"name": "y", "agent": d4 | {"cutoff": 0.01}, "evaluator": "classic4",
         "weights": [2.7, 1.0, 0.1, 2.0]},
    ]  # fmt: skip
    assert find_entry(entries, about("ovolve", name="random")) == "plain-random"
    assert find_entry(entries, about("classic4", (4.0, 1.0, 0.3, 1.0), **d4)) == "x"
    assert find_entry(entries, about("classic4", (2.7, 1.0, 0.1, 2.0), **d4)) == "y"
    assert find_entry(entries, about("classic4", (2.7, 1.0, 0.1, 2.0), name="greedy")) is None
    assert find_entry(entries, about("ovolve", max_moves=800, name="random")) is None


def test_claims_table_marks_missing_and_noted_rows() -> None:
    table = pd.DataFrame(
        [{"name": "plain-random", "score_mean": 1000.0, "score_low": 900.0, "score_high": 1100.0,
          "reach_2048": 0.0, "reach_2048_low": 0.0, "reach_2048_high": 0.01, "timed": False},
         {"name": "one-ply", "score_mean": 5000.0, "score_low": 4900.0, "score_high": 5100.0,
          "reach_2048": 0.0, "reach_2048_low": 0.0, "reach_2048_high": 0.01, "timed": False}]
    )  # fmt: skip
    entries = [RANDOM, GREEDY | {"note": "other settings"}]
    out = claims_table(table, entries).set_index("claim")
    assert len(out) == len(CLAIMS) + len(QUESTIONS)
    assert out.loc["random: mean score ~1,200", "verdict"] == "held"
    assert out.loc["random: mean score ~1,200", "measured (95% CI)"] == "1,000 [900, 1,100]"
    assert out.loc["random: mean score ~1,200", "claimed"] == "900 to 1,500"
    assert out.loc["random: reaches 2048 in ~0%", "measured (95% CI)"] == "0 [0, 0.01]"
    assert out.loc["greedy (1 ply): mean score ~5,000", "verdict"] == "not comparable"
    assert out.loc["greedy (1 ply): mean score ~5,000", "note"] == "other settings"
    assert out.loc["expectimax depth 3: mean score ~18,000", "verdict"] == "not comparable"
    assert not out["timed"].any()
    timed = claims_table(table.assign(timed=True), [RANDOM]).set_index("claim")
    assert timed.loc["random: mean score ~1,200", "timed"]
    assert not timed.loc["greedy (1 ply): mean score ~5,000", "timed"]


def test_questions_answer_by_the_paired_interval() -> None:
    q = QUESTIONS[0]
    base = games([100, 200, 300, 400], [8, 8, 8, 8])
    higher = games([150, 260, 340, 470], [8, 8, 8, 8])
    entries = [
        {"name": name, "agent": dict(row.agent), "evaluator": row.evaluator, "games": 4}
        | ({"weights": row.weights} if row.weights else {})
        for name, row in (("tuned", q.row), ("shipped", q.versus))
    ]
    table = benchmark_table({"greedy": base}, [{"name": "greedy", "agent": {"name": "greedy"},
                                                "evaluator": "ovolve", "games": 4}])  # fmt: skip
    rows = claims_table(table, entries, games={"tuned": higher, "shipped": base})
    rows = rows.set_index("claim")
    assert rows.loc[q.text, "verdict"] == "tuned higher"
    assert rows.loc[q.text, "measured (95% CI)"].startswith("55 [")
    rows = claims_table(table, entries, games={"tuned": base, "shipped": base}).set_index("claim")
    assert rows.loc[q.text, "verdict"] == "tuned no clear difference"
    rows = claims_table(table, entries).set_index("claim")
    assert rows.loc[q.text, "verdict"] == "not comparable"
    rows = claims_table(table, entries[1:], games={"shipped": base}).set_index("claim")
    assert rows.loc[q.text, "note"] == f"no benchmark row plays {q.row}"
    with pytest.raises(ValueError, match="same seeds"):
        claims_table(
            table, entries, games={"tuned": games([1, 2], [8, 8], [5, 6]), "shipped": base}
        )


def test_learned_table_marks_pairs_with_a_timed_side() -> None:
    plain, timed = games([5, 9], [8, 16]), games([1, 2], [2, 4]).assign(timed=True)
    out = learned_table(
        [("net", "plain"), ("net", "timed")], {"net": plain, "plain": plain, "timed": timed}
    )
    assert out.timed.tolist() == [False, True]
    assert out["diff"].tolist() == [0.0, 5.5]


def test_json_results_are_canonical(tmp_path) -> None:  # noqa: ANN001
    data = {"b": np.array([1.5, 2.0]), "a": np.int64(3)}
    write_json(tmp_path / "x.json", data)
    text = (tmp_path / "x.json").read_text()
    assert json.loads(text) == {"a": 3, "b": [1.5, 2.0]}
    assert text.index('"a"') < text.index('"b"')
    assert read_json(tmp_path / "x.json")["a"] == 3


def test_select_takes_the_balanced_front_point_and_cem_mean(nsga2_run: dict) -> None:
    tuned = nsga2_run
    out = select(tuned)
    assert out["weights"].tolist() == [0.25] * 4
    assert out["switching"].shape == (3, 4)
    cem = {"run": "cem", "method": "cem", "seed": 2, "settings": {"evaluator": "cem8"}}
    assert select(cem | {"mean": [1.0] * 8})["weights"] == [1.0] * 8


def test_noise_aware_selection_judges_by_the_fresh_values(nsga2_run: dict) -> None:
    # CEM / CMA-ES: the candidate (mean, then elite) with the best fresh value, whatever the
    # training values say
    X = [[1.0] * 8, [2.0] * 8, [3.0] * 8]
    again = {"X": X, "train": [9.0, 8.0, 7.0], "fresh": [5.0, 6.0, 5.5], "games": 10}
    cem = {"run": "cmaes", "method": "cmaes", "seed": 2, "settings": {"evaluator": "cem8"}}
    out = select(cem | {"mean": X[0], "reevaluation": again})
    assert out["weights"].tolist() == X[1] and (out["train"], out["fresh"]) == (8.0, 6.0)
    # NSGA-II: the balanced point of the fresh values; here fresh values make row 1 ideal
    fresh = [[1, 1, 1, 1], [12, 12, 12, 12], [1, 12, 1, 12]]
    again = {"X": nsga2_run["X"][:3], "train": nsga2_run["F"][:3], "fresh": fresh, "games": 10}
    out = select(nsga2_run | {"reevaluation": again})
    assert out["weights"].tolist() == nsga2_run["X"][1]
    assert out["objectives"].tolist() == nsga2_run["F"][1] and out["fresh"] == fresh[1]
    assert select(nsga2_run)["weights"].tolist() == nsga2_run["X"][0]  # training values


def test_a_front_without_empty_and_corner_features_has_no_switching_rows(nsga2_run: dict) -> None:
    run = nsga2_run | {"settings": {"evaluator": "nneonneo"}}
    run |= {"X": [[200000.0, 270.0, 700.0, 47.0, 11.0 + k] for k in range(4)]}
    out = select(run)
    assert "switching" not in out and out["weights"].tolist() == run["X"][0]
    assert can_switch("nsga4") and not can_switch("nneonneo")


def test_pick_tuned_takes_the_best_validated_set() -> None:
    selected = [{"seed": 1}, {"seed": 2}, {"seed": 3}]
    frames = [games([1, 1], [2, 2]), games([5, 5], [2, 2]), games([3, 3], [2, 2])]
    picked = pick_tuned(selected, frames)
    assert picked["seed"] == 2
    assert picked["validation_mean_scores"] == [1.0, 5.0, 3.0]


def test_spread_labels_separates_close_labels_and_leaves_lone_ones() -> None:
    x = np.array([0.0, 0.1, 0.2, 3.0])
    y = np.array([100.0, 99.0, 98.0, 99.0])
    heights = spread_labels(x, y, gap=5.0, width=0.5)
    assert heights[0] == 100 and heights[3] == 99  # the highest and the lone one stay
    near = np.sort(heights[:3])
    assert (np.diff(near) >= 5.0 - 1e-12).all()  # close ones at least a gap apart, top down
    assert heights[1] == 95 and heights[2] == 90
