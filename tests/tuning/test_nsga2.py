"""Tests for the NSGA-II operators and runs on ZDT1, ZDT2 and DTLZ2."""

import itertools

import moocore
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from optproblems import dtlz2, zdt1, zdt2

from g2048.tuning import nsga2
from g2048.tuning.loop import run_tuner


def brute_force_ranks(F: np.ndarray) -> np.ndarray:
    """Front indices by repeatedly peeling off the points no remaining point dominates."""
    n = len(F)

    def dominates(i: int, j: int) -> bool:
        return all(a <= b for a, b in zip(F[i], F[j], strict=True)) and any(
            a < b for a, b in zip(F[i], F[j], strict=True)
        )

    rank = np.full(n, -1)
    remaining = set(range(n))
    k = 0
    while remaining:
        front = {j for j in remaining if not any(dominates(i, j) for i in remaining)}
        rank[list(front)] = k
        remaining -= front
        k += 1
    return rank


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda m: arrays(
            np.float64, st.tuples(st.integers(1, 30), st.just(m)), elements=st.integers(0, 3)
        )
    )
)
def test_non_dominated_sort_matches_brute_force(F: np.ndarray) -> None:
    # Values in {0, ..., 3} make ties and duplicate points common.
    np.testing.assert_array_equal(nsga2.non_dominated_sort(F), brute_force_ranks(F))


def test_crowding_distance_hand_example() -> None:
    F = np.array([[0.0, 10.0], [1.0, 4.0], [3.0, 2.0], [6.0, 0.0]])
    # f1 range 6, f2 range 10. (1, 4): 3/6 + (10 - 2)/10 = 1.3; (3, 2): 5/6 + (4 - 0)/10.
    expected = np.array([np.inf, 1.3, 5 / 6 + 0.4, np.inf])
    perm = np.array([2, 0, 3, 1])
    np.testing.assert_allclose(nsga2.crowding_distance(F[perm]), expected[perm])


def test_crowding_distance_zero_range_and_tiny_fronts() -> None:
    F = np.array([[0.0, 3.0, 7.0], [1.0, 1.0, 7.0], [2.0, 0.0, 7.0]])
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        dist = nsga2.crowding_distance(F)
    # The constant third objective adds nothing; the middle point gets 2/2 + 3/3.
    np.testing.assert_array_equal(dist, [np.inf, 2.0, np.inf])
    assert np.all(nsga2.crowding_distance(F[:2]) == np.inf)
    assert np.all(nsga2.crowding_distance(F[:1]) == np.inf)


def test_duplicates_get_zero_crowding() -> None:
    F = np.array([[0.0, 2.0], [1.0, 1.0], [0.0, 2.0], [2.0, 0.0], [0.0, 2.0]])
    rank, crowding, dup = nsga2.rank_and_crowding(F)
    np.testing.assert_array_equal(rank, 0)
    np.testing.assert_array_equal(dup, [False, False, True, False, True])
    np.testing.assert_array_equal(crowding, [np.inf, 2.0, 0.0, np.inf, 0.0])


