"""The source documents' quantitative claims, set beside what a study measured, with a verdict
(`RULE`).

A claim's verdict is an equivalence judgement: the measured 95% interval against a tolerance
band around the claimed value. A claim's row is the benchmark entry that plays what the claim
is about (`Row`: evaluator, agent settings, weights, move cap), whatever the entry is called. A
claim is not comparable when no entry plays it or its entry was played with other settings
(then its `note` says which).

Questions are comparisons no source settles with a number (is the tuned heuristic better than
its shipped constants?): the paired score difference of two benchmark rows on their common
seeds, answered by its Holm-corrected p-value over all the questions.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from g2048.agents import AgentConfig
from g2048.report.stats import ALPHA, holm, median_ci, paired_difference
from g2048.report.tables import common_games, moves_gain, number

REL_TOLERANCE = 0.25  # a claim "about V" is held inside V +- 25% ...
RATE_FLOOR = 0.02  # ... and, for a rate, at least +- 0.02 (so that "~0%" has a band)

RULE = (
    "How to read the verdicts. A claim about a value V has the tolerance band V +- 25% "
    f"(for a rate at least +- {RATE_FLOOR:g}); a range claim's band is its range. The claim "
    "held when the measured 95% interval lies wholly inside its band, did not hold when it "
    "lies wholly outside, and is inconclusive otherwise (too few games to tell). A value "
    "without an interval is a point estimate and is judged by itself. Each verdict reads its "
    "own interval, with no correction across claims (they are separate statements, not one "
    "test), so about one interval in twenty may miss its true value. A row played with other "
    "settings than the claim's is not comparable (the note says how). Questions compare two "
    "rows by their paired score difference on common seeds: a side is higher or lower when "
    f"the t-test's p-value, Holm-corrected over the {{questions}} questions, is below {ALPHA:g}."
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
        agent = AgentConfig(**entry["agent"])
        return (
            entry["evaluator"] == self.evaluator
            and _weights(entry.get("weights")) == self.weights
            and entry.get("max_moves", 0) == self.max_moves
            and all(getattr(agent, key) == value for key, value in self.agent)
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
    about a value (or in a range); [low, high] is the tolerance band its measured interval must
    lie in (`about_value`, or the range itself)."""

    source: str
    text: str
    row: Row
    metric: str  # a column of the benchmark table, e.g. score_mean or reach_2048
    low: float
    high: float


def about_value(value: float, rate: bool) -> tuple[float, float]:
    """The tolerance band of a claim "about `value`": +- 25%, for a rate at least +- 0.02 and
    inside [0, 1]."""
    if rate:
        tolerance = max(REL_TOLERANCE * value, RATE_FLOOR)
        return max(0.0, value - tolerance), min(1.0, value + tolerance)
    return value * (1 - REL_TOLERANCE), value * (1 + REL_TOLERANCE)


def _source004(row: Row, label: str, score: float, reach: float) -> list[Claim]:
    src = "source 004, table 5.3 (1000 games)"
    return [
        Claim(src, f"{label}: mean score ~{score:,.0f}", row, "score_mean",
              *about_value(score, False)),
        Claim(src, f"{label}: reaches 2048 in ~{reach:.0%}", row, "reach_2048",
              *about_value(reach, True)),
    ]  # fmt: skip


