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
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048.tuning import BestSoFar, check_bounds
from g2048.tuning.loop import run_tuner


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
    """The cross-entropy method as an ask-and-tell tuner (see `run` for its settings)."""

    def __init__(
        self,
        mean: ArrayLike,
        std: ArrayLike,
        *,
        population: int = 30,
        elite_frac: float = 0.2,
        smoothing: float = 0.7,
        std_floor: float = 1e-3,
        noise: tuple[float, float] | None = None,
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
        super().__init__(mean, maximize)
        self.lower, self.upper = check_bounds(lower, upper, mean)
        self.mean, self.std = mean, std
        self.population = population
        self.n_elite = elite_count(population, elite_frac)
        self.smoothing, self.std_floor, self.noise = smoothing, std_floor, noise
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


def run(
    evaluate: Callable[[np.ndarray], ArrayLike],
    mean: ArrayLike,
    std: ArrayLike,
    *,
    iterations: int,
    **settings: Any,
) -> CEMResult:
    """Run the cross-entropy method (`CEM`) for `iterations` iterations in the shared loop;
    ``evaluate`` maps (n, d) candidates to (n,) scores.

    Settings: CEM's (population (30), elite_frac (0.2), smoothing (0.7), std_floor (1e-3),
    noise, seed, maximize (True), lower, upper) and the loop's (callback, checkpoint, key,
    resumed: see `loop.optimise`). Samples are clipped to [lower, upper] where given (either
    bound may be omitted). The elites are the best max(2, round(elite_frac * population))
    samples; mean and std move to the elites' by ``new = smoothing * elite + (1 - smoothing)
    * old``; with ``noise = (a, b)`` each variance then gains max(a - t / b, 0) at iteration t
    (0-based); then std is raised to ``std_floor``. All randomness comes from
    ``numpy.random.default_rng(seed)``.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations}")
    return run_tuner(CEM, evaluate, iterations, {"mean": mean, "std": std, **settings})
