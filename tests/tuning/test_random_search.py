"""Random search, the control: uniform samples of the box, and an archive that holds exactly
the best points ever told."""

import numpy as np
import pytest

from g2048.tuning import random_search
from g2048.tuning.loop import run_tuner


def test_samples_are_uniform_in_the_box() -> None:
    seen: list[np.ndarray] = []

    def record(X: np.ndarray) -> np.ndarray:
        seen.append(X)
        return X[:, 0]

    lower, upper = np.array([-1.0, 2.0, 0.0]), np.array([1.0, 3.0, 10.0])
    run_tuner(
        random_search.RandomSearch, record, lower, upper, population=500, iterations=8, seed=4
    )
    X = np.concatenate(seen)
    assert X.shape == (4000, 3)
    assert np.all((lower <= X) & (upper > X))
    U = (X - lower) / (upper - lower)  # uniform on [0, 1): each decile holds a tenth
    for k in range(3):
        counts = np.histogram(U[:, k], bins=10, range=(0, 1))[0]
        chi2 = ((counts - 400) ** 2 / 400).sum()
        assert chi2 < 27.9, (k, counts)  # the 0.999 quantile of chi-square with 9 df
    assert abs(np.corrcoef(U[:, 0], U[:, 1])[0, 1]) < 0.06  # coordinates independent


@pytest.mark.parametrize("maximize", [True, False])
def test_the_archive_holds_the_best_points_ever_told(maximize: bool) -> None:
    seen: list[np.ndarray] = []

    def bowl(X: np.ndarray) -> np.ndarray:
        seen.append(X)
        return ((X - 0.3) ** 2).sum(axis=1)

    result = run_tuner(random_search.RandomSearch,
        bowl, np.zeros(2), np.ones(2), population=7, keep=5, iterations=6, seed=1,
        maximize=maximize,
    )  # fmt: skip
    X = np.concatenate(seen)
    f = bowl(X)
    order = np.argsort(-f if maximize else f, kind="stable")
    np.testing.assert_array_equal(result.archive, X[order[:5]])
    np.testing.assert_array_equal(result.archive_f, f[order[:5]])
    np.testing.assert_array_equal(result.best_x, X[order[0]])
    assert result.best_f == f[order[0]]
    history = result.history
    assert history["evaluations"].tolist() == [7, 14, 21, 28, 35, 42]
    per_step = f.reshape(6, 7)
    pick = np.max if maximize else np.min
    np.testing.assert_array_equal(history["best_f"], pick(per_step, axis=1))
    np.testing.assert_array_equal(history["mean_f"], per_step.mean(axis=1))


def test_ties_keep_the_earlier_point() -> None:
    result = run_tuner(
        random_search.RandomSearch,
        lambda X: np.zeros(len(X)),
        [0, 0],
        [1, 1],
        population=3,
        keep=2,
        iterations=2,
        seed=0,
    )
    first = np.random.default_rng(0).random((3, 2))
    np.testing.assert_array_equal(result.archive, first[:2])


def test_the_seed_decides_the_run() -> None:
    def run(seed: int) -> np.ndarray:
        return run_tuner(
            random_search.RandomSearch,
            lambda X: X.sum(axis=1),
            [0, 0],
            [1, 1],
            population=4,
            iterations=3,
            seed=seed,
        ).archive

    np.testing.assert_array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"population": 0}, "population"),
        ({"keep": 0}, "keep"),
        ({"iterations": 0}, "iterations"),
        ({"upper": [1.0, 0.0]}, "strictly less"),
        ({"lower": [[0.0, 0.0]]}, "1-D"),
    ],
)
def test_bad_settings_are_refused(bad: dict, message: str) -> None:
    settings = {"lower": [0.0, 0.0], "upper": [1.0, 1.0], "population": 2, "iterations": 1}
    with pytest.raises(ValueError, match=message):
        run_tuner(random_search.RandomSearch, lambda X: X[:, 0], seed=0, **(settings | bad))
