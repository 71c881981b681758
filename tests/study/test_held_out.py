"""Held-out progress of a tuning run: each method's incumbent per step is the weights it would
return had it stopped there, the measured steps are evenly spaced and end at the last, and the
progress games play those weights as the run's own games do, on seeds of their own."""

from pathlib import Path

import numpy as np
import pytest
import yaml

from g2048.agents import AgentConfig
from g2048.evaluators import get_evaluator
from g2048.play import play_games
from g2048.study.config import run_settings, selection_rule, validate_config
from g2048.study.methods.base import incumbents
from g2048.study.results import ResultFileError, read_progress, write_csv
from g2048.study.stages import held_out_progress, progress_seeds, progress_steps, tune

ROOT = Path(__file__).resolve().parents[2]
SMOKE = validate_config(yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text()))


def tuned(run: str) -> tuple[dict, object]:
    rule = selection_rule(SMOKE)
    result, history, _ = tune(run, run_settings(SMOKE, run), 1, 2048, 1, lambda _: None, rule)
    return result, history


@pytest.mark.parametrize(
    ("steps", "points", "expected"),
    [
        (12, 6, [1, 3, 5, 7, 9, 11]),
        (2, 3, [0, 1]),
        (4, 3, [1, 2, 3]),
        (61, 6, [10, 20, 30, 40, 50, 60]),
    ],
)
def test_progress_steps_end_each_equal_share_of_the_run(
    steps: int, points: int, expected: list
) -> None:
    assert progress_steps(steps, points) == expected


@pytest.mark.parametrize("run", ["nsga2", "cem", "cmaes", "random-search"])
def test_each_step_records_weights_inside_the_evaluators_box(run: str) -> None:
    result, history = tuned(run)
    W = incumbents(history)
    bounds = get_evaluator(result["settings"]["evaluator"]).bounds
    assert W.shape == (len(history), len(bounds))
    low, high = bounds[:, 0] - 1e-12, bounds[:, 1] + 1e-12
    assert np.all(low <= W) and np.all(high >= W)


@pytest.mark.parametrize("run", ["cem", "cmaes"])
def test_cem_and_cmaes_incumbent_is_the_final_mean_they_return(run: str) -> None:
    result, history = tuned(run)
    np.testing.assert_allclose(incumbents(history)[-1], result["mean"], rtol=1e-12)


def test_random_search_incumbent_is_its_best_sample_by_its_own_values() -> None:
    result, history = tuned("random-search")
    np.testing.assert_allclose(incumbents(history)[-1], result["best_x"], rtol=1e-12)


def test_nsga2_incumbent_is_its_fronts_best_training_score() -> None:
    result, history = tuned("nsga2")
    front = np.asarray(result["front"])
    X, F = np.asarray(result["X"])[front], np.asarray(result["F"])[front]
    np.testing.assert_allclose(incumbents(history)[-1], X[np.argmax(F[:, 0])], rtol=1e-12)
    np.testing.assert_allclose(incumbents(history).sum(axis=1), 1.0)  # nsga4: the simplex


@pytest.mark.parametrize("run", ["nsga2", "cem"])
def test_progress_games_play_the_incumbents_as_the_run_plays(run: str, tmp_path: Path) -> None:
    result, history = tuned(run)
    path = tmp_path / "history.csv"
    write_csv(path, history)
    settings = run_settings(SMOKE, run)
    table = held_out_progress(run, settings, 1, 2048, str(path), 3, 5, 2, lambda _: None, "score")
    steps = progress_steps(len(history), 3)
    assert table["step"].tolist() == steps
    assert (table["training_games"] == history["evaluations"].iloc[steps].to_numpy() * 2).all()
    assert set(table["measure"]) == {"score"}  # the study's metric, whatever the run maximises
    max_moves = 2000 if run == "nsga2" else 100  # the run's (nsga2: its default)
    values = []
    for step in steps:
        games = play_games(
            AgentConfig("greedy"),
            progress_seeds(2048, 5),
            settings["evaluator"],
            incumbents(history)[step],
            max_moves=max_moves,
        )
        values.append(games.score.to_numpy(float))
    values = np.array(values)
    np.testing.assert_allclose(table["mean"], values.mean(axis=1))
    np.testing.assert_allclose(table["se"], values.std(axis=1, ddof=1) / np.sqrt(5))
    gains = np.diff(values, axis=0)
    np.testing.assert_allclose(table["gain"].iloc[1:], gains.mean(axis=1))
    np.testing.assert_allclose(table["gain_se"].iloc[1:], gains.std(axis=1, ddof=1) / np.sqrt(5))
    assert np.isnan(table["gain"].iloc[0])
    out = tmp_path / "progress.csv"
    write_csv(out, table)
    assert len(read_progress(out, run, 1)) == len(steps)
    with pytest.raises(ResultFileError, match="does not hold the progress of run"):
        read_progress(out, run, 2)


def test_a_history_without_incumbents_is_refused_naming_it(tmp_path: Path) -> None:
    _, history = tuned("cem")
    path = tmp_path / "history.csv"
    write_csv(path, history.drop(columns=[c for c in history if c.startswith("incumbent_")]))
    with pytest.raises(ResultFileError, match="records no incumbents"):
        held_out_progress(
            "cem", run_settings(SMOKE, "cem"), 1, 2048, str(path), 3, 4, 1, lambda _: None, "score"
        )