_FINAL = (2.7, 1.0, 0.1, 2.0)  # source 001's final classic4 weights
CLAIMS: tuple[Claim, ...] = (
    *_source004(about("ovolve", name="random"), "random", 1200, 0.0),
    *_source004(about("ovolve", name="greedy"), "greedy (1 ply)", 5000, 0.05),
    *_source004(about("ovolve", name="expectimax", depth=3), "expectimax depth 3", 18000, 0.40),
    *_source004(about("ovolve", name="expectimax", depth=5), "expectimax depth 5", 35000, 0.70),
    *_source004(about("ovolve", name="montecarlo", rollouts=100), "Monte Carlo 100 rollouts",
              12000, 0.20),
    *_source004(about("ovolve", name="montecarlo", rollouts=1000), "Monte Carlo 1000 rollouts",
              25000, 0.55),
    *_source004(about("ovolve", name="hybrid", depth=3), "hybrid depth 3 + 50 rollouts",
              30000, 0.60),
    *_source004(about("ovolve", name="hybrid", depth=4), "hybrid depth 4 + 100 rollouts",
              45000, 0.80),
    Claim("source 001, 4.1 (50 games)", "weights 1/1/0.1/0 at depth 4: 0 of 50 reach 8192",
          about("classic4", (1.0, 1.0, 0.1, 0.0), name="expectimax", depth=4), "reach_8192",
          *about_value(0.0, True)),
    Claim("source 001, 4.1 (50 games)", "weights 2.7/1/0.1/2 at depth 4: 11 of 50 reach 8192",
          about("classic4", _FINAL, name="expectimax", depth=4), "reach_8192",
          *about_value(11 / 50, True)),
    Claim("source 001, 4.1 (50 games)", "weights 4/1/0.3/1 at depth 4: 2 of 50 reach 8192",
          about("classic4", (4.0, 1.0, 0.3, 1.0), name="expectimax", depth=4), "reach_8192",
          *about_value(2 / 50, True)),
    Claim("source 001, 4.1 (30 games)", "final weights, depth 3: 72% reach 4096",
          about("classic4", _FINAL, name="expectimax", depth=3), "reach_4096",
          *about_value(0.72, True)),
    Claim("source 001, 4.1 (30 games)", "final weights, depth 4: 100% reach 4096",
          about("classic4", _FINAL, name="expectimax", depth=4), "reach_4096",
          *about_value(1.0, True)),
    Claim("source 001, 4.1 (30 games)", "final weights, depth 4: 23% reach 8192",
          about("classic4", _FINAL, name="expectimax", depth=4), "reach_8192",
          *about_value(0.23, True)),
    Claim("source 001, 4.1 (30 games)", "final weights, depth 5: 37% reach 8192",
          about("classic4", _FINAL, name="expectimax", depth=5), "reach_8192",
          *about_value(0.37, True)),
    Claim("source 003, 五", "greedy with CEM-tuned weights, 800 moves: max tile 1024-2048",
          about("cem8", "tuned:cem", 800, name="greedy"), "max_tile_median", 1024, 2048),
    Claim("source 000, 五",
          "switching along the front: +15-30% survival moves vs its balanced point",
          about("nsga4", "front:nsga2", name="switching", depth=2), "moves_gain_vs_balanced",
          0.15, 0.30),
)  # fmt: skip


@dataclass(frozen=True)
class Question:
    """Does the benchmark row that plays `row` score more than the one that plays `versus`
    (paired, same seeds)?"""

    source: str
    text: str
    row: Row
    versus: Row


_TUNED_NNEONNEO = "nneonneo's shipped constants vs its heuristic tuned by {} (3 plies)"
_D3 = {"name": "expectimax", "depth": 3}
_D2 = {"name": "expectimax", "depth": 2}
QUESTIONS: tuple[Question, ...] = (
    *(Question("nneonneo/2048-ai", _TUNED_NNEONNEO.format(label),
               about("nneonneo", f"tuned:nneonneo-{run}", **_D3), about("nneonneo", **_D3))
      for run, label in (("cmaes", "CMA-ES"), ("cem", "noisy CEM"), ("nsga2", "NSGA-II"))),
    Question("source 003, 八", "noisy CEM vs source 003's CEM at equal games (cem8, depth 2)",
             about("cem8", "tuned:cem-noisy", **_D2), about("cem8", "tuned:cem", **_D2)),
    Question("source 003, 八", "CMA-ES vs source 003's CEM at equal games (cem8, depth 2)",
             about("cem8", "tuned:cmaes", **_D2), about("cem8", "tuned:cem", **_D2)),
)  # fmt: skip


GAME_METRICS = ("max_tile_median",)  # claims measured on the games, not the benchmark table


def game_entries(entries: list[dict]) -> set[str]:
    """The benchmark entries whose games the claims table reads: those the questions compare
    and those of claims about a statistic of the games (`GAME_METRICS`)."""
    rows = [row for q in QUESTIONS for row in (q.row, q.versus)]
    rows += [c.row for c in CLAIMS if c.metric in GAME_METRICS]
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


