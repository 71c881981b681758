"""The claims table: verdicts by one equivalence rule with a direction (held within the margin,
higher or lower than claimed, inconclusive with the games that would settle it), the source's
own error where it states its games, rows found by what they play, the questions read from the
methods tables."""

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
    VARIANT,
    Claim,
    about,
    about_claim,
    claim_band,
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

RANDOM = {"name": "plain-random", "agent": {"name": "random"}, "evaluator": "ovolve", "games": 1000}
S004_D1 = {"name": "s-d1", "agent": {"name": "expectimax", "depth": 1, "rules": "source004"},
           "evaluator": "ovolve", "games": 1000}  # fmt: skip
GREEDY = {"name": "one-ply", "agent": {"name": "greedy"}, "evaluator": "ovolve", "games": 4}


def verdict(low: float, high: float, claim: Claim, games: int = 100) -> str:
    """The verdict of a measured interval without a source error (its centre the estimate)."""
    return judge(((low + high) / 2, low, high), claim, games)


def test_a_verdict_says_which_side_of_the_claim_the_measurement_lies() -> None:
    """Held inside the margin (a range claim: its range); higher or lower when the interval
    lies wholly above or below the claim; inconclusive when it straddles it."""
    claim = Claim("s", "t", about("ovolve", name="random"), "score_mean", 900.0, 1100.0)
    assert verdict(950.0, 1050.0, claim) == "held"
    assert verdict(1200.0, 1300.0, claim) == "higher than claimed"
    assert verdict(100.0, 899.0, claim) == "lower than claimed"
    assert verdict(1000.0, 1000.0, claim) == "held"  # a point estimate is judged by itself
    assert verdict(1050.0, 1300.0, claim).startswith("inconclusive: needs ")  # straddles 1 100
    value = about_claim("s", "t", about("ovolve", name="random"), "score_mean", 1000, 0)
    assert claim_band(value) == (900.0, 1100.0)  # +- 10% of the claim
    assert verdict(1050.0, 1150.0, value) == "higher than claimed"  # above 1 000, not within
    assert verdict(1020.0, 1080.0, value) == "held"  # above 1 000, but within the margin
    assert claim_band(value, 0.25) == (750.0, 1250.0)


def test_greedy_21_percent_below_its_claim_is_not_held() -> None:
    """Source 004's greedy, ~5 000: 3 964 [3 868, 4 060] lies wholly below the claim, outside
    its 10% margin: lower, not held (a 25% band held it)."""
    greedy = claim("greedy (1 ply): mean score ~5,000")
    assert judge((3964.0, 3868.0, 4060.0), greedy, 1000) == "lower than claimed"


def test_an_undecided_claim_says_how_many_games_would_settle_it() -> None:
    """Half-width 100 over 100 games, 50 from the range's edge: at 80% power the half-width
    must fall to 50 / 1.43 = 35, so 100 x (100 / 35)^2 = 818 games."""
    claim = Claim("s", "t", about("ovolve", name="random"), "score_mean", 900.0, 1100.0)
    assert judge((1050.0, 950.0, 1150.0), claim, 100) == "inconclusive: needs 818 games"
    assert judge((1050.0, 1040.0, 1060.0), claim, 100) == "held"


def test_the_sources_own_error_widens_the_margin() -> None:
    """A source's 30 games leave its mean +- t x sd / sqrt(30): where that is wider than 10% of
    the claim, it is the margin."""
    claim = about_claim("s", "t", about("ovolve", name="random"), "score_mean", 1000, 30)
    own = source_interval(claim, sd=400.0)
    half = 2.045 * 400 / 30**0.5  # t(0.975, 29) x sd / sqrt(30): 149
    assert own == pytest.approx((1000 - half, 1000 + half), rel=1e-3)
    assert claim_band(claim, 0.1, own) == pytest.approx((1000 - half, 1000 + half), rel=1e-3)
    measured = (1070.0, 1010.0, 1130.0)
    assert judge(measured, claim, 100) == "higher than claimed"  # at +- 10% alone
    assert judge(measured, claim, 100, claim_band(claim, 0.1, own)) == "held"
    narrow = source_interval(claim, sd=50.0)  # 18.7 < 100: the 10% margin stands
    assert claim_band(claim, 0.1, narrow) == (900.0, 1100.0)
    rate = about_claim("s", "t", about("ovolve", name="random"), "reach_2048", 0.22, 50)
    assert source_interval(rate, math.nan) == pytest.approx(wilson_ci(11, 50))


