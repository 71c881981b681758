"""Board evaluators, reaching numba as (kind, weights, table).

Two kinds. A heuristic (every module of HEURISTICS) values a board as weights . features(board):
it has NAME, FEATURES, DEFAULT_WEIGHTS, BOUNDS (the tuning box), `features(board) -> array`
(Python level, for tests and reports), the njit `value(board, weights, table)`, and optionally
`prepare(weights) -> table`, precomputed data for a fast `value` such as a 65536-entry row table
(by default `lines.no_table`); `evaluate` gives every dead board DEAD_VALUE, below the value of
any live board. The learned `ntuple` network (AFTERSTATE) estimates the score still to come
after a move, so searches add the rewards along the path (`adds_rewards`), a dead board is worth
0, and a board the player is to move from is worth its best move's reward + value.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
from numba import njit

from g2048.engine.bitboard import is_game_over, shift_scored
from g2048.evaluators import cem8, classic4, nneonneo, nsga4, ntuple, ovolve
from g2048.evaluators.lines import no_table

# The kind of an evaluator is its index here, the one table of kinds: the heuristics come
# first. numba reads the constants below as compile-time constants.
HEURISTICS: tuple[ModuleType, ...] = (nneonneo, nsga4, classic4, cem8, ovolve)
MODULES: tuple[ModuleType, ...] = (*HEURISTICS, ntuple)
NNEONNEO, NSGA4, CLASSIC4, CEM8, OVOLVE, NTUPLE = (
    MODULES.index(m) for m in (nneonneo, nsga4, classic4, cem8, ovolve, ntuple)
)
AFTERSTATE = NTUPLE
# The kind whose value is one row table summed over the board's 8 lines (`sum_lines`), which
# the search values in place at its leaves (g2048.agents.expectimax).
LINE_TABLE = NNEONNEO

DEAD_VALUE = -1e12  # live values stay far inside +-1e12 for weights within BOUNDS (tested)


@njit(cache=True, inline="always")
def adds_rewards(kind: int) -> bool:
    """True for an evaluator whose values exclude the score made on the way to the board."""
    return kind == AFTERSTATE


@njit(cache=True)
def _best_move_value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """An afterstate network's value of a board to move from: max over moves of reward +
    V(after), 0 when no move is left."""
    best = -np.inf
    for d in range(4):
        after, gained = shift_scored(board, d)
        if after != board:
            best = max(best, gained + ntuple.value(after, weights, table))
    return 0.0 if best == -np.inf else best


def check_bounded(name: str) -> None:
    """ValueError unless upper_bound knows a bound of evaluator `name` (Star1 needs one)."""
    if name != nneonneo.NAME:
        raise ValueError(
            f"star needs a bound of the evaluator's values: known for nneonneo, not {name!r}"
        )


def check_downgrade(name: str, downgrade: int) -> None:
    """ValueError unless tile-downgrading (`downgrade` > 0) is off or evaluator `name` is the
    network, the only evaluator it applies to."""
    if downgrade and name != ntuple.NAME:
        raise ValueError(
            f"tile-downgrading is for the {ntuple.NAME!r} evaluator, not {name!r}: "
            "leave downgrade at 0"
        )


def check_rules(name: str, rules: str) -> None:
    """ValueError unless an agent searching by a source's rules (any but "g2048", see
    g2048.agents.sources) values boards by a heuristic, as every source does."""
    if rules != "g2048" and name == ntuple.NAME:
        raise ValueError(
            f"rules {rules!r} value boards as a source's program does, by a heuristic: "
            f"not by the {ntuple.NAME!r} network"
        )


def upper_bound(name: str, tables: np.ndarray) -> float:
    """A bound above the values of evaluator `name` on every board, from its prepared tables
    (one row per weight vector), for Star1 pruning: nneonneo's is 8 x its row table's largest
    entry (a board is valued by its 4 rows and 4 columns), with a margin for the rounding of
    the sum. ValueError (check_bounded) for the evaluators whose bound is not worked out."""
    check_bounded(name)
    bound = 8.0 * float(np.max(tables))
    return bound + 1e-9 * abs(bound) + 1.0


@njit(cache=True)
def evaluate(
    kind: int, board: np.uint64, weights: np.ndarray, table: np.ndarray, after: bool = False
) -> float:
    """The value of `board` under evaluator `kind` (a kind that is no index of MODULES values
    a live board NaN).

    after=True: the board was just moved, before its spawn (so it has an empty cell, and the
    dead-board test is skipped). after=False: the player is to move from it; a heuristic gives
    a dead board DEAD_VALUE, the afterstate network values it by its best move (module
    docstring). Each evaluator's `value` is inlined here; the
    search compiles this function into one place (expectimax._chance_sum, where most leaves
    are) and calls it elsewhere, rather than inlining five evaluators at every leaf, which
    would make numba compile for many minutes.
    """
    if kind == AFTERSTATE:
        if after:
            return ntuple.value(board, weights, table)
        return _best_move_value(board, weights, table)
    if not after and is_game_over(board):
        return DEAD_VALUE
    if kind == NNEONNEO:
        return nneonneo.value(board, weights, table)
    if kind == NSGA4:
        return nsga4.value(board, weights, table)
    if kind == CLASSIC4:
        return classic4.value(board, weights, table)
    if kind == CEM8:
        return cem8.value(board, weights, table)
    if kind == OVOLVE:
        return ovolve.value(board, weights, table)
    return np.nan


@dataclass(frozen=True)
class Evaluator:
    """An evaluator's description, for the Python side."""

    name: str
    kind: int
    features: tuple[str, ...]
    default_weights: np.ndarray
    bounds: np.ndarray  # (d, 2): the box the tuners search

    @property
    def module(self) -> ModuleType:
        return MODULES[self.kind]


