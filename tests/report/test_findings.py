"""The findings page: its sentences carry the tables' numbers, and which way a sentence reads
is decided by them (Holm-corrected), not written in."""

import pandas as pd

from g2048.report.findings import (
    answers,
    claim_findings,
    findings_page,
    learned_findings,
    method_findings,
    overfitting_findings,
    search_findings,
    transfer_findings,
)
from g2048.report.replicates import FAMILY_CONTROL, FAMILY_TUNERS


def bench_row(
    name: str,
    algorithm: str,
    score: float,
    ms: float,
    timed: bool = False,
    evaluator: str = "nneonneo",
) -> dict:
    return {
        "name": name, "agent": f"{algorithm} settings", "evaluator": evaluator, "games": 100,
        "score_mean": score, "score_low": score - 500, "score_high": score + 500,
        "reach_2048": 0.5, "reach_2048_low": 0.4, "reach_2048_high": 0.6, "ms_per_move": ms,
        "algorithm": algorithm, "timed": timed,
    }  # fmt: skip


BENCHMARK = pd.DataFrame(
    [
        bench_row("em-d3", "expectimax", 30000, 0.4),
        bench_row("em-d5", "expectimax", 52000, 6.0),
        bench_row("mc-100", "montecarlo", 36000, 5.5),
        bench_row("em-10ms", "expectimax", 60000, 3.3, timed=True),
        bench_row("mc-10ms", "montecarlo", 41000, 11.0, timed=True),
        bench_row("hy-10ms", "hybrid", 40800, 2.0, timed=True),
        bench_row("em-1ms", "expectimax", 30000, 0.4, timed=True),
        bench_row("mc-1ms", "montecarlo", 29000, 1.1, timed=True),
        bench_row("net-1ms", "expectimax", 50000, 1.0, timed=True, evaluator="ntuple"),
        bench_row("em-2k", "expectimax", 45000, 1.5),
        bench_row("mc-2k", "montecarlo", 25000, 2.5),
        bench_row("net-d1", "greedy", 40000, 0.01, evaluator="ntuple"),
        bench_row("h-d1", "greedy", 8000, 0.01),
    ]
)


def pair(first: str, second: str, diff: float, p: float, **row: object) -> dict:
    """A row of the comparisons table: `first` - `second` by a paired t, +-700 adjusted."""
    return {
        "first": first, "second": second, "network": "", "budget": "", "rank": 0,
        "test": "paired t", "games": 100, "diff": diff, "diff_low": diff - 700,
        "diff_high": diff + 700, "t_pvalue": p / 2, "holm_pvalue": p, "mdd": 1400.0,
        "timed": False,
    } | row  # fmt: skip


COMPARISONS = pd.DataFrame(
    [
        pair("net-d1", "h-d1", 32000, 1e-30, network="net-d1", first_score=40000.0,
             second_score=8000.0),
        pair("em-1ms", "mc-1ms", 1000, 0.011, budget="1 ms per move", rank=2, timed=True),
        pair("net-1ms", "em-1ms", 20000, 1e-9, budget="1 ms per move", rank=1, timed=True),
        pair("net-1ms", "mc-1ms", 21000, 1e-9, budget="1 ms per move", timed=True),
        pair("em-10ms", "mc-10ms", 19000, 1e-40, budget="10 ms per move", rank=1, timed=True),
        pair("mc-10ms", "hy-10ms", 200, 0.58, budget="10 ms per move", rank=2, timed=True),
        pair("em-2k", "mc-2k", 20000, 1e-20, budget="2000 nodes per move", rank=1),
    ]
)  # fmt: skip


