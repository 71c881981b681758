"""A job's games and their kind (`study.records.job_cost`): jobs of two configs that play the same
settings share a kind whatever their names, seeds or numbers of games; a change of what a
game costs makes another kind."""

import copy
from pathlib import Path

import pytest

from g2048.study.config import load_config, validate_config
from g2048.study.records.job_cost import job_work, parse_wildcards, weight_set_evaluator

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def smoke() -> dict:
    return load_config(ROOT / "config" / "smoke.yaml")


def _changed(config: dict, change) -> dict:  # noqa: ANN001
    other = copy.deepcopy(config)
    change(other)
    return validate_config(other)


def test_wildcards_read_as_snakemake_prints_them() -> None:
    assert parse_wildcards("run=td, seed=1") == {"run": "td", "seed": "1"}
    assert parse_wildcards("") == {}


def test_a_shard_plays_its_share_of_its_entrys_games(smoke: dict) -> None:
    games = [job_work(smoke, "benchmark_shard", {"entry": "random", "shard": s}) for s in "01"]
    assert [w.units for w in games] == [4, 4]
    assert games[0].kind == games[1].kind

    def more(config: dict) -> None:
        entry = config["benchmark"]["entries"][0]
        entry.update(name="random-big", games=15, note="more games")

    bigger = _changed(smoke, more)
    work = job_work(bigger, "benchmark_shard", {"entry": "random-big", "shard": "0"})
    assert (work.kind, work.units) == (games[0].kind, 8)  # 15 games: 8 and 7


def test_another_agent_or_thread_count_is_another_kind(smoke: dict) -> None:
    base = job_work(smoke, "benchmark_shard", {"entry": "greedy", "shard": "0"}).kind

    def agent(config: dict) -> None:
        config["benchmark"]["entries"][1]["agent"] = {"name": "expectimax", "depth": 2}

    def threads(config: dict) -> None:
        config["threads"] = 2

    shard = {"entry": "greedy", "shard": "0"}
    for change in (agent, threads):
        assert job_work(_changed(smoke, change), "benchmark_shard", shard).kind != base


def test_a_tuning_job_plays_its_training_and_selection_games(smoke: dict) -> None:
    cem = job_work(smoke, "tune", {"run": "cem", "seed": "1"})
    # 2 iterations x 6 candidates x 2 games, then the rule's 2 candidates on 2 games each
    assert cem.units == 2 * 6 * 2 + 2 * 2
    nsga2 = job_work(smoke, "tune", {"run": "nsga2", "seed": "2"})
    assert nsga2.units == 8 * (3 + 1) * 2 + 2 * 2

    def longer(config: dict) -> None:  # nsga2 is the one run of nsga4: no budget to match
        config["tune"]["runs"][0]["generations"] = 5
        config["tune"]["runs"][0]["games"] = 3

    def capped(config: dict) -> None:
        config["tune"]["runs"][0]["max_moves"] = 50

    run = job_work(_changed(smoke, longer), "tune", {"run": "nsga2", "seed": "1"})
    assert (run.kind, run.units) == (nsga2.kind, 8 * (5 + 1) * 3 + 2 * 2)
    capped_run = job_work(_changed(smoke, capped), "tune", {"run": "nsga2", "seed": "1"})
    assert capped_run.kind != nsga2.kind
    assert cem.kind != job_work(smoke, "tune", {"run": "cmaes", "seed": "1"}).kind


def test_a_training_is_its_games_of_its_recipe(smoke: dict) -> None:
    train = job_work(smoke, "train", {"run": "td", "seed": "1"})
    assert train.units == 300

    def longer(config: dict) -> None:
        config["tune"]["td"]["games"] = 3000
        config["tune"]["td"]["checkpoint_every"] = 2000

    def other_lambda(config: dict) -> None:
        config["tune"]["td"]["lambda"] = 0.0

    work = job_work(_changed(smoke, longer), "train", {"run": "td", "seed": "2"})
    assert (work.kind, work.units) == (train.kind, 3000)
    assert job_work(_changed(smoke, other_lambda), "train", {"run": "td", "seed": "1"}).kind != (
        train.kind
    )


def test_weight_sets_are_played_by_their_evaluator_at_their_depth(smoke: dict) -> None:
    assert weight_set_evaluator(smoke, "nsga2-s1") == "nsga4"
    assert weight_set_evaluator(smoke, "tuned-cem") == "cem8"
    assert weight_set_evaluator(smoke, "nneonneo") == "nneonneo"
    with pytest.raises(KeyError):
        weight_set_evaluator(smoke, "nobody")
    validate = job_work(smoke, "validate", {"candidate": "nsga2-s1"})
    assert validate.units == 6
    # a transfer at the validation's depth plays the same games as a validation
    at_2 = job_work(smoke, "transfer", {"weightset": "equal-nsga4", "depth": "2"})
    at_1 = job_work(smoke, "transfer", {"weightset": "equal-nsga4", "depth": "1"})
    assert at_2.kind == validate.kind != at_1.kind
    assert job_work(smoke, "validate", {"candidate": "cem-s1"}).kind != validate.kind


def test_rules_that_play_no_games_have_no_work(smoke: dict) -> None:
    assert job_work(smoke, "table_benchmark", {}) is None
    assert job_work(smoke, "select", {"run": "cem", "seed": "1"}) is None


def test_a_progress_job_plays_each_point_and_the_untuned_weights(smoke: dict) -> None:
    """cem's 2 steps are both measured (3 points asked), then the untuned weights: 3 x 4 games."""
    assert job_work(smoke, "progress", {"run": "cem", "seed": "1"}).units == (2 + 1) * 4
    assert job_work(smoke, "progress", {"run": "nsga2", "seed": "1"}).units == (3 + 1) * 4


def test_a_timed_row_is_one_job_unless_it_says_otherwise(smoke: dict) -> None:
    """A timed row's job holds every core: one shard, not benchmark.shards, unless its own."""
    from g2048.study.config import entry_shards

    def timed(config: dict) -> None:
        entries = config["benchmark"]["entries"]
        entries[0]["agent"] = {"name": "expectimax", "depth": 27, "budget_ms": 1}
        entries[1]["agent"] = {"name": "expectimax", "depth": 27, "budget_ms": 1}
        entries[1]["shards"] = 3

    config = _changed(smoke, timed)
    first, second = (e["name"] for e in config["benchmark"]["entries"][:2])
    assert entry_shards(smoke, first) == 2
    assert entry_shards(config, first) == 1 and entry_shards(config, second) == 3


def test_a_row_of_its_own_shards_splits_its_games_over_them(smoke: dict) -> None:
    """An entry's `shards` (one game a job), its `runtime` and `probe_moves` change no game's
    cost: the same kind as the row without them."""
    from g2048.study.config import entry_runtime, entry_shards

    def own(config: dict) -> None:
        entry = config["benchmark"]["entries"][0]
        entry.update(games=10, shards=10, runtime=360, probe_moves=30)

    config = _changed(smoke, own)
    assert entry_shards(config, "random") == 10 and entry_shards(smoke, "random") == 2
    assert entry_runtime(config, "random") == 360 and entry_runtime(smoke, "random") == 240
    works = [job_work(config, "benchmark_shard", {"entry": "random", "shard": s}) for s in "09"]
    assert [w.units for w in works] == [1, 1]
    assert (
        works[0].kind == job_work(smoke, "benchmark_shard", {"entry": "random", "shard": "0"}).kind
    )
