"""NSGA-II for box-constrained multi-objective problems, with a population-vectorised objective.

K. Deb, A. Pratap, S. Agarwal and T. Meyarivan, "A fast and elitist multiobjective genetic
algorithm: NSGA-II", IEEE Transactions on Evolutionary Computation 6(2):182-197, 2002.

The variation operators follow Deb's reference C code (nsga2-v1.1): bounded simulated binary
crossover (Deb & Agrawal 1995) and bounded polynomial mutation. Objectives are minimised
internally; objectives the caller maximises are negated on the way in and out. Hypervolumes are
computed by ``moocore.hypervolume`` (minimisation convention, points outside the reference box
contribute nothing).

Duplicates: individuals whose objective vector exactly equals that of an earlier individual are
"duplicates". They get crowding distance 0 (so they lose tournaments against their twin) and are
ranked after every non-duplicate in survival, so they survive only when fewer than ``pop_size``
distinct objective vectors exist. This is the objective-space analogue of pymoo's duplicate
elimination and stops clones of one point (typically an extreme point with infinite crowding
distance) from taking over the first front. Otherwise the algorithm is Deb's, except that an
objective with zero range in a front adds nothing to crowding distances (see crowding_distance).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import moocore
import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048.settings import setting
from g2048.tuning import checked_values
from g2048.tuning.loop import ITERATIONS, TunerConfig

# Deb's code copies a variable unchanged by SBX when the parents differ by less than this.
SBX_EPS = 1e-14


def scalar_pow(base: ArrayLike, exponent: ArrayLike, where: ArrayLike = True) -> np.ndarray:
    """base ** exponent elementwise where `where` holds (NaN elsewhere), by the C library's
    scalar pow (math.pow).

    Not numpy's power ufunc: on CPUs with AVX-512 numpy runs Intel's SVML code there (up to 4 ULP
    from the exact value), elsewhere the C library's pow, so the last bits of the children, and
    with them a run's whole front, would depend on the machine. The C library's pow gives the
    same bits on every CPU (glibc has used one implementation since 2.28).
    """
    b, e = np.broadcast_arrays(np.asarray(base, dtype=float), np.asarray(exponent, dtype=float))
    out = np.full(b.shape, np.nan)
    mask = np.broadcast_to(where, b.shape)
    out[mask] = [math.pow(x, y) for x, y in zip(b[mask].tolist(), e[mask].tolist(), strict=True)]
    return out


@dataclass(frozen=True)
class NSGA2Result:
    """Final population of an NSGA-II run and its per-generation history.

    ``F``, ``ref_point``, ``fronts`` and the ``best_<j>`` history columns are in the caller's
    objective sense (maximised objectives are not negated). ``rank`` and ``crowding`` are the
    values the algorithm assigned in its last survival step (crowding computed within the whole
    merged front, duplicates 0). ``fronts[g]`` holds the first front's objectives at generation g.
    """

    X: np.ndarray
    F: np.ndarray
    rank: np.ndarray
    crowding: np.ndarray
    history: pd.DataFrame
    ref_point: np.ndarray
    fronts: list[np.ndarray]


def dominance_matrix(F: np.ndarray) -> np.ndarray:
    """``D[i, j]`` is True when row i Pareto-dominates row j (minimisation)."""
    a, b = F[:, None, :], F[None, :, :]
    return (a <= b).all(axis=2) & (a < b).any(axis=2)


def non_dominated_sort(F: np.ndarray) -> np.ndarray:
    """Front index of each row (0 = non-dominated), by Deb's fast non-dominated sort."""
    dom = dominance_matrix(F)
    n_dominators = dom.sum(axis=0)
    rank = np.empty(len(F), dtype=np.int64)
    front = np.flatnonzero(n_dominators == 0)
    k = 0
    while front.size:
        rank[front] = k
        n_dominators -= dom[front].sum(axis=0)
        n_dominators[front] = -1  # already ranked: never zero again
        front = np.flatnonzero(n_dominators == 0)
        k += 1
    return rank