def claim(text: str) -> Claim:
    return next(c for c in CLAIMS if c.text == text)


def test_greedy_reaching_2048_in_5_percent_is_lower_than_claimed_on_0_of_1000() -> None:
    """A rate's margin is +- 10% with a floor of 0.02: "~5%" is [0.03, 0.07], which 0 of 1000
    games (Wilson interval up to 0.0038) lies wholly below; "~0%" is [0, 0.02]."""
    greedy = claim("greedy (1 ply): reaches 2048 in ~5%")
    assert claim_band(greedy) == pytest.approx((0.03, 0.07))
    zero = (0.0, *wilson_ci(0, 1000))
    assert judge(zero, greedy, 1000) == "lower than claimed"
    nothing = claim("random: reaches 2048 in ~0%")
    assert judge(zero, nothing, 1000) == "held"
    assert judge((0.0, *wilson_ci(0, 50)), nothing, 50).startswith("inconclusive: needs ")
    assert claim_band(claim("final weights, depth 3: 72% reach 4096")) == pytest.approx(
        (0.648, 0.792)
    )
    assert claim_band(claim("final weights, depth 4: 100% reach 4096")) == (0.9, 1.0)


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
          "reach_2048": 0.0, "reach_2048_low": 0.0, "reach_2048_high": 0.01, "timed": False},
         {"name": "s-d1", "score_mean": 4000.0, "score_low": 3900.0, "score_high": 4100.0,
          "reach_2048": 0.0, "reach_2048_low": 0.0, "reach_2048_high": 0.01, "timed": False}]
    )  # fmt: skip
    entries = [RANDOM, GREEDY, S004_D1 | {"note": "other settings"}]
    out = claims_table(table, entries).set_index("claim")
    assert len(out) == len(CLAIMS) + len(QUESTIONS)
    # wholly below the claim and outside its margin (10%: the source's own error from its
    # 1 000 games, its sd taken as ours, is smaller)
    assert out.loc["random: mean score ~1,200", "verdict"] == "lower than claimed"
    assert out.loc["random: mean score ~1,200", "claimed (95% CI)"].startswith("1,200 [")
    assert out.loc["random: mean score ~1,200", "measured (95% CI)"] == "1,000 [900, 1,100]"
    assert out.loc["random: mean score ~1,200", "margin"] == "1,080 to 1,320"
    assert out.loc["random: reaches 2048 in ~0%", "measured (95% CI)"] == "0 [0, 0.01]"
    assert out.loc["random: reaches 2048 in ~0%", "verdict"] == "held"
    greedy = out.loc["greedy (1 ply): mean score ~5,000"]
    assert greedy.verdict == "not comparable" and greedy.note == "other settings"
    assert greedy[VARIANT] == "5,000 [4,900, 5,100], one-ply"  # g2048's greedy, not judged
    unplayed = out.loc["expectimax depth 3: mean score ~18,000"]
    assert unplayed.verdict == "too few games: 0 of the claim's 1,000"
    assert unplayed.note.startswith("the study plays no ")
    assert out.loc["expectimax depth 3: mean score ~18,000", VARIANT] == ""  # not played
    assert not out["timed"].any()
    timed = claims_table(table.assign(timed=True), [RANDOM]).set_index("claim")
    assert timed.loc["random: mean score ~1,200", "timed"]
    assert not timed.loc["greedy (1 ply): mean score ~5,000", "timed"]


def test_a_claim_is_judged_only_on_as_many_games_as_the_source_played() -> None:
    """Source 004's table reports 1 000 games a row: a row of its program with 999 is not
    judged, however far from the claim it lies."""
    table = pd.DataFrame(
        [{"name": "s-d1", "score_mean": 100.0, "score_low": 90.0, "score_high": 110.0,
          "reach_2048": 0.0, "reach_2048_low": 0.0, "reach_2048_high": 0.01, "timed": False}]
    )  # fmt: skip
    out = claims_table(table, [S004_D1 | {"games": 999}]).set_index("claim")
    assert out.loc["greedy (1 ply): mean score ~5,000", "verdict"] == (
        "too few games: 999 of the claim's 1,000"
    )
    judged = claims_table(table, [S004_D1]).set_index("claim")
    assert judged.loc["greedy (1 ply): mean score ~5,000", "verdict"] == "lower than claimed"


