"""What the cross-entropy method and CMA-ES share: the search in the evaluator's tuning box scaled
to the unit cube, the fitness objective, their common settings, one progress line per
iteration, and the last iteration's best candidates as their final ones."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from g2048.settings import setting
from g2048.study.methods.base import (
    Log,
    SearchRun,
    Tuned,
    WeightMethod,
    with_weights,
)
from g2048.study.objectives import DEFAULT_FITNESS, FITNESSES, CEMObjective
from g2048.study.records.logs import timing
from g2048.tuning.loop import run_tuner


@dataclass(frozen=True, kw_only=True)
class Fitness:
    """The study's setting of every single-objective method: what a candidate maximises."""

    fitness: str = setting(
        DEFAULT_FITNESS, description="what a candidate maximises", enum=list(FITNESSES)
    )


@dataclass(frozen=True, kw_only=True)
class Step(Fitness):
    """The study's settings of a method that searches from the default weights (CEM, CMA-ES):
    its fitness and its first step in the unit box."""

    step: float = setting(
        0.1,
        description="initial standard deviation of every weight as a fraction of its tuning box "
        "(0.1: for cem8, source 003's std 1; at most 1, the whole box)",
        type="number",
        exclusiveMinimum=0,
        maximum=1,
    )


@dataclass(frozen=True)
class UnitBox:
    """CEM and CMA-ES search the evaluator's tuning box scaled to the unit cube: a point u plays
    the weights lower + u * width, so that one step size suits weights of any scale."""

    objective: CEMObjective

    @property
    def width(self) -> np.ndarray:
        bounds = self.objective.evaluator.bounds
        return bounds[:, 1] - bounds[:, 0]

    def weights(self, U: np.ndarray) -> np.ndarray:
        """The weights of unit-box points U."""
        return self.objective.evaluator.bounds[:, 0] + U * self.width

    def evaluate(self, U: np.ndarray) -> np.ndarray:
        """The objective of unit-box points U."""
        return self.objective(self.weights(U))

    def start(self) -> np.ndarray:
        """The evaluator's default weights in the unit box."""
        ev = self.objective.evaluator
        return (ev.default_weights - ev.bounds[:, 0]) / self.width

    def limits(self) -> dict[str, np.ndarray]:
        """The unit box as a tuner's `lower` and `upper` arguments."""
        return {"lower": np.zeros_like(self.width), "upper": np.ones_like(self.width)}

    def run(self, tuner: type, search: SearchRun, config: Any, *args: Any, **more: Any) -> Any:  # noqa: ANN401
        """Run the ask-and-tell `tuner` (CEM, CMA-ES, random search: its arguments `args` and
        `more`) with its `config` in the shared loop (`run_tuner`) on the unit box, alike for
        all: one progress line an iteration (`iteration_lines`), the unit box's bounds and
        `SearchRun.loop`'s arguments."""
        callback = iteration_lines(search.progress, config.iterations)
        loop = {"callback": callback, **search.loop(), **self.limits(), **more}
        return run_tuner(tuner, self.evaluate, *args, config=config, **loop)

    def finish(self, result: Any, search: SearchRun, **more: np.ndarray) -> Tuned:
        """A CEM or CMA-ES run's Tuned: its mean, best, elite, last iteration and the
        history's incumbents mapped to weights (and the fields `more` replaced), then the last
        iteration's best candidates played on the selection games (`SearchRun.finish`)."""
        result = dataclasses.replace(
            result,
            mean=self.weights(result.mean),
            best_x=self.weights(result.best_x),
            elite=self.weights(result.elite),
            final=self.weights(result.final),
            history=with_weights(result.history, self.weights),
            **more,
        )
        return search.finish(result, result.final, result.final_f)


def iteration_lines(progress: Log | None, iterations: int) -> Callable[[int, Any], None] | None:
    """The callback that reports one line per iteration of CEM or CMA-ES (None: no progress)."""
    if progress is None:
        return None
    start = time.perf_counter()

    def report(iteration: int, result: Any) -> None:
        row = result.history.iloc[-1]
        progress(
            f"iter {iteration + 1}/{iterations}: best {row.best_f:.3f}, mean {row.mean_f:.3f}, "
            f"{timing(iteration + 1, iterations, start)}"
        )

    return report


class UnitBoxMethod(WeightMethod):
    """A single-objective method over the unit box, searching by its `fitness`; its result
    file holds the final mean, the spread of the search distribution (named by the subclass),
    the best candidate seen with its fitness, the final elite and the last iteration's
    candidates, best first, with their fitness."""

    result_keys = ("best_x", "best_f", "elite", "final", "final_f")

    def population(self, settings: dict) -> int:
        """Candidates per iteration."""
        return self.options(settings).population

    def final_size(self, settings: dict) -> int | None:
        return self.population(settings)

    objective_class = CEMObjective

    def steps(self, settings: dict) -> int:
        return self.options(settings).steps

    def training_games(self, settings: dict) -> int:
        return self.population(settings) * self.steps(settings) * settings["games"]

    def judged_by(self, settings: dict) -> str:
        return self.options(settings).fitness

    def objective_settings(self, config: Fitness) -> dict:
        return {"fitness": config.fitness}

    def unevaluated_pick(self, tuned: dict) -> object:
        """A run's pick when it played no selection games: its final mean."""
        return tuned["mean"]
