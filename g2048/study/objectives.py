"""The 2048 objectives the generic tuners optimise (the runs that use them: `runners`).

An objective maps a population X (n, d) to its values by playing every candidate's games with
`play_games`. Common random numbers: all candidates of one call play the same game seeds, which
come from the study's ``study_seed`` and the run's purpose (`naming.tuning_purpose`: the run's
name and the optimiser's seed) via `game_seeds`, never from the optimiser's generator (source 003,
section 7). Call k of an objective is generation k of NSGA-II (0 = the initial population) or
iteration k of the CEM or CMA-ES; with ``fresh_seeds`` it plays the seeds of purpose
``"<run>-s<seed>-gen<k>"`` / ``"<run>-s<seed>-iter<k>"``, otherwise those of purpose
``"<run>-s<seed>"`` in every call; `reevaluate` plays final candidates again on the seeds of
purpose ``"<run>-s<seed>-fresh"``. Use one objective per run: the call counter is part of its
state.

Agents. Source 000 trains with its ``Expectimax(depth=1)``, which moves, samples one spawn with the
agent's own generator and evaluates that board: a greedy player whose evaluation is blurred by a
random spawn. Its correct form is the greedy agent (depth 1: the board after the move), so
SEED000_AGENT is greedy. Source 003 trains with one-step greedy (its ``simulate`` also samples a
spawn before evaluating; same fix) and proposes a "two-step lookahead" for deployment: move, take
the expectation over the spawns (0.9 / 0.1 over the empty cells), then the best move, then
evaluate, i.e. M C M E, which its cost estimate (4 x 8 x 4 = 128 evaluations per move) counts.
In this project's depth convention that is expectimax depth 3 (SEED003_LOOKAHEAD). (Its recursive
code, called with 2 for "two steps", would add a second chance layer, M C M C E, which neither its
text nor its cost estimate describes.)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048.agents import AgentConfig
from g2048.engine.parallel import check_threads
from g2048.engine.rng import game_seeds
from g2048.evaluators import get_evaluator
from g2048.play import play_games
from g2048.study.naming import FRESH_STEP, OBJECTIVE_NAMES, WARM_UP_PURPOSE, tuning_purpose

SEED000_AGENT = AgentConfig("greedy")
SEED003_AGENT = AgentConfig("greedy")
SEED003_LOOKAHEAD = AgentConfig("expectimax", depth=3)

FITNESSES = ("log2_max_tile", "score")  # measured as the objectives of the same names
DEFAULT_FITNESS = FITNESSES[0]  # source 003's
# Fixed scales of `NSGA2Objective.normalise` (moves are divided by the objective's max_moves).
SCORE_SCALE = 20000.0  # source 000's divisor: a scale, not a bound (tuned greedy players pass it)
RANK_SCALE = 15.0  # 32768, the largest tile a game here can hold
EMPTY_SCALE = 16.0  # no position has more empty cells
WARM_UP_MOVES = 20  # a warm-up game's moves: enough to run every kernel of a move once


def log2_tiles(tiles: pd.Series) -> np.ndarray:
    """log2 of tile values (powers of two), exactly: the exponent that np.frexp reads off the
    float, not numpy's log2 ufunc, whose SIMD code may differ in the last bit between CPUs."""
    return (np.frexp(tiles.to_numpy(dtype=float))[1] - 1).astype(float)


def game_values(games: pd.DataFrame, objective: str) -> np.ndarray:
    """Each game's value of an objective of naming.OBJECTIVES (whose mean over the games is
    the objective's value): for standard errors over games."""
    if objective == "log2_max_tile":
        return log2_tiles(games.max_tile)
    return games[objective].to_numpy(dtype=float)


# Each objective of naming.OBJECTIVES as the mean of a play_games column over the games.
_MEASURES: dict[str, Callable[[pd.DataFrame], float]] = {
    "score": lambda df: df.score.mean(),
    "log2_max_tile": lambda df: log2_tiles(df.max_tile).mean(),
    "moves": lambda df: df.moves.mean(),
    "empty_mean": lambda df: df.empty_mean.mean(),
}


