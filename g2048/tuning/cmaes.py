"""CMA-ES (Hansen & Ostermeier 2001) for noisy single-objective black-box tuning, through the
`cma` package, Hansen's reference implementation: the method that produced nneonneo/2048-ai's
heuristic constants.

`run` has the interface of g2048.tuning.cem.run (an objective mapping (n, d) candidates to (n,)
scores, a start point, bounds, a seed, a callback per iteration) and runs exactly `iterations`
generations, whatever cma's own stopping rules say, so that tuners compare at equal numbers of
games. Every sample comes from numpy.random.default_rng(seed) (cma's `randn` option): numpy's
global generator is neither read nor changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048.tuning import check_bounds, checked_scores


@dataclass(frozen=True)
class CMAResult:
    """Final distribution (mean, step size sigma), best candidate ever evaluated, and history.

    History rows describe iteration i's population (``best_f``, ``mean_f``) and the
    distribution after its update (``sigma``, ``mean_<k>``); ``evaluations`` counts candidates
    evaluated so far. With bounds the mean is cma's ``xfavorite``: the distribution's mean
    mapped into the bounds (its internal mean may lie outside them).
    """

    mean: np.ndarray
    sigma: float
    best_x: np.ndarray
    best_f: float
    history: pd.DataFrame
    elite: np.ndarray  # the last iteration's best mu candidates (cma's parents), best first


def run(
    evaluate: Callable[[np.ndarray], ArrayLike],
    mean: ArrayLike,
    sigma: float,
    *,
    population: int | None = None,
    iterations: int,
    seed: int,
    maximize: bool = True,
    lower: ArrayLike | None = None,
    upper: ArrayLike | None = None,
    callback: Callable[[int, CMAResult], None] | None = None,
) -> CMAResult:
    """Run CMA-ES from `mean` with step size `sigma`; ``evaluate`` maps (n, d) candidates to (n,)
    scores. population: candidates per iteration (None: cma's default, 4 + 3 ln d). Candidates
    stay within [lower, upper] where given (cma's boundary transformation). ``callback(i,
    result_so_far)`` is called after iteration i = 0, ..., iterations - 1."""
    mean = np.array(mean, dtype=float)
    if mean.ndim != 1 or mean.size < 2:
        raise ValueError(f"mean must be 1-D with at least 2 coordinates, got shape {mean.shape}")
    if not sigma > 0:
        raise ValueError(f"sigma must be > 0, got {sigma}")
    if population is not None and population < 2:
        raise ValueError(f"population must be >= 2, got {population}")
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations}")
    bounds = check_bounds(lower, upper, mean)
    rng = np.random.default_rng(seed)
    options = {
        "seed": np.nan,  # cma must not seed numpy's global generator: samples come from rng
        "randn": lambda lam, n: rng.standard_normal((lam, n)),
        "bounds": [None if b is None else list(b) for b in bounds],
        "verbose": -9,
        "verb_log": 0,
        "verb_disp": 0,
    }
    if population is not None:
        options["popsize"] = population
    import cma  # here, not at the top: it imports scipy and matplotlib (1.5 s per pipeline job)

    es = cma.CMAEvolutionStrategy(mean, sigma, options)
    sign = -1.0 if maximize else 1.0  # cma minimises sign * f
    best_x, best_f = mean, np.nan
    elite = np.empty((0, mean.size))
    rows: list[dict[str, float]] = []

    def result() -> CMAResult:
        return CMAResult(
            mean=np.array(es.result.xfavorite, dtype=float),
            sigma=float(es.sigma),
            best_x=np.array(best_x, dtype=float),
            best_f=best_f,
            history=pd.DataFrame(rows),
            elite=elite.copy(),
        )

    for iteration in range(iterations):
        X = np.array(es.ask(), dtype=float)
        f = checked_scores(evaluate, X)
        es.tell(list(X), list(sign * f))
        order = np.argsort(sign * f, kind="stable")
        elite = X[order[: es.sp.weights.mu]]
        top = int(order[0])
        if not sign * f[top] >= sign * best_f:  # also true while best_f is NaN
            best_x, best_f = X[top], float(f[top])
        rows.append(
            {
                "iteration": iteration,
                "evaluations": len(X) * (iteration + 1),
                "best_f": float(f[top]),
                "mean_f": float(f.mean()),
                "sigma": float(es.sigma),
                **{f"mean_{k}": v for k, v in enumerate(es.result.xfavorite)},
            }
        )
        if callback is not None:
            callback(iteration, result())
    return result()
