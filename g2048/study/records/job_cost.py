"""What a study job plays, in units whose cost another config's run can tell (`plan
--rates-from`): its games, and the settings that fix what one of them costs.

A benchmark shard plays its share of its entry's games with the entry's agent, evaluator and
weights; a tuning job plays its run's training and selection games in the run's tuning game; a
training job its training games of the run's recipe; a validation, test or transfer job the
validation's games of one weight set's evaluator at one depth or game; a progress job its
points' games. Two jobs of the same `kind` (their rule and those settings, whatever their
names, seeds or numbers of games) are taken to cost the same per game. Rules that play no
games (tables, figures, selections) have no work: their time does not grow with a config's
games.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from g2048.study import config as study
from g2048.study.methods.base import SelectionRule

# an entry's keys that do not change what one of its games costs
_LABELS = ("name", "games", "source", "note", "shards", "runtime", "probe_moves")
# a training run's keys that do not change what one of its games costs
_BUDGET = ("name", "games", "checkpoint_every")


@dataclass(frozen=True)
class Work:
    """A job's games (`units`) and what one of them costs the same in (`kind`)."""

    kind: str
    units: int


def parse_wildcards(text: str) -> dict[str, str]:
    """Snakemake's printed wildcards ("run=td, seed=1") as a mapping."""
    pairs = (item.partition("=") for item in text.split(", ") if item)
    return {name: value for name, _, value in pairs}


def _kind(rule: str, **settings: object) -> str:
    return f"{rule} {json.dumps(settings, sort_keys=True)}"


def weight_set_evaluator(config: dict, name: str) -> str:
    """The evaluator of a validated weight set: a tuned candidate <run>-s<seed>, a run's pick
    tuned-<run>, or a baseline."""
    run = study.weight_set_run(config, name)
    if run is not None:
        return study.tuned_evaluator(config, run)
    for baseline in config["validate"]["baselines"]:
        if baseline["name"] == name:
            return baseline["evaluator"]
    raise KeyError(name)


def _weight_game(config: dict, rule: str, wildcards: Mapping[str, str]) -> dict:
    """The game a validation (its depth), test (the set's tuning game) or transfer (the
    wildcard's depth) job plays."""
    if rule == "validate":
        return {"depth": config["validate"]["depth"]}
    if rule == "transfer":
        return {"depth": int(wildcards["depth"])}
    return study.tuned_game_for(config, wildcards["candidate"])


def job_work(config: dict, rule: str, wildcards: Mapping[str, str]) -> Work | None:
    """The work of the job of `rule` and `wildcards` in the study of `config` (checked and
    filled in by `study.validate_config`); None for a rule that plays no games."""
    threads = config["threads"]
    if rule == "benchmark_shard":
        entry = study.entry(config, wildcards["entry"])
        shards = study.entry_shards(config, wildcards["entry"])
        _, games = study.shard_range(entry["games"], shards, int(wildcards["shard"]))
        settings = {k: v for k, v in entry.items() if k not in _LABELS}
        return Work(_kind(rule, threads=threads, **settings), games)
    if rule in ("tune", "progress"):
        run = wildcards["run"]
        settings, method = study.run_settings(config, run), study.run_method(config, run)
        game = method.tuning_game(settings)
        evaluator = method.evaluator(settings)
        if rule == "progress":
            progress = config["tune"]["progress"]
            # the incumbent at each point, and the untuned weights once (stages.held_out_progress)
            units = progress["games"] * (min(progress["points"], method.steps(settings)) + 1)
            return Work(_kind(rule, evaluator=evaluator, game=game), units)
        selection = SelectionRule(**study.selection_rule(config))
        units = method.training_games(settings) + selection.selection_games
        kept = {"method": method.name, "evaluator": evaluator, "game": game}
        return Work(_kind(rule, threads=threads, **kept), units)
    if rule == "train":
        settings = study.run_settings(config, wildcards["run"])
        kept = {k: v for k, v in settings.items() if k not in _BUDGET}
        threads = study.train_threads(config, wildcards["run"])
        return Work(_kind(rule, threads=threads, **kept), settings["games"])
    if rule in ("validate", "test", "transfer"):
        name = wildcards.get("candidate") or wildcards["weightset"]
        evaluator = weight_set_evaluator(config, name)
        game = _weight_game(config, rule, wildcards)
        kept = {"evaluator": evaluator, "game": game}
        return Work(_kind("validate", threads=threads, **kept), config["validate"]["games"])
    return None