@dataclass(frozen=True)
class Reevaluation:
    """A run's final candidates (weights as played) on its selection games: their values as
    the tuner last saw them in training (`train`), their objective values on the `games`
    selection games (`fresh`) and their mean metric there (`metric`, what the pick is made
    by)."""

    X: np.ndarray
    train: np.ndarray
    fresh: np.ndarray
    metric: np.ndarray
    games: int


class GameObjective:
    """Plays a population's games, all candidates of one call on the same seeds."""

    name = ""  # the tuning method, the default run name in the purpose of the game seeds
    counter = ""  # what one call is to the optimiser
    # the game of the method's source: evaluator, agent, fresh_seeds and max_moves
    defaults: dict[str, Any] = {}

    def __init__(
        self,
        evaluator: str | None = None,
        agent: AgentConfig | None = None,
        games: int = 3,
        *,
        fresh_seeds: bool | None = None,
        max_moves: int | None = None,
        study_seed: int,
        run_seed: int = 0,
        run: str = "",
        threads: int = 1,
    ) -> None:
        """The candidates play `games` games each of `evaluator` played by `agent`, capped at
        `max_moves` moves, on new seeds each call with `fresh_seeds` (None: the class's
        `defaults`). `study_seed`, the run's name `run` (default: the method's) and `run_seed`
        (the optimiser's seed) choose the games; `threads` the threads the candidates are
        spread over."""
        given = {"evaluator": evaluator, "agent": agent}
        given |= {"fresh_seeds": fresh_seeds, "max_moves": max_moves}
        game = self.defaults | {k: v for k, v in given.items() if v is not None}
        evaluator, agent = game["evaluator"], game["agent"]
        fresh_seeds, max_moves = game["fresh_seeds"], game["max_moves"]
        self.evaluator = get_evaluator(evaluator)
        if agent.weight_rows != 1:
            raise ValueError(f"agent must take one weight vector, {agent.name!r} takes several")
        if games < 1:
            raise ValueError(f"games must be >= 1, got {games}")
        if max_moves < 1:
            raise ValueError(f"max_moves must be >= 1 (the seeds cap every game), got {max_moves}")
        if study_seed < 0:
            raise ValueError(f"study_seed must be >= 0, got {study_seed}")
        self.agent = agent
        self.games = games
        self.study_seed = study_seed
        self.run = run or self.name
        self.run_seed = run_seed
        self.fresh_seeds = fresh_seeds
        self.max_moves = max_moves
        self.threads = check_threads(threads)
        self.calls = 0
        self.games_played = 0

    def seeds(self, call: int) -> np.ndarray:
        """The game seeds every candidate plays in call `call` (0-based) of this objective."""
        step = f"{self.counter}{call}" if self.fresh_seeds else ""
        return game_seeds(
            self.study_seed, tuning_purpose(self.run, self.run_seed, step), self.games
        )

    def fresh_seeds_of(self, games: int) -> np.ndarray:
        """`games` seeds no training step plays: those of the run's re-evaluation."""
        purpose = tuning_purpose(self.run, self.run_seed, FRESH_STEP)
        return game_seeds(self.study_seed, purpose, games)

    def measure(self, frames: list[pd.DataFrame]) -> np.ndarray:
        """The objective's values of candidates from their games (one frame each)."""
        raise NotImplementedError

    def reevaluate(self, W: ArrayLike, train: ArrayLike, games: int, metric: str) -> Reevaluation:
        """Selection's data: weight rows W (as played), with their training values `train`,
        played on the run's `games` selection games (`fresh_seeds_of`): their raw objective
        values and their mean `metric` (an objective of naming.OBJECTIVES) there."""
        W = np.atleast_2d(np.asarray(W, dtype=float))
        frames = self.play(W, self.fresh_seeds_of(games))
        means = np.array([game_values(frame, metric).mean() for frame in frames])
        return Reevaluation(W, np.asarray(train, dtype=float), self.measure(frames), means, games)

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) the kernels this objective's games run: one
        game of the default weights, capped at WARM_UP_MOVES, on a seed of its own; no count,
        no result and no other game depends on it."""
        seeds = game_seeds(self.study_seed, WARM_UP_PURPOSE, 1)
        weights = self.evaluator.default_weights
        play_games(self.agent, seeds, self.evaluator.name, weights, max_moves=WARM_UP_MOVES)

    def advance(self, n: int) -> np.ndarray:
        """The seeds of the next call, on n candidates, with the call and its games counted:
        how `play` starts, and how a resumed run moves past a replayed step without playing."""
        seeds = self.seeds(self.calls)
        self.calls += 1
        self.games_played += n * len(seeds)
        return seeds

    def play(self, W: np.ndarray, seeds: np.ndarray | None = None) -> list[pd.DataFrame]:
        """The games of each weight row (one `play_games` frame per row) on `seeds`, or on the
        next call's seeds (advancing the counter).

        Candidates are spread over `threads` threads, each playing its games on one thread, which
        balances better than splitting a candidate's few games.
        """
        W = np.asarray(W, dtype=float)
        d = len(self.evaluator.features)
        if W.ndim != 2 or W.shape[1] != d:
            raise ValueError(
                f"X must have shape (n, {d}) for {self.evaluator.name!r}, got {W.shape}"
            )
        if seeds is None:
            seeds = self.advance(len(W))
        else:
            self.games_played += len(W) * len(seeds)

        def play_row(w: np.ndarray) -> pd.DataFrame:
            return play_games(self.agent, seeds, self.evaluator.name, w, max_moves=self.max_moves)

        with ThreadPoolExecutor(max_workers=self.threads) as pool:
            return list(pool.map(play_row, W))


class NSGA2Objective(GameObjective):
    """Source 000's four objectives of a weight vector, all maximised, as means over its games.

    Columns (naming.OBJECTIVES): score, log2 of the largest tile, moves, and the mean
    number of empty cells over the positions the agent faced (`empty_mean`). The source's fourth
    objective, empty cells at the end, is 0 for every lost game (only games stopped by the move cap
    end with space left), so it carries no information; the mean over the game keeps the source's
    intent, room to manoeuvre. Games stop after ``max_moves`` moves (seed: 2000).

    Seeds: fixed for the whole run by default (source 000, section 4: varying seeds add noise that
    drowns real differences). With ``fresh_seeds`` each generation's children play new seeds
    while the survivors keep the values they earned on earlier seeds, so survival compares across
    seed sets; CRN then hold only within a generation.

    Simplex (``simplex``, default: True for nsga4 only, as in source 000): the optimiser searches
    the box [0, 1]^d and a candidate x plays the weights x / sum(x) (the uniform vector when x = 0).
    Every positive multiple of x plays the same weights. For nsga4 this changes no game, as a linear
    value's argmax (and expectimax's expectations) are invariant under positive scaling, but it
    makes the reported weights (`weights_of`) canonical and comparable with the source's.

    Normalisation. The source divides the objectives by fixed scales "so that no objective dominates
    crowding". That changes nothing in NSGA-II: dominance is invariant under positive per-objective
    scaling, and `nsga2.crowding_distance` already divides each objective's gaps by its range in
    the front, so ranks, crowding distances (up to rounding) and hence the search are the same.
    Only the scale of the reported values and of the hypervolume changes. So `__call__` returns
    raw objectives (for tables) unless ``normalised``, and `normalise` maps them to the fixed
    scales score / SCORE_SCALE, rank / RANK_SCALE, moves / max_moves, empty / EMPTY_SCALE for
    hypervolumes and plots: all in [0, 1] except the score, which passes 1 above 20000 (tuned
    greedy nsga4 players reach 30000 within 2000 moves).
    """

    name = "nsga2"
    counter = "gen"
    defaults = {
        "evaluator": "nsga4",
        "agent": SEED000_AGENT,
        "fresh_seeds": False,
        "max_moves": 2000,
    }

    def __init__(
        self, *game: Any, simplex: bool | None = None, normalised: bool = False, **settings: Any
    ) -> None:
        """`GameObjective`'s arguments (`game`, `settings`), and `simplex` and `normalised`
        (see the class docstring)."""
        super().__init__(*game, **settings)
        name = self.evaluator.name
        self.simplex = name == "nsga4" if simplex is None else simplex
        if self.simplex and np.any(self.evaluator.bounds[:, 0] < 0):
            raise ValueError(f"simplex needs non-negative bounds; {name!r} has negative ones")
        self.normalised = normalised

    @property
    def scales(self) -> np.ndarray:
        """The divisors of `normalise`, one per objective."""
        return np.array([SCORE_SCALE, RANK_SCALE, self.max_moves, EMPTY_SCALE])

    def normalise(self, F: ArrayLike) -> np.ndarray:
        """Raw objectives on the fixed scales (see the class docstring)."""
        return np.asarray(F, dtype=float) / self.scales

    def weights_of(self, X: ArrayLike) -> np.ndarray:
        """The weights candidates X play: X itself, or each row scaled to sum 1 with `simplex`."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        if not self.simplex:
            return X.copy()
        total = X.sum(axis=1, keepdims=True)
        uniform = np.full_like(X, 1.0 / X.shape[1])
        return np.divide(X, total, out=uniform, where=total > 0)

    def measure(self, frames: list[pd.DataFrame]) -> np.ndarray:
        """(n, 4) raw objectives of n candidates' games."""
        return np.array([[_MEASURES[name](df) for name in OBJECTIVE_NAMES] for df in frames])

    def __call__(self, X: np.ndarray) -> np.ndarray:
        """(n, 4) objectives of the n candidates, raw unless ``normalised``."""
        F = self.measure(self.play(self.weights_of(X)))
        return self.normalise(F) if self.normalised else F


