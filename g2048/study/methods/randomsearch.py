"""Random search over an evaluator's tuning box: the control every tuner must beat at the same
budget (Bergstra & Bengio 2012)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from g2048.study.methods.base import SearchRun, Tuned, with_weights
from g2048.study.methods.unitbox import Fitness, UnitBox, UnitBoxMethod
from g2048.tuning import random_search


@dataclass(frozen=True, kw_only=True)
class RandomSearchSettings(Fitness, random_search.RandomSearchConfig):
    """A random run's settings: the tuner's and the study's fitness."""


class RandomSearch(UnitBoxMethod):
    name = "random"
    label = "random search"
    description = "uniform samples of the tuning box, the control every tuner must beat"
    settings_class = RandomSearchSettings
    control = True
    result_keys = ("best_x", "best_f", "archive", "archive_f")
    history_columns = ("iteration", "evaluations", "best_f", "mean_f")

    def unevaluated_pick(self, tuned: dict) -> object:
        return tuned["best_x"]

    def final_size(self, settings: dict) -> int | None:
        return None  # it keeps as many of its best samples as the rule plays

    def optimise(self, search: SearchRun, config: RandomSearchSettings) -> Tuned:
        """Random search over an evaluator's weights with CEMObjective's fitness (the same
        settings; its games' purpose is the run's name, default "random"): `population`
        uniform samples of the tuning box an iteration, all on the same games.

        It keeps the best samples ever seen, as many as the selection rule plays (its final
        candidates). The result's best_x, archive and the history's incumbents (the best
        sample so far) are in weights.
        """
        box = UnitBox(search.objective)
        result = box.run(random_search.RandomSearch, search, config, keep=search.finalists)
        result = dataclasses.replace(
            result,
            best_x=box.weights(result.best_x),
            archive=box.weights(result.archive),
            history=with_weights(result.history, box.weights),
        )
        return search.finish(result, result.archive, result.archive_f)


METHOD = RandomSearch()
