"""Tuning runs of 2048 weights at a method's budget: NSGA-II (seed 000), the cross-entropy
method (seed 003) and CMA-ES, each over an evaluator's weights through the objectives of
`objectives`, with the optional re-evaluation of the final candidates on fresh seeds that
noise-aware selection judges by."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass

import moocore
import numpy as np

from g2048.agents import AgentConfig
from g2048.study.naming import OBJECTIVE_NAMES
from g2048.study.objectives import (
    SEED000_AGENT,
    SEED003_AGENT,
    CEMObjective,
    GameObjective,
    NSGA2Objective,
    Reevaluation,
)
from g2048.study.progress import timing
from g2048.tuning import cem, cmaes, nsga2


@dataclass(frozen=True)
class Tuned:
    """What a tuning run yields: the optimiser's result, the re-evaluation of its final
    candidates (None without one) and the games played in all (re-evaluation included)."""

    result: nsga2.NSGA2Result | cem.CEMResult | cmaes.CMAResult
    reevaluation: Reevaluation | None
    games_played: int


def _reevaluated(
    objective: GameObjective, result: object, candidates: np.ndarray, reevaluate: int
) -> Tuned:
    """The Tuned of a finished run: its final `candidates` re-evaluated on `reevaluate` fresh
    games each (none when 0)."""
    if reevaluate < 0:
        raise ValueError(f"reevaluate must be >= 0, got {reevaluate}")
    again = objective.reevaluate(candidates, reevaluate) if reevaluate else None
    return Tuned(result, again, objective.games_played)


def tune_nsga2(
    evaluator: str = "nsga4",
    *,
    agent: AgentConfig = SEED000_AGENT,
    games: int = 3,
    pop_size: int = 40,
    generations: int = 60,
    seed: int,
    reevaluate: int = 0,
    progress: Callable[[str], None] | None = None,
    **settings: object,
) -> Tuned:
    """Seed 000's run: NSGA-II over an evaluator's weights (defaults: the seed's budget).

    `settings` go to NSGA2Objective (study_seed is required; run, fresh_seeds, simplex,
    max_moves, threads). The optimiser's generator derives from `seed`; the game seeds from
    `study_seed` and the run (its name and `seed`), so that runs with different seeds play
    different games. The result's X holds the weights played (`NSGA2Objective.weights_of`, on
    the simplex for nsga4) and F the raw objectives (naming.OBJECTIVES). The hypervolume
    reference point is the origin, worse than any game in every objective, so hypervolumes
    compare across runs. With `reevaluate`, the final front plays that many fresh games per
    point. `progress` gets one line per generation; its hv is that of the normalised front,
    in [0, 1] while scores stay below SCORE_SCALE.
    """
    objective = NSGA2Objective(evaluator, agent, games, run_seed=seed, **settings)
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
        seed=seed,
        maximize=True,
        ref_point=np.zeros(len(OBJECTIVE_NAMES)),
        callback=None if progress is None else report,
    )
    result = dataclasses.replace(result, X=objective.weights_of(result.X))
    return _reevaluated(objective, result, result.X[result.rank == 0], reevaluate)


@dataclass(frozen=True)
class _UnitBox:
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

    def finish(
        self, result: cem.CEMResult | cmaes.CMAResult, reevaluate: int, **more: np.ndarray
    ) -> Tuned:
        """A CEM or CMA-ES run's Tuned: its mean, best and elite mapped to weights (and the
        fields `more` replaced), then its final mean and elite re-evaluated."""
        result = dataclasses.replace(
            result,
            mean=self.weights(result.mean),
            best_x=self.weights(result.best_x),
            elite=self.weights(result.elite),
            **more,
        )
        candidates = np.vstack([result.mean, result.elite])
        return _reevaluated(self.objective, result, candidates, reevaluate)


def _iteration_lines(
    progress: Callable[[str], None] | None, iterations: int
) -> Callable[[int, object], None] | None:
    """The callback that reports one line per iteration of CEM or CMA-ES (None: no progress)."""
    if progress is None:
        return None
    start = time.perf_counter()

    def report(iteration: int, result: cem.CEMResult | cmaes.CMAResult) -> None:
        row = result.history.iloc[-1]
        progress(
            f"iter {iteration + 1}/{iterations}: best {row.best_f:.3f}, mean {row.mean_f:.3f}, "
            f"{timing(iteration + 1, iterations, start)}"
        )

    return report


def tune_cem(
    evaluator: str = "cem8",
    *,
    agent: AgentConfig = SEED003_AGENT,
    games: int = 3,
    population: int = 30,
    iterations: int = 12,
    step: float = 0.1,
    noise: tuple[float, float] | None = None,
    seed: int,
    reevaluate: int = 0,
    progress: Callable[[str], None] | None = None,
    **settings: object,
) -> Tuned:
    """Seed 003's run: the cross-entropy method over an evaluator's weights (its budget).

    `settings` go to CEMObjective (study_seed is required; run, max_moves, fitness, fresh_seeds,
    threads). The search runs in the evaluator's tuning box scaled to the unit cube (`_UnitBox`):
    it starts at the default weights (for cem8 the seed's prior) with std `step` (for cem8's box
    of width 10, the seed's sigma 1), keeps the best 20% (6 of 30), smooths with 0.7 and floors
    the std at 1e-4 of the box (the seed's 1e-3 for cem8), all as in the seed; samples are
    clipped to the box. `noise` = (a, b) adds Szita & Lorincz's decreasing variance (in the unit
    box). The result's mean, std, best_x and elite are in weights, its history in the unit box.
    With `reevaluate`, the final mean and elite play that many fresh games each. The sampler's
    generator derives from `seed`; the game seeds from `study_seed` and the run. `progress` gets
    one line per iteration.
    """
    objective = CEMObjective(evaluator, agent, games, run_seed=seed, **settings)
    box = _UnitBox(objective)
    result = cem.run(
        box.evaluate,
        box.start(),
        np.full_like(box.width, step),
        population=population,
        elite_frac=0.2,
        smoothing=0.7,
        std_floor=1e-4,
        noise=noise,
        iterations=iterations,
        seed=seed,
        maximize=True,
        callback=_iteration_lines(progress, iterations),
        **box.limits(),
    )
    return box.finish(result, reevaluate, std=result.std * box.width)


def tune_cmaes(
    evaluator: str = "cem8",
    *,
    agent: AgentConfig = SEED003_AGENT,
    games: int = 3,
    population: int | None = None,
    iterations: int = 12,
    step: float = 0.1,
    seed: int,
    reevaluate: int = 0,
    progress: Callable[[str], None] | None = None,
    **settings: object,
) -> Tuned:
    """CMA-ES over an evaluator's weights, with CEMObjective's fitness (the same `settings`;
    its games' purpose is the run's name, default "cmaes").

    Like `tune_cem` it searches the unit box from the default weights, with step size `step`;
    `population` defaults to cma's 4 + 3 ln d. The result's mean, best_x and elite are in
    weights, sigma and the history in the unit box. With `reevaluate`, the final mean and elite
    play that many fresh games each.
    """
    settings.setdefault("run", "cmaes")
    objective = CEMObjective(evaluator, agent, games, run_seed=seed, **settings)
    box = _UnitBox(objective)
    result = cmaes.run(
        box.evaluate,
        box.start(),
        step,
        population=population,
        iterations=iterations,
        seed=seed,
        maximize=True,
        callback=_iteration_lines(progress, iterations),
        **box.limits(),
    )
    return box.finish(result, reevaluate)
