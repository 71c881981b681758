"""The source documents' quantitative claims, set beside what a study measured, with a verdict
(`rule`).

A claim's verdict is an equivalence judgement with a direction (`rule`, `judge`): held when
the measured 95% interval lies within the claim's margin (`claim_band`: a range claim's range,
or the claimed value +- the config's `claims.margin` of it, or its own error where the
source's stated games make that larger), higher or lower than claimed when the interval lies
wholly above or below the claim, and otherwise inconclusive, with the games that would settle
it. A claim's row is the benchmark entry that plays what the claim
is about (`Row`: evaluator, agent settings, weights, move cap), whatever the entry is called. A
claim has too few games when no entry plays it (0 of the claim's games; not comparable if the
source states no games), and is not comparable when its entry was played with other settings
(then its `note` says which).

Questions are comparisons no source settles with a number (is the tuned heuristic better than
its shipped constants?): each is a comparison of the methods tables (a run against its
evaluator's baseline, or two runs of one evaluator), read from them, so that the claims table
and the findings' tuning section give one answer from one test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
from scipy import stats

from g2048.report.stats import ALPHA, POWER, mean_ci, median_ci, wilson_ci
from g2048.report.tables import moves_gain, number
from g2048.study.agent_records import DEFAULT_RULES, recorded_agent

MARGIN = 0.10  # the default of the config's claims.margin: a claim "about V" is V +- 10% ...
RATE_FLOOR = 0.02  # ... and, for a rate, at least +- 0.02 (so that "~0%" has a margin)
HELD, HIGHER, LOWER = "held", "higher than claimed", "lower than claimed"


def rule(margin: float = MARGIN) -> str:
    """How the claims table's verdicts read, for the config's `claims.margin`."""
    return (
        "How to read the verdicts. Each claim is judged on the row that plays as the source's "
        "own program does (the agent's `rules`: source001 or source004, its search as the "
        "program's, which tests/oracles checks move for move), with at least as many games as "
        "the claim reports; g2048's own agent on the same settings is measured beside it (`"
        f"{VARIANT}`), not judged. A claim is held when this study's 95% interval lies within "
        f"its margin: a range claim's range, or the claimed value V +- {margin:.0%} of V (or V's "
        "own 95% error from the games the source states, where that is larger; for a rate at "
        f"least +- {RATE_FLOOR:g}); otherwise it is higher or lower than claimed when the "
        "interval lies wholly above or below V (the range), and inconclusive when it straddles "
        f"it, with the games this study would need to settle it with {POWER:.0%} power if its "
        f"measured value were true; `{TOO_FEW}` when the row has fewer games than the claim, "
        "or none (config/paper.yaml plays the claims' games). "
        "V's own error (`claimed`) is Wilson's interval for a rate, V +- t x sd / sqrt(n) for a "
        "mean score with the sd of this study's games (the source's is not published). A value "
        "without an interval is a point estimate and is judged by itself. Each verdict reads its "
        "own interval, with no correction across claims (they are separate statements, not one "
        "test), so about one interval in twenty may miss its true value. A row played with other "
        "settings than the claim's is not comparable (the note says how). Questions are the "
        "methods tables' comparisons of tuning runs, read from them with their test, their "
        "Holm-adjusted interval and p-value (Holm within the family they come from, named in "
        "the note), as the findings' tuning section gives them: a side is higher or lower when "
        f"that p-value is below {ALPHA:g}. `{PROGRAM}` says whether the source's own program, "
        "run as published on a few games (its search in a seeded game loop of ours: "
        "tests/oracles/play_sources.py, its games in workflow/resources/source_games.csv), "
        "reproduces the claim, judged by the same rule; or why it is not run."
    )


@dataclass(frozen=True)
class Row:
    """The benchmark row a claim is about, by what it plays: its evaluator, the agent settings
    the claim names (`agent`, as (key, value) pairs; the others may differ, and the row's
    `note` says when that matters), its weights (None: the evaluator's; numbers; or a config
    spec such as "tuned:cem") and its move cap. Rows are found by these, not by their names,
    so a renamed benchmark entry keeps its claims."""

    evaluator: str
    agent: tuple[tuple[str, object], ...]
    weights: tuple[float, ...] | str | None = None
    max_moves: int = 0

    def matches(self, entry: dict) -> bool:
        """True when a config's benchmark entry plays this row."""
        agent = recorded_agent(entry["agent"])
        return (
            entry["evaluator"] == self.evaluator
            and _weights(entry.get("weights")) == self.weights
            and entry.get("max_moves", 0) == self.max_moves
            and all(agent[key] == value for key, value in self.agent)
            and agent["rules"] == dict(self.agent).get("rules", DEFAULT_RULES)
        )

    def __str__(self) -> str:
        settings = " ".join(f"{k}={v}" for k, v in self.agent)
        weights = "" if self.weights is None else f" weights {self.weights}"
        cap = f" max_moves={self.max_moves}" if self.max_moves else ""
        return f"{settings} with {self.evaluator}{weights}{cap}"