def question_rows(
    entries: list[dict], games: dict[str, pd.DataFrame], timed: set[str]
) -> list[tuple]:
    """The claims table's rows of every question: the paired score difference of its two rows
    on their common seeds with its 95% interval, and which side is higher by the t-test's
    p-value Holm-corrected over the questions answered (not comparable where a row is
    missing)."""
    answered, rows = [], []
    for q in QUESTIONS:
        entry, versus = find_entry(entries, q.row), find_entry(entries, q.versus)
        if entry is None or versus is None or entry not in games or versus not in games:
            missing = (
                f"no benchmark row plays {q.row if entry is None else q.versus}"
                if entry is None or versus is None
                else f"the study has no games of {entry!r} or {versus!r}"
            )
            band = f"question: {q.row} - {q.versus}"
            rows.append([q.source, q.text, band, "", "not comparable", missing, False])
            continue
        a, b = common_games(games, entry, versus)
        d = paired_difference(a["score"], b["score"])
        measured = f"{number(d['mean'])} [{number(d['low'])}, {number(d['high'])}]"
        answered.append((len(rows), d, entry, len(a)))
        is_timed = bool({entry, versus} & timed)
        band = f"question: {entry} - {versus}"
        rows.append([q.source, q.text, band, measured, "", "", is_timed])
    adjusted = holm([d["t_pvalue"] for _, d, _, _ in answered]) if answered else []
    for (i, d, entry, n), p in zip(answered, adjusted, strict=True):
        side = "no clear difference" if not p < ALPHA else "higher" if d["mean"] > 0 else "lower"
        rows[i][4] = f"{entry} {side}"
        rows[i][5] = f"paired over {n} games; Holm p = {p:.2g}"
    return [tuple(row) for row in rows]


def verdict(low: float, high: float, claim: Claim) -> str:
    """held when the measured interval [low, high] lies inside the claim's tolerance band, did
    not hold when it lies wholly outside, inconclusive when it straddles an edge."""
    if claim.low <= low and high <= claim.high:
        return "held"
    if high < claim.low or low > claim.high:
        return "did not hold"
    return "inconclusive"


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


COLUMNS = ["source", "claim", "tolerance band", "measured (95% CI)", "verdict", "note", "timed"]


def claims_table(
    table: pd.DataFrame,
    entries: list[dict],
    extra: dict[tuple[str, str], tuple] | None = None,
    games: dict[str, pd.DataFrame] | None = None,
) -> pd.DataFrame:
    """Every claim beside its tolerance band, the measured value and its verdict (`RULE`), then
    every question answered from the benchmark rows' `games`. Each claim's row is the benchmark
    entry (of the config's `entries`) that plays what the claim is about; an entry's `note`
    marks it played with settings other than the claim's, so not comparable; `timed` marks
    claims measured on games under a time budget (reproducible only up to timing)."""
    notes = {e["name"]: e["note"] for e in entries if e.get("note")}
    timed = set(table.name[table.timed])
    rows = []
    for claim in CLAIMS:
        band = (
            number(claim.low)
            if claim.low == claim.high
            else f"{number(claim.low)} to {number(claim.high)}"
        )
        entry = find_entry(entries, claim.row)
        measured = None if entry is None else measured_interval(table, entry, claim.metric, extra)
        if measured is None:
            missing = f"the study has no {claim.metric} of {claim.row}"
            rows.append((claim.source, claim.text, band, "", "not comparable", missing, False))
            continue
        result = verdict(*measured[1:], claim)
        note = notes.get(entry, "")
        if note:
            result = "not comparable"
        rows.append((claim.source, claim.text, band, _measured(*measured), result, note,
                     entry in timed))  # fmt: skip
    rows += question_rows(entries, games or {}, timed)
    return pd.DataFrame(rows, columns=COLUMNS)


def rule() -> str:
    """How the claims table's verdicts are read, for its page."""
    return RULE.format(questions=len(QUESTIONS))


def claims_page(claims: pd.DataFrame, title: str, footer: str) -> str:
    """The claims table as a Markdown page: its title, the rule of its verdicts, the table and
    `footer`."""
    return f"# {title}\n\n{rule()}\n\n{claims.to_markdown(index=False)}\n\n{footer}\n"


def switching_gains(
    pairs: list[tuple[str, str]], games: dict[str, pd.DataFrame]
) -> dict[tuple[str, str], tuple]:
    """The measurements beyond the benchmark table that claims name: for each (switching entry,
    balanced twin), the switching entry's relative gain in moves over its twin."""
    return {
        (switching, "moves_gain_vs_balanced"): moves_gain(games[switching], games[balanced])
        for switching, balanced in pairs
    }
