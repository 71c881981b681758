"""The seeds' quantitative claims, set beside what a study measured, with a verdict.

A claim "about V" holds when the measured 95% interval overlaps V +- 25% (a mean) or
V +- 0.10 (a rate); a range claim holds when the interval overlaps the range. A claim is not
comparable when the study has no row for it or its row was played with other settings
(then `note` says which).

Questions are comparisons no source settles with a number (is the tuned heuristic better than
its shipped constants?): the paired score difference of two benchmark rows on their common
seeds, answered by its 95% interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from g2048.report.stats import paired_difference
from g2048.report.tables import common_games, moves_gain

REL_TOLERANCE = 0.25
RATE_TOLERANCE = 0.10


@dataclass(frozen=True)
class Claim:
    """One number a seed states: `metric` of benchmark row `entry` is about `value` (or in
    [low, high])."""

    source: str
    text: str
    entry: str
    metric: str  # a column of the benchmark table, e.g. score_mean or reach_2048
    low: float
    high: float


def _about(value: float, rate: bool) -> tuple[float, float]:
    if rate:
        return max(0.0, value - RATE_TOLERANCE), min(1.0, value + RATE_TOLERANCE)
    return value * (1 - REL_TOLERANCE), value * (1 + REL_TOLERANCE)


def _seed004(entry: str, label: str, score: float, reach: float) -> list[Claim]:
    src = "seed 004, table 5.3 (1000 games)"
    return [
        Claim(src, f"{label}: mean score ~{score:,.0f}", entry, "score_mean",
              *_about(score, False)),
        Claim(src, f"{label}: reaches 2048 in ~{reach:.0%}", entry, "reach_2048",
              *_about(reach, True)),
    ]  # fmt: skip


CLAIMS: tuple[Claim, ...] = (
    *_seed004("random", "random", 1200, 0.0),
    *_seed004("greedy", "greedy (1 ply)", 5000, 0.05),
    *_seed004("expectimax-d3", "expectimax depth 3", 18000, 0.40),
    *_seed004("expectimax-d5", "expectimax depth 5", 35000, 0.70),
    *_seed004("mc-100", "Monte Carlo 100 rollouts", 12000, 0.20),
    *_seed004("mc-1000", "Monte Carlo 1000 rollouts", 25000, 0.55),
    *_seed004("hybrid-d3-r50", "hybrid depth 3 + 50 rollouts", 30000, 0.60),
    *_seed004("hybrid-d4-r100", "hybrid depth 4 + 100 rollouts", 45000, 0.80),
    Claim("seed 001, 4.1 (50 games)", "weights 1/1/0.1/0 at depth 4: 0 of 50 reach 8192",
          "classic4-d4-a", "reach_8192", 0.0, 0.0 + RATE_TOLERANCE),
    Claim("seed 001, 4.1 (50 games)", "weights 2.7/1/0.1/2 at depth 4: 11 of 50 reach 8192",
          "classic4-d4-b", "reach_8192", *_about(11 / 50, True)),
    Claim("seed 001, 4.1 (50 games)", "weights 4/1/0.3/1 at depth 4: 2 of 50 reach 8192",
          "classic4-d4-c", "reach_8192", *_about(2 / 50, True)),
    Claim("seed 001, 4.1 (30 games)", "final weights, depth 3: 72% reach 4096",
          "classic4-d3", "reach_4096", *_about(0.72, True)),
    Claim("seed 001, 4.1 (30 games)", "final weights, depth 4: 100% reach 4096, 23% 8192",
          "classic4-d4-b", "reach_4096", 1.0 - RATE_TOLERANCE, 1.0),
    Claim("seed 001, 4.1 (30 games)", "final weights, depth 5: 37% reach 8192",
          "classic4-d5", "reach_8192", *_about(0.37, True)),
    Claim("seed 003, 五", "greedy with CEM-tuned weights, 800 moves: max tile 1024-2048",
          "cem-greedy-800", "max_tile_median", 1024, 2048),
    Claim("seed 000, 五", "switching along the front: +15-30% survival moves vs its balanced point",
          "switching-d2", "moves_gain_vs_balanced", 0.15, 0.30),
)  # fmt: skip


@dataclass(frozen=True)
class Question:
    """Does benchmark row `entry` score more than row `versus` (paired, same seeds)?"""

    source: str
    text: str
    entry: str
    versus: str


_TUNED_NNEONNEO = "nneonneo's shipped constants vs its heuristic tuned by {} (3 plies)"
QUESTIONS: tuple[Question, ...] = (
    *(Question("nneonneo/2048-ai", _TUNED_NNEONNEO.format(label), f"nneonneo-{run}-d3",
               "nneonneo-d3") for run, label in
      (("cmaes", "CMA-ES"), ("cem", "noisy CEM"), ("nsga2", "NSGA-II"))),
    Question("seed 003, 八", "noisy CEM vs seed 003's CEM at equal games (cem8, depth 2)",
             "cem-noisy-d2", "cem-d2"),
    Question("seed 003, 八", "CMA-ES vs seed 003's CEM at equal games (cem8, depth 2)",
             "cmaes-d2", "cem-d2"),
)  # fmt: skip


def answer(games: dict[str, pd.DataFrame], q: Question) -> tuple[str, str, int]:
    """(the paired score difference with its 95% interval, the answer, games compared) of a
    question's two rows, over the seeds both played."""
    a, b = common_games(games, q.entry, q.versus)
    n = len(a)
    d = paired_difference(a["score"], b["score"])
    text = f"{_number(d['mean'])} [{_number(d['low'])}, {_number(d['high'])}]"
    if d["low"] > 0:
        return text, "higher", n
    if d["high"] < 0:
        return text, "lower", n
    return text, "no clear difference", n