def _weights(weights: object) -> tuple[float, ...] | str | None:
    return tuple(float(w) for w in weights) if isinstance(weights, list | tuple) else weights


def about(evaluator: str, weights: object = None, max_moves: int = 0, **agent: object) -> Row:
    """The Row of an agent (its settings as keywords, name first) playing `evaluator`."""
    return Row(evaluator, tuple(agent.items()), _weights(weights), max_moves)


def find_entry(entries: list[dict], row: Row) -> str | None:
    """The name of the first benchmark entry that plays `row`; None when none does."""
    return next((e["name"] for e in entries if row.matches(e)), None)


@dataclass(frozen=True)
class Claim:
    """One number a source document states: `metric` of the benchmark row that plays `row` is
    about a value (`low` = `high` = the value) or in a range [low, high]; `games` the number of
    games the source measured it on (0: not stated). `row` plays as the source's program does
    (AgentConfig.rules, where the source's search differs from g2048's); `variant` is g2048's
    own agent on the same settings, measured beside it (None: no other)."""

    source: str
    text: str
    row: Row
    metric: str  # a column of the benchmark table, e.g. score_mean or reach_2048
    low: float
    high: float
    games: int = 0
    variant: Row | None = None

    @property
    def value(self) -> float:
        """The claimed value; NaN for a range."""
        return self.low if self.low == self.high else math.nan

    @property
    def rate(self) -> bool:
        """Whether the claim is about a rate (a reach_* column)."""
        return self.metric.startswith("reach_")


def claim_band(
    claim: Claim, margin: float = MARGIN, claimed: tuple[float, float] | None = None
) -> tuple[float, float]:
    """The interval a measurement must lie in for `claim` to be held: a range claim's range;
    for a value V, V +- the larger of `margin` x V and the half-widths of V's own interval
    `claimed` (`source_interval`; None: no error), for a rate at least +- RATE_FLOOR and inside
    [0, 1]."""
    value = claim.value
    if math.isnan(value):
        return claim.low, claim.high
    half = margin * abs(value)
    if claimed is not None and not any(map(math.isnan, claimed)):
        half = max(half, value - claimed[0], claimed[1] - value)
    if claim.rate:
        half = max(half, RATE_FLOOR)
        return max(0.0, value - half), min(1.0, value + half)
    return value - half, value + half


def about_claim(
    source: str,
    text: str,
    row: Row,
    metric: str,
    value: float,
    games: int,
    variant: Row | None = None,
) -> Claim:
    """A claim that `metric` of `row` is about `value`, measured by the source on `games`; a
    row with a source's rules has g2048's own agent as its variant: `variant`, by default the
    row without the rules."""
    agent = dict(row.agent)
    if variant is None and agent.pop("rules", DEFAULT_RULES) != DEFAULT_RULES:
        variant = Row(row.evaluator, tuple(agent.items()), row.weights, row.max_moves)
    return Claim(source, text, row, metric, value, value, games, variant)


def _source004(
    row: Row, label: str, score: float, reach: float, variant: Row | None = None
) -> list[Claim]:
    src = "source 004, table 5.3 (1000 games)"
    return [
        about_claim(src, f"{label}: mean score ~{score:,.0f}", row, "score_mean", score, 1000,
                    variant),
        about_claim(src, f"{label}: reaches 2048 in ~{reach:.0%}", row, "reach_2048", reach,
                    1000, variant),
    ]  # fmt: skip


