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

from g2048.study.logs import timing
from g2048.study.methods.base import (
    Key,
    Log,
    SearchRun,
    Tuned,
    WeightMethod,
    with_weights,
)
from g2048.study.objectives import DEFAULT_FITNESS, FITNESSES, CEMObjective

# The settings both take; `required` differs (cma has a default population), the schema not.
POPULATION = {
    "description": "candidates per iteration (at most 10 000)",
    "type": "integer",
    "minimum": 2,
    "maximum": 10000,
}
ITERATIONS = Key({"description": "iterations", "$ref": "#/$defs/iterations"}, required=True)
FITNESS = Key(
    {"description": "what a candidate maximises", "enum": list(FITNESSES)},
    default=DEFAULT_FITNESS,
)
STEP = Key(
    {
        "description": (
            "initial standard deviation of every weight as a fraction of its tuning box "
            "(0.1: for cem8, source 003's std 1; at most 1, the whole box)"
        ),
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 1,
    },
    default=0.1,
)
# the keys all three take alike, after their own population
SHARED_KEYS = {"iterations": ITERATIONS, "fitness": FITNESS}


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

    def loop(self, search: SearchRun, iterations: int) -> dict:
        """What CEM, CMA-ES and random search pass their tuner alike: `iterations`, one
        progress line each (`iteration_lines`), the unit box's bounds and `SearchRun.loop`'s."""
        callback = iteration_lines(search.progress, iterations)
        return {"iterations": iterations, "callback": callback, **search.loop(), **self.limits()}

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
        return settings["population"]

    def final_size(self, settings: dict) -> int | None:
        return self.population(settings)

    objective_class = CEMObjective

    def steps(self, settings: dict) -> int:
        return settings["iterations"]

    def training_games(self, settings: dict) -> int:
        return self.population(settings) * self.steps(settings) * settings["games"]

    def judged_by(self, settings: dict) -> str:
        return settings.get("fitness", FITNESS.default)

    def unevaluated_pick(self, tuned: dict) -> object:
        """A run's pick when it played no selection games: its final mean."""
        return tuned["mean"]
