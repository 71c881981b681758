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

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048.settings import setting
from g2048.tuning import BestSoFar, check_bounds
from g2048.tuning.loop import POPULATION, IterationsConfig


@dataclass(frozen=True, kw_only=True)
class CEMConfig(IterationsConfig):
    """The cross-entropy method's settings, each declared once (`g2048.settings.setting`):
    the study's schema for a cem run and the checks of `CEM` are written from them."""

    population: int = setting(30, **POPULATION)
    elite_frac: float = setting(
        0.2,
        description="the share of an iteration's samples kept as elites (at least 2 of them)",
        type="number",
        exclusiveMinimum=0,
        maximum=1,
    )
    smoothing: float = setting(
        0.7,
        description="how far mean and std move to the elites' each iteration (1 = all the way)",
        type="number",
        exclusiveMinimum=0,
        maximum=1,
    )
    std_floor: float = setting(
        1e-3, description="the least std of every coordinate", type="number", minimum=0
    )
    noise: tuple[float, float] | None = setting(
        None,
        description="Szita & Lorincz's extra variance max(a - t / b, 0) at iteration t, as "
        "[a, b] (none: source 003's CEM)",
        type="array",
        items={"type": "number", "exclusiveMinimum": 0},
        minItems=2,
        maxItems=2,
    )


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
    final: np.ndarray  # the last iteration's samples, best first
    final_f: np.ndarray  # their values


def elite_count(population: int, elite_frac: float = 0.2) -> int:
    """The elites of an iteration: the best max(2, round(elite_frac * population)) samples."""
    return min(population, max(2, round(elite_frac * population)))


class CEM(BestSoFar):
    """The cross-entropy method as an ask-and-tell tuner (run by `g2048.tuning.loop.run_tuner`),
    from a diagonal Gaussian of `mean` and `std`, with `config`'s settings; samples are clipped
    to [lower, upper] where given (either bound may be omitted). The elites are the best
    max(2, round(elite_frac * population)) samples; mean and std move to the elites' by ``new =
    smoothing * elite + (1 - smoothing) * old``; with ``noise = (a, b)`` each variance then
    gains max(a - t / b, 0) at iteration t (0-based); then std is raised to ``std_floor``. All
    randomness comes from ``numpy.random.default_rng(seed)``."""

    config_class = CEMConfig

    def __init__(
        self,
        mean: ArrayLike,
        std: ArrayLike,
        *,
        config: CEMConfig,
        seed: int,
        maximize: bool = True,
        lower: ArrayLike | None = None,
        upper: ArrayLike | None = None,
    ) -> None:
        mean = np.array(mean, dtype=float)
        std = np.array(std, dtype=float)
        if mean.ndim != 1 or mean.size == 0 or std.shape != mean.shape:
            raise ValueError(
                f"mean and std must be 1-D of equal length, got {mean.shape}, {std.shape}"
            )
        if not np.all(std >= 0):
            raise ValueError("std must be >= 0")
        super().__init__(mean, maximize)
        self.lower, self.upper = check_bounds(lower, upper, mean)
        self.mean, self.std = mean, std
        self.population = config.population
        self.n_elite = elite_count(config.population, config.elite_frac)
        self.smoothing, self.std_floor = config.smoothing, config.std_floor
        self.noise = None if config.noise is None else tuple(config.noise)
        self.rng = np.random.default_rng(seed)
        self.elites = np.empty((0, mean.size))
        self.iteration = 0

    def ask(self) -> np.ndarray:
        X = self.mean + self.std * self.rng.standard_normal((self.population, self.mean.size))
        if self.lower is not None or self.upper is not None:
            X = np.clip(X, self.lower, self.upper)
        return X

    def tell(self, X: np.ndarray, f: ArrayLike) -> dict[str, float]:
        f, order = self.ranked(X, f)
        self.elites = self.final[: self.n_elite]
        s = self.smoothing
        self.mean = s * self.elites.mean(axis=0) + (1 - s) * self.mean
        std = s * self.elites.std(axis=0) + (1 - s) * self.std
        if self.noise is not None:
            std = np.sqrt(std**2 + max(self.noise[0] - self.iteration / self.noise[1], 0.0))
        self.std = np.maximum(std, self.std_floor)
        self.iteration += 1
        return {
            "elite_mean_f": float(f[order[: self.n_elite]].mean()),
            "best_f": float(f[order[0]]),
            "mean_f": float(f.mean()),
            **{f"mean_{k}": v for k, v in enumerate(self.mean)},
            **{f"std_{k}": v for k, v in enumerate(self.std)},
        }

    def incumbent(self) -> np.ndarray:
        """The distribution's mean: what the method returns (not its best sample)."""
        return self.mean.copy()

    def result(self, history: pd.DataFrame) -> CEMResult:
        return CEMResult(
            mean=self.mean.copy(),
            std=self.std.copy(),
            best_x=self.best_x.copy(),
            best_f=self.best_f,
            history=history,
            elite=self.elites.copy(),
            final=self.final.copy(),
            final_f=self.final_f.copy(),
        )
