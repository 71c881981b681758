"""Cross-entropy method with a diagonal Gaussian, for noisy single-objective black-box tuning.

Each iteration samples candidates from N(mean, diag(std^2)), keeps the best ``elite_frac`` of
them and moves the mean and standard deviation towards the elites' with exponential smoothing
(Rubinstein & Kroese, "The Cross-Entropy Method", 2004; smoothed updates as in Szita & Lorincz,
"Learning Tetris using the noisy cross-entropy method", 2006). A floor on the standard deviation
keeps the search from collapsing prematurely; so, better, does Szita & Lorincz's noise: extra
variance Z_t = max(a - t / b, 0) added to every coordinate's at iteration t (their Tetris run:
a = 5, b = 10), which keeps the distribution wide until the mean has arrived and then vanishes.
Without it the std shrinks by a near-constant factor per iteration and can reach the floor long
before the mean reaches the optimum.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048.tuning import check_bounds, checked_scores


@dataclass(frozen=True)
class CEMResult:
    """Final search distribution, best candidate ever evaluated, and per-iteration history.

    History rows describe iteration i's population (``elite_mean_f``, ``best_f``, ``mean_f``)
    and the distribution after its update (``mean_<k>``, ``std_<k>``); ``evaluations`` counts
    candidates evaluated so far.
    """

    mean: np.ndarray
    std: np.ndarray
    best_x: np.ndarray
    best_f: float
    history: pd.DataFrame
    elite: np.ndarray  # the last iteration's elite samples, best first


def run(
    evaluate: Callable[[np.ndarray], ArrayLike],
    mean: ArrayLike,
    std: ArrayLike,
    *,
    population: int = 30,
    elite_frac: float = 0.2,
    smoothing: float = 0.7,
    std_floor: float = 1e-3,
    noise: tuple[float, float] | None = None,
    iterations: int,
    seed: int,
    maximize: bool = True,
    lower: ArrayLike | None = None,
    upper: ArrayLike | None = None,
    callback: Callable[[int, CEMResult], None] | None = None,
) -> CEMResult:
    """Run the cross-entropy method; ``evaluate`` maps (n, d) candidates to (n,) scores.

    Samples are clipped to [lower, upper] where given (either bound may be omitted). The elites
    are the best max(2, round(elite_frac * population)) samples; mean and std move to the elites'
    by ``new = smoothing * elite + (1 - smoothing) * old``; with ``noise = (a, b)`` each variance
    then gains max(a - t / b, 0) at iteration t (0-based); then std is raised to ``std_floor``.
    ``callback(i, result_so_far)`` is called after iteration i = 0, ..., iterations - 1. All
    randomness comes from ``numpy.random.default_rng(seed)``.
    """
    mean = np.array(mean, dtype=float)
    std = np.array(std, dtype=float)
    if mean.ndim != 1 or mean.size == 0 or std.shape != mean.shape:
        raise ValueError(f"mean and std must be 1-D of equal length, got {mean.shape}, {std.shape}")
    if not np.all(std >= 0):
        raise ValueError("std must be >= 0")
    if population < 2:
        raise ValueError(f"population must be >= 2, got {population}")
    if not 0 < elite_frac <= 1:
        raise ValueError(f"elite_frac must be in (0, 1], got {elite_frac}")
    if not 0 < smoothing <= 1:
        raise ValueError(f"smoothing must be in (0, 1], got {smoothing}")
    if not std_floor >= 0:
        raise ValueError(f"std_floor must be >= 0, got {std_floor}")
    if noise is not None and not (len(noise) == 2 and noise[0] >= 0 and noise[1] > 0):
        raise ValueError(f"noise must be (a >= 0, b > 0), got {noise!r}")
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations}")
    lower, upper = check_bounds(lower, upper, mean)

    n_elite = min(population, max(2, round(elite_frac * population)))
    sign = -1.0 if maximize else 1.0  # internally minimise sign * f
    rng = np.random.default_rng(seed)
    best_x, best_f = mean, np.nan
    elites = np.empty((0, mean.size))
    rows: list[dict[str, float]] = []

    def result() -> CEMResult:
        return CEMResult(
            mean=mean.copy(),
            std=std.copy(),
            best_x=best_x.copy(),
            best_f=best_f,
            history=pd.DataFrame(rows),
            elite=elites.copy(),
        )

    for iteration in range(iterations):
        X = mean + std * rng.standard_normal((population, mean.size))
        if lower is not None or upper is not None:
            X = np.clip(X, lower, upper)
        f = checked_scores(evaluate, X)
        order = np.argsort(sign * f, kind="stable")
        elites = X[order[:n_elite]]
        if not sign * f[order[0]] >= sign * best_f:  # also true while best_f is NaN
            best_x, best_f = X[order[0]], float(f[order[0]])
        mean = smoothing * elites.mean(axis=0) + (1 - smoothing) * mean
        std = smoothing * elites.std(axis=0) + (1 - smoothing) * std
        if noise is not None:
            std = np.sqrt(std**2 + max(noise[0] - iteration / noise[1], 0.0))
        std = np.maximum(std, std_floor)
        rows.append(
            {
                "iteration": iteration,
                "evaluations": population * (iteration + 1),
                "elite_mean_f": float(f[order[:n_elite]].mean()),
                "best_f": float(f[order[0]]),
                "mean_f": float(f.mean()),
                **{f"mean_{k}": v for k, v in enumerate(mean)},
                **{f"std_{k}": v for k, v in enumerate(std)},
            }
        )
        if callback is not None:
            callback(iteration, result())
    return result()