# The heuristics, which the weight tuners search.
EVALUATORS: dict[str, Evaluator] = {
    m.NAME: Evaluator(
        name=m.NAME,
        kind=MODULES.index(m),
        features=tuple(m.FEATURES),
        default_weights=np.array(m.DEFAULT_WEIGHTS, dtype=np.float64),
        bounds=np.array(m.BOUNDS, dtype=np.float64),
    )
    for m in HEURISTICS
}
# Every evaluator an agent can play with.
EVALUATOR_NAMES: tuple[str, ...] = (*sorted(EVALUATORS), ntuple.NAME)


def get_evaluator(name: str) -> Evaluator:
    """The heuristic called `name`; ValueError listing the known names otherwise."""
    try:
        return EVALUATORS[name]
    except KeyError:
        if name == ntuple.NAME:
            raise ValueError(
                f"evaluator {name!r} is a learned network, not a weighted heuristic "
                f"(heuristics: {', '.join(sorted(EVALUATORS))})"
            ) from None
        raise ValueError(
            f"unknown evaluator {name!r}; known: {', '.join(EVALUATOR_NAMES)}"
        ) from None


def network(weights: object) -> ntuple.Network:
    """The ntuple evaluator's weights: a Network, or the path of a network file."""
    if isinstance(weights, ntuple.Network):
        return weights
    if isinstance(weights, (str, Path)):
        return ntuple.load_network(weights)
    raise ValueError(
        f"the {ntuple.NAME!r} evaluator takes a network file as its weights, got {weights!r}"
    )


def check_weights(name: str, weights: object = None) -> np.ndarray:
    """The evaluator's weights as a float64 vector (its defaults when None), validated."""
    ev = get_evaluator(name)
    if weights is None:
        return ev.default_weights.copy()
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != ev.default_weights.shape:
        raise ValueError(
            f"evaluator {name!r} takes {len(ev.features)} weights "
            f"({', '.join(ev.features)}), got {w.size}"
        )
    if not np.all(np.isfinite(w)):
        raise ValueError(f"weights must be finite, got {w.tolist()}")
    return w


def prepare(
    name: str, weights: object = None, downgrade: int = 0
) -> tuple[int, np.ndarray, np.ndarray]:
    """(kind, weights, table): what the numba agents take for this evaluator (for ntuple:
    its network, see `network`, tile-downgraded from the tile `downgrade` on; 0 = off, the
    only value for a heuristic)."""
    check_downgrade(name, downgrade)
    if name == ntuple.NAME:
        return AFTERSTATE, *ntuple.prepare(network(weights), downgrade)
    ev = get_evaluator(name)
    w = check_weights(name, weights)
    table = getattr(ev.module, "prepare", no_table)(w)
    return ev.kind, w, np.ascontiguousarray(table, dtype=np.float64)


def features(name: str, board: int) -> np.ndarray:
    """The feature vector of a board."""
    return np.asarray(get_evaluator(name).module.features(int(board)), dtype=np.float64)


def value(name: str, board: int, weights: object = None, after: bool = False) -> float:
    """The value of a board to move from (after=False) or just moved (see `evaluate`)."""
    fn, w, table = prepare(name, weights)
    return float(evaluate(fn, np.uint64(board), w, table, after))
