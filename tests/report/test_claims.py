"""The claims table: verdicts by equivalence with a direction (held, higher or lower than
claimed, needs N games), the source's own error where it states its games, rows found by what
they play, the questions read from the methods tables."""

import math

import pandas as pd
import pytest
from frames import games

from g2048.report.claims import (
    CLAIMS,
    PROGRAM,
    PROGRAM_LABELS,
    PROGRAMS,
    QUESTIONS,
    Claim,
    about,
    about_claim,
    about_value,
    claims_page,
    claims_table,
    find_entry,
    game_entries,
    game_measurements,
    judge,
    program_verdict,
    source_interval,
)
from g2048.report.stats import wilson_ci

RANDOM = {"name": "plain-random", "agent": {"name": "random"}, "evaluator": "ovolve", "games": 4}
GREEDY = {"name": "one-ply", "agent": {"name": "greedy"}, "evaluator": "ovolve", "games": 4}


def verdict(low: float, high: float, claim: Claim, games: int = 100) -> str:
    """The verdict of a measured interval without a source error (its centre the estimate)."""
    return judge(((low + high) / 2, low, high), claim, games)


def test_a_verdict_says_which_side_of_the_claim_the_measurement_lies() -> None:
    claim = Claim("s", "t", about("ovolve", name="random"), "score_mean", 900.0, 1100.0)
    assert verdict(950.0, 1050.0, claim) == "held"
    assert verdict(1200.0, 1300.0, claim) == "higher than claimed"
    assert verdict(100.0, 899.0, claim) == "lower than claimed"
    assert verdict(1000.0, 1000.0, claim) == "held"  # a point estimate is judged by itself
    assert verdict(1050.0, 1300.0, claim).startswith("needs ")  # straddles the upper edge


def test_an_undecided_claim_says_how_many_games_would_settle_it() -> None:
    """Half-width 100 over 100 games, 50 from the edge: at 80% power the half-width must fall
    to 50 / 1.43 = 35, so 100 x (100 / 35)^2 = 818 games."""
    claim = Claim("s", "t", about("ovolve", name="random"), "score_mean", 900.0, 1100.0)
    assert judge((1050.0, 950.0, 1150.0), claim, 100) == "needs 818 games"
    assert judge((1050.0, 1040.0, 1060.0), claim, 100) == "held"


def test_the_sources_own_error_widens_the_measured_interval() -> None:
    """A source's 30 games leave its mean +-t x sd / sqrt(30): an interval held on its own is
    no longer held, and far too few of the source's games cannot be made up by ours."""
    claim = about_claim("s", "t", about("ovolve", name="random"), "score_mean", 1000, 30)
    own = source_interval(claim, sd=200.0)
    half = 2.045 * 200 / 30**0.5  # t(0.975, 29) x sd / sqrt(30)
    assert own == pytest.approx((1000 - half, 1000 + half), rel=1e-3)
    # 120 below the band's top (1 250) with a half-width of 100: held on its own; widened by
    # the source's 74.7 (sqrt(100^2 + 74.7^2) = 125 > 120) no longer, but the source's error
    # leaves room (74.7 x 1.43 < 120), so more of our games settle it: 100 games x 100^2 /
    # ((120 / 1.43)^2 - 74.7^2) = 681
    measured = (1130.0, 1030.0, 1230.0)
    assert judge(measured, claim, 100) == "held"
    assert judge(measured, claim, 100, own) == "needs 681 games"
    # 1 200: 50 from the top, less than the source's own 74.7 x 1.43 needs
    near = (1200.0, 1160.0, 1240.0)
    assert judge(near, claim, 100) == "held"
    assert judge(near, claim, 100, own) == (
        "cannot be judged: the source's 30 games leave too wide a margin"
    )
    few = about_claim("s", "t", about("ovolve", name="random"), "score_mean", 1000, 2)
    assert judge(measured, few, 100, source_interval(few, 200.0)).startswith("cannot be judged")
    rate = about_claim("s", "t", about("ovolve", name="random"), "reach_2048", 0.22, 50)
    assert source_interval(rate, math.nan) == pytest.approx(wilson_ci(11, 50))