def test_search_findings_vary_one_thing_at_a_time() -> None:
    """The highest mean of each algorithm's fixed-cost rows (not called strongest: untested),
    then under each budget the search on one evaluator, the evaluator under one search, and
    every row, in the comparisons table's (the config's) order."""
    found = search_findings(BENCHMARK, COMPARISONS)
    assert len(found) == 10  # three algorithms of fixed cost; 3 + 1 + 3 budget rankings
    assert found[0].startswith(
        "The highest mean of the 3 expectimax rows (not tested against the others, whose costs "
        "differ) of fixed cost: `em-d5`"
    )
    assert "strongest" not in " ".join(found[:3])
    assert "52,000 [51,500, 52,500] over 100 games at 6 ms per move" in found[0]
    assert "em-10ms" not in found[0]  # timed rows apart
    assert [f.split(" (")[0] for f in found[3:]] == [
        "Under a budget of 1 ms per move on nneonneo, with the evaluator held fixed",
        "Under a budget of 10 ms per move on nneonneo, with the evaluator held fixed",
        "Under a budget of 2000 nodes per move on nneonneo, with the evaluator held fixed",
        "Under a budget of 1 ms per move on expectimax, with the search held fixed",
        "Under a budget of 1 ms per move, every row of the budget",
        "Under a budget of 10 ms per move, every row of the budget",
        "Under a budget of 2000 nodes per move, every row of the budget",
    ]
    assert "`net-1ms`" not in found[3]  # the network is another evaluator
    assert found[6].index("`net-1ms`") < found[6].index("`em-1ms`") and "mc-1ms" not in found[6]
    assert found[4].index("`em-10ms`") < found[4].index("`mc-10ms`") < found[4].index("`hy-10m")
    assert "over 100 games using 11 ms per move" in found[4]


def test_ranks_under_a_budget_are_separated_only_where_the_games_tell_them_apart() -> None:
    one_ms, ten_ms, nodes = search_findings(BENCHMARK, COMPARISONS)[3:6]
    assert (
        "`em-10ms` 60,000 [59,500, 60,500] over 100 games using 3.3 ms per move, above the next "
        "by +19,000 [+18,300, +19,700] (paired t, Holm p = 1e-40)"
    ) in ten_ms
    assert (
        "`mc-10ms` 41,000 [40,500, 41,500] over 100 games using 11 ms per move, not separated "
        "from the next (paired t, Holm p = 0.58; a difference of 1,400 or more would have been "
        "found with 80% power)"
    ) in ten_ms
    assert ten_ms.endswith("`hy-10ms` 40,800 [40,300, 41,300] over 100 games using 2 ms per move.")
    assert "`em-1ms` 30,000 [29,500, 30,500] over 100 games using 0.4 ms per move, above the " in (
        one_ms
    )
    assert "(paired t, Holm p = 0.011)" in one_ms
    assert "timed games, reproducible only up to timing" in one_ms
    assert "timed" not in nodes  # a node budget is deterministic


def test_a_pair_is_read_from_the_higher_rows_side_whichever_way_it_is_stored() -> None:
    """A pair stored as lower - higher (a network's pair: its first is the network) is turned
    round: the leader is 'above the next' by a positive difference."""
    swapped = COMPARISONS.copy()
    swapped.loc[1, ["first", "second", "diff", "diff_low", "diff_high"]] = [
        "mc-1ms", "em-1ms", -1000.0, -1700.0, -300.0,
    ]  # fmt: skip
    one_ms = search_findings(BENCHMARK, swapped)[3]
    assert "above the next by +1,000 [+300, +1,700]" in one_ms