def test_survival_fills_by_fronts_and_splits_last_front_by_crowding() -> None:
    front0 = [[0, 3], [1, 2], [2, 1], [3, 0]]
    # Crowding in front 1: boundaries inf, (2, 3.5): 2/3 + 1/3 = 1, (3, 3): 2/3 + 2.5/3 = 1.5.
    front1 = [[1, 4], [2, 3.5], [3, 3], [4, 1]]
    F = np.array(front0 + front1 + [[5, 5]], dtype=float)
    perm = np.random.default_rng(0).permutation(len(F))
    keep, rank, crowding = nsga2.survival(F[perm], 7)
    kept = {tuple(row) for row in F[perm][keep]}
    assert kept == {tuple(row) for row in F[[0, 1, 2, 3, 4, 6, 7]]}
    np.testing.assert_array_equal(rank, [0, 0, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(crowding[4:], [np.inf, np.inf, 1.5])


def test_survival_keeps_one_copy_of_cloned_extreme_point() -> None:
    rng = np.random.default_rng(1)
    f1 = np.sort(rng.random(30))
    front = np.column_stack([f1, 1 - f1])  # 30 distinct non-dominated points
    clones = np.tile([[0.0, 1.0]], (40, 1))  # extreme point, infinite crowding distance
    dominated = front[rng.integers(0, 30, 130)] + rng.random((130, 2)) + 0.01
    F = np.concatenate([clones, front, dominated])
    keep, rank, _ = nsga2.survival(F, 100)
    survivors = F[keep]
    assert len(np.unique(survivors, axis=0)) == 100
    assert (rank == 0).sum() == 31  # one clone plus the 30 front points


@pytest.mark.parametrize("seed", range(5))
def test_binary_tournament_crowded_comparison(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # Each individual fights exactly twice: the unique best wins twice, the unique worst never.
    rank = np.array([1, 0, 1, 2, 1, 1, 1, 1])
    winners = nsga2.binary_tournament(rank, np.zeros(8), 8, rng)
    assert (winners == 1).sum() == 2
    assert (winners == 3).sum() == 0
    crowding = np.array([0.5, 0.1, np.inf, 0.2, 0.3, 0.4, 0.6, 0.7])
    winners = nsga2.binary_tournament(np.zeros(8, dtype=int), crowding, 8, rng)
    assert (winners == 2).sum() == 2
    assert (winners == 1).sum() == 0


def in_bounds(x: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> bool:
    return bool(np.all((lower <= x) & (x <= upper)))


def random_parents(rng: np.random.Generator, n: int = 2000, d: int = 5):
    lower = np.array([-1.0, 0.0, 10.0, -5.0, 0.0])[:d]
    upper = np.array([1.0, 1e-3, 20.0, 5.0, 1.0])[:d]
    p1 = lower + rng.random((n, d)) * (upper - lower)
    p2 = lower + rng.random((n, d)) * (upper - lower)
    p1[: n // 4] = lower  # parents on the bounds
    p2[n // 8 : n // 4] = upper
    return p1, p2, lower, upper


@pytest.mark.parametrize("eta", [0.0, 1.0, 15.0, 100.0])
def test_sbx_children_stay_in_bounds(eta: float) -> None:
    rng = np.random.default_rng(0)
    p1, p2, lower, upper = random_parents(rng)
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        children = nsga2.sbx_crossover(p1, p2, lower, upper, eta=eta, prob=1.0, rng=rng)
    for child in children:
        assert in_bounds(child, lower, upper)
        assert not np.array_equal(child, p1)


def test_sbx_large_eta_children_near_parents() -> None:
    rng = np.random.default_rng(1)
    p1, p2, lower, upper = random_parents(rng)
    for child in nsga2.sbx_crossover(p1, p2, lower, upper, eta=1000.0, prob=1.0, rng=rng):
        nearest = np.minimum(np.abs(child - p1), np.abs(child - p2))
        assert np.all(nearest <= 0.05 * np.abs(p1 - p2))


def sbx_cdf(beta: np.ndarray, eta: float) -> np.ndarray:
    """P(spread factor <= beta) for textbook (unbounded) SBX."""
    beta = np.asarray(beta, dtype=float)
    return np.where(beta <= 1, 0.5 * beta ** (eta + 1), 1 - 0.5 * beta ** -(eta + 1))


@pytest.mark.parametrize("eta", [0.0, 2.0])
@pytest.mark.parametrize(("lower", "upper"), [(-1e9, 1e9), (0.0, 1.0), (0.1, 0.5)])
def test_sbx_spread_factor_follows_truncated_distribution(eta: float, lower, upper) -> None:
    # Parents 0.2 and 0.4 give children 0.3 -/+ 0.1 * beta. In Deb's bounded SBX, the low (high)
    # child's spread factor beta is drawn by inverting the SBX distribution truncated where the
    # child reaches the lower (upper) bound, both from the same uniform u. Recover u both ways.
    n = 100_000
    rng = np.random.default_rng(2)
    p1, p2 = np.full((n, 1), 0.2), np.full((n, 1), 0.4)
    c1, c2 = nsga2.sbx_crossover(p1, p2, lower, upper, eta=eta, prob=1.0, rng=rng)
    crossed = (c1 != p1)[:, 0]
    assert abs(crossed.mean() - 0.5) < 0.01  # each variable recombined with probability 0.5
    low, high = np.minimum(c1, c2)[crossed, 0], np.maximum(c1, c2)[crossed, 0]
    u_low = sbx_cdf((0.3 - low) / 0.1, eta) / sbx_cdf((0.3 - lower) / 0.1, eta)
    u_high = sbx_cdf((high - 0.3) / 0.1, eta) / sbx_cdf((upper - 0.3) / 0.1, eta)
    np.testing.assert_allclose(u_low, u_high, atol=1e-6)
    levels = np.linspace(0.1, 0.9, 9)
    np.testing.assert_allclose(np.quantile(u_low, levels), levels, atol=0.01)


def test_sbx_probability_zero_copies_parents() -> None:
    rng = np.random.default_rng(3)
    p1, p2, lower, upper = random_parents(rng, n=50)
    c1, c2 = nsga2.sbx_crossover(p1, p2, lower, upper, eta=15.0, prob=0.0, rng=rng)
    np.testing.assert_array_equal(c1, p1)
    np.testing.assert_array_equal(c2, p2)


@pytest.mark.parametrize("eta", [0.0, 20.0, 100.0])
def test_polynomial_mutation_in_bounds_and_rate(eta: float) -> None:
    rng = np.random.default_rng(4)
    X, _, lower, upper = random_parents(rng, n=20_000)
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        Y = nsga2.polynomial_mutation(X, lower, upper, eta=eta, prob=0.2, rng=rng)
    assert in_bounds(Y, lower, upper)
    interior = (lower < X) & (upper > X)
    assert abs((Y != X)[interior].mean() - 0.2) < 0.01
    unchanged = nsga2.polynomial_mutation(X, lower, upper, eta=eta, prob=0.0, rng=rng)
    np.testing.assert_array_equal(unchanged, X)


@pytest.mark.parametrize("eta", [0.0, 20.0])
@pytest.mark.parametrize("x", [0.05, 0.3, 0.9])
def test_polynomial_mutation_follows_bounded_distribution(eta: float, x: float) -> None:
    # In Deb's bounded polynomial mutation on [0, 1], x moves by dq with, for p = eta + 1,
    # (1 + dq)^p = 2u + (1 - 2u)(1 - x)^p if u <= 0.5, else (1 - dq)^p = 2(1 - u) + (2u - 1)x^p.
    # Invert for u, which must be uniform.
    rng = np.random.default_rng(6)
    X = np.full((100_000, 1), x)
    dq = (nsga2.polynomial_mutation(X, 0.0, 1.0, eta=eta, prob=1.0, rng=rng) - x)[:, 0]
    p, a, b = eta + 1, (1 - x) ** (eta + 1), x ** (eta + 1)
    u = np.where(
        dq <= 0, ((1 + dq) ** p - a) / (2 * (1 - a)), 1 - ((1 - dq) ** p - b) / (2 * (1 - b))
    )
    levels = np.linspace(0.1, 0.9, 9)
    np.testing.assert_allclose(np.quantile(u, levels), levels, atol=0.01)


def test_polynomial_mutation_small_for_large_eta() -> None:
    rng = np.random.default_rng(5)
    X, _, lower, upper = random_parents(rng)
    Y = nsga2.polynomial_mutation(X, lower, upper, eta=1000.0, prob=1.0, rng=rng)
    assert np.all(np.abs(Y - X) <= 0.02 * (upper - lower))


def test_moocore_hypervolume_hand_example() -> None:
    # Union of [1, 3] x [2, 3] and [2, 3] x [1, 3]: 2 + 2 - 1 = 3; a point outside adds nothing.
    points = np.array([[1.0, 2.0], [2.0, 1.0], [4.0, 0.0]])
    assert moocore.hypervolume(points, ref=[3.0, 3.0]) == pytest.approx(3.0)


# Exact hypervolume of the Pareto fronts w.r.t. (1.1, 1.1): the area between the front and
# f2 = 1.1 over f1 in [0, 1], integral of 0.1 + sqrt(f1) (ZDT1) or 0.1 + f1^2 (ZDT2), plus the
# 0.1 x 1.1 strip for f1 in [1, 1.1].
ZDT_CASES = [(zdt1, 0.1 + 2 / 3 + 0.11), (zdt2, 0.1 + 1 / 3 + 0.11)]


@pytest.mark.parametrize(("problem", "true_hv"), ZDT_CASES)
def test_zdt_front_hypervolume(problem, true_hv: float) -> None:
    dense = np.linspace(0, 1, 100_001)
    sample = problem(np.column_stack([dense, np.zeros((dense.size, 29))]))
    assert moocore.hypervolume(sample, ref=[1.1, 1.1]) == pytest.approx(true_hv, rel=1e-4)

    result = run_tuner(
        nsga2.NSGA2,
        problem,
        np.zeros(30),
        np.ones(30),
        pop_size=100,
        generations=250,
        seed=0,
        ref_point=[1.1, 1.1],
    )
    front = result.F[result.rank == 0]
    hv = moocore.hypervolume(front, ref=[1.1, 1.1])
    assert hv == pytest.approx(result.history["hypervolume"].iloc[-1])
    assert hv >= 0.95 * true_hv


def test_dtlz2_converges_to_unit_sphere() -> None:
    result = run_tuner(
        nsga2.NSGA2, dtlz2, np.zeros(12), np.ones(12), pop_size=100, generations=200, seed=0
    )
    front = result.F[result.rank == 0]
    assert len(front) >= 50
    assert np.abs(np.linalg.norm(front, axis=1) - 1).mean() < 0.05


def test_clones_do_not_take_over_the_front() -> None:
    # Quantised ZDT1 has few distinct objective vectors; started from 100 clones, plain NSGA-II
    # fills its front with copies (measured, seeds 0-2: fronts of 42-98 points, 7-8 distinct).
    def quantised(X: np.ndarray) -> np.ndarray:
        return np.round(zdt1(X), 1)

    initial = np.tile(np.random.default_rng(1).random(30), (100, 1))
    result = run_tuner(
        nsga2.NSGA2,
        quantised,
        np.zeros(30),
        np.ones(30),
        pop_size=100,
        generations=100,
        seed=0,
        initial=initial,
    )
    front = result.F[result.rank == 0]
    assert len(np.unique(front, axis=0)) == len(front) >= 5
    assert len(np.unique(result.F, axis=0)) == 100


def small_run(seed: int, **kwargs) -> nsga2.NSGA2Result:
    kwargs.setdefault("evaluate", zdt1)
    return run_tuner(
        nsga2.NSGA2,
        lower=np.zeros(10),
        upper=np.ones(10),
        pop_size=20,
        generations=15,
        seed=seed,
        **kwargs,
    )


def test_same_seed_same_result_different_seed_differs() -> None:
    a, b, c = small_run(7), small_run(7), small_run(8)
    for field in ("X", "F", "rank", "crowding"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert a.history.equals(b.history)
    assert not np.array_equal(a.X, c.X)


@pytest.mark.parametrize("maximize", [True, [True, True], [False, True]])
def test_maximize_mirrors_minimize(maximize) -> None:
    flip = np.where(np.broadcast_to(maximize, (2,)), -1.0, 1.0)
    base = small_run(3)
    mirrored = small_run(3, evaluate=lambda X: zdt1(X) * flip, maximize=maximize)
    np.testing.assert_array_equal(mirrored.X, base.X)
    np.testing.assert_array_equal(mirrored.F, base.F * flip)
    np.testing.assert_array_equal(mirrored.ref_point, base.ref_point * flip)
    np.testing.assert_array_equal(mirrored.history["best_1"], base.history["best_1"] * flip[1])
    np.testing.assert_array_equal(mirrored.history["hypervolume"], base.history["hypervolume"])


def test_history_callback_and_default_reference_point() -> None:
    initial = np.random.default_rng(0).random((20, 10))
    seen: list[tuple[int, int]] = []
    result = small_run(1, initial=initial, callback=lambda g, r: seen.append((g, len(r.history))))
    assert seen == [(g, g + 1) for g in range(16)]
    h = result.history
    assert list(h.columns) == [
        "generation",
        "evaluations",
        "front_size",
        "hypervolume",
        "best_0",
        "best_1",
        *(f"incumbent_{k}" for k in range(10)),
    ]
    np.testing.assert_array_equal(h["generation"], np.arange(16))
    np.testing.assert_array_equal(h["evaluations"], 20 * np.arange(1, 17))
    np.testing.assert_array_equal(h["front_size"], [len(f) for f in result.fronts])
    np.testing.assert_array_equal(result.fronts[-1], result.F[result.rank == 0])
    # Elitism keeps each objective's best point (an infinite-crowding boundary of front 0).
    assert np.all(np.diff(h[["best_0", "best_1"]].to_numpy(), axis=0) <= 0)
    F0 = zdt1(initial)
    np.testing.assert_allclose(result.ref_point, F0.max(axis=0) + 0.1 * np.ptp(F0, axis=0))
    assert h["hypervolume"].iloc[-1] > h["hypervolume"].iloc[0] > 0
    assert np.isinf(result.crowding[result.rank == 0]).sum() >= 2


BAD_ARGUMENTS = [
    {"pop_size": 5},
    {"pop_size": 2},
    {"upper": np.r_[np.ones(9), 0.0]},
    {"lower": np.zeros(3)},
    {"generations": -1},
    {"crossover_eta": -1.0},
    {"mutation_eta": -0.5},
    {"crossover_prob": 1.5},
    {"mutation_prob": -0.1},
    {"maximize": [True, False, True]},
    {"ref_point": [1.0, 1.0, 1.0]},
    {"initial": np.zeros((20, 9))},
    {"initial": np.full((20, 10), 2.0)},
    {"evaluate": lambda X: zdt1(X)[:, 0]},
    {"evaluate": lambda X: zdt1(X)[:-1]},
    {"evaluate": lambda X: zdt1(X) * np.nan},
]


@pytest.mark.parametrize("bad", BAD_ARGUMENTS)
def test_invalid_arguments_raise(bad: dict) -> None:
    kwargs = {
        "evaluate": zdt1,
        "lower": np.zeros(10),
        "upper": np.ones(10),
        "pop_size": 20,
        "generations": 2,
        "seed": 0,
    } | bad
    with pytest.raises(ValueError):
        run_tuner(nsga2.NSGA2, **kwargs)


def test_objective_count_must_not_change() -> None:
    calls = itertools.count()

    def shifting(X: np.ndarray) -> np.ndarray:
        return zdt1(X) if next(calls) == 0 else np.column_stack([zdt1(X), X[:, 0]])

    with pytest.raises(ValueError, match="objectives"):
        small_run(0, evaluate=shifting)
