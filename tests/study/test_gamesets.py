"""The game sets are disjoint: no reported number comes from a game on which a choice was made,
and the progress games are none of them."""

from pathlib import Path

import numpy as np
import pytest
import yaml

from g2048.engine.rng import game_seeds
from g2048.study.config import validate_config
from g2048.study.gamesets import game_sets, overlaps

CONFIGS = Path(__file__).resolve().parents[2] / "config"


def config(name: str) -> dict:
    return validate_config(yaml.safe_load((CONFIGS / name).read_text()))


@pytest.mark.parametrize(
    "name", ["smoke.yaml", pytest.param("config.yaml", marks=pytest.mark.slow)]
)
def test_training_selection_test_and_progress_games_are_disjoint(name: str) -> None:
    sets = game_sets(config(name))
    assert overlaps(sets) == []
    runs = {r["name"] for r in config(name)["tune"]["runs"]}
    assert {p.rsplit("-s", 1)[0] for p in sets["selection"]} == runs  # every run selects
    assert all(len(seeds) for part in sets.values() for seeds in part.values())


def test_the_sets_are_the_seeds_the_games_play() -> None:
    """The sets are those of the objectives' own seed rule, so an overlap would show here."""
    smoke = config("smoke.yaml")
    sets = game_sets(smoke)
    cem = sets["training"]["cem-s1 step 1"]  # cem plays fresh seeds each iteration
    np.testing.assert_array_equal(cem, game_seeds(2048, "cem-s1-iter1", 2))
    nsga2 = sets["training"]["nsga2-s1 step 3"]  # nsga2 plays one fixed set (fresh_seeds: false)
    np.testing.assert_array_equal(nsga2, game_seeds(2048, "nsga2-s1", 2))
    np.testing.assert_array_equal(sets["selection"]["cem-s2"], game_seeds(2048, "cem-s2-fresh", 2))
    np.testing.assert_array_equal(sets["test"]["validate"], game_seeds(2048, "validate", 6))
    np.testing.assert_array_equal(sets["progress"]["progress"], game_seeds(2048, "progress", 4))


def test_an_overlap_is_named() -> None:
    sets = {
        "training": {"cem-s1 step 0": np.array([1, 2], np.uint64)},
        "selection": {"cem-s1": np.array([3], np.uint64)},
        "test": {"validate": np.array([4, 2], np.uint64)},
    }
    assert overlaps(sets) == ["training (cem-s1 step 0) and test (validate)"]


def test_progress_games_that_share_a_seed_are_named() -> None:
    sets = {
        "training": {"cem-s1 step 0": np.array([1, 2], np.uint64)},
        "progress": {"progress": np.array([5, 1], np.uint64)},
    }
    assert overlaps(sets) == ["training (cem-s1 step 0) and progress (progress)"]