METHODS = pd.DataFrame(
    [
        {"run": "cem", "method": "CEM", "evaluator": "cem8", "seeds": 5, "games_per_seed": 200,
         "seed_scores": "1 2 3 4 5", "score_mean": 12000.0, "score_low": 11000.0,
         "score_high": 13000.0, "baseline": "cem-prior", "test": "paired t",
         "diff_vs_baseline": 2500.0, "diff_low": 1500.0, "diff_high": 3500.0,
         "holm_pvalue": 0.004, "mdd": 1800.0, "target": 600.0, "seeds_needed": 9.0,
         "games_needed": float("inf")},
        {"run": "cmaes", "method": "CMA-ES", "evaluator": "cem8", "seeds": 5,
         "games_per_seed": 200, "seed_scores": "1 2 3 4 5", "score_mean": 10000.0,
         "score_low": 8000.0, "score_high": 12000.0, "baseline": "cem-prior", "test": "paired t",
         "diff_vs_baseline": 500.0, "diff_low": -1500.0, "diff_high": 2500.0,
         "holm_pvalue": 0.4, "mdd": 3600.0, "target": 600.0, "seeds_needed": 30.0,
         "games_needed": 4000.0},
        {"run": "td", "method": "TD", "evaluator": "ntuple", "seeds": 5, "games_per_seed": 200,
         "seed_scores": "1 2 3 4 5", "score_mean": 30000.0, "score_low": 29000.0,
         "score_high": 31000.0, "baseline": float("nan"), "test": float("nan"),
         "diff_vs_baseline": float("nan"), "diff_low": float("nan"),
         "diff_high": float("nan"), "holm_pvalue": float("nan"), "mdd": float("nan")},
    ]
)  # fmt: skip
CONTROL = METHODS.iloc[[1]].assign(
    run="random", method="random search", control=True, diff_vs_baseline=-300.0
)
WITH_CONTROL = pd.concat([METHODS.assign(control=False), CONTROL], ignore_index=True)
PAIRS = pd.DataFrame(
    [{"family": FAMILY_CONTROL, "evaluator": "cem8", "run": "cem", "versus": "random",
      "test": "Welch t", "diff": 900.0, "diff_low": 100.0, "diff_high": 1700.0,
      "t_pvalue": 0.01, "holm_pvalue": 0.02, "mdd": 700.0, "target": 1200.0,
      "seeds_needed": 12.0, "games_needed": float("inf")},
     {"family": FAMILY_CONTROL, "evaluator": "cem8", "run": "cmaes", "versus": "random",
      "test": "Welch t", "diff": -800.0, "diff_low": -1500.0, "diff_high": -100.0,
      "t_pvalue": 0.01, "holm_pvalue": 0.03, "mdd": 650.0, "target": 1200.0,
      "seeds_needed": 20.0, "games_needed": float("inf")},
     {"family": FAMILY_TUNERS, "evaluator": "cem8", "run": "cem", "versus": "cmaes",
      "test": "Welch t", "diff": 2000.0, "diff_low": -100.0, "diff_high": 4100.0,
      "t_pvalue": 0.06, "holm_pvalue": 0.06, "mdd": 5900.0, "target": 1200.0,
      "seeds_needed": 40.0, "games_needed": float("inf")}]
)  # fmt: skip
TUNING = pd.DataFrame(
    {"run": ["cem", "cem", "cmaes", "cmaes", "td"], "evaluator": ["cem8"] * 4 + ["ntuple"],
     "games_played": [2000, 2000, 1900, 2100, 100000]}
)  # fmt: skip


def test_method_findings_open_with_the_primary_family() -> None:
    """The tuning answer: the primary family (the tuners against their control) first, the
    hand baselines second, then what the primary family is sized to find; then the rows."""
    lead, second, sizing, cem, cmaes, td, random, control, tuners = method_findings(
        WITH_CONTROL, PAIRS
    )
    assert lead == (
        "**The answer (primary family).** Against random search at the same budget on their "
        "evaluator (the control every tuner must beat), the 2 tuners scored: 1 higher, 1 lower,"
        " 0 no clear difference (Welch t over seeds, Holm within these 2 pairs)."
    )
    assert second == (
        "Second family: against their evaluator's hand-set or published weights, the 2 tuned "
        "runs scored: 1 higher, 0 lower, 1 no clear difference (it would have found "
        "differences of 3,600 points or more) (paired t over 5 seeds' picks, 200 test games "
        "each, Holm over the runs)."
    )
    assert sizing.startswith(
        "The primary family is sized for the config's target difference (points: cem8 1,200):"
        " to find it in every pair with 80% power takes 20 seeds per run"
    )
    assert "at these seeds the pairs find 650 to 700 points. The study of record" in sizing
    assert sizing.endswith("its predicted cost is the README's paper column.")
    assert "against `cem-prior` +2,500 [+1,500, +3,500] per seed, above" in cem
    assert "Holm p = 0.004" in cem and "the seeds' own means 1 2 3 4 5" in cem
    assert "needs 9 seeds at these test games, or no number of test games at these seeds" in cem
    assert (
        "no clear difference (a difference of 3,600 or more would have been found with 80% "
        "power) (paired t over seeds, Holm p = 0.4)"
    ) in cmaes
    assert "needs 30 seeds at these test games, or 4,000 test games per seed" in cmaes
    assert "against" not in td and "needs" not in td  # no baseline for the network
    assert random.startswith("random search (`random`, cem8)")
    assert control.startswith("Of 2 pairs against the control on one evaluator, 2 differ")
    assert tuners.startswith("Of 1 pairs between tuners on one evaluator, 0 differ")
    assert "(Welch t over seeds, Holm within the family)" in tuners
    assert tuners.endswith(
        "No clear difference: `cem` - `cmaes` +2,000 [-100, +4,100], a difference of 5,900 or "
        "more would have been found with 80% power."
    )
    baseline_first = method_findings(WITH_CONTROL, PAIRS, primary="baseline")
    assert baseline_first[0].startswith(
        "**The answer (primary family).** Against their evaluator's hand-set"
    )
    assert baseline_first[1].startswith("Second family: against random search")


