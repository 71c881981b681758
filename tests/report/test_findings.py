"""The findings page: its sentences carry the tables' numbers, and which way a sentence reads
is decided by them (Holm-corrected), not written in."""

import pandas as pd

from g2048.report.findings import (
    claim_findings,
    findings_page,
    learned_findings,
    method_findings,
    overfitting_findings,
    search_findings,
    transfer_findings,
    tuning_answer,
)


def bench_row(name: str, algorithm: str, score: float, ms: float, budget: float = 0.0) -> dict:
    return {
        "name": name, "agent": f"{algorithm} settings", "evaluator": "nneonneo", "games": 100,
        "score_mean": score, "score_low": score - 500, "score_high": score + 500,
        "reach_2048": 0.5, "reach_2048_low": 0.4, "reach_2048_high": 0.6, "ms_per_move": ms,
        "algorithm": algorithm, "budget_ms": budget, "timed": budget > 0,
    }  # fmt: skip


BENCHMARK = pd.DataFrame(
    [
        bench_row("em-d3", "expectimax", 30000, 0.4),
        bench_row("em-d5", "expectimax", 52000, 6.0),
        bench_row("mc-100", "montecarlo", 36000, 5.5),
        bench_row("em-10ms", "expectimax", 60000, 3.3, budget=10),
        bench_row("mc-10ms", "montecarlo", 41000, 11.0, budget=10),
        bench_row("hy-10ms", "hybrid", 40800, 2.0, budget=10),
        bench_row("em-1ms", "expectimax", 30000, 0.4, budget=1),
        bench_row("mc-1ms", "montecarlo", 29000, 1.1, budget=1),
    ]
)


def test_search_findings_name_each_algorithms_strongest_row_and_the_time_used() -> None:
    found = search_findings(BENCHMARK)
    assert len(found) == 4
    assert found[0].startswith("The strongest of the 2 expectimax rows of fixed cost: `em-d5`")
    assert found[1].startswith("The only montecarlo row of fixed cost: `mc-100`")
    assert "52,000 [51,500, 52,500] over 100 games at 6 ms per move" in found[0]
    assert "`mc-100`" in found[1] and "em-10ms" not in found[0]  # timed rows apart
    assert found[2].startswith("Under a budget of 1 ms per move")
    assert found[3].startswith("Under a budget of 10 ms per move")
    assert found[3].index("`em-10ms`") < found[3].index("`mc-10ms`")  # strongest first
    assert "over 100 games using 11 ms per move" in found[3]


def test_ranks_under_a_budget_are_separated_only_where_the_games_tell_them_apart() -> None:
    one_ms, ten_ms = search_findings(BENCHMARK)[2:]
    # 100 games, +-500 intervals: sd 2 520 each. Welch p: 19 000 apart ~0, 1 000 apart 0.0055
    # (Holm x2: 0.011, separated), 200 apart 0.58 (not separated)
    assert "`em-10ms` 60,000 [59,500, 60,500] over 100 games using 3.3 ms per move, above" in (
        ten_ms
    )
    assert "`mc-10ms` 41,000 [40,500, 41,500] over 100 games using 11 ms per move, not separ" in (
        ten_ms
    )
    assert ten_ms.endswith("`hy-10ms` 40,800 [40,300, 41,300] over 100 games using 2 ms per move.")
    assert "`em-1ms` 30,000 [29,500, 30,500] over 100 games using 0.4 ms per move, above the " in (
        one_ms
    )
    assert "(Holm p = 0.011)" in one_ms and "Holm over the 3 such pairs" in one_ms


