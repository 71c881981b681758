"""Tests for CMA-ES (g2048.tuning.cmaes, through the cma package) on the sphere and Rosenbrock
functions, and its interface: seeds, bounds, history, errors."""

import numpy as np
import pytest
from optproblems import rosenbrock, sphere

from g2048.tuning import cmaes
from g2048.tuning.loop import run_tuner


def test_sphere_converges() -> None:
    """The 8-d sphere from 3 with step 2: the CEM setting that stalls (test_cem)."""
    result = run_tuner(
        cmaes.CMAES, sphere, np.full(8, 3.0), 2.0, iterations=200, seed=0, maximize=False
    )
    assert result.best_f < 1e-12
    assert np.linalg.norm(result.mean) < 1e-6


def test_rosenbrock_reaches_the_optimum() -> None:
    """cma's own example: the 8-d Rosenbrock function from 0.1 with step 0.5 ends below 1e-8
    (cma's docstring: `CMAEvolutionStrategy(8 * [0.1], 0.5).optimize(rosen)`); a full
    covariance follows the curved valley that a diagonal CEM cannot (test_cem)."""
    result = run_tuner(
        cmaes.CMAES, rosenbrock, np.full(8, 0.1), 0.5, iterations=1000, seed=1, maximize=False
    )
    assert result.best_f < 1e-8
    np.testing.assert_allclose(result.best_x, np.ones(8), atol=1e-3)
    assert rosenbrock(result.best_x[None])[0] == pytest.approx(result.best_f)


def test_maximises_and_keeps_the_best_ever_evaluated() -> None:
    def peak(X: np.ndarray) -> np.ndarray:
        return -sphere(X - 0.5) + np.sin(40 * X[:, 0])  # deterministic "noise"

    result = run_tuner(cmaes.CMAES, peak, np.zeros(4), 1.0, iterations=30, seed=2)
    assert result.best_f == pytest.approx(result.history.best_f.max())
    assert peak(result.best_x[None])[0] == pytest.approx(result.best_f)


def test_seeded_and_independent_of_numpy_global_state() -> None:
    def one(seed: int) -> np.ndarray:
        np.random.seed(12345 + seed)  # noqa: NPY002 (the global state must not matter)
        return run_tuner(
            cmaes.CMAES, sphere, np.ones(5), 0.5, iterations=15, seed=seed
        ).history.to_numpy()

    np.testing.assert_array_equal(one(3), one(3))
    assert not np.array_equal(one(3), one(4))
    state = np.random.get_state()[1].copy()  # noqa: NPY002
    run_tuner(cmaes.CMAES, sphere, np.ones(5), 0.5, iterations=3, seed=0)
    np.testing.assert_array_equal(np.random.get_state()[1], state)  # noqa: NPY002


def test_candidates_stay_within_bounds_and_history_is_complete() -> None:
    seen = []

    def record(X: np.ndarray) -> np.ndarray:
        seen.append(X)
        return sphere(X - 5.0)  # the optimum lies outside [0, 1]^3

    calls = []
    bounds = {"lower": np.zeros(3), "upper": np.ones(3)}
    result = run_tuner(cmaes.CMAES,
        record, np.full(3, 0.5), 0.3, population=8, iterations=25, seed=5,
        callback=lambda i, r: calls.append(i), **bounds,
    )  # fmt: skip
    X = np.concatenate(seen)
    assert X.min() >= 0.0 and X.max() <= 1.0
    assert calls == list(range(25))
    h = result.history
    assert list(h.iteration) == list(range(25)) and list(h.evaluations) == [
        8 * (i + 1) for i in range(25)
    ]
    assert {"best_f", "mean_f", "sigma", "mean_0", "mean_2"} <= set(h.columns)
    np.testing.assert_allclose(
        result.mean, h.iloc[-1][["mean_0", "mean_1", "mean_2"]].to_numpy(float)
    )


@pytest.mark.parametrize(
    "bad",
    [
        {"sigma": 0.0},
        {"population": 1},
        {"iterations": 0},
        {"mean": np.zeros(1)},
        {"lower": np.zeros(2)},
        {"lower": np.ones(3), "upper": np.ones(3)},
        {"evaluate": lambda X: sphere(X)[:-1]},
        {"evaluate": lambda X: sphere(X) * np.nan},
    ],
)
def test_invalid_arguments_raise(bad: dict) -> None:
    kwargs = {"evaluate": sphere, "mean": np.zeros(3), "sigma": 1.0, "iterations": 2, "seed": 0}
    with pytest.raises(ValueError):
        run_tuner(cmaes.CMAES, **(kwargs | bad))
