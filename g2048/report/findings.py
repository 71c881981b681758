"""The study's findings page, written from the tables of one run: each finding a sentence whose
numbers, intervals and p-values are read from a table, with the test behind it named. Nothing
on the page is typed by hand, so it cannot go stale against its tables; which way a sentence
reads (higher, lower, no clear difference) is decided by the numbers too."""

from __future__ import annotations

import numpy as np
import pandas as pd

from g2048.report.claims import TOO_FEW
from g2048.report.convergence import FLATTENED, IMPROVING, NOISE_FACTOR
from g2048.report.published import published_context
from g2048.report.replicates import (
    FAMILY_CONTROL,
    FAMILY_TUNERS,
    family_rows,
    overfitting_table,
)
from g2048.report.stats import ALPHA, POWER
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


def _test(r: pd.Series) -> str:
    """A comparison's test and Holm p-value, e.g. 'paired t, Holm p = 0.003'."""
    return f"{r.test}, Holm p {_p(r.holm_pvalue)}"


def _between(r: pd.Series, higher: str) -> str:
    """A comparison read from `higher`'s side: its difference with the adjusted interval."""
    sign = 1.0 if r["first"] == higher else -1.0
    low, high = sorted((sign * r.diff_low, sign * r.diff_high))
    return _signed(sign * r["diff"], low, high)


def _pair(comparisons: pd.DataFrame, a: str, b: str) -> pd.Series:
    """The one row of `comparisons` that tests a against b (either way round)."""
    rows = comparisons[
        ((comparisons["first"] == a) & (comparisons["second"] == b))
        | ((comparisons["first"] == b) & (comparisons["second"] == a))
    ]
    return rows.iloc[0]


def budget_ranks(
    benchmark: pd.DataFrame,
    comparisons: pd.DataFrame,
    fixed: str | None = None,
    varied: str | None = None,
) -> dict[str, list[str]]:
    """The rows under each budget of `comparisons`, strongest first (by the benchmark's mean).
    With `fixed` (a benchmark column), one ranking per budget and value of it, keyed "<budget>
    on <value>", of the rows that share that value and differ in `varied`: one thing varied at
    a time (the search with the evaluator fixed, the evaluator with the search fixed); a group
    whose rows all share their `varied` value is no such ranking and is left out."""
    rows = benchmark.set_index("name")
    ranked = comparisons[comparisons.budget.fillna("") != ""]
    out = {}
    for budget, pairs in ranked.groupby("budget", sort=False):
        names = sorted(
            set(pairs["first"]) | set(pairs["second"]), key=lambda n: -rows.score_mean[n]
        )
        if fixed is None:
            out[budget] = names
            continue
        for value in dict.fromkeys(rows.loc[names, fixed]):
            group = [n for n in names if rows.at[n, fixed] == value]
            if len(group) > 1 and rows.loc[group, varied].nunique() > 1:
                out[f"{budget} on {value}"] = group
    return out


# the three search answers, in the order findings.md gives them: what each varies at a budget
SEARCH_QUESTIONS = (
    ("The best search for its cost", "with the evaluator held fixed", "evaluator", "algorithm"),
    ("The best evaluator under one search", "with the search held fixed", "algorithm", "evaluator"),
    ("The best row overall", "every row of the budget", None, None),
)


