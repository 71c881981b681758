"""Selection: the one pick rule of every method, the balanced front point, the switching
extremes, the best seed on the selection games."""

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


def test_select_without_selection_games_takes_the_best_training_point(nsga2_run: dict) -> None:
    """A run that played no selection games: NSGA-II's front point of the best training score,
    with source 000's balanced point and the switching rows beside it; CEM's final mean."""
    out = select(nsga2_run)
    assert out["weights"].tolist() == nsga2_run["X"][1]  # score 12, the front's best
    assert out["balanced"].tolist() == [0.25] * 4
    assert out["switching"].shape == (3, 4) and out["switching"][0].tolist() == [0.25] * 4
    cem = {"run": "cem", "method": "cem", "seed": 2, "settings": {"evaluator": "cem8"}}
    assert select(cem | {"mean": [1.0] * 8})["weights"] == [1.0] * 8


WEIGHT_METHODS = {
    "nsga2": "nsga4",
    "cem": "cem8",
    "cmaes": "cem8",
    "random": "cem8",
}


def test_every_method_picks_by_one_rule_the_best_mean_metric(nsga2_run: dict) -> None:
    """The study's one pick rule, for every weight method alike: of the candidates played on
    the selection games, the best mean metric, whatever their training values or their
    method's own objective there say (the first of a tie)."""
    for method, evaluator in WEIGHT_METHODS.items():
        d = 4 if evaluator == "nsga4" else 8
        X = [[0.1 * (k + 1)] * d for k in range(3)]
        own = [[9.0, 1, 1, 1], [1.0, 9, 9, 9], [5.0, 5, 5, 5]] if method == "nsga2" else [9, 1, 5]
        again = {"X": X, "train": [9.0, 8.0, 7.0], "fresh": own, "metric": [4.0, 3.0, 6.0]}
        run = {"run": method, "method": method, "seed": 2, "settings": {"evaluator": evaluator}}
        if method == "nsga2":
            run = nsga2_run | run
        out = select(run | {"reevaluation": again})
        assert out["weights"].tolist() == X[2], method
        assert (out["train"], out["fresh"], out["metric"]) == (7.0, own[2], 6.0), method
        again["metric"] = [6.0, 3.0, 6.0]
        assert select(run | {"reevaluation": again})["weights"].tolist() == X[0], method


def test_a_front_without_empty_and_corner_features_has_no_switching_rows(nsga2_run: dict) -> None:
    run = nsga2_run | {"settings": {"evaluator": "nneonneo"}}
    run |= {"X": [[200000.0, 270.0, 700.0, 47.0, 11.0 + k] for k in range(4)]}
    out = select(run)
    assert "switching" not in out and out["weights"].tolist() == run["X"][1]
    assert out["balanced"].tolist() == run["X"][0]
    assert can_switch("nsga4") and not can_switch("nneonneo")


def test_the_pick_is_the_seed_best_on_selection_games() -> None:
    """By the mean metric on the selection games, whatever the method's own objective there
    (`fresh`) or in training says; for a network by its last training games."""
    selected = [
        {"method": "nsga2", "seed": s, "metric": m, "fresh": [9.0 - m] * 4, "train": [9.0] * 4}
        for s, m in zip((1, 2, 3), (1.0, 5.0, 3.0), strict=True)
    ]
    picked = pick_tuned(selected)
    assert picked["seed"] == 2 and picked["selection_values"] == [1.0, 5.0, 3.0]
    cem = [
        {"method": "cem", "seed": s, "metric": m, "fresh": 9 - m, "train": 9 - m}
        for s, m in ((4, 6.0), (5, 7.0))
    ]
    assert pick_tuned(cem)["seed"] == 5
    td = [{"method": "td", "seed": s, "train": t} for s, t in ((1, 900.0), (2, 800.0))]
    assert pick_tuned(td)["seed"] == 1 and pick_tuned(td)["selection_values"] == [900.0, 800.0]