def test_overfitting_compares_each_methods_picks_on_selection_and_test_games() -> None:
    """Per method, random search and networks aside: the picks' test score against their
    selection score, paired over seeds, with the smallest difference it could find."""
    tuning = pd.DataFrame(
        {"run": ["cem"] * 3 + ["random"] * 3 + ["td"], "method": ["cem"] * 3 + ["random"] * 3
         + ["td"], "evaluator": ["cem8"] * 6 + ["ntuple"], "seed": [1, 2, 3] * 2 + [1],
         "selection_score": [1000.0, 1100.0, 1200.0, 900.0, 950.0, 990.0, float("nan")],
         "test_score": [900.0, 1010.0, 1080.0, 950.0, 900.0, 1000.0, 5000.0]}
    )  # fmt: skip
    (found,) = overfitting_findings(tuning)
    assert found.startswith(
        "`cem` (cem, cem8): its 3 seeds' picks scored 1,100 on their selection games and 997 "
        "on their test games, test - selection -103"
    )
    assert "(paired t over seeds, Holm p" in found and "Holm over the 1 methods" in found
    assert overfitting_findings(pd.DataFrame({"train": [1.0]})) == []


def test_learned_findings_read_the_comparisons_network_rows_from_the_networks_side() -> None:
    (found,) = learned_findings(COMPARISONS)  # the budget rows are not a network's
    assert found == (
        "`net-d1` against `h-d1` on 100 common games: 40,000 vs 8,000, difference +32,000 "
        "[+31,300, +32,700], the network higher (paired t, Holm p = 1e-30)."
    )
    (lower,) = learned_findings(COMPARISONS.iloc[:1].assign(diff=-26000.0, diff_low=-26700.0,
                                                            diff_high=-25300.0))  # fmt: skip
    assert "difference -26,000 [-26,700, -25,300], the network lower" in lower
    # stored heuristic first: the scores and the difference are turned to the network's side
    turned = COMPARISONS.iloc[:1].assign(
        first="h-d1", second="net-d1", first_score=8000.0, second_score=40000.0,
        diff=-32000.0, diff_low=-32700.0, diff_high=-31300.0,
    )  # fmt: skip
    assert learned_findings(turned) == [found]
    (underflow,) = learned_findings(COMPARISONS.iloc[:1].assign(holm_pvalue=0.0))
    assert "(paired t, Holm p < 1e-300)." in underflow  # never printed as "p = 0"
    (vague,) = learned_findings(COMPARISONS.iloc[:1].assign(holm_pvalue=0.2, timed=True))
    assert "no clear difference (a difference of 1,400 or more would have been found" in vague
    assert vague.endswith("(a timed row: reproducible only up to timing).")


def test_transfer_findings_order_the_leaders_only_where_their_test_does() -> None:
    leaders = pd.DataFrame(
        [{"group": "depth 3", "first": "c", "second": "b", "test": "paired t", "games": 200,
          "first_score": 1500.0, "second_score": 1150.0, "diff": 350.0, "diff_low": 200.0,
          "diff_high": 500.0, "holm_pvalue": 0.001, "mdd": 120.0}]
    )  # fmt: skip
    (found,) = transfer_findings(leaders)
    assert found == (
        "At depth 3 the highest-scoring weight set is `c` (1,500), then `b` (1,150) on 200 "
        "common games: `c` higher by +350 [+200, +500] (paired t, Holm p = 0.001, Holm over "
        "the depths)."
    )
    (close,) = transfer_findings(leaders.assign(holm_pvalue=0.3))
    assert "no clear order (a difference of 120 or more would have been found" in close


