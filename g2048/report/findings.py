"""The study's findings page, written from the tables of one run: each finding a sentence whose
numbers, intervals and p-values are read from a table, with the test behind it named. Nothing
on the page is typed by hand, so it cannot go stale against its tables; which way a sentence
reads (higher, lower, no clear difference) is decided by the numbers too."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from g2048.report.convergence import FLATTENED, IMPROVING, NOISE_FACTOR
from g2048.report.stats import ALPHA, POWER, holm
from g2048.report.tables import number
from g2048.study.naming import objective_label

T_MEAN = "95% t interval over the games"
WILSON = "Wilson 95% interval"


def _interval(mean: float, low: float, high: float) -> str:
    return f"{number(mean)} [{number(low)}, {number(high)}]"


def _signed(mean: float, low: float, high: float) -> str:
    return f"{mean:+,.0f} [{low:+,.0f}, {high:+,.0f}]"


def _p(p: float) -> str:
    """'= 0.011', or '< 1e-300' where the p-value underflowed to 0 in double precision."""
    return "< 1e-300" if p == 0 else f"= {p:.2g}"


def _row_text(row: pd.Series) -> str:
    """A benchmark row: its name, what it plays, its mean score with interval, its cost."""
    return (
        f"`{row['name']}` ({row.agent}, {row.evaluator}) scores "
        f"{_interval(row.score_mean, row.score_low, row.score_high)} over {row.games} games "
        f"at {row.ms_per_move:.3g} ms per move, reaching 2048 in "
        f"{row.reach_2048:.1%} [{row.reach_2048_low:.1%}, {row.reach_2048_high:.1%}]"
    )


def search_findings(benchmark: pd.DataFrame) -> list[str]:
    """The strongest row of each algorithm, and the rows under each time budget ranked, side by
    side with the time they used, each rank tested against the next (Holm over all budgets'
    pairs): a ranking the games cannot tell apart is reported as such."""
    out = []
    untimed = benchmark[~benchmark.timed.astype(bool)]
    for algorithm, rows in untimed.groupby("algorithm", sort=False):
        best = rows.loc[rows.score_mean.idxmax()]
        which = (
            f"The only {algorithm} row"
            if len(rows) == 1
            else f"The strongest of the {len(rows)} {algorithm} rows"
        )
        out.append(f"{which} of fixed cost: {_row_text(best)} (mean: {T_MEAN}; rate: {WILSON}).")
    timed = benchmark[benchmark.timed.astype(bool) & (benchmark.budget_ms > 0)]
    ranked = {
        budget: rows.sort_values("score_mean", ascending=False)
        for budget, rows in timed.groupby("budget_ms")
    }
    steps = [(budget, i) for budget, rows in ranked.items() for i in range(len(rows) - 1)]
    pvalues = [_welch_p(ranked[b].iloc[i], ranked[b].iloc[i + 1]) for b, i in steps]
    adjusted = dict(zip(steps, holm(pvalues), strict=True))
    for budget, rows in ranked.items():
        parts = []
        for i, (_, r) in enumerate(rows.iterrows()):
            part = (
                f"`{r['name']}` {_interval(r.score_mean, r.score_low, r.score_high)} over "
                f"{r.games} games using {r.ms_per_move:.3g} ms per move"
            )
            if (budget, i) in adjusted:
                p = adjusted[budget, i]
                order = "above" if p < ALPHA else "not separated from"
                part += f", {order} the next (Holm p {_p(p)})"
            parts.append(part)
        out.append(
            f"Under a budget of {budget:g} ms per move ({T_MEAN}; Welch's t between rows of "
            f"adjacent rank, Holm over the {len(steps)} such pairs of all budgets; timed games, "
            f"reproducible only up to timing): " + "; ".join(parts) + "."
        )
    return out


def _welch_p(a: pd.Series, b: pd.Series) -> float:
    """Welch's t test of two benchmark rows' mean scores, from their t intervals (the
    standard deviation each implies); NaN when a row has fewer than two games."""
    if min(a.games, b.games) < 2:
        return float("nan")
    sd = [
        (r.score_high - r.score_low) / 2 / stats.t.ppf(0.975, r.games - 1) * np.sqrt(r.games)
        for r in (a, b)
    ]
    test = stats.ttest_ind_from_stats(
        a.score_mean, sd[0], a.games, b.score_mean, sd[1], b.games, equal_var=False
    )
    return float(test.pvalue)


def _verdicts(diffs: pd.Series, pvalues: pd.Series) -> list[str]:
    """'higher', 'lower' or 'no clear difference' for each comparison, by its Holm p-value."""
    return [
        "no clear difference" if not p < ALPHA else "higher" if d > 0 else "lower"
        for d, p in zip(diffs, pvalues, strict=True)
    ]


def _counted(verdicts: list[str], mdds: list[float]) -> str:
    """How many comparisons went each way; beside 'no clear difference', the largest of their
    smallest detectable differences."""
    parts = []
    for verdict in ("higher", "lower", "no clear difference"):
        n = verdicts.count(verdict)
        if verdict == "no clear difference" and n:
            worst = max(m for v, m in zip(verdicts, mdds, strict=True) if v == verdict)
            verdict += f" (it would have found differences of {worst:,.0f} points or more)"
        parts.append(f"{n} {verdict}")
    return ", ".join(parts)


def tuning_answer(methods: pd.DataFrame, pairs: pd.DataFrame) -> list[str]:
    """The tuning question answered in two sentences, from the same tests as the rows below:
    the tuned runs against their evaluator's hand-set or published baseline, and the tuners
    against the control (random search at the same budget) on the same evaluator."""
    control = (
        methods["control"].astype(bool)
        if "control" in methods
        else pd.Series(False, index=methods.index)
    )
    tuned = methods[~control & methods["baseline"].apply(lambda b: isinstance(b, str))]
    out = []
    if len(tuned):
        verdicts = _verdicts(tuned.diff_vs_baseline, tuned.holm_pvalue)
        out.append(
            f"**The answer.** Against their evaluator's baseline, on test games with seeds as "
            f"replicates, the {len(tuned)} tuned runs scored: "
            f"{_counted(verdicts, list(tuned.mdd))} (one-sample t over seeds, Holm over the "
            "runs; the rows below)."
        )
    controls = set(methods.run[control])
    versus = pairs[pairs.run.isin(controls) != pairs.versus.isin(controls)]
    if len(versus):
        sign = np.where(versus.versus.isin(controls), 1.0, -1.0)  # tuner - control
        verdicts = _verdicts(versus["diff"] * sign, versus.holm_pvalue)
        out.append(
            f"Against random search at the same budget, the control every tuner must beat, "
            f"the {len(versus)} tuners scored: {_counted(verdicts, list(versus.mdd))} "
            "(Welch's t over seeds, Holm over the pairs of runs)."
        )
    return out


def method_findings(methods: pd.DataFrame, pairs: pd.DataFrame) -> list[str]:
    """The answer (`tuning_answer`), then each tuning run over its seeds against its
    evaluator's baseline, then the pairs of runs of one evaluator that differ, and those that
    do not, with what they could have found."""
    out = tuning_answer(methods, pairs)
    for _, m in methods.iterrows():
        text = (
            f"{m.method} (`{m.run}`, {m.evaluator}) over {m.seeds} seeds scores "
            f"{_interval(m.score_mean, m.score_low, m.score_high)} at validation (t interval "
            f"over the seeds; the seeds' own means {m.seed_scores})"
        )
        if isinstance(m.get("baseline"), str):
            verdict = _direction(m.diff_vs_baseline, m.holm_pvalue, "above", "below", m.mdd)
            text += (
                f"; against `{m.baseline}` {_signed(m.diff_vs_baseline, m.diff_low, m.diff_high)}"
                f" per seed, {verdict} (one-sample t over seeds, Holm p {_p(m.holm_pvalue)})"
            )
        out.append(text + ".")
    if len(pairs):
        differ = pairs[pairs.holm_pvalue < ALPHA]
        text = (
            f"Of {len(pairs)} pairs of runs that tune the same evaluator, {len(differ)} differ "
            f"at Holm p < {ALPHA:g} (Welch's t over seeds)"
        )
        details = [
            f"`{r.run}` - `{r.versus}` {_signed(r['diff'], r.diff_low, r.diff_high)} "
            f"(Holm p {_p(r.holm_pvalue)})"
            for _, r in differ.iterrows()
        ]
        alike = pairs[~(pairs.holm_pvalue < ALPHA)]
        same = [
            f"`{r.run}` - `{r.versus}` {_signed(r['diff'], r.diff_low, r.diff_high)}, "
            f"{_undetected(r.mdd)}"
            for _, r in alike.iterrows()
        ]
        text += ": " + "; ".join(details) if details else ""
        text += (". No clear difference: " + "; ".join(same)) if same else ""
        out.append(text + ".")
    return out


def _undetected(mdd: float) -> str:
    """What a "no clear difference" could have found: its smallest detectable difference."""
    if not np.isfinite(mdd):
        return "no test could be made"
    return f"a difference of {mdd:,.0f} or more would have been found with {POWER:.0%} power"


def _direction(diff: float, p: float, higher: str, lower: str, mdd: float) -> str:
    if not p < ALPHA:
        return f"no clear difference ({_undetected(mdd)})"
    return higher if diff > 0 else lower


def overfitting_findings(tuning: pd.DataFrame) -> list[str]:
    """How the picks' values on fresh seeds compare with those on their last training seeds,
    by a sign test over the picks."""
    if "fresh" not in tuning:
        return []
    rows = tuning.dropna(subset=["train", "fresh"])
    changed = rows[rows.fresh != rows.train]
    if changed.empty:
        return []
    lower = int((changed.fresh < changed.train).sum())
    gap = ((rows.fresh - rows.train) / rows.train.abs()).median()
    p = stats.binomtest(lower, len(changed)).pvalue
    reading = (
        "no consistent gap"
        if not p < ALPHA
        else "the training value overstates what a pick does on new games"
        if 2 * lower > len(changed)
        else "the picks do better on new games than on their training games"
    )
    picks = (
        f"{lower} of the {len(rows)} tuned picks"
        if len(changed) == len(rows)
        else f"{lower} of the {len(changed)} tuned picks whose value changed ({len(rows)} in all)"
    )
    return [
        f"In {picks}, the value each was selected by was lower on fresh seeds than on its last "
        f"training seeds, median change {gap:+.1%}: {reading} (sign test over the picks, "
        f"p {_p(p)})."
    ]


def convergence_findings(progress: pd.DataFrame) -> list[str]:
    """The weight-tuning runs still improving at their last step, named, and those that had
    flattened, from their incumbents' held-out progress (`convergence.progress_table`)."""
    if progress.empty:
        return []

    def gain(r: pd.Series) -> str:
        form = ",.0f" if max(abs(r.gain), r.gain_se) >= 1000 else ".2g"
        return (
            f"{r.gain:+{form}} ± {r.gain_se:{form}} from {r.before_games:,.0f} to "
            f"{r.games:,.0f} training games"
        )

    improving = progress[progress.verdict == IMPROVING]
    flat = progress[progress.verdict == FLATTENED]
    games = progress.progress_games.iloc[0]
    out = []
    if len(improving):
        names = "; ".join(
            f"`{r.run}` ({r.method}, {r.evaluator}) at {number(r.value)} "
            f"{objective_label(r.measure)}, {gain(r)}"
            for _, r in improving.iterrows()
        )
        out.append(
            f"Still improving at their last step, so their budget stopped them short: {names} "
            f"(the incumbent's held-out value, on {games} progress games, mean over seeds; the "
            f"last gain above {NOISE_FACTOR:g} standard errors)."
        )
    if len(flat):
        names = "; ".join(f"`{r.run}` {gain(r)}" for _, r in flat.iterrows())
        out.append(
            f"{'The other' if len(improving) else 'All'} {len(flat)} "
            f"{'run' if len(flat) == 1 else 'runs'} had flattened by "
            f"their last step (last gain within {NOISE_FACTOR:g} standard errors of 0, or "
            f"below): {names}."
        )
    return out


