"""Selection: the balanced front point, the switching extremes, the noise-aware pick, the best
validated set."""

import numpy as np

from g2048.study.methods.fronts import can_switch, select_balanced, switching_rows
from g2048.study.stages import pick_tuned, select


def test_balanced_point_is_nearest_the_ideal_after_scaling() -> None:
    # objective 0 spans 0..1000, objective 1 spans 0..1: unscaled, the first would dominate
    F = np.array([[1000.0, 0.0], [600.0, 0.7], [0.0, 1.0]])
    assert select_balanced(F) == 1


def test_switching_rows_take_the_extremes_of_empty_and_corner_weights() -> None:
    # nsga4 features: monotonicity, empty, merges, corner
    X = np.array([[0.25, 0.25, 0.25, 0.25], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.1, 0.7]])
    F = np.array([[10.0, 10.0], [12.0, 1.0], [1.0, 12.0]])
    rows = switching_rows("nsga4", X, F)
    np.testing.assert_array_equal(rows, X[[0, 1, 2]])


def test_select_takes_the_balanced_front_point_and_cem_mean(nsga2_run: dict) -> None:
    tuned = nsga2_run
    out = select(tuned)
    assert out["weights"].tolist() == [0.25] * 4
    assert out["switching"].shape == (3, 4)
    cem = {"run": "cem", "method": "cem", "seed": 2, "settings": {"evaluator": "cem8"}}
    assert select(cem | {"mean": [1.0] * 8})["weights"] == [1.0] * 8


def test_noise_aware_selection_judges_by_the_fresh_values(nsga2_run: dict) -> None:
    # CEM / CMA-ES: the candidate (mean, then elite) with the best fresh value, whatever the
    # training values say
    X = [[1.0] * 8, [2.0] * 8, [3.0] * 8]
    again = {"X": X, "train": [9.0, 8.0, 7.0], "fresh": [5.0, 6.0, 5.5], "games": 10}
    cem = {"run": "cmaes", "method": "cmaes", "seed": 2, "settings": {"evaluator": "cem8"}}
    out = select(cem | {"mean": X[0], "reevaluation": again})
    assert out["weights"].tolist() == X[1] and (out["train"], out["fresh"]) == (8.0, 6.0)
    # NSGA-II: the balanced point of the fresh values; here fresh values make row 1 ideal
    fresh = [[1, 1, 1, 1], [12, 12, 12, 12], [1, 12, 1, 12]]
    again = {"X": nsga2_run["X"][:3], "train": nsga2_run["F"][:3], "fresh": fresh, "games": 10}
    out = select(nsga2_run | {"reevaluation": again})
    assert out["weights"].tolist() == nsga2_run["X"][1]
    assert out["objectives"].tolist() == nsga2_run["F"][1] and out["fresh"] == fresh[1]
    assert select(nsga2_run)["weights"].tolist() == nsga2_run["X"][0]  # training values


def test_a_front_without_empty_and_corner_features_has_no_switching_rows(nsga2_run: dict) -> None:
    run = nsga2_run | {"settings": {"evaluator": "nneonneo"}}
    run |= {"X": [[200000.0, 270.0, 700.0, 47.0, 11.0 + k] for k in range(4)]}
    out = select(run)
    assert "switching" not in out and out["weights"].tolist() == run["X"][0]
    assert can_switch("nsga4") and not can_switch("nneonneo")


def test_the_pick_is_the_seed_best_on_selection_games() -> None:
    """By the fresh re-evaluation (NSGA-II: its score, the first objective; CEM: its fitness),
    or for a network by its last training games; never by anything else in the file."""
    fronts = [[1.0, 9.0, 9.0, 9.0], [5.0, 0.0, 0.0, 0.0], [3.0, 9.0, 9.0, 9.0]]
    selected = [
        {"method": "nsga2", "seed": s, "fresh": f, "train": [9.0] * 4}
        for s, f in zip((1, 2, 3), fronts, strict=True)
    ]
    picked = pick_tuned(selected)
    assert picked["seed"] == 2 and picked["selection_values"] == [1.0, 5.0, 3.0]
    cem = [
        {"method": "cem", "seed": s, "fresh": f, "train": 9 - f} for s, f in ((4, 6.0), (5, 7.0))
    ]
    assert pick_tuned(cem)["seed"] == 5
    td = [{"method": "td", "seed": s, "train": t} for s, t in ((1, 900.0), (2, 800.0))]
    assert pick_tuned(td)["seed"] == 1 and pick_tuned(td)["selection_values"] == [900.0, 800.0]