def _s004(name: str, **agent: object) -> Row:
    """A row of source 004's program: its player `name` with its rules and evaluator."""
    return about("ovolve", name=name, **agent, rules="source004")


def _s001(weights: tuple[float, ...], depth: int) -> Row:
    """A row of source 001's program: its expectimax at `depth` with `weights`."""
    return about("classic4", weights, name="expectimax", depth=depth, rules="source001")


_FINAL = (2.7, 1.0, 0.1, 2.0)  # source 001's final classic4 weights
_S001_50, _S001_30 = "source 001, 4.1 (50 games)", "source 001, 4.1 (30 games)"
CLAIMS: tuple[Claim, ...] = (
    *_source004(about("ovolve", name="random"), "random", 1200, 0.0),
    *_source004(_s004("expectimax", depth=1), "greedy (1 ply)", 5000, 0.05,
                about("ovolve", name="greedy")),
    *_source004(_s004("expectimax", depth=3), "expectimax depth 3", 18000, 0.40),
    *_source004(_s004("expectimax", depth=5), "expectimax depth 5", 35000, 0.70),
    *_source004(_s004("montecarlo", rollouts=100), "Monte Carlo 100 rollouts", 12000, 0.20,
                about("ovolve", name="montecarlo", rollouts=100)),
    *_source004(_s004("montecarlo", rollouts=1000), "Monte Carlo 1000 rollouts", 25000, 0.55,
                about("ovolve", name="montecarlo", rollouts=1000)),
    *_source004(_s004("hybrid", depth=3, rollouts=50), "hybrid depth 3 + 50 rollouts", 30000,
                0.60, about("ovolve", name="hybrid", depth=3)),
    *_source004(_s004("hybrid", depth=4, rollouts=100), "hybrid depth 4 + 100 rollouts", 45000,
                0.80, about("ovolve", name="hybrid", depth=4)),
    about_claim(_S001_50, "weights 1/1/0.1/0 at depth 4: 0 of 50 reach 8192",
                _s001((1.0, 1.0, 0.1, 0.0), 4), "reach_8192", 0.0, 50),
    about_claim(_S001_50, "weights 2.7/1/0.1/2 at depth 4: 11 of 50 reach 8192",
                _s001(_FINAL, 4), "reach_8192", 11 / 50, 50),
    about_claim(_S001_50, "weights 4/1/0.3/1 at depth 4: 2 of 50 reach 8192",
                _s001((4.0, 1.0, 0.3, 1.0), 4), "reach_8192", 2 / 50, 50),
    about_claim(_S001_30, "final weights, depth 3: 72% reach 4096",
                _s001(_FINAL, 3), "reach_4096", 0.72, 30),
    about_claim(_S001_30, "final weights, depth 4: 100% reach 4096",
                _s001(_FINAL, 4), "reach_4096", 1.0, 30),
    about_claim(_S001_30, "final weights, depth 4: 23% reach 8192",
                _s001(_FINAL, 4), "reach_8192", 0.23, 30),
    about_claim(_S001_30, "final weights, depth 5: 37% reach 8192",
                _s001(_FINAL, 5), "reach_8192", 0.37, 30),
    Claim("source 003, 五", "greedy with CEM-tuned weights, 800 moves: max tile 1024-2048",
          about("cem8", "tuned:cem", 800, name="greedy"), "max_tile_median", 1024, 2048),
    Claim("source 000, 五",
          "switching along the front: +15-30% survival moves vs its balanced point",
          about("nsga4", "front:nsga2", name="switching", depth=2), "moves_gain_vs_balanced",
          0.15, 0.30),
)  # fmt: skip


@dataclass(frozen=True)
class Question:
    """Does tuning run `run` score more than `versus`: its evaluator's baseline (the methods
    table's row of `run`) or another run of the same evaluator (the method pairs table)?"""

    source: str
    text: str
    run: str
    versus: str


