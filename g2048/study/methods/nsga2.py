"""NSGA-II (source 000): four objectives of an evaluator's weights; its seed's pick follows the
study's rule (its final population's best by its own ranking, played on the selection games),
and the balanced point of its final front (source 000's pick) and the front's extremes are
offered beside it, as labelled rows of their own and as the switching agent's rows."""

from __future__ import annotations

import dataclasses
import time

import moocore
import numpy as np

from g2048.study.methods.base import SearchRun, Tuned, WeightMethod, with_weights
from g2048.study.methods.fronts import can_switch, select_balanced, switching_rows
from g2048.study.naming import OBJECTIVE_NAMES
from g2048.study.objectives import NSGA2Objective
from g2048.study.records.logs import timing
from g2048.tuning import nsga2
from g2048.tuning.loop import run_tuner


class NSGA2(WeightMethod):
    name = "nsga2"
    label = "NSGA-II"
    description = "source 000's four objectives"
    settings_class = nsga2.NSGA2Config
    result_keys = ("X", "F", "rank", "front", "ref_point")
    selection_keys = (*WeightMethod.selection_keys, "balanced", "switching")
    history_columns = ("generation", "evaluations", "hypervolume")
    figure = "fronts"

    objective_class = NSGA2Objective

    def steps(self, settings: dict) -> int:
        return self.options(settings).steps  # the initial population, then each generation

    def training_games(self, settings: dict) -> int:
        return self.options(settings).pop_size * self.steps(settings) * settings["games"]

    def judged_by(self, settings: dict) -> str:
        return OBJECTIVE_NAMES[0]  # the score, its first objective

    def switches(self, evaluator: str) -> bool:
        return can_switch(evaluator)

    def headline(self, value: object) -> float:
        return float(np.asarray(value)[0])  # its values are the four objectives, score first

    def final_size(self, settings: dict) -> int:
        return self.options(settings).pop_size

    def optimise(self, search: SearchRun, config: nsga2.NSGA2Config) -> Tuned:
        """Source 000's run: NSGA-II over an evaluator's weights.

        The search's objective is an NSGA2Objective (its settings: study_seed, run,
        fresh_seeds, simplex, max_moves, threads). The optimiser's generator derives from the
        run's seed; the game seeds from `study_seed` and the run (its name and seed), so that
        runs with different seeds play different games. The result's X holds the weights played
        (`NSGA2Objective.weights_of`, on the simplex for nsga4) and F the raw objectives
        (naming.OBJECTIVES), the population in
        NSGA-II's own survival order (rank, then crowding distance, duplicates last), so that
        its first K are the K candidates the selection rule plays. The history's incumbents
        are each generation's front point with the best training score. The hypervolume
        reference point is the origin, worse than any game in every objective, so
        hypervolumes compare across runs. Progress comes as one line per generation; its hv
        is that of the normalised front, in [0, 1] while scores stay below SCORE_SCALE.
        """
        objective, progress = search.objective, search.progress
        generations = config.generations
        bounds = objective.evaluator.bounds
        start = time.perf_counter()

        def report(generation: int, result: nsga2.NSGA2Result) -> None:
            front = result.fronts[-1]
            hv = moocore.hypervolume(objective.normalise(front), ref=0.0, maximise=True)
            progress(
                f"gen {generation}/{generations}: front {len(front)}, hv {hv:.3f}, best score "
                f"{result.F[:, 0].max():.0f}, {timing(generation + 1, generations + 1, start)}"
            )

        result = run_tuner(
            nsga2.NSGA2,
            objective,
            bounds[:, 0],
            bounds[:, 1],
            config=config,
            ref_point=np.zeros(len(OBJECTIVE_NAMES)),
            callback=None if progress is None else report,
            **search.loop(),
        )
        result = dataclasses.replace(
            result,
            X=objective.weights_of(result.X),
            history=with_weights(result.history, objective.weights_of),
        )
        return search.finish(result, result.X, result.F)

    def result_data(self, result: nsga2.NSGA2Result) -> dict:
        return {
            "X": result.X,
            "F": result.F,
            "rank": result.rank,
            "front": np.flatnonzero(result.rank == 0),
            "ref_point": result.ref_point,
        }

    def unevaluated_pick(self, tuned: dict) -> object:
        front = np.asarray(tuned["front"])
        best = int(np.argmax(np.asarray(tuned["F"])[front, 0]))
        return np.asarray(tuned["X"])[front[best]]

    def select(self, tuned: dict) -> dict:
        """The study's pick (`WeightMethod.select`), and beside it source 000's: the final
        front's balanced point (`balanced`, on the values the run trained on) and, for an
        evaluator with empty-cells and corner features, the switching rows (balanced,
        empty-heavy, corner-heavy)."""
        evaluator = tuned["settings"]["evaluator"]
        front = np.asarray(tuned["front"])
        X = np.asarray(tuned["X"])[front]
        F = np.asarray(tuned["F"])[front]
        out = super().select(tuned) | {"balanced": X[select_balanced(F)]}
        if self.switches(evaluator):
            out["switching"] = switching_rows(evaluator, X, F)
        return out


METHOD = NSGA2()
