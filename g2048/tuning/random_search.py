"""Random search: uniform samples of a box, the control every tuner must beat at the same
budget (Bergstra & Bengio, "Random Search for Hyper-Parameter Optimization", JMLR 13, 2012).

Each step samples `population` points uniformly in [lower, upper]; the tuner keeps the best
`keep` points ever told (its archive, best first), whose first is the incumbent.
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
class RandomSearchConfig(IterationsConfig):
    """Random search's settings, each declared once (`g2048.settings.setting`): the study's
    schema for a random run and the checks of `RandomSearch` are written from them."""

    population: int = setting(**POPULATION | {"description": "samples per iteration"})


@dataclass(frozen=True)
class RandomSearchResult:
    """The best point ever evaluated (``best_x``, ``best_f``), the archive of the best ``keep``
    points (``archive``, best first, with their values ``archive_f``) and the history: per
    step, the best and mean value of its samples."""

    best_x: np.ndarray
    best_f: float
    archive: np.ndarray
    archive_f: np.ndarray
    history: pd.DataFrame


class RandomSearch(BestSoFar):
    """Random search as an ask-and-tell tuner (run by `g2048.tuning.loop.run_tuner`) in
    [lower, upper], with `config`'s settings, keeping the best `keep` points ever told; all
    randomness comes from ``numpy.random.default_rng(seed)``."""

    config_class = RandomSearchConfig

    def __init__(
        self,
        lower: ArrayLike,
        upper: ArrayLike,
        *,
        config: RandomSearchConfig,
        keep: int = 1,
        seed: int,
        maximize: bool = True,
    ) -> None:
        lower = np.array(lower, dtype=float)
        if lower.ndim != 1 or lower.size == 0:
            raise ValueError(f"lower must be 1-D and not empty, got shape {lower.shape}")
        self.lower, self.upper = check_bounds(lower, upper, lower)
        if keep < 1:
            raise ValueError(f"keep must be >= 1, got {keep}")
        super().__init__(np.full(lower.size, np.nan), maximize)
        self.population, self.keep = config.population, keep
        self.rng = np.random.default_rng(seed)
        self.archive = np.empty((0, lower.size))
        self.archive_f = np.empty(0)

    def ask(self) -> np.ndarray:
        span = self.upper - self.lower
        return self.lower + self.rng.random((self.population, self.lower.size)) * span

    def tell(self, X: np.ndarray, f: ArrayLike) -> dict[str, float]:
        f, order = self.ranked(X, f)
        X_all = np.concatenate([self.archive, X])
        f_all = np.concatenate([self.archive_f, f])
        best = np.argsort(self.sign * f_all, kind="stable")[: self.keep]  # earlier wins ties
        self.archive, self.archive_f = X_all[best], f_all[best]
        return {"best_f": float(f[order[0]]), "mean_f": float(f.mean())}

    def result(self, history: pd.DataFrame) -> RandomSearchResult:
        return RandomSearchResult(
            best_x=self.best_x.copy(),
            best_f=self.best_f,
            archive=self.archive.copy(),
            archive_f=self.archive_f.copy(),
            history=history,
        )