_TUNED_NNEONNEO = "nneonneo's shipped constants vs its heuristic tuned by {} (3 plies)"
QUESTIONS: tuple[Question, ...] = (
    *(Question("nneonneo/2048-ai", _TUNED_NNEONNEO.format(label), f"nneonneo-{run}", "nneonneo")
      for run, label in (("cmaes", "CMA-ES"), ("cem", "noisy CEM"), ("nsga2", "NSGA-II"))),
    Question("source 003, 八", "noisy CEM vs source 003's CEM at equal games (cem8)",
             "cem-noisy", "cem"),
    Question("source 003, 八", "CMA-ES vs source 003's CEM at equal games (cem8)", "cmaes", "cem"),
)  # fmt: skip


_S004_HYBRID = (
    "not run: its HybridAI plays the moves of g2048's hybrid with its rules (tests/oracles), "
    "whose rollouts to the game's end make 1000 games days of CPU here (config/paper.yaml plays "
    "it on 10 games, row {}, timed by make sample-paper: README)"
)
_S001_WEIGHTS = "not run: its program holds the final weights only (evaluate's constants)"
PROGRAMS: dict[Row, str] = {
    _s004("expectimax", depth=1): "source004-d1",
    _s004("expectimax", depth=3): "source004-d3",
    _s004("expectimax", depth=5): "source004-d5",
    _s004("montecarlo", rollouts=100): "source004-mc100",
    _s004("montecarlo", rollouts=1000): "source004-mc1000",
    _s004("hybrid", depth=3, rollouts=50): _S004_HYBRID.format("hybrid-d3-r50-full"),
    _s004("hybrid", depth=4, rollouts=100): _S004_HYBRID.format("hybrid-d4-r100-full"),
    _s001(_FINAL, 3): "source001-d3",
    _s001(_FINAL, 4): "source001-d4",
    _s001(_FINAL, 5): "source001-d5",
    _s001((1.0, 1.0, 0.1, 0.0), 4): _S001_WEIGHTS,
    _s001((4.0, 1.0, 0.3, 1.0), 4): _S001_WEIGHTS,
    about("cem8", "tuned:cem", 800, name="greedy"): (
        "not run: its Train does not compile as published (it assigns CrossEntropyTuner's "
        "private mu), and the weights it tuned are not published"
    ),
    about("nsga4", "front:nsga2", name="switching", depth=2): (
        "not run: its front-switching rule is a fragment outside any class that nothing calls"
    ),
}
"""What the source's own program is for each claim's row: the name of its games in
workflow/resources/source_games.csv (tests/oracles/play_sources.py), or why it is not run."""
PROGRAM_LABELS = {
    "source004-d1": "its ExpectimaxAI at depth 1 (one ply of its heuristic; its greedy player "
    "is not published)",
    "source004-d3": "its ExpectimaxAI at depth 3",
    "source004-d5": "its ExpectimaxAI at depth 5",
    "source001-d3": "its choose_move at depth 3",
    "source001-d4": "its choose_move at depth 4",
    "source001-d5": "its choose_move at depth 5",
    "source004-mc100": "its MonteCarloAI with 100 rollouts",
    "source004-mc1000": "its MonteCarloAI with 1000 rollouts",
}


def program_verdict(claim: Claim, source_games: pd.DataFrame, margin: float = MARGIN) -> str:
    """Whether the source's own program reproduces `claim` on its games in `source_games`
    (rows of its `PROGRAMS` name: score, max_tile), judged by `judge` at the claim's `margin`
    with the source's own error; or why it was not run."""
    program = PROGRAMS.get(claim.row, "not run: no program of the source plays this row")
    if program.startswith("not run"):
        return program
    games = source_games[source_games["program"] == program]
    if games.empty:
        return f"not run: {program} has no games in workflow/resources/source_games.csv"
    n = len(games)
    if claim.metric == "score_mean":
        measured = mean_ci(games["score"])
        sd = float(games["score"].std(ddof=1)) if n > 1 else math.nan
        own = source_interval(claim, sd)
    elif claim.rate:
        reached = int((games["max_tile"] >= int(claim.metric.removeprefix("reach_"))).sum())
        measured = (reached / n, *wilson_ci(reached, n))
        own = source_interval(claim, math.nan)
    else:
        return f"not run: {program}'s games give no {claim.metric}"
    verdict = judge(measured, claim, n, claim_band(claim, margin, own))
    reading = "reproduces the claim" if verdict == HELD else f"also {verdict}"
    if verdict.startswith("inconclusive"):
        reading = f"does not settle it ({verdict})"
    return f"{PROGRAM_LABELS[program]}, {n} games: {_measured(*measured)}, {reading}"