def search_findings(benchmark: pd.DataFrame, comparisons: pd.DataFrame) -> list[str]:
    """The highest mean of each algorithm's rows of fixed cost (a maximum over rows of other
    costs, not a ranking), then the rows under each budget ranked, one thing varied at a time
    (`SEARCH_QUESTIONS`: the search on one evaluator, the evaluator under one search, then
    every row), side by side with the time they used, each rank against the next by its one
    test (`comparisons`): a ranking the games cannot tell apart is reported as such."""
    out = []
    untimed = benchmark[~benchmark.timed.astype(bool)]
    for algorithm, rows in untimed.groupby("algorithm", sort=False):
        best = rows.loc[rows.score_mean.idxmax()]
        which = (
            f"The only {algorithm} row"
            if len(rows) == 1
            else f"The highest mean of the {len(rows)} {algorithm} rows (not tested against the "
            "others, whose costs differ)"
        )
        out.append(f"{which} of fixed cost: {_row_text(best)} (mean: {T_MEAN}; rate: {WILSON}).")
    rows = benchmark.set_index("name")
    for _, how, fixed, varied in SEARCH_QUESTIONS:
        for budget, names in budget_ranks(benchmark, comparisons, fixed, varied).items():
            parts, timed = [], bool(rows.loc[names, "timed"].astype(bool).any())
            for higher, lower in zip(names, [*names[1:], None], strict=True):
                r = rows.loc[higher]
                part = (
                    f"`{higher}` {_interval(r.score_mean, r.score_low, r.score_high)} over "
                    f"{r.games} games using {r.ms_per_move:.3g} ms per move"
                )
                if lower is not None:
                    c = _pair(comparisons, higher, lower)
                    part += (
                        f", above the next by {_between(c, higher)} ({_test(c)})"
                        if c.holm_pvalue < ALPHA
                        else f", not separated from the next ({_test(c)}; {_undetected(c.mdd)})"
                    )
                parts.append(part)
            note = "; timed games, reproducible only up to timing" if timed else ""
            out.append(
                f"Under a budget of {budget}, {how} ({T_MEAN}; each row against the next by "
                f"the one test of the comparisons table, adjusted interval{note}): "
                + "; ".join(parts)
                + "."
            )
    return out


def _lead(rows: pd.DataFrame, comparisons: pd.DataFrame, budget: str, names: list[str]) -> str:
    """A ranking's strongest row read against the next by their one test: named strongest only
    where that test separates them."""
    c = _pair(comparisons, names[0], names[1])
    r = rows.loc[names[0]]
    reading = (
        f"the strongest, above `{names[1]}` by {_between(c, names[0])}"
        if c.holm_pvalue < ALPHA
        else f"not separated from `{names[1]}` ({_undetected(c.mdd)})"
    )
    return (
        f"at {budget} `{names[0]}` ({r.agent}, {r.evaluator}) "
        f"{_interval(r.score_mean, r.score_low, r.score_high)} over {r.games} games, "
        f"{reading} ({_test(c)})"
    )


def search_answers(benchmark: pd.DataFrame, comparisons: pd.DataFrame) -> list[str]:
    """The search question in three answers, one thing varied at a time (`SEARCH_QUESTIONS`):
    under each budget the best search with the evaluator held fixed, then the best evaluator
    under one search, then the best row overall; each lead against the next by its test."""
    rows = benchmark.set_index("name")
    out = []
    for title, how, fixed, varied in SEARCH_QUESTIONS:
        ranks = budget_ranks(benchmark, comparisons, fixed, varied)
        if not ranks:
            continue
        timed = any(rows.loc[names, "timed"].astype(bool).any() for names in ranks.values())
        leads = [_lead(rows, comparisons, budget, names) for budget, names in ranks.items()]
        out.append(
            f"**{title}.** Under each budget, {how}: "
            + "; ".join(leads)
            + (". Timed budgets are this machine's (the footer names its CPU)" if timed else "")
            + "."
        )
    if out:
        out[-1] += f" {published_context()}."
    return out


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


def _controls(methods: pd.DataFrame) -> pd.Series:
    """Which rows of the methods table are the control (random search), not a tuner."""
    if "control" not in methods:
        return pd.Series(False, index=methods.index)
    return methods["control"].astype(bool)


def _tuned(methods: pd.DataFrame) -> pd.DataFrame:
    """The methods table's tuned runs set against a baseline (the control's rows aside)."""
    based = methods["baseline"].apply(lambda b: isinstance(b, str))
    return methods[~_controls(methods) & based]