def crowding_distance(F: np.ndarray) -> np.ndarray:
    """Crowding distance of the points of one front (Deb et al. 2002, Sec. III-B).

    Per objective, the two boundary points get infinity and each interior point the gap between
    its neighbours divided by the objective's range within the front. An objective with zero range
    contributes nothing (not even infinite boundaries), as in pymoo.
    """
    n, m = F.shape
    if n <= 2:
        return np.full(n, np.inf)
    order = np.argsort(F, axis=0, kind="stable")
    sorted_f = np.take_along_axis(F, order, axis=0)
    span = sorted_f[-1] - sorted_f[0]
    gaps = np.full((n, m), np.inf)
    gaps[1:-1] = sorted_f[2:] - sorted_f[:-2]
    gaps = np.divide(gaps, span, out=np.zeros_like(gaps), where=span > 0)
    per_objective = np.empty_like(gaps)
    np.put_along_axis(per_objective, order, gaps, axis=0)
    return per_objective.sum(axis=1)


def duplicate_mask(F: np.ndarray) -> np.ndarray:
    """True for each row that exactly equals an earlier row."""
    _, first = np.unique(F, axis=0, return_index=True)
    mask = np.ones(len(F), dtype=bool)
    mask[first] = False
    return mask


def rank_and_crowding(F: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Front index, crowding distance and duplicate mask of each row (duplicates get crowding 0)."""
    rank = non_dominated_sort(F)
    dup = duplicate_mask(F)
    crowding = np.zeros(len(F))
    for k in range(rank.max() + 1):
        members = np.flatnonzero((rank == k) & ~dup)
        crowding[members] = crowding_distance(F[members])
    return rank, crowding, dup


def survival(F: np.ndarray, n_survive: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mu + lambda) elitist survival: indices of the survivors, with their rank and crowding.

    Fills by fronts and splits the last front by crowding distance, descending; duplicates come
    after all distinct points.
    """
    rank, crowding, dup = rank_and_crowding(F)
    keep = np.lexsort((-crowding, rank, dup))[:n_survive]
    return keep, rank[keep], crowding[keep]


def binary_tournament(
    rank: np.ndarray, crowding: np.ndarray, n_winners: int, rng: np.random.Generator
) -> np.ndarray:
    """Indices of the winners of crowded-comparison binary tournaments.

    As in Deb's code, contestants are paired off along random permutations of the population, so
    with ``n_winners == len(rank)`` each individual fights exactly twice. Lower rank wins, then
    larger crowding distance, then a fair coin.
    """
    n = len(rank)
    n_perms = -(-2 * n_winners // n)
    contestants = np.concatenate([rng.permutation(n) for _ in range(n_perms)])[: 2 * n_winners]
    a, b = contestants[0::2], contestants[1::2]
    coin = rng.random(n_winners) < 0.5
    tie = rank[a] == rank[b]
    a_wins = (rank[a] < rank[b]) | (
        tie & ((crowding[a] > crowding[b]) | ((crowding[a] == crowding[b]) & coin))
    )
    return np.where(a_wins, a, b)


def sbx_crossover(
    parents1: np.ndarray,
    parents2: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    *,
    eta: float,
    prob: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Bounded simulated binary crossover of paired rows; returns both children of each pair.

    A pair is crossed with probability ``prob``; within a crossed pair each variable is recombined
    with probability 0.5 (unless the parents are closer than ``SBX_EPS``). The spread factor is
    drawn from the distribution truncated to the bounds (Deb's ``realcross``), so children stay in
    [lower, upper]; the two child values are then assigned to the children in random order.
    """
    n, d = parents1.shape
    crossed = (
        (rng.random(n) < prob)[:, None]
        & (rng.random((n, d)) < 0.5)
        & (np.abs(parents1 - parents2) > SBX_EPS)
    )
    y1, y2 = np.minimum(parents1, parents2), np.maximum(parents1, parents2)
    diff = np.where(crossed, y2 - y1, 1.0)
    u = rng.random((n, d))
    power = 1.0 / (eta + 1.0)

    def spread(beta: np.ndarray) -> np.ndarray:  # NaN where not crossed
        alpha = 2.0 - scalar_pow(beta, -(eta + 1.0), crossed)
        inside = u <= 1.0 / alpha
        return np.where(
            inside,
            scalar_pow(u * alpha, power, crossed & inside),
            scalar_pow(1.0 / (2.0 - u * alpha), power, crossed & ~inside),
        )

    low_child = 0.5 * ((y1 + y2) - spread(1.0 + 2.0 * (y1 - lower) / diff) * diff)
    high_child = 0.5 * ((y1 + y2) + spread(1.0 + 2.0 * (upper - y2) / diff) * diff)
    low_child, high_child = np.clip(low_child, lower, upper), np.clip(high_child, lower, upper)
    swap = rng.random((n, d)) < 0.5
    child1 = np.where(crossed, np.where(swap, high_child, low_child), parents1)
    child2 = np.where(crossed, np.where(swap, low_child, high_child), parents2)
    return child1, child2


def polynomial_mutation(
    X: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    *,
    eta: float,
    prob: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """Bounded polynomial mutation (Deb's ``real_mutate_ind``), each variable with prob ``prob``."""
    mutate = rng.random(X.shape) < prob
    span = upper - lower
    delta1, delta2 = (X - lower) / span, (upper - X) / span
    u = rng.random(X.shape)
    p = eta + 1.0
    low, high = mutate & (u <= 0.5), mutate & (u > 0.5)
    left = 2.0 * u + (1.0 - 2.0 * u) * scalar_pow(1.0 - delta1, p, low)
    right = 2.0 * (1.0 - u) + 2.0 * (u - 0.5) * scalar_pow(1.0 - delta2, p, high)
    deltaq = np.where(
        u <= 0.5,
        scalar_pow(left, 1.0 / p, low) - 1.0,
        1.0 - scalar_pow(right, 1.0 / p, high),
    )
    return np.where(mutate, np.clip(X + deltaq * span, lower, upper), X)


@dataclass(frozen=True, kw_only=True)
class NSGA2Config(TunerConfig):
    """NSGA-II's settings, each declared once (`g2048.settings.setting`): the study's schema
    for an nsga2 run and the checks of `NSGA2` are written from them."""

    pop_size: int = setting(
        description="population size (even, 4 to 10 000)",
        type="integer",
        minimum=4,
        maximum=10_000,
        multipleOf=2,
    )
    generations: int = setting(
        **ITERATIONS | {"description": "generations after the initial population (at most 10 000)"}
    )
    crossover_eta: float = setting(
        15.0, description="SBX's distribution index", type="number", minimum=0
    )
    mutation_eta: float = setting(
        20.0, description="polynomial mutation's distribution index", type="number", minimum=0
    )
    crossover_prob: float = setting(
        0.9, description="the probability that a pair of parents is crossed", type="number",
        minimum=0, maximum=1,
    )  # fmt: skip
    mutation_prob: float | None = setting(
        None, description="the probability that a variable mutates (none: 1 / d)",
        type="number", minimum=0, maximum=1,
    )  # fmt: skip

    @property
    def steps(self) -> int:
        """The loop's steps: the initial population, then each generation."""
        return self.generations + 1


class NSGA2:
    """NSGA-II as an ask-and-tell tuner (run by `g2048.tuning.loop.run_tuner`) in the box
    [lower, upper], with `config`'s settings: the first step asks for the initial population,
    each later one for a generation's children; ``evaluate`` maps an (n, d) array of candidates
    to (n, m) objective values. `maximize`: one bool or one per objective. `pick`: the index
    of the incumbent in a first front's (n, m) objectives, recorded in the history each
    generation; default the best on the first objective. ``ref_point`` (caller's sense) fixes
    the hypervolume reference point; by default it is the worst value of each objective in the
    initial population plus 10% of that objective's range there (or, if the range is zero,
    plus 10% of max(|worst|, 1)). ``initial`` optionally gives the (pop_size, d) initial
    population instead of uniform sampling in the box. All randomness comes from
    ``numpy.random.default_rng(seed)``."""

    step_name = "generation"
    config_class = NSGA2Config

    def __init__(
        self,
        lower: ArrayLike,
        upper: ArrayLike,
        *,
        config: NSGA2Config,
        seed: int,
        maximize: bool | Sequence[bool] = False,
        ref_point: ArrayLike | None = None,
        initial: ArrayLike | None = None,
        pick: Callable[[np.ndarray], int] | None = None,
    ) -> None:
        lower = np.asarray(lower, dtype=float)
        upper = np.asarray(upper, dtype=float)
        if lower.ndim != 1 or lower.shape != upper.shape or lower.size == 0:
            raise ValueError("lower and upper must be 1-D arrays of the same non-zero length")
        if not np.all(lower < upper):
            raise ValueError("lower must be strictly less than upper in every coordinate")
        d, pop_size = lower.size, config.pop_size
        mutation_prob = 1.0 / d if config.mutation_prob is None else config.mutation_prob
        if initial is not None:
            initial = np.array(initial, dtype=float)
            if initial.shape != (pop_size, d):
                raise ValueError(f"initial must have shape {(pop_size, d)}, got {initial.shape}")
            if not np.array_equal(np.clip(initial, lower, upper), initial):
                raise ValueError("initial population must lie within [lower, upper]")
        self.lower, self.upper, self.pop_size, self.initial = lower, upper, pop_size, initial
        self.maximize, self.ref_point, self.pick = maximize, ref_point, pick
        self.crossover = {"eta": config.crossover_eta, "prob": config.crossover_prob}
        self.mutation = {"eta": config.mutation_eta, "prob": mutation_prob}
        self.rng = np.random.default_rng(seed)
        self.X = self.F = self.sign = self.ref = None
        self.rank = self.crowding = None
        self.fronts: list[np.ndarray] = []

    def ask(self) -> np.ndarray:
        if self.X is None:
            if self.initial is not None:
                return self.initial.copy()
            span = self.upper - self.lower
            return self.lower + self.rng.random((self.pop_size, self.lower.size)) * span
        winners = binary_tournament(self.rank, self.crowding, self.pop_size, self.rng)
        child1, child2 = sbx_crossover(
            self.X[winners[0::2]],
            self.X[winners[1::2]],
            self.lower,
            self.upper,
            rng=self.rng,
            **self.crossover,
        )
        return polynomial_mutation(
            np.concatenate([child1, child2]), self.lower, self.upper, rng=self.rng, **self.mutation
        )

    def tell(self, X: np.ndarray, f: ArrayLike) -> dict[str, float]:
        if self.X is None:
            F = checked_values(f, len(X), 0)
            self._first(F)
            F = F * self.sign
        else:
            F = checked_values(f, len(X), len(self.sign)) * self.sign
            X, F = np.concatenate([self.X, X]), np.concatenate([self.F, F])
        keep, self.rank, self.crowding = survival(F, self.pop_size)
        self.X, self.F = X[keep], F[keep]
        front = self.F[self.rank == 0]
        self.fronts.append(front * self.sign)
        return {
            "front_size": len(front),
            "hypervolume": moocore.hypervolume(front, ref=self.ref),
            **{f"best_{j}": v for j, v in enumerate(self.F.min(axis=0) * self.sign)},
        }

    def incumbent(self) -> np.ndarray:
        """The first front's member that `pick` chooses from the front's objectives (caller's
        sense, in population order); without `pick`, the best on the first objective."""
        front = np.flatnonzero(self.rank == 0)
        F = self.F[front] * self.sign
        chosen = int(np.argmin(self.F[front, 0])) if self.pick is None else self.pick(F)
        return self.X[front[chosen]].copy()

    def _first(self, F_user: np.ndarray) -> None:
        """The objectives' senses and the hypervolume reference point, from the initial values."""
        n_obj = F_user.shape[1]
        self.sign = _objective_signs(self.maximize, n_obj)
        F = F_user * self.sign
        if self.ref_point is None:
            worst, span = F.max(axis=0), np.ptp(F, axis=0)
            span = np.where(span > 0, span, np.maximum(np.abs(worst), 1.0))
            self.ref = worst + 0.1 * span
        else:
            self.ref = np.asarray(self.ref_point, dtype=float) * self.sign
            if self.ref.shape != (n_obj,):
                raise ValueError(f"ref_point must have {n_obj} entries, got shape {self.ref.shape}")

    def result(self, history: pd.DataFrame) -> NSGA2Result:
        return NSGA2Result(
            X=self.X.copy(),
            F=self.F * self.sign,
            rank=self.rank.copy(),
            crowding=self.crowding.copy(),
            history=history,
            ref_point=self.ref * self.sign,
            fronts=list(self.fronts),
        )


def _objective_signs(maximize: bool | Sequence[bool], n_obj: int) -> np.ndarray:
    """+1 for minimised and -1 for maximised objectives."""
    flags = np.asarray(maximize, dtype=bool)
    if flags.ndim == 0:
        flags = np.full(n_obj, flags)
    if flags.shape != (n_obj,):
        raise ValueError(f"maximize must be a bool or {n_obj} bools, got {maximize!r}")
    return np.where(flags, -1.0, 1.0)