def learned_findings(learned: pd.DataFrame) -> list[str]:
    """The network against each heuristic played by the same agent."""
    out = []
    for _, r in learned.iterrows():
        verdict = _direction(
            r["diff"], r.holm_pvalue, "the network higher", "the network lower", r.mdd
        )
        timed = " (a timed row: reproducible only up to timing)" if r.timed else ""
        out.append(
            f"`{r.network}` against `{r.heuristic}` on {r.games} common games: "
            f"{number(r.network_score)} vs {number(r.heuristic_score)}, paired difference "
            f"{_signed(r['diff'], r.diff_low, r.diff_high)}, {verdict} "
            f"(paired t, Holm p {_p(r.holm_pvalue)}){timed}."
        )
    return out


def transfer_findings(transfer: pd.DataFrame) -> list[str]:
    """At each depth, the strongest weight set and whether the runner-up is within its
    interval."""
    out = []
    for depth, rows in transfer.groupby("depth"):
        ranked = rows.sort_values("score_mean", ascending=False)
        first, second = ranked.iloc[0], ranked.iloc[1] if len(ranked) > 1 else None
        text = (
            f"At depth {depth} the highest-scoring weight set is `{first['name']}` "
            f"{_interval(first.score_mean, first.score_low, first.score_high)}"
        )
        if second is not None:
            overlap = second.score_high >= first.score_low
            text += (
                f", then `{second['name']}` "
                f"{_interval(second.score_mean, second.score_low, second.score_high)}"
                f" ({'intervals overlap: no clear order' if overlap else 'intervals apart'})"
            )
        out.append(text + f" ({T_MEAN}).")
    return out