def control_answer(pairs: pd.DataFrame) -> list[str]:
    """The tuners against the control (random search at the same budget) on their evaluator,
    each pair read as tuner - control: one sentence, or none where no run is a control."""
    versus = family_rows(pairs, FAMILY_CONTROL)
    if not len(versus):
        return []
    verdicts = _verdicts(versus["diff"], versus.holm_pvalue)
    return [
        f"Against random search at the same budget on their evaluator (the control every "
        f"tuner must beat), the {len(versus)} tuners scored: "
        f"{_counted(verdicts, list(versus.mdd))} ({versus.test.iloc[0]} over seeds, Holm "
        f"within these {len(versus)} pairs)."
    ]


def baseline_answer(methods: pd.DataFrame) -> list[str]:
    """The tuned runs against their evaluator's hand-set or published baseline."""
    tuned = _tuned(methods)
    if not len(tuned):
        return []
    verdicts = _verdicts(tuned.diff_vs_baseline, tuned.holm_pvalue)
    return [
        f"Against their evaluator's hand-set or published weights, the {len(tuned)} tuned "
        f"runs scored: {_counted(verdicts, list(tuned.mdd))} ({tuned.test.iloc[0]} over "
        f"{tuned.seeds.max()} seeds' picks, {tuned.games_per_seed.max()} test games each, "
        "Holm over the runs)."
    ]


def sizing_answer(pairs: pd.DataFrame) -> list[str]:
    """What the primary family is sized to find: the target difference per evaluator, the
    seeds 80% power needs for it, and what these seeds can find."""
    versus = family_rows(pairs, FAMILY_CONTROL).dropna(subset=["target"])
    if not len(versus):
        return []
    targets = versus.groupby("evaluator", sort=False)["target"].first()
    shown = ", ".join(f"{e} {t:,.0f}" for e, t in targets.items())
    needed = versus["seeds_needed"]
    seeds = (
        f"{needed.max():,.0f} seeds per run"
        if np.isfinite(needed.max())
        else "more seeds than the power analysis can name"
    )
    return [
        f"The primary family is sized for the config's target difference (points: {shown}): "
        f"to find it in every pair with {POWER:.0%} power takes {seeds} at these test games "
        f"(`seeds_needed` of the method pairs table, from the measured spreads); at these "
        f"seeds the pairs find {versus.mdd.min():,.0f} to {versus.mdd.max():,.0f} points. "
        "The study of record for this question, config/paper.yaml, plays that many seeds (at "
        "most 64) on at least these budgets; its predicted cost is the README's paper column."
    ]


def tuning_answer(
    methods: pd.DataFrame, pairs: pd.DataFrame, primary: str = "control"
) -> list[str]:
    """The tuning question answered from the same tests as the rows below, the config's
    primary family first (`primary`: "control", the tuners against random search at the same
    budget; or "baseline", the runs against their hand baselines), the other family second,
    then what the primary family is sized to find."""
    families = [control_answer(pairs), baseline_answer(methods)]
    if primary == "baseline":
        families.reverse()
    first, second = families
    lead = [f"**The answer (primary family).** {first[0]}"] if first else []
    rest = [f"Second family: {text[0].lower()}{text[1:]}" for text in second]
    return lead + rest + sizing_answer(pairs)


def method_findings(
    methods: pd.DataFrame, pairs: pd.DataFrame, primary: str = "control"
) -> list[str]:
    """The answer (`tuning_answer`), then each tuning run over its seeds against its
    evaluator's baseline, then in each family the pairs of runs of one evaluator that differ,
    and those that do not, with what they could have found."""
    out = tuning_answer(methods, pairs, primary)
    for _, m in methods.iterrows():
        text = (
            f"{m.method} (`{m.run}`, {m.evaluator}) over {m.seeds} seeds scores "
            f"{_interval(m.score_mean, m.score_low, m.score_high)} on its test games (t "
            f"interval over the seeds; the seeds' own means {m.seed_scores})"
        )
        if isinstance(m.get("baseline"), str):
            verdict = _direction(m.diff_vs_baseline, m.holm_pvalue, "above", "below", m.mdd)
            text += (
                f"; against `{m.baseline}` {_signed(m.diff_vs_baseline, m.diff_low, m.diff_high)}"
                f" per seed, {verdict} ({m.test} over seeds, Holm p {_p(m.holm_pvalue)})"
                + _needs(m)
            )
        out.append(text + ".")
    for family in (FAMILY_CONTROL, FAMILY_TUNERS):
        out += _pair_findings(family_rows(pairs, family), family)
    return out


