"""The seeds' quantitative claims, set beside what a study measured, with a verdict.

A claim "about V" holds when the measured 95% interval overlaps V +- 25% (a mean) or
V +- 0.10 (a rate); a range claim holds when the interval overlaps the range. A claim's row is
the benchmark entry that plays what the claim is about (`Row`: evaluator, agent settings,
weights, move cap), whatever the entry is called. A claim is not comparable when no entry plays
it or its entry was played with other settings (then its `note` says which).

Questions are comparisons no source settles with a number (is the tuned heuristic better than
its shipped constants?): the paired score difference of two benchmark rows on their common
seeds, answered by its 95% interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from g2048.agents import AgentConfig
from g2048.report.stats import paired_difference
from g2048.report.tables import common_games, moves_gain

REL_TOLERANCE = 0.25
RATE_TOLERANCE = 0.10


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
    """One number a seed states: `metric` of the benchmark row that plays `row` is about
    `value` (or in [low, high])."""

    source: str
    text: str
    row: Row
    metric: str  # a column of the benchmark table, e.g. score_mean or reach_2048
    low: float
    high: float


def _about(value: float, rate: bool) -> tuple[float, float]:
    if rate:
        return max(0.0, value - RATE_TOLERANCE), min(1.0, value + RATE_TOLERANCE)
    return value * (1 - REL_TOLERANCE), value * (1 + REL_TOLERANCE)


def _seed004(row: Row, label: str, score: float, reach: float) -> list[Claim]:
    src = "seed 004, table 5.3 (1000 games)"
    return [
        Claim(src, f"{label}: mean score ~{score:,.0f}", row, "score_mean",
              *_about(score, False)),
        Claim(src, f"{label}: reaches 2048 in ~{reach:.0%}", row, "reach_2048",
              *_about(reach, True)),
    ]  # fmt: skip


_FINAL = (2.7, 1.0, 0.1, 2.0)  # seed 001's final classic4 weights
CLAIMS: tuple[Claim, ...] = (
    *_seed004(about("ovolve", name="random"), "random", 1200, 0.0),
    *_seed004(about("ovolve", name="greedy"), "greedy (1 ply)", 5000, 0.05),
    *_seed004(about("ovolve", name="expectimax", depth=3), "expectimax depth 3", 18000, 0.40),
    *_seed004(about("ovolve", name="expectimax", depth=5), "expectimax depth 5", 35000, 0.70),
    *_seed004(about("ovolve", name="montecarlo", rollouts=100), "Monte Carlo 100 rollouts",
              12000, 0.20),
    *_seed004(about("ovolve", name="montecarlo", rollouts=1000), "Monte Carlo 1000 rollouts",
              25000, 0.55),
    *_seed004(about("ovolve", name="hybrid", depth=3), "hybrid depth 3 + 50 rollouts",
              30000, 0.60),
    *_seed004(about("ovolve", name="hybrid", depth=4), "hybrid depth 4 + 100 rollouts",
              45000, 0.80),
    Claim("seed 001, 4.1 (50 games)", "weights 1/1/0.1/0 at depth 4: 0 of 50 reach 8192",
          about("classic4", (1.0, 1.0, 0.1, 0.0), name="expectimax", depth=4), "reach_8192",
          0.0, 0.0 + RATE_TOLERANCE),
    Claim("seed 001, 4.1 (50 games)", "weights 2.7/1/0.1/2 at depth 4: 11 of 50 reach 8192",
          about("classic4", _FINAL, name="expectimax", depth=4), "reach_8192",
          *_about(11 / 50, True)),
    Claim("seed 001, 4.1 (50 games)", "weights 4/1/0.3/1 at depth 4: 2 of 50 reach 8192",
          about("classic4", (4.0, 1.0, 0.3, 1.0), name="expectimax", depth=4), "reach_8192",
          *_about(2 / 50, True)),
    Claim("seed 001, 4.1 (30 games)", "final weights, depth 3: 72% reach 4096",
          about("classic4", _FINAL, name="expectimax", depth=3), "reach_4096",
          *_about(0.72, True)),
    Claim("seed 001, 4.1 (30 games)", "final weights, depth 4: 100% reach 4096, 23% 8192",
          about("classic4", _FINAL, name="expectimax", depth=4), "reach_4096",
          1.0 - RATE_TOLERANCE, 1.0),
    Claim("seed 001, 4.1 (30 games)", "final weights, depth 5: 37% reach 8192",
          about("classic4", _FINAL, name="expectimax", depth=5), "reach_8192",
          *_about(0.37, True)),
    Claim("seed 003, 五", "greedy with CEM-tuned weights, 800 moves: max tile 1024-2048",
          about("cem8", "tuned:cem", 800, name="greedy"), "max_tile_median", 1024, 2048),
    Claim("seed 000, 五", "switching along the front: +15-30% survival moves vs its balanced point",
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
    Question("seed 003, 八", "noisy CEM vs seed 003's CEM at equal games (cem8, depth 2)",
             about("cem8", "tuned:cem-noisy", **_D2), about("cem8", "tuned:cem", **_D2)),
    Question("seed 003, 八", "CMA-ES vs seed 003's CEM at equal games (cem8, depth 2)",
             about("cem8", "tuned:cmaes", **_D2), about("cem8", "tuned:cem", **_D2)),
)  # fmt: skip


def question_entries(entries: list[dict]) -> set[str]:
    """The benchmark entries that the questions compare (their games are read)."""
    found = {find_entry(entries, row) for q in QUESTIONS for row in (q.row, q.versus)}
    return found - {None}


def answer(games: dict[str, pd.DataFrame], entry: str, versus: str) -> tuple[str, str, int]:
    """(the paired score difference with its 95% interval, the answer, games compared) of a
    question's two rows (benchmark entries `entry` and `versus`), over the seeds both played."""
    a, b = common_games(games, entry, versus)
    n = len(a)
    d = paired_difference(a["score"], b["score"])
    text = f"{_number(d['mean'])} [{_number(d['low'])}, {_number(d['high'])}]"
    if d["low"] > 0:
        return text, "higher", n
    if d["high"] < 0:
        return text, "lower", n
    return text, "no clear difference", n