def claim(text: str) -> Claim:
    return next(c for c in CLAIMS if c.text == text)


def test_greedy_reaching_2048_in_5_percent_is_lower_than_claimed_on_0_of_1000() -> None:
    """The band of a rate is +- 25% with a floor of 0.02: "~5%" is [0.03, 0.07], which 0 of
    1000 games (Wilson interval up to 0.0038) lies wholly below; "~0%" is [0, 0.02]."""
    greedy = claim("greedy (1 ply): reaches 2048 in ~5%")
    assert (greedy.low, greedy.high) == pytest.approx((0.03, 0.07))
    zero = (0.0, *wilson_ci(0, 1000))
    assert judge(zero, greedy, 1000, source_interval(greedy, math.nan)) == "lower than claimed"
    nothing = claim("random: reaches 2048 in ~0%")
    assert judge(zero, nothing, 1000, source_interval(nothing, math.nan)) == "held"
    assert judge((0.0, *wilson_ci(0, 50)), nothing, 50).startswith("needs ")
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
    # 4 games against the source's 1 000 (its sd taken as ours): more games would settle it
    assert out.loc["random: mean score ~1,200", "verdict"] == "needs 9 games"
    assert out.loc["random: mean score ~1,200", "claimed (95% CI)"].startswith("1,200 [")
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
    assert judge(measured[("g800", "max_tile_median")], cem, 40) == "held"
    spread = [512] * 18 + [1024] * 22
    low, high = game_measurements(entries, {"g800": games([0] * 40, spread)})[
        ("g800", "max_tile_median")
    ][1:]
    assert (low, high) == (512.0, 1024.0)
    assert judge((768.0, low, high), cem, 40).startswith("needs ")


def test_the_page_states_the_rule_of_its_verdicts() -> None:
    table = pd.DataFrame(columns=["name", "timed"]).astype({"timed": bool})
    page = claims_page(claims_table(table, []), "Claims", "made by")
    assert "held when that interval lies wholly inside its band" in page
    assert "higher or lower than claimed" in page and "Newcombe" in page


def test_questions_read_the_methods_tables_comparison() -> None:
    """A question is the methods table's row (run against baseline) or the pairs table's (two
    runs), the latter turned to read the question's run first: one answer per question."""
    methods = pd.DataFrame(
        [{"run": "nneonneo-cmaes", "baseline": "nneonneo", "seeds": 5, "test": "paired t",
          "diff_vs_baseline": 900.0, "diff_low": 100.0, "diff_high": 1700.0,
          "holm_pvalue": 0.01, "mdd": 800.0},
         {"run": "cem", "baseline": "cem-prior", "seeds": 5, "test": "paired t",
          "diff_vs_baseline": 10.0, "diff_low": -5.0, "diff_high": 25.0, "holm_pvalue": 0.5,
          "mdd": 40.0}]
    )  # fmt: skip
    pairs = pd.DataFrame(
        [{"run": "cem", "versus": "cmaes", "test": "Welch t", "diff": 300.0, "diff_low": 50.0,
          "diff_high": 550.0, "holm_pvalue": 0.02, "mdd": 200.0}]
    )  # fmt: skip
    table = pd.DataFrame(columns=["name", "timed"]).astype({"timed": bool})
    rows = claims_table(table, [], methods=methods, pairs=pairs).set_index("claim")
    shipped = rows.loc[QUESTIONS[0].text]
    assert shipped.verdict == "nneonneo-cmaes higher"
    assert shipped["measured (95% CI)"] == "900 [100, 1,700]"
    assert shipped.note.startswith("paired t over 5 seeds' picks") and "`methods`" in shipped.note
    cmaes = rows.loc[QUESTIONS[4].text]
    assert cmaes.verdict == "cmaes lower" and cmaes["measured (95% CI)"] == "-300 [-550, -50]"
    assert rows.loc[QUESTIONS[3].text, "verdict"] == "not comparable"  # no cem-noisy here