def _pair_findings(pairs: pd.DataFrame, family: str) -> list[str]:
    """The pairs of one family that differ, and those that do not with what they could have
    found: one sentence, or none for an empty family."""
    if not len(pairs):
        return []
    differ = pairs[pairs.holm_pvalue < ALPHA]
    text = (
        f"Of {len(pairs)} pairs {family} on one evaluator, {len(differ)} differ at Holm p < "
        f"{ALPHA:g} ({pairs.test.iloc[0]} over seeds, Holm within the family)"
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
    return [text + "."]


def _needs(m: pd.Series) -> str:
    """What the config's target difference needs, from the measured variances."""
    if not np.isfinite(m.get("target", np.nan)) or not np.isfinite(m.get("seeds_needed", np.nan)):
        return ""
    games = (
        f"{m.games_needed:,.0f} test games per seed at these seeds"
        if np.isfinite(m.games_needed)
        else "no number of test games at these seeds"
    )
    return (
        f"; to find {m.target:,.0f} points (the config's target) with {POWER:.0%} power it "
        f"needs {m.seeds_needed:,.0f} seeds at these test games, or {games}"
    )


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
    """Per tuning method (random search aside): its picks' mean score on their test games
    against their selection games, the games they were chosen on (`overfitting_table`)."""
    if "selection_score" not in tuning:
        return []
    table = overfitting_table(tuning)
    out = []
    for _, r in table.iterrows():
        verdict = _direction(
            r["diff"], r.holm_pvalue, "higher on the test games", "lower on the test games "
            "than on the games they were picked on", r.mdd
        )  # fmt: skip
        out.append(
            f"`{r.run}` ({r.method}, {r.evaluator}): its {r.seeds} seeds' picks scored "
            f"{r.selection_score:,.0f} on their selection games and {r.test_score:,.0f} on "
            f"their test games, test - selection {_signed(r['diff'], r.diff_low, r.diff_high)}:"
            f" {verdict} ({r.test} over seeds, Holm p {_p(r.holm_pvalue)}, Holm over the "
            f"{len(table)} methods)."
        )
    return out


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

    def flat_gain(r: pd.Series) -> str:
        if np.isnan(r.detectable_gain):  # every seed's last two incumbents played alike
            return (
                f"unchanged from {r.before_games:,.0f} to {r.games:,.0f} training games (no "
                "seed's incumbent played a progress game differently)"
            )
        return (
            f"{gain(r)} (a gain of {number(r.detectable_gain)} or more would have been found "
            f"with {POWER:.0%} power)"
        )

    if len(flat):
        names = "; ".join(f"`{r.run}` {flat_gain(r)}" for _, r in flat.iterrows())
        out.append(
            f"{'The other' if len(improving) else 'All'} {len(flat)} "
            f"{'run' if len(flat) == 1 else 'runs'} had flattened by "
            f"their last step (last gain within {NOISE_FACTOR:g} standard errors of 0, or "
            f"below): {names}."
        )
    return out


def learned_findings(comparisons: pd.DataFrame) -> list[str]:
    """The network against each heuristic played by the same agent (the comparisons' network
    rows, the same tests the search ranks read)."""
    rows = comparisons[comparisons.network.fillna("") != ""]
    return [_network_against_heuristic(r) for _, r in rows.iterrows()]


def _network_against_heuristic(r: pd.Series) -> str:
    """A network row of the comparisons, read from the network's side."""
    network = r.network
    heuristic = r["second"] if r["first"] == network else r["first"]
    sign = 1.0 if r["first"] == network else -1.0
    scores = (r.first_score, r.second_score)[:: int(sign)]
    verdict = _direction(
        sign * r["diff"], r.holm_pvalue, "the network higher", "the network lower", r.mdd
    )
    timed = " (a timed row: reproducible only up to timing)" if r.timed else ""
    return (
        f"`{network}` against `{heuristic}` on {r.games} common games: "
        f"{number(scores[0])} vs {number(scores[1])}, difference {_between(r, network)}, "
        f"{verdict} ({_test(r)}){timed}."
    )


def transfer_findings(leaders: pd.DataFrame) -> list[str]:
    """At each depth, the strongest weight set against the runner-up by their one test."""
    return [_leader_against_runner_up(r) for _, r in leaders.iterrows()]


def _leader_against_runner_up(r: pd.Series) -> str:
    """A depth's row of the transfer leaders: its strongest weight set against the next."""
    order = (
        f"`{r['first']}` higher by {_between(r, r['first'])}"
        if r.holm_pvalue < ALPHA
        else f"no clear order ({_undetected(r.mdd)})"
    )
    return (
        f"At {r.group} the highest-scoring weight set is `{r['first']}` "
        f"({number(r.first_score)}), then `{r['second']}` ({number(r.second_score)}) on "
        f"{r.games} common games: {order} ({_test(r)}, Holm over the depths)."
    )


def claim_findings(claims: pd.DataFrame) -> list[str]:
    """The claims' verdicts counted (each claim's one verdict, on the row that plays as the
    source's program does), and those measured above or below their claim named."""
    judged = claims[~claims["margin"].str.startswith("question:")]
    kinds = judged.verdict.str.split(":").str[0]
    counts = kinds.value_counts()
    order = ("held", "higher than claimed", "lower than claimed", "inconclusive")
    parts = [f"{counts.get(v, 0)} {v}" for v in (*order, TOO_FEW, "not comparable")]
    failed = judged[judged.verdict.isin(order[1:3])]
    measured = failed["measured (95% CI)"]
    names = "; ".join(
        f"{c} (measured {m}: {v})"
        for c, m, v in zip(failed.claim, measured, failed.verdict, strict=True)
    )
    return [
        f"Of the source documents' {len(judged)} claims, " + ", ".join(parts) + " (held: the "
        "measured interval within the claim's margin, on the source's own play; "
        f"{TOO_FEW}: fewer games than the claim's; the rule at the top of the claims table)"
        + (f". Off the claim: {names}." if names else ".")
    ]


def _scale(tuning: pd.DataFrame, column: str, value: str) -> str:
    """How many games the tuning table's rows whose `column` is `value` (a run, an evaluator)
    played per seed (`games_played`): one number, or the range; "" without such rows."""
    rows = tuning[tuning[column] == value] if "games_played" in tuning else tuning.iloc[:0]
    if rows.empty:
        return ""
    low, high = rows.games_played.min(), rows.games_played.max()
    return f"{low:,.0f}" if low == high else f"{low:,.0f} to {high:,.0f}"


def answers(tables: dict[str, pd.DataFrame], primary: str = "control") -> list[str]:
    """The page's answers, each a short paragraph with its numbers, its test and the scale it
    holds at: the best search for its cost with the evaluator held fixed, the best evaluator
    under one search and the best row overall (`search_answers`, with the published state of
    the art beside), tuning against random search and hand-set weights, and the heuristics
    against the learned network."""
    benchmark, comparisons = tables["benchmark"], tables["comparisons"]
    rows = benchmark.set_index("name")
    out = search_answers(benchmark, comparisons)
    methods, tuning = tables.get("methods"), tables.get("tuning", pd.DataFrame())
    pairs = tables.get("method_pairs", pd.DataFrame())
    if methods is not None:
        families = tuning_answer(methods, pairs, primary)
        if families:
            first = families[0].removeprefix("**The answer (primary family).** ")
            families[0] = first[0].lower() + first[1:]
            scales = {run: _scale(tuning, "run", run) for run in methods.run}
            budgets = [f"{run} {games}" for run, games in scales.items() if games]
            played = (
                f" Games played per seed, training and selection: {', '.join(budgets)}."
                if budgets
                else ""
            )
            out.append(
                "**Evolutionary tuning against random search and hand tuning.** Primary "
                "family: " + " ".join(families) + played
            )
    network = comparisons[(comparisons.network.fillna("") != "") & ~comparisons.timed.astype(bool)]
    if len(network):
        sign = np.where(network["first"] == network.network, 1.0, -1.0)
        gains = network["diff"] * sign
        verdicts = _verdicts(gains, network.holm_pvalue)
        close = network.iloc[int(np.argmin(gains))]
        trained = _scale(tuning, "evaluator", rows.loc[close.network, "evaluator"])
        scale = f"trained on {trained} games per seed; " if trained else ""
        out.append(
            f"**Heuristics against the learned network.** On common games with the same "
            f"agent, the network ({scale}untimed rows) against the {len(network)} heuristic "
            "rows: "
            f"{_counted(verdicts, list(network.mdd))} ({close.test}, Holm over the pairs). "
            f"The closest: `{close.network}` against "
            f"`{close['second'] if close['first'] == close.network else close['first']}`, "
            f"{_between(close, close.network)} over {close.games} games ({_test(close)})."
        )
    return out


SECTIONS = (
    ("Search: strength for its cost", "benchmark"),
    ("Tuning methods, seeds as replicates", "methods"),
    ("Overfitting to the selection games", "tuning"),
    ("Convergence of the tuning runs", "progress"),
    ("The learned evaluation", "comparisons"),
    ("Depth transfer", "transfer_leaders"),
    ("The source documents' claims", "claims"),
)


def findings_page(tables: dict[str, pd.DataFrame], footer: str, primary: str = "control") -> str:
    """The findings page from the run's `tables` (by name: benchmark, comparisons, methods,
    method_pairs, tuning, claims and, when the study has one, transfer_leaders): its three
    answers, then every finding by section; the tuning answer opens with the config's
    `primary` family (`tuning_answer`)."""
    build = {
        "benchmark": lambda: search_findings(tables["benchmark"], tables["comparisons"]),
        "methods": lambda: method_findings(tables["methods"], tables["method_pairs"], primary),
        "tuning": lambda: overfitting_findings(tables["tuning"]),
        "progress": lambda: convergence_findings(tables["progress"]),
        "comparisons": lambda: learned_findings(tables["comparisons"]),
        "transfer_leaders": lambda: transfer_findings(tables["transfer_leaders"]),
        "claims": lambda: claim_findings(tables["claims"]),
    }
    lines = [
        "# Findings",
        "",
        "Every number below is read from this run's tables (`results/tables/`); each sentence "
        "names the interval or test behind it. Every comparison has one test, chosen by one "
        "rule: paired t where the two sides played the same games (or a run's seeds against "
        "one baseline on the same games), Welch's t otherwise. p-values are Holm-corrected "
        "within their table's family; the interval of a difference is at the level Holm's "
        f"step-down procedure tests it at ({ALPHA:g} / m at the first step, m the comparisons "
        f'of its family), so it excludes 0 exactly when Holm p < {ALPHA:g}. "No clear '
        f'difference" means Holm p >= {ALPHA:g}, and comes with the smallest difference its '
        f"test would have found with {POWER:.0%} power at the first step's level (the `mdd` "
        "column). Means and rates of single rows have per-row 95% intervals.",
    ]
    opening = answers(tables, primary) if {"benchmark", "comparisons"} <= tables.keys() else []
    if opening:
        lines += ["", "## The answers", ""] + [f"{text}\n" for text in opening]
    for title, name in SECTIONS:
        if name not in tables:
            continue
        found = build[name]()
        if found:
            lines += ["", f"## {title}", ""] + [f"- {sentence}" for sentence in found]
    return "\n".join(lines) + f"\n\n{footer}\n"