METHODS = pd.DataFrame(
    [
        {"run": "cem", "method": "CEM", "evaluator": "cem8", "seeds": 5,
         "seed_scores": "1 2 3 4 5", "score_mean": 12000.0, "score_low": 11000.0,
         "score_high": 13000.0, "baseline": "cem-prior", "diff_vs_baseline": 2500.0,
         "diff_low": 1500.0, "diff_high": 3500.0, "holm_pvalue": 0.004, "mdd": 1800.0},
        {"run": "cmaes", "method": "CMA-ES", "evaluator": "cem8", "seeds": 5,
         "seed_scores": "1 2 3 4 5", "score_mean": 10000.0, "score_low": 8000.0,
         "score_high": 12000.0, "baseline": "cem-prior", "diff_vs_baseline": 500.0,
         "diff_low": -1500.0, "diff_high": 2500.0, "holm_pvalue": 0.4, "mdd": 3600.0},
        {"run": "td", "method": "TD", "evaluator": "ntuple", "seeds": 5,
         "seed_scores": "1 2 3 4 5", "score_mean": 30000.0, "score_low": 29000.0,
         "score_high": 31000.0, "baseline": float("nan"), "diff_vs_baseline": float("nan"),
         "diff_low": float("nan"), "diff_high": float("nan"), "holm_pvalue": float("nan"),
         "mdd": float("nan")},
    ]
)  # fmt: skip
PAIRS = pd.DataFrame(
    [{"evaluator": "cem8", "run": "cem", "versus": "cmaes", "diff": 2000.0, "diff_low": -100.0,
      "diff_high": 4100.0, "t_pvalue": 0.06, "holm_pvalue": 0.06, "mdd": 5900.0}]
)  # fmt: skip


def test_method_findings_read_direction_from_the_holm_p_value() -> None:
    answer, cem, cmaes, td, pairs = method_findings(METHODS, PAIRS)
    assert answer == (
        "**The answer.** Against their evaluator's baseline, on test games with seeds as "
        "replicates, the 2 tuned runs scored: 1 higher, 0 lower, 1 no clear difference (it "
        "would have found differences of 3,600 points or more) (one-sample t over seeds, Holm "
        "over the runs; the rows below)."
    )
    assert "against `cem-prior` +2,500 [+1,500, +3,500] per seed, above" in cem
    assert "Holm p = 0.004" in cem and "the seeds' own means 1 2 3 4 5" in cem
    assert (
        "no clear difference (a difference of 3,600 or more would have been found with 80% "
        "power) (one-sample t over seeds, Holm p = 0.4)"
    ) in cmaes
    assert "against" not in td  # no baseline for the network
    assert pairs.startswith("Of 1 pairs of runs that tune the same evaluator, 0 differ")
    assert pairs.endswith(
        "No clear difference: `cem` - `cmaes` +2,000 [-100, +4,100], a difference of 5,900 or "
        "more would have been found with 80% power."
    )
    significant = method_findings(METHODS, PAIRS.assign(holm_pvalue=0.01))[-1]
    assert "1 differ" in significant and "`cem` - `cmaes` +2,000 [-100, +4,100]" in significant
    assert "No clear difference" not in significant


def test_overfitting_counts_picks_that_scored_lower_on_fresh_seeds() -> None:
    tuning = pd.DataFrame({"train": [100.0, 200.0, 300.0], "fresh": [90.0, 210.0, 240.0]})
    (found,) = overfitting_findings(tuning)
    assert found.startswith("In 2 of the 3 tuned picks, the value each was selected by was lower")
    assert "median change -10.0%" in found
    assert "no consistent gap (sign test over the picks, p = 1)" in found
    lower = pd.DataFrame({"train": [100.0] * 8, "fresh": [90.0] * 7 + [100.0]})
    (found,) = overfitting_findings(lower)
    assert "In 7 of the 7 tuned picks whose value changed (8 in all)," in found
    assert "p = 0.016" in found
    assert "the training value overstates what a pick does on new games" in found
    assert overfitting_findings(pd.DataFrame({"train": [1.0]})) == []