GAME_METRICS = ("max_tile_median",)  # claims measured on the games, not the benchmark table


def game_entries(entries: list[dict]) -> set[str]:
    """The benchmark entries whose games the claims table reads: those of claims about a
    statistic of the games (`GAME_METRICS`)."""
    rows = [c.row for c in CLAIMS if c.metric in GAME_METRICS]
    return {find_entry(entries, row) for row in rows} - {None}


def game_measurements(
    entries: list[dict], games: dict[str, pd.DataFrame]
) -> dict[tuple[str, str], tuple[float, float, float]]:
    """(estimate, low, high) of the claims' statistics of games, keyed by (entry, metric): the
    median max tile with its distribution-free 95% interval (order statistics)."""
    out = {}
    for claim in CLAIMS:
        entry = find_entry(entries, claim.row)
        if claim.metric in GAME_METRICS and entry in games:
            out[(entry, claim.metric)] = median_ci(games[entry]["max_tile"])
    return out


def _comparison(q: Question, methods: pd.DataFrame, pairs: pd.DataFrame) -> dict | None:
    """The methods tables' row that answers `q` (run - versus: diff, interval, test, Holm p,
    mdd, seeds), a pair's sign turned to read `q.run` first; None when the study has none."""
    tested = methods[methods.holm_pvalue.notna()] if len(methods) else methods
    if "baseline" in methods:
        row = methods[(methods.run == q.run) & (methods.baseline == q.versus)]
        if len(row):
            r = row.iloc[0]
            return {"diff": r.diff_vs_baseline, "low": r.diff_low, "high": r.diff_high,
                    "test": r.test, "p": r.holm_pvalue, "mdd": r.mdd, "family": len(tested),
                    "table": "methods", "seeds": int(r.seeds)}  # fmt: skip
    seeds = methods.loc[methods.run == q.run, "seeds"] if len(methods) else []
    for sign, (a, b) in ((1.0, (q.run, q.versus)), (-1.0, (q.versus, q.run))):
        row = pairs[(pairs.run == a) & (pairs.versus == b)] if len(pairs) else pairs
        if len(row):
            r = row.iloc[0]
            low, high = sorted((sign * r.diff_low, sign * r.diff_high))
            family = pairs[pairs.family == r.family] if "family" in pairs else pairs
            return {"diff": sign * r["diff"], "low": low, "high": high, "test": r.test,
                    "p": r.holm_pvalue, "mdd": r.mdd,
                    "family": int(family.holm_pvalue.notna().sum()), "table": "method_pairs",
                    "seeds": int(seeds.iloc[0]) if len(seeds) else 0}  # fmt: skip
    return None


def question_rows(methods: pd.DataFrame, pairs: pd.DataFrame) -> list[tuple]:
    """The claims table's rows of every question, read from the methods tables: the difference
    run - versus with its Holm-adjusted interval, and which side is higher by its Holm p-value
    (not comparable where the study has no such comparison)."""
    rows = []
    for q in QUESTIONS:
        band = f"question: {q.run} - {q.versus}"
        c = _comparison(q, methods, pairs)
        if c is None or not pd.notna(c["p"]):
            missing = f"the study compares no {q.run!r} with {q.versus!r} over seeds"
            rows.append((q.source, q.text, band, "", "", "not comparable", missing, False))
            continue
        side = (
            f"no clear difference (mdd {number(c['mdd'])})"
            if not c["p"] < ALPHA
            else "higher"
            if c["diff"] > 0
            else "lower"
        )
        measured = f"{number(c['diff'])} [{number(c['low'])}, {number(c['high'])}]"
        note = (
            f"{c['test']} over {c['seeds']} seeds' picks on the test games, as in the findings' "
            f"tuning section; Holm p = {c['p']:.2g} over the {c['family']} comparisons of its "
            f"family (`{c['table']}`)"
        )
        rows.append((q.source, q.text, band, "", measured, f"{q.run} {side}", note, False))
    return rows