def test_a_failed_claim_is_judged_on_the_source_programs_own_games() -> None:
    """The source's program's games judged by the same rule (and the source's own error): a
    claim it reproduces, one it misses too, one its few games cannot settle, and a program
    that was not run, with why."""
    rate = claim("expectimax depth 3: reaches 2048 in ~40%")  # source: 1 000 games
    tiles = [2048] * 80 + [1024] * 120  # 40% of 200
    played = pd.DataFrame({"program": "source004-d3", "score": 0, "max_tile": tiles})
    assert program_verdict(rate, played) == (
        "its ExpectimaxAI at depth 3, 200 games: 0.4 [0.335, 0.469], reproduces the claim"
    )
    few = played.iloc[::40]  # 2 of 5 reach 2048
    assert program_verdict(rate, few).startswith("its ExpectimaxAI at depth 3, 5 games: 0.4 [")
    assert "does not settle it (needs " in program_verdict(rate, few)
    depth3 = claim("final weights, depth 3: 72% reach 4096")  # source: 30 games
    weak = pd.DataFrame({"program": "source001-d3", "score": 0, "max_tile": [256] * 50})
    assert program_verdict(depth3, weak) == (
        "its choose_move at depth 3, 50 games: 0 [0, 0.0713], also lower than claimed"
    )
    mean = claim("expectimax depth 3: mean score ~18,000")
    scores = pd.DataFrame({"program": "source004-d3", "score": [9000.0, 11000.0] * 10,
                           "max_tile": 1024})  # fmt: skip
    assert program_verdict(mean, scores) == (
        "its ExpectimaxAI at depth 3, 20 games: 10,000 [9,520, 10,480], also lower than claimed"
    )
    assert program_verdict(mean, scores.iloc[:0]).startswith("not run: source004-d3 has no")
    mc = claim("Monte Carlo 100 rollouts: mean score ~12,000")
    assert program_verdict(mc, scores).startswith("not run: its MonteCarloAI is published")


def test_every_claim_names_its_sources_program_or_why_none_runs() -> None:
    """Every claim's row but the random player's (no program of its source plays it) is in
    PROGRAMS, each program with a label; only failed claims are checked against it."""
    rows = {c.row for c in CLAIMS} - {about("ovolve", name="random")}
    assert rows <= set(PROGRAMS)
    names = {p for p in PROGRAMS.values() if not p.startswith("not run: ")}
    assert names == set(PROGRAM_LABELS)
    table = pd.DataFrame(
        [{"name": "d3", "score_mean": 5000.0, "score_low": 4900.0, "score_high": 5100.0,
          "reach_2048": 0.05, "reach_2048_low": 0.04, "reach_2048_high": 0.06, "timed": False}]
    )  # fmt: skip
    entries = [{"name": "d3", "agent": {"name": "expectimax", "depth": 3}, "evaluator": "ovolve",
                "games": 1000}]  # fmt: skip
    played = pd.DataFrame({"program": "source004-d3", "score": [5000.0, 6000.0] * 5,
                           "max_tile": 512})  # fmt: skip
    out = claims_table(table, entries, source_games=played).set_index("claim")
    assert list(out.columns).index(PROGRAM) == list(out.columns).index("verdict") + 1
    row = out.loc["expectimax depth 3: mean score ~18,000"]
    assert row.verdict == "lower than claimed"
    assert row[PROGRAM].startswith("its ExpectimaxAI at depth 3, 10 games: 5,500 [")
    assert out.loc["random: mean score ~1,200", PROGRAM] == ""  # not comparable: no program
    assert (out.loc[[q.text for q in QUESTIONS], PROGRAM] == "").all()
