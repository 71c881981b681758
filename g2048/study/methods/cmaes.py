"""CMA-ES through Hansen's `cma` package: the method behind nneonneo's constants."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from g2048.evaluators import get_evaluator
from g2048.study.methods.base import RunSeed, SearchRun, Tuned
from g2048.study.methods.unitbox import Step, UnitBox, UnitBoxMethod
from g2048.tuning import cmaes


@dataclass(frozen=True, kw_only=True)
class CMAESSettings(Step, cmaes.CMAESConfig):
    """A cmaes run's settings: the tuner's and the study's (fitness, step)."""


class CMAES(UnitBoxMethod):
    name = "cmaes"
    label = "CMA-ES"
    description = "CMA-ES through the cma package; the method behind nneonneo's constants"
    settings_class = CMAESSettings
    result_keys = ("mean", "sigma", *UnitBoxMethod.result_keys)
    history_columns = ("iteration", "evaluations", "best_f", "mean_f", "sigma")

    def population(self, settings: dict) -> int:
        """The run's population, or cma's default for the evaluator's d weights: 4 + 3 ln d."""
        if settings.get("population") is not None:
            return settings["population"]  # (a run's entry, or its settings as `optimise` has them)
        return int(4 + 3 * math.log(len(get_evaluator(settings["evaluator"]).features)))

    def warm_up(self, job: RunSeed) -> None:
        """Its game's kernels (`WeightMethod.warm_up`) and cma, which imports scipy and
        matplotlib (about 1.5 s): a job's start, not its tuning."""
        super().warm_up(job)
        import cma  # noqa: F401

    def optimise(self, search: SearchRun, config: CMAESSettings) -> Tuned:
        """CMA-ES over an evaluator's weights, with CEMObjective's fitness (the same
        settings; its games' purpose is the run's name, default "cmaes").

        Like CEM it searches the unit box from the default weights, with step size `step`;
        `population` defaults to cma's 4 + 3 ln d. The result's mean, best_x, elite and final
        are in weights, sigma and the history in the unit box; the last iteration's best
        candidates are the final ones (`UnitBox.finish`).
        """
        box = UnitBox(search.objective)
        spec = {"population": config.population, "evaluator": search.objective.evaluator.name}
        config = dataclasses.replace(config, population=self.population(spec))
        result = box.run(cmaes.CMAES, search, config, box.start(), config.step)
        return box.finish(result, search)


METHOD = CMAES()