def source_interval(claim: Claim, sd: float, level: float = 0.95) -> tuple[float, float]:
    """The claimed value's own `level` interval from the source's `claim.games` games: Wilson's
    for a rate, value +- t x sd / sqrt(games) for a mean, `sd` the per-game standard deviation
    (the source's is not published: the caller passes this study's); the value itself (no
    error) when the source states no number of games or the claim is a range."""
    if not claim.games or math.isnan(claim.value):
        return claim.value, claim.value
    if claim.rate:
        return wilson_ci(claim.value * claim.games, claim.games, level)
    if claim.games < 2 or not math.isfinite(sd):
        return claim.value, claim.value
    half = stats.t.ppf(0.5 + level / 2, claim.games - 1) * sd / math.sqrt(claim.games)
    return claim.value - half, claim.value + half


def judge(
    measured: tuple[float, float, float],
    claim: Claim,
    games: int,
    band: tuple[float, float] | None = None,
) -> str:
    """The verdict of a claim (`rule`): HELD when the measured interval lies within `band`
    (`claim_band`; by default the claim's at MARGIN, without the source's error), HIGHER or
    LOWER when it lies wholly above or below the claim, else "inconclusive: needs N games": the
    games at which, were the measured value true, the interval would with POWER either fit
    the band or clear the claim, whichever comes first (its half-widths shrinking as 1 /
    sqrt(games)). `measured` is (estimate, low, high) over `games` games."""
    est, low, high = measured
    lo, hi = claim_band(claim) if band is None else band
    if lo <= low and high <= hi:
        return HELD
    if low > claim.high:
        return HIGHER
    if high < claim.low:
        return LOWER
    down, up = est - low, high - est

    def shrink(gap: float, half: float) -> float:  # the factor by which `half` must shrink
        return math.inf if half <= 0 else max(gap, 0.0) / half

    routes = []  # how far the interval must shrink to settle the claim, one way or another
    if lo <= est <= hi:  # held, once it fits
        routes.append(min(shrink(est - lo, down), shrink(hi - est, up)))
    if est > claim.high:  # higher, once it clears the claim
        routes.append(shrink(est - claim.high, down))
    if est < claim.low:
        routes.append(shrink(claim.low - est, up))
    factor = max(routes, default=0.0)
    if not factor > 0:
        return "inconclusive: no number of games settles it at this estimate"
    z = stats.norm.ppf(1 - ALPHA / 2)
    k = (z + stats.norm.ppf(POWER)) / z  # from a half-width at level 1 - ALPHA to POWER
    needed = games * (k / factor) ** 2
    return f"inconclusive: needs {max(math.ceil(needed), games + 1):,} games"


def measured_interval(
    table: pd.DataFrame,
    entry: str,
    metric: str,
    extra: dict[tuple[str, str], tuple] | None = None,
) -> tuple[float, float, float] | None:
    """(estimate, low, high) of `metric` of benchmark entry `entry`: from `extra` (keyed by
    (entry, metric)) or the benchmark table's row and its interval columns (low = high =
    estimate where it has none); None if the study lacks it."""
    if extra and (entry, metric) in extra:
        return extra[(entry, metric)]
    rows = table[table["name"] == entry]
    if rows.empty or metric not in rows.columns:
        return None
    row = rows.iloc[0]
    stem = "score" if metric == "score_mean" else metric
    estimate = float(row[metric])
    return (
        estimate,
        float(row.get(f"{stem}_low", estimate)),
        float(row.get(f"{stem}_high", estimate)),
    )


def _measured(estimate: float, low: float, high: float) -> str:
    """A measurement with its interval; a point estimate alone."""
    if low == high == estimate:
        return f"{number(estimate)} (point estimate)"
    return f"{number(estimate)} [{number(low)}, {number(high)}]"


def _game_sd(measured: tuple[float, float, float], games: int) -> float:
    """The per-game standard deviation a mean's 95% t interval over `games` games implies."""
    if games < 2:
        return math.nan
    return (measured[2] - measured[1]) / 2 / stats.t.ppf(0.975, games - 1) * math.sqrt(games)


COLUMNS = ["source", "claim", "margin", "claimed (95% CI)", "measured (95% CI)",
           "verdict", "note", "timed"]  # fmt: skip
PROGRAM = "source's program"
VARIANT = "g2048's variant (95% CI)"
TOO_FEW = "too few games"


