"""The cross-entropy method (source 003), optionally with Szita & Lorincz's decreasing noise."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from g2048.settings import with_default
from g2048.study.methods.base import SearchRun, Tuned
from g2048.study.methods.unitbox import Step, UnitBox, UnitBoxMethod
from g2048.tuning import cem


@dataclass(frozen=True, kw_only=True)
class CEMSettings(Step, cem.CEMConfig):
    """A cem run's settings: the tuner's (its population required, its std floor 1e-4 of the
    box: source 003's 1e-3 for cem8) and the study's (fitness, step)."""

    population: int = with_default(cem.CEMConfig, "population")
    std_floor: float = with_default(cem.CEMConfig, "std_floor", 1e-4)


class CEM(UnitBoxMethod):
    name = "cem"
    label = "CEM"
    description = "source 003's cross-entropy method"
    settings_class = CEMSettings
    result_keys = ("mean", "std", *UnitBoxMethod.result_keys)
    history_columns = ("iteration", "evaluations", "elite_mean_f", "best_f", "mean_f")

    def optimise(self, search: SearchRun, config: CEMSettings) -> Tuned:
        """Source 003's run: the cross-entropy method over an evaluator's weights.

        The search's objective is a CEMObjective (its settings: study_seed, run, max_moves,
        fitness, fresh_seeds, threads). The search runs in the evaluator's tuning box scaled to
        the unit cube (`UnitBox`): it starts at the default weights (for cem8 the source's
        prior) with std `step` (for cem8's box of width 10, the source's sigma 1), keeps the
        best 20% (6 of 30), smooths with 0.7 and floors the std at 1e-4 of the box (the
        source's 1e-3 for cem8), all as in the source (the settings' defaults); samples are
        clipped to the box. `noise` = (a, b) adds Szita & Lorincz's decreasing variance (in
        the unit box). The result's mean, std, best_x, elite and final are in weights, its
        history in the unit box; the last iteration's best candidates are the final ones
        (`UnitBox.finish`). The sampler's generator derives from the run's seed; the game
        seeds from `study_seed` and the run.
        """
        box = UnitBox(search.objective)
        start, std = box.start(), np.full_like(box.width, config.step)
        result = box.run(cem.CEM, search, config, start, std)
        return box.finish(result, search, std=result.std * box.width)


METHOD = CEM()
