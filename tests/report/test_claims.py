"""The claims table: verdicts by interval, rows found by what they play, the questions answered
by the paired interval."""

import pandas as pd
import pytest
from frames import games

from g2048.report.claims import (
    CLAIMS,
    QUESTIONS,
    Claim,
    about,
    claims_table,
    find_entry,
    verdict,
)
from g2048.report.tables import (
    benchmark_table,
)

RANDOM = {"name": "plain-random", "agent": {"name": "random"}, "evaluator": "ovolve", "games": 4}
GREEDY = {"name": "one-ply", "agent": {"name": "greedy"}, "evaluator": "ovolve", "games": 4}


def test_a_claim_holds_when_the_intervals_overlap() -> None:
    claim = Claim("s", "t", about("ovolve", name="random"), "score_mean", 900.0, 1100.0)
    assert verdict(1050.0, 1300.0, claim) == "held"
    assert verdict(1200.0, 1300.0, claim) == "did not hold"
    assert verdict(100.0, 899.0, claim) == "did not hold"


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