def test_claim_findings_count_the_verdicts_and_name_the_failures() -> None:
    claims = pd.DataFrame(
        {
            "claim": ["x ~5%", "y ~1,000", "z ~2", "w ~3", "v ~9", "u", "t ~4", "q"],
            "margin": ["0.03 to 0.07", "750 to 1,250", "1.5 to 2.5", "2 to 4", "7 to 11",
                               "1 to 2", "3 to 5", "question: a - b"],
            "measured (95% CI)": ["0 [0, 0.004]", "900 [800, 1,000]", "2 [1, 3]", "5 [4.5, 6]",
                                  "9 [1, 20]", "", "9 [8, 10]", "1 [0, 2]"],
            "verdict": ["lower than claimed", "held", "inconclusive: needs 800 games",
                        "higher than claimed",
                        "inconclusive: no number of games settles it at this estimate",
                        "not comparable", "too few games: 20 of the claim's 1,000", "a higher"],
        }
    )  # fmt: skip
    (found,) = claim_findings(claims)
    assert found.startswith(
        "Of the source documents' 7 claims, 1 held, 1 higher than claimed, 1 lower than "
        "claimed, 2 inconclusive, 1 too few games, 1 not comparable"
    )  # the question is not a claim; t, far above its claim on too few games, is not named
    assert found.endswith(
        "Off the claim: x ~5% (measured 0 [0, 0.004]: lower than claimed); w ~3 (measured "
        "5 [4.5, 6]: higher than claimed)."
    )


def test_the_answers_state_each_question_with_its_numbers_test_and_scale() -> None:
    tables = {"benchmark": BENCHMARK, "comparisons": COMPARISONS, "methods": WITH_CONTROL,
              "method_pairs": PAIRS, "tuning": TUNING}  # fmt: skip
    search, evaluator, overall, tuning, learned = answers(tables)
    assert search.startswith(
        "**The best search for its cost.** Under each budget, with the evaluator held fixed: at "
        "1 ms per move on nneonneo `em-1ms` (expectimax settings, nneonneo) 30,000 [29,500, "
        "30,500] over 100 games, the strongest, above `mc-1ms` by +1,000 [+300, +1,700] "
        "(paired t, Holm p = 0.011); at 10 ms per move on nneonneo"
    )
    assert "at 2000 nodes per move on nneonneo `em-2k`" in search
    assert "Timed budgets are this machine's" in search
    assert evaluator.startswith(
        "**The best evaluator under one search.** Under each budget, with the search held "
        "fixed: at 1 ms per move on expectimax `net-1ms` (expectimax settings, ntuple)"
    )
    assert "at 10 ms per move `em-10ms`" in overall and "not separated from" not in overall
    assert "TDL2048+ mean 412,785 at 1 ply" in overall and "published and not measured" in overall
    assert tuning.startswith(
        "**Evolutionary tuning against random search and hand tuning.** Primary family: "
        "against random search at the same budget on their evaluator"
    )
    assert "Second family: against their evaluator's hand-set" in tuning
    assert tuning.endswith(
        "Games played per seed, training and selection: cem 2,000, cmaes 1,900 to 2,100, td "
        "100,000."
    )
    assert learned == (
        "**Heuristics against the learned network.** On common games with the same agent, the "
        "network (trained on 100,000 games per seed; untimed rows) against the 1 heuristic "
        "rows: 1 higher, 0 lower, 0 no clear difference (paired t, Holm over the "
        "pairs). The closest: `net-d1` against `h-d1`, +32,000 [+31,300, +32,700] over 100 "
        "games (paired t, Holm p = 1e-30)."
    )


def test_timed_budgets_are_called_this_machines_only_when_a_ranked_row_is_timed() -> None:
    untimed = COMPARISONS[~COMPARISONS.timed]
    (search, overall, learned) = answers({"benchmark": BENCHMARK, "comparisons": untimed})
    assert search.startswith("**The best search for its cost.**") and "`em-2k`" in search
    assert overall.startswith("**The best row overall.**")
    assert "Timed" not in search and "10 ms" not in search
    assert learned.startswith("**Heuristics against the learned network.**")
    assert "trained on" not in learned  # no tuning table: no scale claimed
    timed_network = COMPARISONS.assign(timed=True)
    assert not any(
        "learned network" in a
        for a in answers({"benchmark": BENCHMARK, "comparisons": timed_network})
    )


def test_the_page_opens_with_its_answers_and_has_a_section_per_table() -> None:
    tables = {"benchmark": BENCHMARK, "comparisons": COMPARISONS, "methods": WITH_CONTROL,
              "method_pairs": PAIRS}  # fmt: skip
    page = findings_page(tables, "made by")
    assert page.startswith("# Findings")
    assert "exactly when Holm p < 0.05" in page  # the intervals beside Holm p
    answers_at = page.index("## The answers")
    assert answers_at < page.index("## Search: strength for its cost") < page.index("## Tuning")
    assert page.index("**The best search for its cost.**") > answers_at
    assert "## The learned evaluation" in page
    assert "## Depth transfer" not in page and page.endswith("made by\n")
