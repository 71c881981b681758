"""NSGA-II (source 000): four objectives of an evaluator's weights, the balanced point of the final
front validated, and its extremes as the switching agent's rows."""

from __future__ import annotations

import dataclasses
import time

import moocore
import numpy as np

from g2048.study.logs import timing
from g2048.study.methods.base import Key, SearchRun, Tuned, WeightMethod, with_weights
from g2048.study.methods.fronts import can_switch, select_balanced, switching_rows
from g2048.study.naming import OBJECTIVE_NAMES
from g2048.study.objectives import NSGA2Objective
from g2048.tuning import nsga2


class NSGA2(WeightMethod):
    name = "nsga2"
    label = "NSGA-II"
    description = "source 000's four objectives"
    keys = {
        "pop_size": Key(
            {"description": "population size (even, 4 to 10 000)", "type": "integer",
             "minimum": 4, "maximum": 10000, "multipleOf": 2},
            required=True,
        ),
        "generations": Key(
            {"description": "generations after the initial population",
             "$ref": "#/$defs/iterations"},
            required=True,
        ),
    }  # fmt: skip
    result_keys = ("X", "F", "rank", "front", "ref_point")
    selection_keys = ("objectives", "switching", "train", "fresh")
    history_columns = ("generation", "evaluations", "hypervolume")
    figure = "fronts"

    objective_class = NSGA2Objective

    def steps(self, settings: dict) -> int:
        return settings["generations"] + 1  # the initial population, then each generation

    def training_games(self, settings: dict) -> int:
        return settings["pop_size"] * (settings["generations"] + 1) * settings["games"]

    def judged_by(self, settings: dict) -> str:
        return OBJECTIVE_NAMES[0]  # the score, its first objective

    def switches(self, evaluator: str) -> bool:
        return can_switch(evaluator)

    def headline(self, value: object) -> float:
        return float(np.asarray(value)[0])  # its values are the four objectives, score first

    def optimise(self, search: SearchRun, *, pop_size: int, generations: int) -> Tuned:
        """Source 000's run: NSGA-II over an evaluator's weights.

        The search's objective is an NSGA2Objective (its settings: study_seed, run,
        fresh_seeds, simplex, max_moves, threads). The optimiser's generator derives from the
        run's seed; the game seeds from `study_seed` and the run (its name and seed), so that
        runs with different seeds play different games. The result's X holds the weights played
        (`NSGA2Objective.weights_of`, on the simplex for nsga4) and F the raw objectives
        (naming.OBJECTIVES); its history's incumbents are the weights of the front point that
        the run's own pick rule (`select_balanced`) takes from each generation's front on its
        training values (the final pick uses the fresh values, which only the end has). The
        hypervolume reference point is the origin, worse than any
        game in every objective, so hypervolumes compare across runs. The final front is
        re-evaluated. Progress comes as one line per generation; its hv is that of the
        normalised front, in [0, 1] while scores stay below SCORE_SCALE.
        """
        objective, progress = search.objective, search.progress
        bounds = objective.evaluator.bounds
        start = time.perf_counter()

        def report(generation: int, result: nsga2.NSGA2Result) -> None:
            front = result.fronts[-1]
            hv = moocore.hypervolume(objective.normalise(front), ref=0.0, maximise=True)
            progress(
                f"gen {generation}/{generations}: front {len(front)}, hv {hv:.3f}, best score "
                f"{result.F[:, 0].max():.0f}, {timing(generation + 1, generations + 1, start)}"
            )

        result = nsga2.run(
            objective,
            bounds[:, 0],
            bounds[:, 1],
            pop_size=pop_size,
            generations=generations,
            ref_point=np.zeros(len(OBJECTIVE_NAMES)),
            callback=None if progress is None else report,
            pick=select_balanced,
            **search.loop(),
        )
        result = dataclasses.replace(
            result,
            X=objective.weights_of(result.X),
            history=with_weights(result.history, objective.weights_of),
        )
        return search.finish(result, result.X[result.rank == 0])

    def result_data(self, result: nsga2.NSGA2Result) -> dict:
        return {
            "X": result.X,
            "F": result.F,
            "rank": result.rank,
            "front": np.flatnonzero(result.rank == 0),
            "ref_point": result.ref_point,
        }

    def select(self, tuned: dict) -> dict:
        """The front's balanced point (on the fresh values when the run re-evaluated it) with
        its objectives, and for an evaluator with empty-cells and corner features the switching
        rows."""
        evaluator = tuned["settings"]["evaluator"]
        again = tuned.get("reevaluation")
        front = np.asarray(tuned["front"])
        X = np.asarray(tuned["X"])[front]
        F = np.asarray(tuned["F"])[front]
        judged = F if again is None else np.asarray(again["fresh"])
        pick = select_balanced(judged)
        out = {"evaluator": evaluator, "weights": X[pick], "objectives": F[pick]}
        if self.switches(evaluator):
            out["switching"] = switching_rows(evaluator, X, judged)
        if again is not None:
            out |= {"train": again["train"][pick], "fresh": again["fresh"][pick]}
        return out


METHOD = NSGA2()