def question_rows(games: dict[str, pd.DataFrame], timed: set[str]) -> list[tuple]:
    """The claims table's rows of every question (not comparable where a row is missing)."""
    rows = []
    for q in QUESTIONS:
        claimed = f"question: {q.entry} - {q.versus}"
        if q.entry not in games or q.versus not in games:
            missing = f"the study has no {q.entry!r} or no {q.versus!r}"
            rows.append((q.source, q.text, claimed, "", "not comparable", missing, False))
            continue
        measured, result, n = answer(games, q)
        note = f"paired score difference over {n} games"
        is_timed = bool({q.entry, q.versus} & timed)
        rows.append((q.source, q.text, claimed, measured, f"{q.entry} {result}", note, is_timed))
    return rows


def verdict(low: float, high: float, claim: Claim) -> str:
    """held when the measured interval [low, high] overlaps the claimed one."""
    return "held" if low <= claim.high and high >= claim.low else "did not hold"


def measured_interval(
    table: pd.DataFrame, claim: Claim, extra: dict[tuple[str, str], tuple] | None = None
) -> tuple[float, float, float] | None:
    """(estimate, low, high) of a claim's metric: from `extra` (keyed by (entry, metric)) or
    the benchmark table's row and its interval columns; None if the study lacks it."""
    if extra and (claim.entry, claim.metric) in extra:
        return extra[(claim.entry, claim.metric)]
    rows = table[table["name"] == claim.entry]
    if rows.empty or claim.metric not in rows.columns:
        return None
    row = rows.iloc[0]
    stem = "score" if claim.metric == "score_mean" else claim.metric
    estimate = float(row[claim.metric])
    return (
        estimate,
        float(row.get(f"{stem}_low", estimate)),
        float(row.get(f"{stem}_high", estimate)),
    )


def _number(x: float) -> str:
    """Scores as whole numbers with thousands separators, rates to three significant digits."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def claims_table(
    table: pd.DataFrame,
    extra: dict[tuple[str, str], tuple] | None = None,
    notes: dict[str, str] | None = None,
    games: dict[str, pd.DataFrame] | None = None,
) -> pd.DataFrame:
    """Every claim beside the measured value and its verdict, then every question answered
    from the benchmark rows' `games`; `notes` (by entry) mark rows played with settings other
    than the claim's as not comparable; `timed` marks claims measured on games under a time
    budget (reproducible only up to timing)."""
    notes = notes or {}
    timed = set(table.name[table.timed])
    rows = []
    for claim in CLAIMS:
        claimed = (
            _number(claim.low)
            if claim.low == claim.high
            else f"{_number(claim.low)} to {_number(claim.high)}"
        )
        measured = measured_interval(table, claim, extra)
        if measured is None:
            missing = f"the study has no {claim.metric} for {claim.entry!r}"
            rows.append((claim.source, claim.text, claimed, "", "not comparable", missing, False))
            continue
        estimate, low, high = measured
        result = verdict(low, high, claim)
        note = notes.get(claim.entry, "")
        if note:
            result = "not comparable"
        measured_text = f"{_number(estimate)} [{_number(low)}, {_number(high)}]"
        rows.append((claim.source, claim.text, claimed, measured_text, result, note,
                     claim.entry in timed))  # fmt: skip
    rows += question_rows(games or {}, timed)
    return pd.DataFrame(rows, columns=["source", "claim", "claimed", "measured (95% CI)",
                                       "verdict", "note", "timed"])  # fmt: skip


def switching_gains(
    pairs: list[tuple[str, str]], games: dict[str, pd.DataFrame]
) -> dict[tuple[str, str], tuple]:
    """The measurements beyond the benchmark table that claims name: for each (switching entry,
    balanced twin), the switching entry's relative gain in moves over its twin."""
    return {
        (switching, "moves_gain_vs_balanced"): moves_gain(games[switching], games[balanced])
        for switching, balanced in pairs
    }