def claims_table(
    table: pd.DataFrame,
    entries: list[dict],
    extra: dict[tuple[str, str], tuple] | None = None,
    methods: pd.DataFrame | None = None,
    pairs: pd.DataFrame | None = None,
    source_games: pd.DataFrame | None = None,
    margin: float = MARGIN,
) -> pd.DataFrame:
    """Every claim beside its margin (`claim_band` at the config's `margin`), its own interval
    (from the source's games), the measured value and its verdict (`rule`; TOO_FEW on a row of
    fewer games than the claim's), g2048's variant measured beside it, and what the source's
    own program gives on its `source_games` (`program_verdict`); then every question answered
    from the `methods` and `pairs` tables. Each claim's row is the benchmark entry (of the
    config's `entries`) that plays what the claim is about; an entry's `note` marks it played
    with settings other than the claim's, so not comparable; `timed` marks claims measured on
    games under a time budget (reproducible only up to timing)."""
    notes = {e["name"]: e["note"] for e in entries if e.get("note")}
    sizes = {e["name"]: int(e.get("games", 0)) for e in entries}
    timed = set(table.name[table.timed])
    rows, programs, variants = [], [], []
    if source_games is None:
        source_games = pd.DataFrame(columns=["program", "score", "max_tile"])
    for claim in CLAIMS:
        programs.append(program_verdict(claim, source_games, margin))
        variant = None if claim.variant is None else find_entry(entries, claim.variant)
        beside = None if variant is None else measured_interval(table, variant, claim.metric)
        variants.append("" if beside is None else f"{_measured(*beside)}, {variant}")
        entry = find_entry(entries, claim.row)
        measured = None if entry is None else measured_interval(table, entry, claim.metric, extra)
        if measured is None:  # no row plays it: as too few games as can be, where counted
            missing = f"the study plays no {claim.row}"
            verdict = f"{TOO_FEW}: 0 of the claim's {claim.games:,}" if claim.games else (
                "not comparable")  # fmt: skip
            rows.append((claim.source, claim.text, _band(claim_band(claim, margin)), "", "",
                         verdict, missing, False))  # fmt: skip
            continue
        games = sizes.get(entry, 0)
        mean = claim.metric == "score_mean"
        own = source_interval(claim, _game_sd(measured, games) if mean else math.nan)
        band = claim_band(claim, margin, own)
        stated = _measured(claim.value, *own) if claim.games and own[0] != own[1] else ""
        result = "not comparable" if entry in notes else judge(measured, claim, games, band)
        if entry not in notes and games < claim.games:
            result = f"{TOO_FEW}: {games:,} of the claim's {claim.games:,}"
        rows.append((claim.source, claim.text, _band(band), stated, _measured(*measured),
                     result, notes.get(entry, ""), entry in timed))  # fmt: skip
    empty = pd.DataFrame(columns=["run", "holm_pvalue"])
    questions = question_rows(methods if methods is not None else empty,
                              pairs if pairs is not None else empty)  # fmt: skip
    out = pd.DataFrame(rows + questions, columns=COLUMNS)
    blank = [""] * len(questions)
    out.insert(COLUMNS.index("verdict") + 1, VARIANT, variants + blank)
    out.insert(COLUMNS.index("verdict") + 1, PROGRAM, programs + blank)
    return out


def _band(band: tuple[float, float]) -> str:
    low, high = band
    return number(low) if low == high else f"{number(low)} to {number(high)}"


def claims_page(claims: pd.DataFrame, title: str, footer: str, margin: float = MARGIN) -> str:
    """The claims table as a Markdown page: its title, the rule of its verdicts (at the
    config's `margin`), the table and `footer`."""
    return f"# {title}\n\n{rule(margin)}\n\n{claims.to_markdown(index=False)}\n\n{footer}\n"


def switching_gains(
    pairs: list[tuple[str, str]], games: dict[str, pd.DataFrame]
) -> dict[tuple[str, str], tuple]:
    """The measurements beyond the benchmark table that claims name: for each (switching entry,
    balanced twin), the switching entry's relative gain in moves over its twin."""
    return {
        (switching, "moves_gain_vs_balanced"): moves_gain(games[switching], games[balanced])
        for switching, balanced in pairs
    }
