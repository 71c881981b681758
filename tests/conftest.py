"""Test configuration: hypothesis runs derandomized so every run sees the same examples; a small
NSGA-II result shared by the selection tests."""

import os

import pytest
from hypothesis import HealthCheck, settings

# the thread tests run two threads even on a one-core machine (numba then time-slices them);
# set before the tests import numba
os.environ.setdefault("NUMBA_NUM_THREADS", str(max(2, os.cpu_count() or 1)))

settings.register_profile(
    "deterministic",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("deterministic")


@pytest.fixture
def nsga2_run() -> dict:
    """A tune result of NSGA-II over nsga4 with a 3-point front: the balanced point (row 0), an
    empty-heavy and a corner-heavy extreme; row 3 is dominated."""
    return {
        "run": "nsga2",
        "method": "nsga2",
        "seed": 1,
        "settings": {"evaluator": "nsga4"},
        "X": [[0.25] * 4, [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.1, 0.7], [0.4, 0.2, 0.2, 0.2]],
        "F": [[10, 10, 10, 10], [12, 1, 12, 1], [1, 12, 1, 12], [0, 0, 0, 0]],
        "front": [0, 1, 2],
    }
