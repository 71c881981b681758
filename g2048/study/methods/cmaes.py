"""CMA-ES through Hansen's `cma` package: the method behind nneonneo's constants."""

from __future__ import annotations

import math
from typing import Any

from g2048.agents import AgentConfig
from g2048.evaluators import get_evaluator
from g2048.study.methods.base import Key, Log, Resume, Tuned, resumable
from g2048.study.methods.unitbox import (
    FITNESS,
    ITERATIONS,
    POPULATION,
    STEP,
    UnitBox,
    UnitBoxMethod,
    iteration_lines,
)
from g2048.study.objectives import SEED003_AGENT
from g2048.tuning import cmaes


class CMAES(UnitBoxMethod):
    name = "cmaes"
    label = "CMA-ES"
    description = "CMA-ES through the cma package; the method behind nneonneo's constants"
    keys = {
        "population": Key(
            POPULATION | {"description": "candidates per iteration (cma's 4 + 3 ln d)"}
        ),
        "iterations": ITERATIONS,
        "fitness": FITNESS,
        "step": STEP,
    }
    result_keys = ("mean", "sigma", *UnitBoxMethod.result_keys)
    history_columns = ("iteration", "evaluations", "best_f", "mean_f", "sigma")

    def population(self, settings: dict) -> int:
        """The run's population, or cma's default for the evaluator's d weights: 4 + 3 ln d."""
        if settings.get("population") is not None:
            return settings["population"]
        return int(4 + 3 * math.log(len(get_evaluator(settings["evaluator"]).features)))

    def search(
        self,
        evaluator: str = "cem8",
        *,
        agent: AgentConfig = SEED003_AGENT,
        games: int = 3,
        population: int | None = None,
        iterations: int,
        step: float = STEP.default,
        seed: int,
        reevaluate: int = 0,
        progress: Log | None = None,
        resume: Resume | None = None,
        **settings: Any,
    ) -> Tuned:
        """CMA-ES over an evaluator's weights, with CEMObjective's fitness (the same
        `settings`; its games' purpose is the run's name, default "cmaes").

        Like CEM it searches the unit box from the default weights, with step size `step`;
        `population` defaults to cma's 4 + 3 ln d. The result's mean, best_x and elite are in
        weights, sigma and the history in the unit box. With `reevaluate`, the final mean and
        as many of the elite as CEM's at the same population (`candidates`) play that many
        fresh games each.
        """
        objective = self.objective(evaluator, agent, games, seed, **settings)
        box = UnitBox(objective)
        spec = {"population": population, "evaluator": evaluator}
        result = cmaes.run(
            box.evaluate,
            box.start(),
            step,
            population=self.population(spec),
            iterations=iterations,
            seed=seed,
            maximize=True,
            callback=iteration_lines(progress, iterations),
            **resumable(objective, resume, progress),
            **box.limits(),
        )
        return box.finish(result, reevaluate, self.candidates(spec) - 1)


METHOD = CMAES()
