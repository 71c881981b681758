"""The cross-entropy method (source 003), optionally with Szita & Lorincz's decreasing noise."""

from __future__ import annotations

import numpy as np

from g2048.study.methods.base import Key, SearchRun, Tuned
from g2048.study.methods.unitbox import POPULATION, SHARED_KEYS, STEP, UnitBox, UnitBoxMethod
from g2048.tuning import cem


class CEM(UnitBoxMethod):
    name = "cem"
    label = "CEM"
    description = "source 003's cross-entropy method"
    keys = {
        "population": Key(POPULATION, required=True),
        **SHARED_KEYS,
        "step": STEP,
        "noise": Key(
            {
                "description": (
                    "Szita & Lorincz's extra variance max(a - t / b, 0) at iteration t, as "
                    "[a, b] (none: source 003's CEM)"
                ),
                "type": "array",
                "items": {"type": "number", "exclusiveMinimum": 0},
                "minItems": 2,
                "maxItems": 2,
            }
        ),
    }
    result_keys = ("mean", "std", *UnitBoxMethod.result_keys)
    history_columns = ("iteration", "evaluations", "elite_mean_f", "best_f", "mean_f")

    def optimise(
        self,
        search: SearchRun,
        *,
        population: int,
        iterations: int,
        step: float = STEP.default,
        noise: tuple[float, float] | list[float] | None = None,
    ) -> Tuned:
        """Source 003's run: the cross-entropy method over an evaluator's weights.

        The search's objective is a CEMObjective (its settings: study_seed, run, max_moves,
        fitness, fresh_seeds, threads). The search runs in the evaluator's tuning box scaled to
        the unit cube (`UnitBox`): it starts at the default weights (for cem8 the source's
        prior) with std `step` (for cem8's box of width 10, the source's sigma 1), keeps the
        best 20% (6 of 30), smooths with 0.7 and floors the std at 1e-4 of the box (the
        source's 1e-3 for cem8), all as in the source; samples are clipped to the box. `noise`
        = (a, b) adds Szita & Lorincz's decreasing variance (in the unit box). The result's
        mean, std, best_x, elite and final are in weights, its history in the unit box; the
        last iteration's best candidates are the final ones (`UnitBox.finish`). The sampler's
        generator derives from the run's seed; the game seeds from `study_seed` and the run.
        """
        box = UnitBox(search.objective)
        result = cem.run(
            box.evaluate,
            box.start(),
            np.full_like(box.width, step),
            population=population,
            elite_frac=0.2,
            smoothing=0.7,
            std_floor=1e-4,
            noise=None if noise is None else tuple(noise),
            **box.loop(search, iterations),
        )
        std = result.std * box.width
        return box.finish(result, search, std=std)


METHOD = CEM()