def test_learned_and_transfer_findings_follow_their_tables() -> None:
    learned = pd.DataFrame(
        [{"network": "net-d1", "heuristic": "greedy", "games": 50, "network_score": 30000.0,
          "heuristic_score": 4000.0, "diff": 26000.0, "diff_low": 25000.0,
          "diff_high": 27000.0, "holm_pvalue": 1e-9, "timed": False, "mdd": 900.0}]
    )  # fmt: skip
    (found,) = learned_findings(learned)
    assert "+26,000 [+25,000, +27,000], the network higher" in found
    (lower,) = learned_findings(learned.assign(diff=-26000.0))
    assert "the network lower" in lower
    (underflow,) = learned_findings(learned.assign(holm_pvalue=0.0))  # never printed as "p = 0"
    assert "(paired t, Holm p < 1e-300)." in underflow
    transfer = pd.DataFrame(
        [{"name": n, "depth": 2, "score_mean": m, "score_low": m - 100, "score_high": m + 100}
         for n, m in (("a", 1000.0), ("b", 1150.0), ("c", 1500.0))]
    )  # fmt: skip
    (found,) = transfer_findings(transfer)
    assert "`c` 1,500 [1,400, 1,600], then `b`" in found and "intervals apart" in found
    (close,) = transfer_findings(transfer[transfer.name != "c"])
    assert "no clear order" in close


def test_claim_findings_count_the_verdicts_and_name_the_failures() -> None:
    claims = pd.DataFrame(
        {
            "claim": ["x ~5%", "y ~1,000", "z ~2", "q"],
            "tolerance band": ["0.03 to 0.07", "750 to 1,250", "1.5 to 2.5", "question: a - b"],
            "measured (95% CI)": ["0 [0, 0.004]", "900 [800, 1,000]", "2 [1, 3]", "1 [0, 2]"],
            "verdict": ["did not hold", "held", "inconclusive", "a higher"],
        }
    )
    (found,) = claim_findings(claims)
    assert found.startswith("Of the source documents' 3 claims, 1 held, 1 did not hold, ")
    assert "1 inconclusive, 0 not comparable" in found
    assert found.endswith("Did not hold: x ~5% (measured 0 [0, 0.004]).")


def test_the_page_has_a_section_per_table_it_was_given() -> None:
    tables = {"benchmark": BENCHMARK, "methods": METHODS, "method_pairs": PAIRS}
    page = findings_page(tables, "made by")
    assert page.startswith("# Findings")
    assert "not adjusted for multiplicity" in page  # the intervals beside Holm p-values
    assert "## Search: strength for its cost" in page and "## Tuning methods" in page
    assert "## Depth transfer" not in page and page.endswith("made by\n")


def test_the_answer_sets_the_tuners_against_the_control() -> None:
    """Random search is the control: its own baseline row is not a tuned run's, and each pair
    of a tuner and the control is read as tuner - control, whichever side it stands on."""
    control = METHODS.iloc[[1]].assign(run="random", method="random search", control=True)
    methods = pd.concat([METHODS.assign(control=False), control], ignore_index=True)
    pairs = pd.DataFrame(
        [{"evaluator": "cem8", "run": "cem", "versus": "random", "diff": 900.0, "diff_low": 1.0,
          "diff_high": 2.0, "t_pvalue": 0.01, "holm_pvalue": 0.02, "mdd": 700.0},
         {"evaluator": "cem8", "run": "random", "versus": "cmaes", "diff": 800.0,
          "diff_low": 1.0, "diff_high": 2.0, "t_pvalue": 0.01, "holm_pvalue": 0.03, "mdd": 650.0},
         {"evaluator": "cem8", "run": "cem", "versus": "cmaes", "diff": 100.0, "diff_low": 1.0,
          "diff_high": 2.0, "t_pvalue": 0.5, "holm_pvalue": 0.5, "mdd": 600.0}]
    )  # fmt: skip
    baseline, versus = tuning_answer(methods, pairs)
    assert "the 2 tuned runs scored: 1 higher, 0 lower, 1 no clear difference" in baseline
    assert versus.startswith(
        "Against random search at the same budget, the control every tuner must beat, the 2 "
        "tuners scored: 1 higher, 1 lower, 0 no clear difference (Welch's t"
    )
