"""The shared ask-and-tell loop: budget count, history and checkpoints that resume to the
uninterrupted result, for each tuner."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from g2048.tuning import cem, cmaes, nsga2, random_search
from g2048.tuning.loop import optimise, run_tuner


def bumpy(X: np.ndarray) -> np.ndarray:
    """A single objective with many local optima."""
    return -((X - 0.3) ** 2).sum(axis=1) + 0.01 * np.sin(37 * X.sum(axis=1))


def zdt1(X: np.ndarray) -> np.ndarray:
    g = 1 + 9 * X[:, 1:].mean(axis=1)
    return np.stack([X[:, 0], g * (1 - np.sqrt(X[:, 0] / g))], axis=1)


BOX = {"lower": np.zeros(4), "upper": np.ones(4)}
RUNS: dict[str, Callable[..., object]] = {
    "cem": lambda f, **kw: run_tuner(
        cem.CEM, f, np.full(4, 0.5), np.full(4, 0.2), seed=1, **BOX, **kw
    ),
    "cmaes": lambda f, **kw: run_tuner(cmaes.CMAES, f, np.full(4, 0.5), 0.2, seed=1, **BOX, **kw),
    "nsga2": lambda f, **kw: run_tuner(nsga2.NSGA2, f, pop_size=12, seed=1, **BOX, **kw),
}
OBJECTIVE = {"cem": bumpy, "cmaes": bumpy, "nsga2": zdt1}
LENGTH = {"cem": "iterations", "cmaes": "iterations", "nsga2": "generations"}


class Killed(Exception):
    """Stands for a kill: raised by the callback after a step and before it is saved."""


def run(name: str, steps: int, **kw: object) -> object:
    return RUNS[name](OBJECTIVE[name], **{LENGTH[name]: steps}, **kw)


def same(a: object, b: object) -> None:
    """Two results equal in every field, to the bit."""
    for field, value in vars(a).items():
        other = getattr(b, field)
        if isinstance(value, pd.DataFrame):
            pd.testing.assert_frame_equal(value, other, check_exact=True)
        elif isinstance(value, list):
            assert len(value) == len(other)
            for x, y in zip(value, other, strict=True):
                np.testing.assert_array_equal(x, y)
        else:
            np.testing.assert_array_equal(value, other)


@pytest.mark.parametrize("name", RUNS)
def test_a_run_killed_after_a_step_resumes_to_the_uninterrupted_result(
    name: str, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "run.npz"

    def kill_at_6(step: int, result: object) -> None:
        if step == 6:
            raise Killed

    with pytest.raises(Killed):
        run(name, 10, checkpoint=checkpoint, key={"seed": 1}, callback=kill_at_6)
    replayed: list[list[np.ndarray]] = []
    evaluated: list[np.ndarray] = []

    def counting(X: np.ndarray) -> np.ndarray:
        evaluated.append(X)
        return OBJECTIVE[name](X)

    got = RUNS[name](
        counting,
        **{LENGTH[name]: 10},
        checkpoint=checkpoint,
        key={"seed": 1},
        resumed=replayed.append,
    )
    assert len(replayed) == 1 and len(replayed[0]) == 6  # steps 0 to 5 were saved
    steps = 11 if name == "nsga2" else 10  # NSGA-II's initial population is a step
    assert len(evaluated) == steps - 6  # only the rest was evaluated
    same(got, run(name, 10))


@pytest.mark.parametrize("name", RUNS)
def test_a_checkpoint_of_other_settings_or_other_candidates_is_not_resumed(
    name: str, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "run.npz"
    run(name, 4, checkpoint=checkpoint, key={"seed": 1})
    replayed: list = []
    run(name, 4, checkpoint=checkpoint, key={"seed": 2}, resumed=replayed.append)
    assert replayed == []  # another key
    # the same key over a run whose tuner asks for other candidates (another code's file)
    with np.load(checkpoint) as data:
        stored = {k: data[k] for k in data.files}
    stored["X"] = stored["X"] + 1e-9
    np.savez(checkpoint, **stored)
    got = run(name, 4, checkpoint=checkpoint, key={"seed": 2}, resumed=replayed.append)
    assert replayed == []
    same(got, run(name, 4))


@pytest.mark.parametrize(
    ("content", "problem"),
    [(b"", "empty"), (b"not a zip file", "truncated?"), (b"PK\x03\x04broken", "truncated?")],
)
def test_an_unreadable_checkpoint_starts_the_run_afresh(
    content: bytes, problem: str, tmp_path: Path
) -> None:
    """... and says so, in one line to the caller's `note` (issue 54)."""
    checkpoint = tmp_path / "run.npz"
    checkpoint.write_bytes(content)
    notes: list[str] = []
    same(run("cem", 3, checkpoint=checkpoint, key={}, note=notes.append), run("cem", 3))
    assert checkpoint.stat().st_size > 100  # rewritten
    assert len(notes) == 1 and notes[0].startswith(f"checkpoint {checkpoint} unreadable (")
    assert notes[0].endswith(f"{problem}): starting from step 0"), notes
    run("cem", 3, checkpoint=checkpoint, key={}, note=notes.append)  # a readable one: no note
    assert len(notes) == 1