class CEMObjective(GameObjective):
    """Source 003's fitness of a weight vector: mean log2(max tile) over its games (or mean score).

    Games stop after ``max_moves`` moves (seed: 250 in training, 400 and 800 when checking), so
    the fitness rewards how far a policy gets in a fixed number of moves. The source prefers the
    largest tile to the score, which a policy can farm without progressing. Beware the source's cap:
    the tiles gain about 2.2 per move, so after 250 moves they sum to about 550 and the largest is
    almost always 256 (181 of 200 greedy games with the default cem8 weights), and the fitness
    hardly separates candidates that survive; a cap that games rarely reach avoids this.

    Seeds. Source 003 draws each game's seed from the sampler's generator, so every candidate meets
    different games and the fitness mixes sampling and game noise; it asks for evaluation seeds
    kept apart from the sampler's. Here all candidates of an iteration play the same seeds (CRN,
    the "same random seed for different parameters" its conclusion recommends). By default
    (``fresh_seeds``) each iteration plays new seeds, as the source's own code does, so the search
    does not fit a handful of games; with fixed seeds, which its text ("fixed seeds, so rounds are
    comparable") suggests, the fitness is a deterministic function of the weights and values are
    comparable across iterations, at the price of tuning to those few games.
    """

    name = "cem"
    counter = "iter"
    defaults = {"evaluator": "cem8", "agent": SEED003_AGENT, "fresh_seeds": True, "max_moves": 250}

    def __init__(self, *game: Any, fitness: str = DEFAULT_FITNESS, **settings: Any) -> None:
        """`GameObjective`'s arguments (`game`, `settings`), and the `fitness` maximised."""
        super().__init__(*game, **settings)
        if fitness not in FITNESSES:
            raise ValueError(f"fitness must be one of {', '.join(FITNESSES)}, got {fitness!r}")
        self.fitness = fitness

    def measure(self, frames: list[pd.DataFrame]) -> np.ndarray:
        """(n,) fitness of n candidates' games."""
        return np.array([_MEASURES[self.fitness](df) for df in frames])

    def __call__(self, X: np.ndarray) -> np.ndarray:
        """(n,) fitness of the n candidates."""
        return self.measure(self.play(X))
