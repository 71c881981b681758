"""Picking weight vectors out of tuning results: the balanced point of a Pareto front and the
extreme points the switching agent uses."""

from __future__ import annotations

import numpy as np

from g2048.evaluators import get_evaluator


def select_balanced(F: np.ndarray) -> int:
    """Index of the front point closest (Euclidean) to the ideal point, all objectives maximised
    and each scaled to [0, 1] over the front, so that no objective's units dominate.

    Source 000 takes the middle of the front as it happens to be stored, which depends on sort
    order; the point nearest the ideal is a standard, order-free compromise.
    """
    F = np.asarray(F, dtype=np.float64)
    low, high = F.min(axis=0), F.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    distance = np.linalg.norm((high - F) / span, axis=1)
    return int(np.argmin(distance))


def feature_index(evaluator: str, word: str) -> int:
    """Index of the evaluator's feature whose name contains `word` (e.g. "empty", "corner")."""
    names = get_evaluator(evaluator).features
    for i, name in enumerate(names):
        if word in name:
            return i
    raise ValueError(f"evaluator {evaluator!r} has no feature like {word!r}: {names}")


SWITCHING_FEATURES = ("empty", "corner")  # what the switching agent's extra rows stress


def can_switch(evaluator: str) -> bool:
    """Whether a front of the evaluator's weights yields switching rows: it has an empty-cells
    and a corner feature (nsga4 does; nneonneo's heuristic, say, has no corner feature)."""
    names = get_evaluator(evaluator).features
    return all(any(word in name for name in names) for word in SWITCHING_FEATURES)


def switching_rows(evaluator: str, X: np.ndarray, F: np.ndarray) -> np.ndarray:
    """The switching agent's three weight rows from a front: balanced, empty-heavy (largest
    weight on the empty-cells feature), corner-heavy (largest on the corner feature), as seed
    000's pickWeights does."""
    X = np.asarray(X, dtype=np.float64)
    empty = int(np.argmax(X[:, feature_index(evaluator, "empty")]))
    corner = int(np.argmax(X[:, feature_index(evaluator, "corner")]))
    return X[[select_balanced(F), empty, corner]]
