"""Board evaluators: value = weights . features(board), reaching numba as (kind, weights, table).

Each evaluator is a module with NAME, FEATURES, DEFAULT_WEIGHTS, BOUNDS (the tuning box),
`features(board) -> array` (Python level, for tests and reports), the njit
`value(board, weights, table)`, equal to weights . features(board), and optionally
`prepare(weights) -> table`, precomputed data for a fast `value` such as a 65536-entry row table
(by default `lines.no_table`). `evaluate` gives every
dead board (no legal move) DEAD_VALUE, below the value of any live board.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np
from numba import njit

from g2048.engine.bitboard import is_game_over
from g2048.evaluators import cem8, classic4, nneonneo, nsga4, ovolve
from g2048.evaluators.lines import no_table

# The kind of an evaluator is its index here.
MODULES: tuple[ModuleType, ...] = (nneonneo, nsga4, classic4, cem8, ovolve)

DEAD_VALUE = -1e12  # live values stay far inside +-1e12 for weights within BOUNDS (tested)


@njit(cache=True)
def evaluate(
    kind: int, board: np.uint64, weights: np.ndarray, table: np.ndarray, live: bool = False
) -> float:
    """The value of `board` under evaluator `kind`; DEAD_VALUE when no move is left.

    live=True skips the dead-board test, for a caller that knows the board has an empty cell
    (a board just moved, before its spawn). Each evaluator's `value` is inlined here; the
    search compiles this function into one place (expectimax._chance_sum, where most leaves
    are) and calls it elsewhere, rather than inlining five evaluators at every leaf, which
    would make numba compile for many minutes.
    """
    if not live and is_game_over(board):
        return DEAD_VALUE
    if kind == 0:
        return nneonneo.value(board, weights, table)
    if kind == 1:
        return nsga4.value(board, weights, table)
    if kind == 2:
        return classic4.value(board, weights, table)
    if kind == 3:
        return cem8.value(board, weights, table)
    return ovolve.value(board, weights, table)


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


EVALUATORS: dict[str, Evaluator] = {
    m.NAME: Evaluator(
        name=m.NAME,
        kind=kind,
        features=tuple(m.FEATURES),
        default_weights=np.array(m.DEFAULT_WEIGHTS, dtype=np.float64),
        bounds=np.array(m.BOUNDS, dtype=np.float64),
    )
    for kind, m in enumerate(MODULES)
}


def get_evaluator(name: str) -> Evaluator:
    """The evaluator called `name`; ValueError listing the known names otherwise."""
    try:
        return EVALUATORS[name]
    except KeyError:
        raise ValueError(
            f"unknown evaluator {name!r}; known: {', '.join(sorted(EVALUATORS))}"
        ) from None


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


def prepare(name: str, weights: object = None) -> tuple[int, np.ndarray, np.ndarray]:
    """(kind, weights, table): what the numba agents take for this evaluator."""
    ev = get_evaluator(name)
    w = check_weights(name, weights)
    table = getattr(ev.module, "prepare", no_table)(w)
    return ev.kind, w, np.ascontiguousarray(table, dtype=np.float64)


def features(name: str, board: int) -> np.ndarray:
    """The feature vector of a board."""
    return np.asarray(get_evaluator(name).module.features(int(board)), dtype=np.float64)


def value(name: str, board: int, weights: object = None) -> float:
    """The value of a board (DEAD_VALUE for a dead board)."""
    fn, w, table = prepare(name, weights)
    return float(evaluate(fn, np.uint64(board), w, table))
