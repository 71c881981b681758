"""CMA-ES (Hansen & Ostermeier 2001) for noisy single-objective black-box tuning, through the `cma`
package, Hansen's reference implementation: the method that produced nneonneo/2048-ai's
heuristic constants.

`CMAES` has the interface of g2048.tuning.cem.CEM (an objective mapping (n, d) candidates to
(n,) scores, a start point, bounds, a seed; the loop's callback per iteration) and runs exactly
`iterations` generations, whatever cma's own stopping rules say, so that tuners compare at equal
numbers of games. Every sample comes from numpy.random.default_rng(seed) (cma's `randn` option):
numpy's global generator is neither read nor changed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048.settings import setting
from g2048.tuning import BestSoFar, check_bounds
from g2048.tuning.loop import POPULATION, IterationsConfig


@dataclass(frozen=True, kw_only=True)
class CMAESConfig(IterationsConfig):
    """CMA-ES's settings, each declared once (`g2048.settings.setting`): the study's schema
    for a cmaes run and the checks of `CMAES` are written from them."""

    population: int | None = setting(
        None, **POPULATION | {"description": "candidates per iteration (cma's 4 + 3 ln d)"}
    )


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
    final: np.ndarray  # the last iteration's candidates, best first
    final_f: np.ndarray  # their values


class CMAES(BestSoFar):
    """CMA-ES as an ask-and-tell tuner around cma's own (run by
    `g2048.tuning.loop.run_tuner`), from `mean` with step size `sigma`, with `config`'s
    settings (population: None for cma's default 4 + 3 ln d); lower and upper, within which
    cma's boundary transformation keeps the candidates."""

    config_class = CMAESConfig

    def __init__(
        self,
        mean: ArrayLike,
        sigma: float,
        *,
        config: CMAESConfig,
        seed: int,
        maximize: bool = True,
        lower: ArrayLike | None = None,
        upper: ArrayLike | None = None,
    ) -> None:
        mean = np.array(mean, dtype=float)
        if mean.ndim != 1 or mean.size < 2:
            raise ValueError(
                f"mean must be 1-D with at least 2 coordinates, got shape {mean.shape}"
            )
        if not sigma > 0:
            raise ValueError(f"sigma must be > 0, got {sigma}")
        super().__init__(mean, maximize)
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
        if config.population is not None:
            options["popsize"] = config.population
        import cma  # here, not at the top: it imports scipy and matplotlib (1.5 s a job)

        self.es = cma.CMAEvolutionStrategy(mean, sigma, options)
        self.elite = np.empty((0, mean.size))

    def ask(self) -> np.ndarray:
        return np.array(self.es.ask(), dtype=float)

    def tell(self, X: np.ndarray, f: ArrayLike) -> dict[str, float]:
        f, order = self.ranked(X, f)
        self.es.tell(list(X), list(self.sign * f))
        self.elite = self.final[: self.es.sp.weights.mu]
        return {
            "best_f": float(f[order[0]]),
            "mean_f": float(f.mean()),
            "sigma": float(self.es.sigma),
            **{f"mean_{k}": v for k, v in enumerate(self.es.result.xfavorite)},
        }

    def incumbent(self) -> np.ndarray:
        """The distribution's mean mapped into the bounds (cma's xfavorite), as `result`'s."""
        return np.array(self.es.result.xfavorite, dtype=float)

    def result(self, history: pd.DataFrame) -> CMAResult:
        return CMAResult(
            mean=np.array(self.es.result.xfavorite, dtype=float),
            sigma=float(self.es.sigma),
            best_x=np.array(self.best_x, dtype=float),
            best_f=self.best_f,
            history=history,
            elite=self.elite.copy(),
            final=self.final.copy(),
            final_f=self.final_f.copy(),
        )