def test_the_loop_counts_every_candidate_it_evaluates() -> None:
    class Uneven:
        """A tuner that asks for 1, 2, 3, ... candidates."""

        step_name = "round"

        def __init__(self) -> None:
            self.n = 0

        def ask(self) -> np.ndarray:
            self.n += 1
            return np.zeros((self.n, 2))

        def tell(self, X: np.ndarray, f: np.ndarray) -> dict[str, float]:
            return {"told": len(f)}

        def incumbent(self) -> np.ndarray:
            return np.array([self.n, -self.n])

        def result(self, history: pd.DataFrame) -> pd.DataFrame:
            return history

    history = optimise(Uneven, lambda X: X.sum(axis=1), 4)
    assert list(history.columns) == ["round", "evaluations", "told", "incumbent_0", "incumbent_1"]
    assert history["round"].tolist() == [0, 1, 2, 3]
    assert history["incumbent_1"].tolist() == [-1, -2, -3, -4]  # after each step
    assert history["evaluations"].tolist() == [1, 3, 6, 10]
    with pytest.raises(ValueError, match="steps must be >= 1"):
        optimise(Uneven, lambda X: X.sum(axis=1), 0)


# The incumbent each step records: what the tuner would return had it stopped there ------------


def incumbents(history: pd.DataFrame) -> np.ndarray:
    return history.filter(like="incumbent_").to_numpy()


def test_cem_and_cmaes_record_their_distributions_mean_as_the_incumbent() -> None:
    for name in ("cem", "cmaes"):
        result = run(name, 3)
        np.testing.assert_array_equal(incumbents(result.history)[-1], result.mean)
        np.testing.assert_array_equal(
            incumbents(result.history), result.history.filter(regex=r"^mean_\d").to_numpy()
        )


def test_random_search_records_its_best_sample_so_far_as_the_incumbent() -> None:
    told: list[tuple[np.ndarray, np.ndarray]] = []

    def evaluate(X: np.ndarray) -> np.ndarray:
        told.append((X, bumpy(X)))
        return told[-1][1]

    result = run_tuner(
        random_search.RandomSearch, evaluate, population=5, iterations=4, seed=3, **BOX
    )
    for step, incumbent in enumerate(incumbents(result.history)):
        X = np.concatenate([x for x, _ in told[: step + 1]])
        f = np.concatenate([f for _, f in told[: step + 1]])
        np.testing.assert_array_equal(incumbent, X[np.argmax(f)])


def test_nsga2_records_the_front_member_its_pick_rule_takes() -> None:
    """By default the front's best on the first objective; with `pick`, the pick's member."""
    for pick, rule in ((None, lambda F: np.argmax(F[:, 0])), (lambda F: 0, lambda F: 0)):
        result = run_tuner(
            nsga2.NSGA2,
            lambda X: -zdt1(X),
            pop_size=12,
            seed=1,
            generations=2,
            maximize=True,
            pick=pick,
            **BOX,
        )
        front = np.flatnonzero(result.rank == 0)
        expected = result.X[front[rule(result.F[front])]]
        np.testing.assert_array_equal(incumbents(result.history)[-1], expected)