def question_rows(
    entries: list[dict], games: dict[str, pd.DataFrame], timed: set[str]
) -> list[tuple]:
    """The claims table's rows of every question (not comparable where a row is missing)."""
    rows = []
    for q in QUESTIONS:
        entry, versus = find_entry(entries, q.row), find_entry(entries, q.versus)
        if entry is None or versus is None or entry not in games or versus not in games:
            missing = (
                f"no benchmark row plays {q.row if entry is None else q.versus}"
                if entry is None or versus is None
                else f"the study has no games of {entry!r} or {versus!r}"
            )
            claimed = f"question: {q.row} - {q.versus}"
            rows.append((q.source, q.text, claimed, "", "not comparable", missing, False))
            continue
        measured, result, n = answer(games, entry, versus)
        note = f"paired score difference over {n} games"
        is_timed = bool({entry, versus} & timed)
        claimed = f"question: {entry} - {versus}"
        rows.append((q.source, q.text, claimed, measured, f"{entry} {result}", note, is_timed))
    return rows


def verdict(low: float, high: float, claim: Claim) -> str:
    """held when the measured interval [low, high] overlaps the claimed one."""
    return "held" if low <= claim.high and high >= claim.low else "did not hold"


def measured_interval(
    table: pd.DataFrame,
    entry: str,
    metric: str,
    extra: dict[tuple[str, str], tuple] | None = None,
) -> tuple[float, float, float] | None:
    """(estimate, low, high) of `metric` of benchmark entry `entry`: from `extra` (keyed by
    (entry, metric)) or the benchmark table's row and its interval columns; None if the study
    lacks it."""
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


def _number(x: float) -> str:
    """Scores as whole numbers with thousands separators, rates to three significant digits."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def claims_table(
    table: pd.DataFrame,
    entries: list[dict],
    extra: dict[tuple[str, str], tuple] | None = None,
    games: dict[str, pd.DataFrame] | None = None,
) -> pd.DataFrame:
    """Every claim beside the measured value and its verdict, then every question answered
    from the benchmark rows' `games`. Each claim's row is the benchmark entry (of the config's
    `entries`) that plays what the claim is about; an entry's `note` marks it played with
    settings other than the claim's, so not comparable; `timed` marks claims measured on games
    under a time budget (reproducible only up to timing)."""
    notes = {e["name"]: e["note"] for e in entries if e.get("note")}
    timed = set(table.name[table.timed])
    rows = []
    for claim in CLAIMS:
        claimed = (
            _number(claim.low)
            if claim.low == claim.high
            else f"{_number(claim.low)} to {_number(claim.high)}"
        )
        entry = find_entry(entries, claim.row)
        measured = None if entry is None else measured_interval(table, entry, claim.metric, extra)
        if measured is None:
            missing = f"the study has no {claim.metric} of {claim.row}"
            rows.append((claim.source, claim.text, claimed, "", "not comparable", missing, False))
            continue
        estimate, low, high = measured
        result = verdict(low, high, claim)
        note = notes.get(entry, "")
        if note:
            result = "not comparable"
        measured_text = f"{_number(estimate)} [{_number(low)}, {_number(high)}]"
        rows.append((claim.source, claim.text, claimed, measured_text, result, note,
                     entry in timed))  # fmt: skip
    rows += question_rows(entries, games or {}, timed)
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
