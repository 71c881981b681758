"""Generic black-box optimisers (NSGA-II, the cross-entropy method, CMA-ES, random search) as
ask-and-tell tuners run by one loop (`g2048.tuning.loop.run_tuner`), each with a frozen config
class of its settings declared once (`g2048.settings.setting`: `CEMConfig`, `NSGA2Config`,
`CMAESConfig`, `RandomSearchConfig`); they know nothing about 2048."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def checked_values(f: ArrayLike, n: int, n_obj: int | None = None) -> np.ndarray:
    """The values of n candidates as floats, checked to be finite and shaped (n,) (one
    objective, `n_obj` None) or (n, n_obj) (n_obj 0: any number of objectives)."""
    f = np.array(f, dtype=float)
    if n_obj is None and f.shape != (n,):
        raise ValueError(f"evaluate must return shape ({n},), got {f.shape}")
    if n_obj is not None and (f.ndim != 2 or len(f) != n or f.shape[1] == 0):
        raise ValueError(f"evaluate must return shape ({n}, n_obj), got {f.shape}")
    if n_obj and f.shape[1] != n_obj:
        raise ValueError(f"evaluate returned {f.shape[1]} objectives, earlier {n_obj}")
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


class BestSoFar:
    """What the single-objective tuners (CEM, CMA-ES, random search) share: the sense of their
    one objective, the best candidate ever told, with its value (NaN before the first
    step), and the last step's candidates best first (`final`, with their values `final_f`);
    the best candidate is the incumbent unless the tuner says otherwise (CEM and CMA-ES:
    their distribution's mean)."""

    step_name = "iteration"

    def __init__(self, start: np.ndarray, maximize: bool) -> None:
        self.sign = -1.0 if maximize else 1.0  # internally minimise sign * f
        self.best_x, self.best_f = start, np.nan
        self.final, self.final_f = np.empty((0, start.size)), np.empty(0)

    def ranked(self, X: np.ndarray, f: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """The checked values of candidates X and their order, best first; the best so far
        and the last step's candidates (`final`) updated with them."""
        f = checked_values(f, len(X))
        order = np.argsort(self.sign * f, kind="stable")
        self.final, self.final_f = X[order], f[order]
        if not self.sign * f[order[0]] >= self.sign * self.best_f:  # also true while NaN
            self.best_x, self.best_f = X[order[0]], float(f[order[0]])
        return f, order

    def incumbent(self) -> np.ndarray:
        """The point the tuner would return if stopped now: the best candidate told so far
        (by its own, noisy, values)."""
        return np.array(self.best_x, dtype=float)
