"""What a tuning method is to the study: the settings it takes, how it runs, what its result
file and history hold, and which weights it offers for validation. One subclass per method
(one module each, registered in `g2048.study.methods.METHODS`); the stages, the config check,
the result readers, the tables and figures ask the method instead of comparing its name."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048 import source_digest
from g2048.agents import AgentConfig
from g2048.settings import (
    from_settings,
    object_schema,
    setting_key,
    settings_of,
)
from g2048.study.objectives import GameObjective, Reevaluation
from g2048.tuning.loop import INCUMBENT

Log = Callable[[str], None]


@dataclass(frozen=True)
class Resume:
    """Where a tuning run keeps its checkpoint, and what ties the checkpoint to the run (its
    settings, seeds and the package's code: a checkpoint of other code is never resumed)."""

    path: str
    key: dict


def resumable(objective: GameObjective, resume: Resume | None, progress: Log | None) -> dict:
    """The tuning loop's checkpoint arguments for a run on `objective` (none without `resume`):
    a resumed run's replayed steps move the objective's game counter on as if they had been
    played, so that the rest of the run plays the games an uninterrupted run plays."""
    if resume is None:
        return {}

    def resumed(steps: list[np.ndarray]) -> None:
        for X in steps:
            objective.advance(len(X))
        if progress is not None:
            progress(f"resumed from {resume.path} after {len(steps)} steps")

    return {"checkpoint": resume.path, "key": resume.key, "resumed": resumed, "note": progress}


def incumbents(history: pd.DataFrame) -> np.ndarray:
    """A run's incumbent after each step (steps, d): the weights it would have returned had it
    stopped there (the history's incumbent_<k> columns, which the tuning loop records)."""
    columns = [c for c in history.columns if c.startswith(INCUMBENT)]
    if not columns:
        raise ValueError("the history records no incumbents (incumbent_<k> columns)")
    columns.sort(key=lambda c: int(c.removeprefix(INCUMBENT)))
    return history[columns].to_numpy(dtype=float)


def with_weights(
    history: pd.DataFrame, weights: Callable[[np.ndarray], np.ndarray]
) -> pd.DataFrame:
    """The history with its incumbents, points of the tuner's search space, replaced by the
    `weights` (of an (n, d) array) those points play."""
    W = weights(incumbents(history))
    return history.assign(**{f"{INCUMBENT}{k}": W[:, k] for k in range(W.shape[1])})


def pick_best(values: ArrayLike) -> int:
    """Index of the candidate the selection rule picks from their mean metric values: the
    best (the first of a tie)."""
    return int(np.argmax(np.asarray(values, dtype=float)))


@dataclass(frozen=True)
class SelectionRule:
    """The one rule by which every weight-tuning method picks a seed's weights (the config's
    `tune.selection` and `tune.metric`): the `candidates` best points its final step holds, by
    the method's own ranking, each play the same `games` fresh games of the run's game (its
    selection games), and the best mean `metric` wins."""

    candidates: int
    games: int
    metric: str = "score"

    def __post_init__(self) -> None:
        if self.candidates < 1 or self.games < 1:
            raise ValueError(
                f"selection needs candidates and games >= 1, got {self.candidates}, {self.games}"
            )

    @property
    def selection_games(self) -> int:
        """The games a seed's selection plays: every candidate plays every selection game."""
        return self.candidates * self.games


@dataclass(frozen=True)
class RunSeed:
    """One seed of a run, as a job runs it: the run's name and settings (a weight run's config
    entry; for a method with its own section, an instance of its `settings_class`), the
    optimiser's seed, the study seed its games' seeds derive from, the threads it may use,
    where it logs, and the study's selection rule (None: the run selects nothing)."""

    run: str
    settings: Any
    seed: int
    study_seed: int
    threads: int
    log: Log
    selection: SelectionRule | None = None


@dataclass(frozen=True)
class Tuned:
    """What a tuning run yields: the optimiser's result, the re-evaluation of its final
    candidates on the selection games (None without one), the games played in all and those
    of the re-evaluation (selection's games)."""

    result: Any
    reevaluation: Reevaluation | None
    games_played: int
    selection_games: int = 0


@dataclass(frozen=True)
class SearchRun:
    """What a method's search hands its optimiser beside the method's own options: the
    objective the candidates play, the optimiser's seed, the selection rule its final
    candidates follow (None: no selection games), where progress lines go and where the
    checkpoint is kept."""

    objective: GameObjective
    seed: int
    selection: SelectionRule | None = None
    progress: Log | None = None
    resume: Resume | None = None

    @property
    def finalists(self) -> int:
        """How many final candidates the method offers: the rule's, or 1 without a rule."""
        return 1 if self.selection is None else self.selection.candidates

    def loop(self) -> dict:
        """The optimiser's arguments every method passes alike: its seed, maximising, and the
        loop's checkpoint ones (`resumable`)."""
        checkpoint = resumable(self.objective, self.resume, self.progress)
        return {"seed": self.seed, "maximize": True, **checkpoint}

    def finish(self, result: object, candidates: np.ndarray, train: np.ndarray) -> Tuned:
        """The run's Tuned: the first `finalists` of its final `candidates` (weights as played,
        best first by the method's own ranking, with their training values `train`) played
        on the selection games, when the run has a selection rule."""
        trained = self.objective.games_played
        again = None
        if self.selection is not None:
            k = self.selection.candidates
            if len(candidates) < k:
                raise ValueError(
                    f"the run's final step holds {len(candidates)} candidates, not {k}"
                )
            rule = self.selection
            again = self.objective.reevaluate(candidates[:k], train[:k], rule.games, rule.metric)
        played = self.objective.games_played
        return Tuned(result, again, played, played - trained)


class Method:
    """A tuning method. `name` is its value of a run's `method` key (or, for a method with
    `own_section`, its section `tune.<name>` and its one run's name); `label` names it in
    tables and figures; `settings_class` declares the settings only it takes (a dataclass
    of `g2048.settings.setting` fields: for a weight tuner its tuner's config and the study's
    own, such as fitness), whose keys are `keys` but those `omitted`; `result_keys` and
    `history_columns` what its result JSON and history CSV must hold; `selection_keys` the
    keys its `select` may add to a selection beyond `evaluator` and `weights` (a selection
    holding others is refused); `figure` the figure that shows its runs' progress ("fronts",
    "progress" or "learning")."""

    name: str = ""
    label: str = ""
    description: str = ""
    settings_class: type
    omitted: tuple[str, ...] = ()  # settings of settings_class that are no keys of the config
    result_keys: tuple[str, ...] = ()
    selection_keys: tuple[str, ...] = ()
    history_columns: tuple[str, ...] = ()
    figure: str = "progress"
    own_section: bool = False
    control: bool = False  # the method every tuner must beat at the same budget (random search)
    trains_network: bool = False  # its weight sets are network files, not weight vectors

    def __repr__(self) -> str:
        return f"<method {self.name}>"

    @property
    def keys(self) -> dict[str, dataclasses.Field]:
        """The method's keys (in a run's entry or its section), each with its declaration."""
        fields = settings_of(self.settings_class)
        return {setting_key(f): f for f in fields if setting_key(f) not in self.omitted}

    def schema(self) -> dict:
        """The JSON schema of the method's keys, as a mapping (its section's)."""
        schema = object_schema(self.settings_class, self.description)
        schema["required"] = [k for k in schema["required"] if k in self.keys]
        schema["properties"] = {k: v for k, v in schema["properties"].items() if k in self.keys}
        return schema

    def options(self, settings: dict) -> Any:  # noqa: ANN401 (an instance of settings_class)
        """The run's settings of this method (its keys in `settings`, the rest their defaults)
        as an instance of `settings_class`, checked (SettingError naming the key to blame)."""
        return from_settings(
            self.settings_class, {k: settings[k] for k in self.keys if k in settings}
        )

    def missing(self, settings: dict) -> list[str]:
        """The required keys of this method that `settings` lacks."""
        required = self.schema()["required"]
        return [k for k in required if k not in settings]

    def check_section(self, section: dict) -> None:
        """The checks of the method's settings in a run's entry or its section, each key's and
        the rules across them (raises SettingError naming the key to blame): those of
        `settings_class`."""
        self.options(section)

    def evaluator(self, settings: dict) -> str:
        """The evaluator whose weights a run of these settings yields."""
        return settings["evaluator"]

    def judged_by(self, settings: dict) -> str:
        """What the method's own search maximises (an objective's name); a seed's pick is made
        by the study's metric all the same (`SelectionRule`)."""
        raise NotImplementedError

    def switches(self, evaluator: str) -> bool:
        """True when the method's selection offers the switching agent's three rows."""
        return False

    def headline(self, value: object) -> float:
        """The one number of a candidate's value that tables show (`judged_by`)."""
        return float(value)

    def selection_value(self, selected: dict) -> float:
        """What a seed's selection is worth when the run's pick is chosen among its seeds: its
        mean metric on the run's selection games (played with the agent and depth the run was
        tuned with), never on the test games that report it."""
        return float(selected["metric"])

    def select(self, tuned: dict) -> dict:
        """What a run's selection offers beyond its name: `evaluator`, `weights` and the
        method's extras (see `stages.select`)."""
        raise NotImplementedError


class WeightMethod(Method):
    """A method that tunes an evaluator's weights through the generic optimisers of
    `g2048.tuning`, configured as an entry of `tune.runs`."""

    # the keys of a tuning run common to every method (the rest: the method's `keys`)
    RUN_KEYS = ("name", "method", "evaluator", "agent", "games")
    objective_class: type[GameObjective] = GameObjective  # what a candidate's games measure
    selection_keys = ("train", "fresh", "metric")

    def final_size(self, settings: dict) -> int | None:
        """How many candidates a run's final step holds (its population), which bounds the
        selection rule's `candidates`; None where any number can be kept (random search)."""
        return None

    def unevaluated_pick(self, tuned: dict) -> object:
        """A run's pick when it played no selection games: its best final candidate."""
        raise NotImplementedError

    def select(self, tuned: dict) -> dict:
        """The study's one pick rule (`pick_best`): of the final candidates the run
        played on its selection games, the best by mean metric, with its training value
        (`train`, the tuner's own), its value of the method's objective on the selection games
        (`fresh`) and its mean metric there (`metric`); without selection games, the method's
        `unevaluated_pick`."""
        out = {"evaluator": tuned["settings"]["evaluator"]}
        again = tuned.get("reevaluation")
        if again is None:
            return out | {"weights": self.unevaluated_pick(tuned)}
        best = pick_best(again["metric"])
        return out | {
            "weights": np.asarray(again["X"])[best],
            "train": again["train"][best],
            "fresh": again["fresh"][best],
            "metric": again["metric"][best],
        }

    def objective(
        self,
        evaluator: str | None,
        agent: AgentConfig | None,
        games: int,
        seed: int,
        **settings: Any,
    ) -> GameObjective:
        """The objective a run with optimiser seed `seed` plays its games through (`settings`:
        the objective's; its games' purpose is the run's name, by default the method's; None:
        the objective's default evaluator or agent)."""
        settings.setdefault("run", self.name)
        return self.objective_class(evaluator, agent, games, run_seed=seed, **settings)

    def run_objective(
        self, run: str, settings: dict, seed: int, study_seed: int, threads: int = 1
    ) -> GameObjective:
        """The objective through which the run `run` (`settings`: its `tune.runs` entry) with
        optimiser seed `seed` plays: its agent, evaluator, move cap and games' seeds."""
        common = self.common_settings(settings)
        agent = AgentConfig(**settings["agent"])
        return self.objective(
            settings["evaluator"],
            agent,
            settings["games"],
            seed,
            run=run,
            study_seed=study_seed,
            threads=threads,
            **common,
        )

    def steps(self, settings: dict) -> int:
        """The tuner's steps (generations, iterations) in a run of these settings."""
        raise NotImplementedError

    def tuning_game(self, settings: dict) -> dict:
        """The game a run of these settings plays its candidates in, which its test games
        replay: its `agent` and `max_moves` (the objective's default where the run sets none)."""
        cap = settings.get("max_moves")
        if cap is None:
            cap = self.objective_class.defaults["max_moves"]
        return {"agent": settings["agent"], "max_moves": cap}

    def common_settings(self, settings: dict) -> dict:
        """The settings of a `tune.runs` entry that every method's search takes the same way
        (max_moves, fresh_seeds, ...): neither the run's keys nor the method's."""
        return {k: v for k, v in settings.items() if k not in (*self.RUN_KEYS, *self.keys)}

    def training_games(self, settings: dict) -> int:
        """The games a run of these settings plays in training: its budget, equal among the
        runs the study compares (each candidate of each step plays the run's `games`)."""
        raise NotImplementedError

    def search(
        self,
        evaluator: str | None = None,
        *,
        agent: AgentConfig | None = None,
        games: int = 3,
        seed: int,
        selection: SelectionRule | None = None,
        progress: Log | None = None,
        resume: Resume | None = None,
        config: Any = None,  # noqa: ANN401 (an instance of settings_class)
        **settings: Any,
    ) -> Tuned:
        """Run the optimiser over the weights of `evaluator` played by `agent` (by default
        its source's: the objective's `defaults`), `games` games a candidate, with the
        method's settings `config` (an instance of `settings_class`; None: made of the method's
        keys in `settings`). The rest of `settings` is the objective's (study_seed, run,
        max_moves, fresh_seeds, threads, ...). With `selection`, the final candidates play
        the rule's selection games (`SearchRun.finish`); with `resume` the loop keeps a
        checkpoint there and resumes from it (`resumable`); `progress` gets one line per
        step."""
        if config is None:
            config = self.options({k: settings.pop(k) for k in list(settings) if k in self.keys})
        settings |= self.objective_settings(config)
        objective = self.objective(evaluator, agent, games, seed, **settings)
        return self.optimise(SearchRun(objective, seed, selection, progress, resume), config)

    def objective_settings(self, config: Any) -> dict:  # noqa: ANN401
        """The method's settings that its objective takes too (none by default)."""
        return {}

    def optimise(self, search: SearchRun, config: Any) -> Tuned:  # noqa: ANN401
        """The method's optimiser on the objective of `search`, with the method's settings
        `config` (an instance of `settings_class`)."""
        raise NotImplementedError

    def result_data(self, result: Any) -> dict:
        """The fields of the optimiser's result that the run's JSON keeps: by default its
        attributes named by `result_keys`."""
        return {key: getattr(result, key) for key in self.result_keys}

    def warm_up(self, job: RunSeed) -> None:
        """Compile (or load from numba's cache) every kernel a run of `job` needs, so that
        its cost counts its tuning alone: one short game of its game (`GameObjective.warm_up`)."""
        self.run_objective(job.run, job.settings, job.seed, job.study_seed).warm_up()

    def tune(
        self, job: RunSeed, checkpoint: str | None = None
    ) -> tuple[dict, pd.DataFrame, dict[str, float]]:
        """One run (`job.settings`: an entry of the config's `tune.runs`, named `job.run`) with
        optimiser seed `job.seed`, its games seeded from `job.study_seed` and the run's name,
        its final candidates selected by `job.selection`: (result for JSON, per-step history,
        cost). The cost is the seconds of the warm-up (`warm_up`) and, after it, the wall and
        CPU seconds (all threads) of tuning and selection. With `checkpoint` (a file), a killed
        run resumes from its last finished step to the result an uninterrupted run gives."""
        run, settings, seed, study_seed = job.run, job.settings, job.seed, job.study_seed
        start = time.perf_counter()
        self.warm_up(job)
        wall, cpu = time.perf_counter(), time.process_time()
        resume = None
        if checkpoint is not None:  # never resumed under other settings, seeds or code
            key = {"run": run, "settings": settings, "seed": seed, "study_seed": study_seed}
            resume = Resume(checkpoint, key | {"code": source_digest(exclude=("report", "cli"))})
        tuned = self.search(
            settings["evaluator"],
            agent=AgentConfig(**settings["agent"]),
            games=settings["games"],
            seed=seed,
            run=run,
            study_seed=study_seed,
            threads=job.threads,
            selection=job.selection,
            progress=job.log,
            resume=resume,
            config=self.options(settings),
            **self.common_settings(settings),
        )
        data = self.result_data(tuned.result)
        if tuned.reevaluation is not None:
            again = tuned.reevaluation
            data["reevaluation"] = {
                "X": again.X,
                "train": again.train,
                "fresh": again.fresh,
                "metric": again.metric,
                "games": again.games,
            }
        cost = {
            "warmup_seconds": wall - start,
            "wall_seconds": time.perf_counter() - wall,
            "cpu_seconds": time.process_time() - cpu,
        }
        data["judged_by"] = self.judged_by(settings)
        data.update(run=run, method=self.name, seed=seed, study_seed=study_seed, settings=settings)
        games = {
            "games_played": tuned.games_played,
            "train_games": tuned.games_played - tuned.selection_games,
            "selection_games": tuned.selection_games,
        }
        if job.selection is not None:
            data["selection"] = dataclasses.asdict(job.selection)
        return data | games, tuned.result.history, cost