def claim_findings(claims: pd.DataFrame) -> list[str]:
    """The claims' verdicts counted, and those that did not hold named."""
    judged = claims[~claims["tolerance band"].str.startswith("question:")]
    counts = judged.verdict.value_counts()
    parts = [
        f"{counts.get(v, 0)} {v}"
        for v in ("held", "did not hold", "inconclusive", "not comparable")
    ]
    failed = judged[judged.verdict == "did not hold"]
    measured = failed["measured (95% CI)"]
    names = "; ".join(f"{c} (measured {m})" for c, m in zip(failed.claim, measured, strict=True))
    return [
        f"Of the source documents' {len(judged)} claims, " + ", ".join(parts) + " (equivalence "
        "to a tolerance band, rule at the top of the claims table)"
        + (f". Did not hold: {names}." if names else ".")
    ]


SECTIONS = (
    ("Search: strength for its cost", "benchmark"),
    ("Tuning methods, seeds as replicates", "methods"),
    ("Overfitting to the training games", "tuning"),
    ("Convergence of the tuning runs", "progress"),
    ("The learned evaluation", "learned"),
    ("Depth transfer", "transfer"),
    ("The source documents' claims", "claims"),
)


def findings_page(tables: dict[str, pd.DataFrame], footer: str) -> str:
    """The findings page from the run's `tables` (by name: benchmark, methods, method_pairs,
    tuning, learned, claims and, when the study has one, transfer)."""
    build = {
        "benchmark": lambda: search_findings(tables["benchmark"]),
        "methods": lambda: method_findings(tables["methods"], tables["method_pairs"]),
        "tuning": lambda: overfitting_findings(tables["tuning"]),
        "progress": lambda: convergence_findings(tables["progress"]),
        "learned": lambda: learned_findings(tables["learned"]),
        "transfer": lambda: transfer_findings(tables["transfer"]),
        "claims": lambda: claim_findings(tables["claims"]),
    }
    lines = [
        "# Findings",
        "",
        "Every number below is read from this run's tables (`results/tables/`); each sentence "
        "names the interval or test behind it. Intervals are 95% and not adjusted for "
        "multiplicity; p-values of a table are Holm-corrected over its rows, so an interval "
        "can exclude 0 where the corrected p-value does not separate the two; "
        f'"no clear difference" means Holm p >= {ALPHA:g}, and comes with the smallest '
        f"difference its test would have found with {POWER:.0%} power at level {ALPHA:g} / m, "
        "m the comparisons of its table (the `mdd` column).",
    ]
    for title, name in SECTIONS:
        if name not in tables:
            continue
        found = build[name]()
        if found:
            lines += ["", f"## {title}", ""] + [f"- {sentence}" for sentence in found]
    return "\n".join(lines) + f"\n\n{footer}\n"