def test_claims_are_judged_on_the_sources_rules_and_g2048s_agent_is_measured_beside() -> None:
    """A claim's row plays by its source's rules (source 001's and 004's search claims); the
    row without them is g2048's variant, and an entry of g2048's rules is never the claim's."""
    for c in CLAIMS:
        rules = dict(c.row.agent).get("rules")
        if c.source.startswith(("source 001", "source 004")) and c.variant is not None:
            assert rules == "source" + c.source[7:10]
    d3 = claim("expectimax depth 3: mean score ~18,000")
    g2048 = {"name": "ours", "agent": {"name": "expectimax", "depth": 3}, "evaluator": "ovolve"}
    theirs = g2048 | {"name": "theirs", "agent": g2048["agent"] | {"rules": "source004"}}
    assert find_entry([g2048, theirs], d3.row) == "theirs"
    assert find_entry([g2048, theirs], d3.variant) == "ours"
    assert find_entry([theirs], d3.variant) is None


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
    assert judge((768.0, low, high), cem, 40).startswith("inconclusive: needs ")


def test_the_page_states_the_rule_of_its_verdicts() -> None:
    table = pd.DataFrame(columns=["name", "timed"]).astype({"timed": bool})
    page = claims_page(claims_table(table, []), "Claims", "made by", margin=0.15)
    assert (
        "A claim is held when this study's 95% interval lies within its margin: a range "
        "claim's range, or the claimed value V +- 15% of V"
    ) in page
    assert "higher or lower than claimed when the interval lies wholly above or below" in page


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
    tiles = [2048] * 800 + [1024] * 1200  # 40% of 2 000: within 0.4 +- 0.04
    played = pd.DataFrame({"program": "source004-d3", "score": 0, "max_tile": tiles})
    assert program_verdict(rate, played) == (
        "its ExpectimaxAI at depth 3, 2000 games: 0.4 [0.379, 0.422], reproduces the claim"
    )
    few = played.iloc[::400]  # 2 of 5 reach 2048
    assert program_verdict(rate, few).startswith("its ExpectimaxAI at depth 3, 5 games: 0.4 [")
    assert "does not settle it (inconclusive: needs " in program_verdict(rate, few)
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
    assert program_verdict(mc, scores).startswith("not run: source004-mc100 has no games")


def test_every_claim_names_its_sources_program_or_why_none_runs() -> None:
    """Every claim's row but the random player's (no program of its source plays it) is in
    PROGRAMS, each program with a label; every claim is checked against it."""
    rows = {c.row for c in CLAIMS} - {about("ovolve", name="random")}
    assert rows <= set(PROGRAMS)
    names = {p for p in PROGRAMS.values() if not p.startswith("not run: ")}
    assert names == set(PROGRAM_LABELS)
    table = pd.DataFrame(
        [{"name": "d3", "score_mean": 5000.0, "score_low": 4900.0, "score_high": 5100.0,
          "reach_2048": 0.05, "reach_2048_low": 0.04, "reach_2048_high": 0.06, "timed": False}]
    )  # fmt: skip
    entries = [{"name": "d3", "agent": {"name": "expectimax", "depth": 3, "rules": "source004"},
                "evaluator": "ovolve", "games": 1000}]  # fmt: skip
    played = pd.DataFrame({"program": "source004-d3", "score": [5000.0, 6000.0] * 5,
                           "max_tile": 512})  # fmt: skip
    out = claims_table(table, entries, source_games=played).set_index("claim")
    assert list(out.columns).index(PROGRAM) == list(out.columns).index("verdict") + 1
    row = out.loc["expectimax depth 3: mean score ~18,000"]
    assert row.verdict == "lower than claimed"
    assert row[PROGRAM].startswith("its ExpectimaxAI at depth 3, 10 games: 5,500 [")
    assert out.loc["random: mean score ~1,200", PROGRAM] == (
        "not run: no program of the source plays this row"
    )
    assert (out.loc[[q.text for q in QUESTIONS], PROGRAM] == "").all()
