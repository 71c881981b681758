"""The claims table: verdicts by equivalence (held, did not hold, inconclusive), rows found by
what they play, the questions answered by Holm-corrected paired tests."""

import pandas as pd
import pytest
from frames import games

from g2048.report.claims import (
    CLAIMS,
    QUESTIONS,
    Claim,
    about,
    about_value,
    claims_page,
    claims_table,
    find_entry,
    game_entries,
    game_measurements,
    verdict,
)
from g2048.report.stats import wilson_ci
from g2048.report.tables import benchmark_table

RANDOM = {"name": "plain-random", "agent": {"name": "random"}, "evaluator": "ovolve", "games": 4}
GREEDY = {"name": "one-ply", "agent": {"name": "greedy"}, "evaluator": "ovolve", "games": 4}


def test_a_claim_holds_only_when_its_interval_lies_inside_the_band() -> None:
    claim = Claim("s", "t", about("ovolve", name="random"), "score_mean", 900.0, 1100.0)
    assert verdict(950.0, 1050.0, claim) == "held"
    assert verdict(1050.0, 1300.0, claim) == "inconclusive"  # straddles the upper edge
    assert verdict(800.0, 1200.0, claim) == "inconclusive"  # too wide to tell
    assert verdict(1200.0, 1300.0, claim) == "did not hold"
    assert verdict(100.0, 899.0, claim) == "did not hold"
    assert verdict(1000.0, 1000.0, claim) == "held"  # a point estimate is judged by itself


def claim(text: str) -> Claim:
    return next(c for c in CLAIMS if c.text == text)


def test_greedy_reaching_2048_in_5_percent_does_not_hold_on_0_of_1000() -> None:
    """The band of a rate is +- 25% with a floor of 0.02: "~5%" is [0.03, 0.07], which 0 of
    1000 games (Wilson interval up to 0.0038) lies wholly below; "~0%" is [0, 0.02]."""
    greedy = claim("greedy (1 ply): reaches 2048 in ~5%")
    assert (greedy.low, greedy.high) == pytest.approx((0.03, 0.07))
    assert verdict(*wilson_ci(0, 1000), greedy) == "did not hold"
    assert verdict(*wilson_ci(0, 1000), claim("random: reaches 2048 in ~0%")) == "held"
    assert verdict(*wilson_ci(0, 50), claim("random: reaches 2048 in ~0%")) == "inconclusive"
    assert about_value(0.72, True) == pytest.approx((0.54, 0.90))
    assert about_value(1.0, True) == pytest.approx((0.75, 1.0))
    assert about_value(18000, False) == (13500, 22500)


def test_a_claim_of_several_numbers_is_checked_on_each() -> None:
    both = [c for c in CLAIMS if c.text.startswith("final weights, depth 4:")]
    assert sorted(c.metric for c in both) == ["reach_4096", "reach_8192"]
    assert len({c.row for c in both}) == 1


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
    assert out.loc["random: mean score ~1,200", "tolerance band"] == "900 to 1,500"
    assert out.loc["random: reaches 2048 in ~0%", "measured (95% CI)"] == "0 [0, 0.01]"
    assert out.loc["random: reaches 2048 in ~0%", "verdict"] == "held"
    assert out.loc["greedy (1 ply): mean score ~5,000", "verdict"] == "not comparable"
    assert out.loc["greedy (1 ply): mean score ~5,000", "note"] == "other settings"
    assert out.loc["expectimax depth 3: mean score ~18,000", "verdict"] == "not comparable"
    assert not out["timed"].any()
    timed = claims_table(table.assign(timed=True), [RANDOM]).set_index("claim")
    assert timed.loc["random: mean score ~1,200", "timed"]
    assert not timed.loc["greedy (1 ply): mean score ~5,000", "timed"]


def test_the_median_max_tile_claim_reads_the_games_with_an_order_statistic_interval() -> None:
    cem = claim("greedy with CEM-tuned weights, 800 moves: max tile 1024-2048")
    entries = [{"name": "g800", "agent": {"name": "greedy"}, "evaluator": "cem8",
                "weights": "tuned:cem", "max_moves": 800, "games": 40}]  # fmt: skip
    assert game_entries(entries) == {"g800"}
    tiles = [512] * 5 + [1024] * 30 + [2048] * 5
    measured = game_measurements(entries, {"g800": games([0] * 40, tiles)})
    assert measured == {("g800", "max_tile_median"): (1024.0, 1024.0, 1024.0)}
    assert verdict(*measured[("g800", "max_tile_median")][1:], cem) == "held"
    spread = [512] * 18 + [1024] * 22
    low, high = game_measurements(entries, {"g800": games([0] * 40, spread)})[
        ("g800", "max_tile_median")
    ][1:]
    assert (low, high) == (512.0, 1024.0)
    assert verdict(low, high, cem) == "inconclusive"


def test_the_page_states_the_rule_of_its_verdicts() -> None:
    table = pd.DataFrame(columns=["name", "timed"]).astype({"timed": bool})
    page = claims_page(claims_table(table, []), "Claims", "made by")
    assert "held when the measured 95% interval lies wholly inside its band" in page
    assert "inconclusive" in page and f"{len(QUESTIONS)} questions" in page


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
    assert rows.loc[q.text, "note"].startswith("paired over 4 games; Holm p = ")
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


def test_questions_are_holm_corrected_over_those_answered() -> None:
    """Two questions each at p = 0.037: alone, one is answered "higher"; together Holm doubles
    the smaller p-value and neither is."""
    d = [10, -3, 12, 3, 8, -1, 15, 2, 6, -3]
    base = games([1000] * len(d), [8] * len(d))
    tuned = base.assign(score=base.score + d)
    rows = [QUESTIONS[0].row, QUESTIONS[1].row, QUESTIONS[0].versus]
    assert QUESTIONS[1].versus == QUESTIONS[0].versus
    entries = [
        {"name": name, "agent": dict(row.agent), "evaluator": row.evaluator, "games": len(d)}
        | ({"weights": row.weights} if row.weights else {})
        for name, row in zip(("a", "b", "shipped"), rows, strict=True)
    ]
    table = pd.DataFrame(columns=["name", "timed"]).astype({"timed": bool})
    alone = claims_table(table, entries[::2], games={"a": tuned, "shipped": base})
    assert alone.set_index("claim").loc[QUESTIONS[0].text, "verdict"] == "a higher"
    both = claims_table(table, entries, games={"a": tuned, "b": tuned, "shipped": base})
    both = both.set_index("claim")
    assert both.loc[QUESTIONS[0].text, "verdict"] == "a no clear difference"
    assert both.loc[QUESTIONS[1].text, "verdict"] == "b no clear difference"
