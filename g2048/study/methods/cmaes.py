"""CMA-ES through Hansen's `cma` package: the method behind nneonneo's constants."""

from __future__ import annotations

import math

from g2048.evaluators import get_evaluator
from g2048.study.methods.base import Key, SearchRun, Tuned
from g2048.study.methods.unitbox import POPULATION, SHARED_KEYS, STEP, UnitBox, UnitBoxMethod
from g2048.tuning import cmaes


class CMAES(UnitBoxMethod):
    name = "cmaes"
    label = "CMA-ES"
    description = "CMA-ES through the cma package; the method behind nneonneo's constants"
    keys = {
        "population": Key(
            POPULATION | {"description": "candidates per iteration (cma's 4 + 3 ln d)"}
        ),
        **SHARED_KEYS,
        "step": STEP,
    }
    result_keys = ("mean", "sigma", *UnitBoxMethod.result_keys)
    history_columns = ("iteration", "evaluations", "best_f", "mean_f", "sigma")

    def population(self, settings: dict) -> int:
        """The run's population, or cma's default for the evaluator's d weights: 4 + 3 ln d."""
        if settings.get("population") is not None:
            return settings["population"]
        return int(4 + 3 * math.log(len(get_evaluator(settings["evaluator"]).features)))

    def optimise(
        self,
        search: SearchRun,
        *,
        population: int | None = None,
        iterations: int,
        step: float = STEP.default,
    ) -> Tuned:
        """CMA-ES over an evaluator's weights, with CEMObjective's fitness (the same
        settings; its games' purpose is the run's name, default "cmaes").

        Like CEM it searches the unit box from the default weights, with step size `step`;
        `population` defaults to cma's 4 + 3 ln d. The result's mean, best_x and elite are in
        weights, sigma and the history in the unit box. The final mean and as many of the
        elite as CEM's at the same population (`candidates`) are re-evaluated.
        """
        box = UnitBox(search.objective)
        spec = {"population": population, "evaluator": search.objective.evaluator.name}
        result = cmaes.run(
            box.evaluate,
            box.start(),
            step,
            population=self.population(spec),
            **box.loop(search, iterations),
        )
        return box.finish(result, search, self.candidates(spec) - 1)


METHOD = CMAES()
