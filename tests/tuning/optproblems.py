"""Standard benchmark problems, vectorised over a population X of shape (n, d)."""

import numpy as np


def zdt1(X: np.ndarray) -> np.ndarray:
    """ZDT1 (Zitzler, Deb, Thiele 2000): convex front f2 = 1 - sqrt(f1), x in [0, 1]^d."""
    f1 = X[:, 0]
    g = 1.0 + 9.0 * X[:, 1:].mean(axis=1)
    return np.column_stack([f1, g * (1.0 - np.sqrt(f1 / g))])


def zdt2(X: np.ndarray) -> np.ndarray:
    """ZDT2: non-convex front f2 = 1 - f1^2, x in [0, 1]^d."""
    f1 = X[:, 0]
    g = 1.0 + 9.0 * X[:, 1:].mean(axis=1)
    return np.column_stack([f1, g * (1.0 - (f1 / g) ** 2)])


def dtlz2(X: np.ndarray, n_obj: int = 3) -> np.ndarray:
    """DTLZ2 (Deb et al. 2002): front is the positive part of the unit sphere, x in [0, 1]^d."""
    g = ((X[:, n_obj - 1 :] - 0.5) ** 2).sum(axis=1)
    angles = X[:, : n_obj - 1] * (np.pi / 2)
    cos, sin = np.cos(angles), np.sin(angles)
    F = np.empty((len(X), n_obj))
    for i in range(n_obj):
        # f_i = (1 + g) * cos(a_1) ... cos(a_{M-1-i}) * sin(a_{M-i}) (no sine for i = 0)
        F[:, i] = np.prod(cos[:, : n_obj - 1 - i], axis=1)
        if i > 0:
            F[:, i] *= sin[:, n_obj - 1 - i]
    return (1.0 + g)[:, None] * F


def sphere(X: np.ndarray) -> np.ndarray:
    """Sum of squares; minimum 0 at the origin."""
    return (X**2).sum(axis=1)


def rosenbrock(X: np.ndarray) -> np.ndarray:
    """Rosenbrock's banana function; minimum 0 at (1, ..., 1)."""
    return (100.0 * (X[:, 1:] - X[:, :-1] ** 2) ** 2 + (1.0 - X[:, :-1]) ** 2).sum(axis=1)
