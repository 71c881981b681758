"""Generic black-box optimisers (NSGA-II, the cross-entropy method, CMA-ES); they know nothing
about 2048."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike


def checked_scores(evaluate: Callable[[np.ndarray], ArrayLike], X: np.ndarray) -> np.ndarray:
    """``evaluate`` called on a copy of the (n, d) candidates X: its (n,) scores, checked to be
    of that shape and finite (the single-objective tuners' contract)."""
    f = np.array(evaluate(X.copy()), dtype=float)
    if f.shape != (len(X),):
        raise ValueError(f"evaluate must return shape ({len(X)},), got {f.shape}")
    if not np.all(np.isfinite(f)):
        raise ValueError("evaluate returned non-finite values")
    return f


def check_bounds(
    lower: ArrayLike | None, upper: ArrayLike | None, mean: np.ndarray
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Optional lower and upper bounds as float arrays shaped like ``mean``, lower < upper."""
    bounds = []
    for bound, name in ((lower, "lower"), (upper, "upper")):
        arr = None if bound is None else np.array(bound, dtype=float)
        if arr is not None and arr.shape != mean.shape:
            raise ValueError(f"{name} must have shape {mean.shape}, got {arr.shape}")
        bounds.append(arr)
    if bounds[0] is not None and bounds[1] is not None and not np.all(bounds[0] < bounds[1]):
        raise ValueError("lower must be strictly less than upper in every coordinate")
    return bounds[0], bounds[1]
