"""The study configuration: the shipped configs validate, bad values fail naming the key."""

import copy
import functools
import math
import operator
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from g2048.study.config import (
    ConfigError,
    flat_overrides,
    load_config,
    load_schema,
    read_yaml,
    refuse_templates,
    shard_range,
    study_config,
    train_threads,
    transfer_sets,
    tuned_game_for,
    tuned_game_sets,
    typed_overrides,
    use_checked,
    validate_config,
    validation_candidates,
)
from g2048.study.methods import get_method
from g2048.study.run import dotted_overrides

CONFIGS = Path(__file__).resolve().parents[2] / "config"


def smoke() -> dict:
    return yaml.safe_load((CONFIGS / "smoke.yaml").read_text())


SHIPPED = ("smoke.yaml", "config.yaml", "paper.yaml")


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_configs_are_valid(name: str) -> None:
    validate_config(yaml.safe_load((CONFIGS / name).read_text()))


def test_defaults_are_filled_in() -> None:
    config = smoke()
    for key in ("selection", "metric", "primary", "target_difference"):
        del config["tune"][key]
    del config["validate"]["transfer_depths"]
    validate_config(config)
    assert config["tune"]["selection"] == {"candidates": 5, "games": 100}
    assert config["tune"]["metric"] == "score" and config["tune"]["primary"] == "control"
    assert config["tune"]["target_difference"] == 0.1
    assert config["validate"]["transfer_depths"] == []
    assert config["benchmark"]["entries"][0]["max_moves"] == 0


def test_a_training_job_claims_threads_only_for_parallel_rounds() -> None:
    config = validate_config(smoke() | {"threads": 4})
    assert train_threads(config, "td") == 1  # serial training (batch 1) uses one core
    config["tune"]["td"]["batch"] = 40
    assert train_threads(config, "td") == 4
    config["tune"]["td"].update(batch=1, lock_free=True)
    assert train_threads(config, "td") == 4


def broken(edit) -> dict:  # noqa: ANN001
    config = copy.deepcopy(smoke())
    edit(config)
    return config


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (lambda c: c.update(trheads=2), "(top level)"),
        (lambda c: c["benchmark"]["entries"][0].update(games=-5), "benchmark.entries[0].games"),
        (lambda c: c["benchmark"]["entries"][1]["agent"].update(name="minimax"),
         "benchmark.entries[1].agent.name"),
        (lambda c: c["benchmark"]["entries"][2]["agent"].update(depth=0),
         "benchmark.entries[2].agent.depth"),
        (lambda c: c["benchmark"]["entries"][0].update(evaluator="magic"),
         "benchmark.entries[0].evaluator"),
        (lambda c: c["tune"].update(seeds=[]), "tune.seeds"),
        (lambda c: c["tune"]["runs"][0].update(pop_size=7), "tune.runs[0].pop_size"),
        (lambda c: c["tune"]["runs"][0].update(noise=[1, 2]), "tune.runs[0].noise"),
        (lambda c: c["tune"]["runs"][2].update(noise=[1, 2]), "tune.runs[2].noise"),
        (lambda c: c["tune"]["runs"][1].pop("iterations"), "tune.runs[1]"),
        (lambda c: c["tune"]["runs"][1].update(method="pso"), "tune.runs[1].method"),
        (lambda c: c["tune"]["runs"][1].update(name="td"), "tune.runs[1].name"),
        (lambda c: c["tune"]["runs"][1].update(name="Cem"), "tune.runs[1].name"),
        (lambda c: c["tune"]["runs"][1].update(name="cem-s2"), "tune.runs[1]"),
        (lambda c: c["tune"]["runs"][1].update(name="nsga2"), "tune.runs[1].name"),
        (lambda c: c["tune"]["runs"][1].update(reevaluate=100), "tune.runs[1]"),
        (lambda c: c["tune"]["runs"][1].update(metric="score"), "tune.runs[1]"),
        (lambda c: c["tune"]["runs"][1].update(selection={"games": 3}), "tune.runs[1]"),
        (lambda c: c["tune"]["selection"].update(candidates=0), "tune.selection.candidates"),
        (lambda c: c["tune"]["selection"].update(games=0), "tune.selection.games"),
        (lambda c: c["tune"].update(metric="moves"), "tune.metric"),
        (lambda c: c["tune"].update(primary="pairs"), "tune.primary"),
        (lambda c: c["tune"].update(target_difference=0), "tune.target_difference"),
        (lambda c: c["tune"]["runs"][1]["agent"].update(name="switching"),
         "tune.runs[1].agent.name"),
        (lambda c: c["tune"]["runs"][2].update(agent={"name": "expectimax", "star": True}),
         "tune.runs[2].agent.star"),
        (lambda c: c["benchmark"]["entries"][6].update(weights="tuned:nobody"),
         "benchmark.entries[6].weights"),
        (lambda c: c["benchmark"]["entries"][6].update(weights="front:cem"),
         "benchmark.entries[6].weights"),
        (lambda c: [d.update(evaluator="nneonneo") for d in (c["tune"]["runs"][0],
         *c["benchmark"]["entries"][5:7])], "benchmark.entries[6].weights"),
        (lambda c: c["validate"].update(transfer_depths=[0]), "validate.transfer_depths[0]"),
        (lambda c: c["validate"]["baselines"][0].update(name="tuned-x"),
         "validate.baselines[0].name"),
        (lambda c: c["validate"].update(reference="nobody"), "validate.reference"),
        (lambda c: c["validate"]["baselines"][0].update(weights=[1.0, 2.0]),
         "validate.baselines[0].weights"),
        (lambda c: c["benchmark"]["entries"][0].update(name="greedy"),
         "benchmark.entries[1].name"),
        (lambda c: c["benchmark"]["entries"][5].update(evaluator="ovolve"),
         "benchmark.entries[5].evaluator"),
        (lambda c: c["benchmark"]["entries"][6].update(weights="tuned:nsga2"),
         "benchmark.entries[6].weights"),
        (lambda c: c.update(threads=0), "threads"),
        (lambda c: c["tune"]["td"].update(network="huge"), "tune.td.network"),
        (lambda c: c["tune"]["td"].update(alpha=0), "tune.td.alpha"),
        (lambda c: c["tune"]["td"].update(checkpoint_every=1500), "tune.td.checkpoint_every"),
        (lambda c: c["tune"]["td"].update(init=-1), "tune.td.init"),
        (lambda c: c["tune"]["td"].update(tc_games=1500), "tune.td.tc_games"),
        (lambda c: c["tune"]["td"].update(tc_games=c["tune"]["td"]["games"] + 1000),
         "tune.td.tc_games"),
        (lambda c: c["tune"]["td"].update(tc_games=1000, coherence=True), "tune.td.tc_games"),
        (lambda c: c["tune"]["td"].update(tc_alpha=0), "tune.td.tc_alpha"),
        (lambda c: c["tune"]["td"].update({"lambda": 1.5}), "tune.td.lambda"),
        (lambda c: c["tune"]["td"].update(lock_free=True, batch=40), "tune.td.lock_free"),
        (lambda c: c["tune"]["td"].update(stages=[16384, 4096]), "tune.td.stages"),
        (lambda c: c["tune"]["td"].update(stages=[3000]), "tune.td.stages[0]"),
        (lambda c: c["benchmark"]["entries"][2]["agent"].update(downgrade=32768),
         "benchmark.entries[2].agent.downgrade"),
        (lambda c: c["benchmark"]["entries"][2]["agent"].update(downgrade=100),
         "benchmark.entries[2].agent.downgrade"),
        (lambda c: c["tune"]["runs"][0]["agent"].update(downgrade=32768),
         "tune.runs[0].agent.downgrade"),
        (lambda c: c["tune"]["runs"][0].update(evaluator="ntuple"), "tune.runs[0].evaluator"),
        (lambda c: c["validate"]["baselines"][0].update(evaluator="ntuple"),
         "validate.baselines[0].evaluator"),
        (lambda c: c["benchmark"]["entries"][0].update(evaluator="ntuple"),
         "benchmark.entries[0].weights"),
        (lambda c: c["benchmark"]["entries"][1].update(weights="tuned:td"),
         "benchmark.entries[1].evaluator"),
        (lambda c: c["benchmark"]["entries"][2]["agent"].update(star=True),
         "benchmark.entries[2].agent.star"),
        (lambda c: c["benchmark"]["entries"][2]["agent"].update(parallel="yes"),
         "benchmark.entries[2].agent.parallel"),
        # sizes a typo reaches (issue 28): each bounded, the bound in config/README.md
        (lambda c: c["tune"]["runs"][0].update(games=10**12), "tune.runs[0].games"),
        (lambda c: c["benchmark"]["entries"][3]["agent"].update(rollouts=10**9),
         "benchmark.entries[3].agent.rollouts"),
        (lambda c: c.update(threads=10**6), "threads"),
        (lambda c: c["validate"]["baselines"][0].update(weights=[1e308, 1.0, 0.1, 2.0]),
         "validate.baselines[0].weights"),
        (lambda c: c["benchmark"]["entries"][2].update(evaluator="cem8", weights=[1e308] * 8),
         "benchmark.entries[2].weights"),
        (lambda c: c["validate"]["baselines"][0].update(weights=[-1.0, 1.0, 0.1, 2.0]),
         "validate.baselines[0].weights"),
        (lambda c: c["validate"].update(games=10**7), "validate.games"),
        (lambda c: c["benchmark"]["entries"][0].update(games=10**7), "benchmark.entries[0].games"),
        (lambda c: c["benchmark"]["entries"][0].update(max_moves=10**7),
         "benchmark.entries[0].max_moves"),
        (lambda c: c["benchmark"].update(shards=10**5), "benchmark.shards"),
        (lambda c: c["benchmark"]["entries"][0].update(shards=0), "benchmark.entries[0].shards"),
        (lambda c: c["benchmark"]["entries"][0].update(shards=10**4, games=10),
         "benchmark.entries[0].games"),
        (lambda c: c["benchmark"]["entries"][0].update(runtime=0), "benchmark.entries[0].runtime"),
        (lambda c: c["benchmark"]["entries"][0].update(probe_moves=0),
         "benchmark.entries[0].probe_moves"),
        (lambda c: c["benchmark"]["entries"][2]["agent"].update(table_bits=40),
         "benchmark.entries[2].agent.table_bits"),
        (lambda c: c["benchmark"]["entries"][2]["agent"].update(budget_ms=1e9),
         "benchmark.entries[2].agent.budget_ms"),
        (lambda c: c["benchmark"]["entries"][2]["agent"].update(budget_nodes=10**12),
         "benchmark.entries[2].agent.budget_nodes"),
        (lambda c: c["benchmark"]["entries"][4]["agent"].update(step_cap=10**9),
         "benchmark.entries[4].agent.step_cap"),
        (lambda c: c["tune"]["runs"][0].update(max_moves=10**9), "tune.runs[0].max_moves"),
        (lambda c: c["tune"]["selection"].update(games=10**9), "tune.selection.games"),
        (lambda c: c["tune"]["runs"][0].update(pop_size=10**6), "tune.runs[0].pop_size"),
        (lambda c: c["tune"]["runs"][0].update(generations=10**6), "tune.runs[0].generations"),
        (lambda c: c["tune"]["runs"][1].update(population=10**6), "tune.runs[1].population"),
        (lambda c: c["tune"]["runs"][1].update(iterations=10**6), "tune.runs[1].iterations"),
        (lambda c: c["tune"]["runs"][1].update(step=1e308), "tune.runs[1].step"),
        (lambda c: c["tune"]["td"].update(games=10**12), "tune.td.games"),
        (lambda c: c["tune"]["td"].update(alpha=1e3), "tune.td.alpha"),
        (lambda c: c["tune"]["td"].update(checkpoint_every=10**12), "tune.td.checkpoint_every"),
        (lambda c: c["tune"]["progress"].update(games=10**7), "tune.progress.games"),
        (lambda c: c["tune"]["progress"].update(games=1), "tune.progress.games"),
        (lambda c: c["tune"]["progress"].update(points=1), "tune.progress.points"),
        (lambda c: c["tune"]["progress"].update(points=10**4), "tune.progress.points"),
        (lambda c: c["tune"]["progress"].update(every=2), "tune.progress"),
    ],
)  # fmt: skip
def test_a_bad_value_fails_naming_its_key(edit, key: str) -> None:  # noqa: ANN001
    with pytest.raises(ConfigError, match=re.escape(f"config key {key}:")):
        validate_config(broken(edit))


@given(st.integers(1, 500), st.integers(1, 20))
def test_shards_cover_every_game_once(games: int, shards: int) -> None:
    if shards > games:
        return
    covered = []
    for shard in range(shards):
        start, count = shard_range(games, shards, shard)
        covered.extend(range(start, start + count))
    assert covered == list(range(games))


def test_candidates_are_tuned_runs_then_baselines() -> None:
    config = validate_config(smoke())
    assert validation_candidates(config) == [
        "nsga2-s1", "nsga2-s2", "cem-s1", "cem-s2", "cmaes-s1", "cmaes-s2", "random-search-s1",
        "random-search-s2", "td-s1", "td-s2", "hand-classic4", "equal-nsga4", "nneonneo",
    ]  # fmt: skip
    assert transfer_sets(config) == [
        "tuned-nsga2", "tuned-cem", "tuned-cmaes", "tuned-random-search", "hand-classic4",
        "equal-nsga4", "nneonneo",
    ]  # fmt: skip
    config["validate"]["transfer_depths"] = []
    assert transfer_sets(config) == []


def alias_bomb(levels: int = 9) -> str:
    """A YAML "billion laughs": 10 ** levels strings through 10 anchors, in a few hundred
    bytes."""
    lines = ["a0: &a0 [" + ", ".join(["lol"] * 10) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def test_a_yaml_alias_bomb_fails_at_once_in_one_line(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(alias_bomb())
    with pytest.raises(ConfigError) as info:
        load_config(bomb)
    assert str(info.value).count("\n") == 0
    assert "1,234,567,909 values once its YAML aliases are expanded" in str(info.value)
    # the same check inside Snakemake, which has parsed the file itself
    with pytest.raises(ConfigError, match="an alias bomb"):
        validate_config(yaml.safe_load(alias_bomb()))
    bomb.write_text("a: &a [*a]\n")  # a recursive alias
    with pytest.raises(ConfigError, match="nested deeper than 32 levels"):
        load_config(bomb)


def test_a_config_file_is_read_within_bounds(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (1 << 20) + "\n" + (CONFIGS / "smoke.yaml").read_text())
    with pytest.raises(ConfigError, match="bytes, more than the 1,048,576 a study config may"):
        load_config(big)
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match="deep.yaml: "):
        load_config(deep)


def test_snakemakes_template_key_is_refused(tmp_path: Path) -> None:
    """A config with __use_yte__ is Python to Snakemake: check-config refuses it, and so does
    the Snakefile's first check (refuse_templates) for the files it is given."""
    templated = tmp_path / "templated.yaml"
    templated.write_text("__use_yte__: true\n" + (CONFIGS / "smoke.yaml").read_text())
    with pytest.raises(ConfigError, match="config key __use_yte__: turns the file's values"):
        load_config(templated)
    with pytest.raises(ConfigError, match=f"{templated}: sets __use_yte__"):
        refuse_templates([CONFIGS / "smoke.yaml", tmp_path / "missing.yaml", templated])
    refuse_templates([CONFIGS / "smoke.yaml", CONFIGS / "config.yaml"])


def test_runs_compared_with_one_another_need_equal_budgets() -> None:
    """Runs that tune one evaluator are compared: unequal training games are refused naming
    both runs and both budgets, to the game; runs of other evaluators are not held to them.
    Selection is one rule for all (tune.selection), so its games are equal by construction."""
    config = smoke()
    runs = {run["name"]: run for run in config["tune"]["runs"]}
    validate_config(copy.deepcopy(config))  # cem, cmaes and random-search: 6 x 2 x 2 games each
    runs["random-search"]["iterations"] = 3
    message = (
        "tune.runs[3]: runs cem and random-search both tune cem8, so the study compares them, "
        "but their training budgets differ: 24 games against 36"
    )
    with pytest.raises(ConfigError, match=re.escape(message)):
        validate_config(copy.deepcopy(config))
    runs["random-search"] |= {"evaluator": "classic4", "iterations": 5}
    validate_config(copy.deepcopy(config))  # alone on its evaluator
    runs["random-search"] |= {"evaluator": "nsga4", "iterations": 4, "population": 8}
    runs["random-search"]["max_moves"] = 2000  # nsga2's game: its default cap
    validate_config(copy.deepcopy(config))  # nsga2's 8 x (3 + 1) x 2 games
    runs["random-search"]["iterations"] = 3
    with pytest.raises(ConfigError, match="runs nsga2 and random-search both tune nsga4"):
        validate_config(copy.deepcopy(config))


def test_every_run_offers_the_candidates_the_rule_plays() -> None:
    """The selection rule plays each seed's `candidates` best final points: a run whose final
    step holds fewer (its population) is refused by name; random search keeps as many as
    asked."""
    config = smoke()
    config["tune"]["selection"]["candidates"] = 7  # cem and cmaes: 6 a step; nsga2: 8
    message = (
        "tune.runs[1]: run cem's final step holds 6 candidates, fewer than the 7 "
        "tune.selection.candidates"
    )
    with pytest.raises(ConfigError, match=re.escape(message)):
        validate_config(copy.deepcopy(config))
    for run in config["tune"]["runs"][1:]:  # cem, cmaes and random-search: equal budgets
        run["population"] = 10
    validate_config(copy.deepcopy(config))
    config["tune"]["selection"]["candidates"] = 9
    with pytest.raises(ConfigError, match="run nsga2's final step holds 8 candidates"):
        validate_config(copy.deepcopy(config))


def test_runs_compared_with_one_another_play_one_game() -> None:
    """Runs of one evaluator are tested against each other in the game they were tuned in, so
    they must tune in the same one: another agent or move cap is refused naming both games."""
    config = smoke()
    runs = {run["name"]: run for run in config["tune"]["runs"]}
    runs["cmaes"]["max_moves"] = 200
    message = (
        "tune.runs[2]: runs cem and cmaes both tune cem8, so their picks are tested against "
        "each other in the game they were tuned in, but their move caps differ: 100 against 200"
    )
    with pytest.raises(ConfigError, match=re.escape(message)):
        validate_config(copy.deepcopy(config))
    runs["cmaes"] |= {"max_moves": 100, "agent": {"name": "expectimax", "depth": 2}}
    with pytest.raises(ConfigError, match="but their agents differ"):
        validate_config(copy.deepcopy(config))


def test_test_sets_play_the_game_their_run_was_tuned_in() -> None:
    """Every seed of each weight run and the baseline of each tuned evaluator are test sets
    (not td's networks, not a baseline no run is compared with); each plays its run's game,
    a baseline that of the runs of its evaluator, with the objective's default move cap where
    a run sets none (nsga2: 2000)."""
    config = validate_config(smoke())
    sets = tuned_game_sets(config)
    runs = ["nsga2", "cem", "cmaes", "random-search"]
    assert sets == [f"{r}-s{s}" for r in runs for s in (1, 2)] + ["equal-nsga4"]
    games = {name: tuned_game_for(config, name) for name in ("nsga2-s2", "equal-nsga4", "cem-s1")}
    assert {g["agent"]["name"] for g in games.values()} == {"greedy"}
    assert [g["max_moves"] for g in games.values()] == [2000, 2000, 100]
    config["validate"]["baselines"].append({"name": "cem-prior", "evaluator": "cem8"})
    assert tuned_game_sets(config)[-2:] == ["equal-nsga4", "cem-prior"]
    assert tuned_game_for(config, "cem-prior") == tuned_game_for(config, "random-search-s2")


def test_a_study_is_one_config_file_checked_as_check_config_checks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Snakefile's check (study_config): the --configfile given replaces the default, more
    than one is refused, and the file's faults read as check-config's (named as given)."""
    monkeypatch.chdir(tmp_path)
    partial = tmp_path / "partial.yaml"
    partial.write_text("study_seed: 7\nthreads: 1\n")
    with pytest.raises(ConfigError) as info:
        study_config([partial], CONFIGS / "config.yaml")  # the default is not merged in
    with pytest.raises(ConfigError) as checked:
        load_config("partial.yaml")
    assert str(info.value) == str(checked.value)
    assert str(info.value).startswith("partial.yaml: invalid configuration:")
    assert "'tune' is a required property" in str(info.value)
    with pytest.raises(ConfigError, match="a study is one config file, give one --configfile"):
        study_config([CONFIGS / "smoke.yaml", partial], CONFIGS / "config.yaml")
    path, config = study_config([], CONFIGS / "config.yaml")
    assert path == str(CONFIGS / "config.yaml")
    assert config == load_config(CONFIGS / "config.yaml")


def test_the_run_config_must_be_the_checked_file_with_its_overrides() -> None:
    """What Snakemake parsed must be the checked file with its --config overrides (as Snakemake
    merged them); it then becomes the checked contents, defaults filled in."""
    path = str(CONFIGS / "smoke.yaml")
    checked = load_config(path)
    config = smoke()
    use_checked(config, path, checked)
    assert config == checked and "transfer_depths" in config["validate"]
    overridden = smoke()
    overridden["tune"]["td"]["alpha"] = 0.5
    with pytest.raises(ConfigError, match=r"smoke.yaml: config key tune.td.alpha differs from"):
        use_checked(overridden, path, checked)
    use_checked(copy.deepcopy(overridden), path, checked, {"tune": {"td": {"alpha": 0.5}}})
    with pytest.raises(ConfigError, match=r"config key extra differs"):
        use_checked(smoke() | {"extra": 1}, path, checked)


def test_config_overrides_are_typed_merged_and_checked_as_the_file() -> None:
    """--config overrides, as Snakemake parsed them (strings inside a mapping), are read as a
    config file's values, merged key by key and checked by the same schema; a bad one is
    refused in one line naming the key."""
    path = CONFIGS / "smoke.yaml"
    parsed = {"validate": {"games": "10"}, "threads": 2, "tune": {"td": {"alpha": "0.5"}}}
    assert typed_overrides(parsed) == {
        "validate": {"games": 10}, "threads": 2, "tune": {"td": {"alpha": 0.5}},
    }  # fmt: skip
    assert flat_overrides(typed_overrides(parsed)) == {
        "validate.games": 10, "threads": 2, "tune.td.alpha": 0.5,
    }  # fmt: skip
    _, config = study_config([path], CONFIGS / "config.yaml", parsed)
    expected = load_config(path)
    assert config["validate"]["games"] == 10 and config["threads"] == 2
    assert config["tune"]["td"]["alpha"] == 0.5
    expected["validate"]["games"], expected["threads"] = 10, 2
    expected["tune"]["td"]["alpha"] = 0.5
    assert config == expected  # every other key the file's
    for value, fault in [
        ("0", "0 is less than the minimum of 1"),
        (".nan", "is not a finite number"),
        ("ten", "'ten' is not of type 'integer'"),
    ]:
        with pytest.raises(ConfigError) as info:
            study_config([path], CONFIGS / "config.yaml", {"validate": {"games": value}})
        message = str(info.value)
        assert "\n" not in message and "config key validate.games: " in message, message
        assert re.match(r"\S*smoke\.yaml with --config validate\.games=", message), message
        assert fault in message


def test_dotted_config_keys_become_the_nested_ones_snakemake_takes() -> None:
    assert dotted_overrides(
        ["-n", "--config", "validate.games=10", "tune.td.alpha=0.5", "threads=2", "--cores", "1"]
    ) == [
        "-n", "--config", 'validate={games: "10"}', 'tune={td: {alpha: "0.5"}}', "threads=2",
        "--cores", "1",
    ]  # fmt: skip
    assert dotted_overrides(["--config=validate.games=3", "x.y"]) == [
        '--config=validate={games: "3"}', "x.y",
    ]  # fmt: skip


def test_the_smoke_study_states_every_value_it_uses() -> None:
    """config/smoke.yaml is self-contained: merged over config/config.yaml (as Snakemake did
    before a --configfile replaced the default) it gives the same study, so its results are
    those it gave then."""
    merged = yaml.safe_load((CONFIGS / "config.yaml").read_text())

    def update(base: dict, new: dict) -> None:  # Snakemake's update_config
        for key, value in new.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                update(base[key], value)
            else:
                base[key] = value

    update(merged, smoke())
    assert validate_config(merged) == validate_config(smoke())


def test_a_duplicate_key_is_refused_naming_both_lines(tmp_path: Path) -> None:
    """YAML forbids a key twice in a mapping; PyYAML and Snakemake keep the last silently."""
    text = (CONFIGS / "smoke.yaml").read_text()
    dup = tmp_path / "dup.yaml"
    dup.write_text(text.replace("threads: 1\n", "threads: 1\nthreads: 2\n", 1))
    line = text.splitlines().index("threads: 1") + 1
    with pytest.raises(ConfigError) as info:
        load_config(dup)
    assert str(info.value) == (
        f"{dup}:{line + 1}:1: not valid YAML: duplicate key 'threads' (lines {line} and "
        f"{line + 1}): YAML keeps only the last; give it once"
    )
    nested = tmp_path / "nested.yaml"
    nested.write_text(text.replace("    alpha: 0.1\n", "    alpha: 0.1\n    alpha: 0.2\n", 1))
    with pytest.raises(ConfigError, match="duplicate key 'alpha'"):
        load_config(nested)
    # a merge key's values may be overridden: that is no duplicate
    merged = tmp_path / "merged.yaml"
    merged.write_text("base: &base {a: 1, b: 2}\nover:\n  <<: *base\n  b: 3\n")
    assert read_yaml(merged) == {"base": {"a": 1, "b": 2}, "over": {"a": 1, "b": 3}}


def test_a_key_error_names_the_keys_line_in_the_file(tmp_path: Path) -> None:
    lines = (CONFIGS / "smoke.yaml").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "games: 6")
    lines[at] = lines[at].replace("games: 6", "games: -6")
    bad = tmp_path / "bad.yaml"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ConfigError) as info:
        load_config(bad)
    assert f"config key validate.games (line {at + 1}): -6 is less than the minimum" in str(
        info.value
    )
    # a semantic check's key too, and a missing key gets the line of the mapping that lacks it
    config = smoke()
    config["validate"]["reference"] = "nobody"
    del config["tune"]["td"]["network"]
    bad.write_text(yaml.safe_dump(config, sort_keys=False))
    text = bad.read_text().splitlines()
    with pytest.raises(ConfigError) as info:
        load_config(bad)
    td = text.index("  td:") + 1
    assert f"config key tune.td (line {td}): 'network' is a required property" in str(info.value)
    bad.write_text(yaml.safe_dump(smoke() | {"validate": config["validate"]}, sort_keys=False))
    text = bad.read_text().splitlines()
    reference = next(i for i, line in enumerate(text) if "reference: nobody" in line) + 1
    with pytest.raises(ConfigError, match=rf"config key validate.reference \(line {reference}\)"):
        load_config(bad)


def _numeric_keys(schema: dict, node: dict, key: str = "") -> set[str]:
    """The keys of `schema` that hold numbers, lists' items written [] (tune.runs[].games)."""
    if "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    types = node.get("type", [])
    found = (
        {key}
        if {"number", "integer"} & set([types] if isinstance(types, str) else types)
        else set()
    )
    for name, sub in node.get("properties", {}).items():
        found |= _numeric_keys(schema, sub, f"{key}.{name}" if key else name)
    if isinstance(node.get("items"), dict):
        found |= _numeric_keys(schema, node["items"], f"{key}[]")
    for sub in node.get("oneOf", []) + node.get("anyOf", []):
        found |= _numeric_keys(schema, sub, key)
    return found


def _numbers(value: object, key: str = "") -> Iterator[tuple[str, list]]:
    """(key, path) of every number in a config, e.g. ("tune.runs[1].games", [...])."""
    if isinstance(value, dict):
        for name, sub in value.items():
            for shown, path in _numbers(sub, f"{key}.{name}" if key else name):
                yield shown, [name, *path]
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            for shown, path in _numbers(sub, f"{key}[{i}]"):
                yield shown, [i, *path]
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield key, []


def test_every_number_of_the_schema_refuses_nan_and_infinity() -> None:
    """Every numeric key of the schema (the methods' and agents' keys included) that the
    shipped configs hold, set to NaN, infinity or minus infinity in a valid config: refused
    in one line naming the key (NaN passed every bound, and then differed from itself)."""
    schema = load_schema()
    wanted = _numeric_keys(schema, schema)
    assert {"tune.runs[].noise[]", "tune.td.alpha", "study_seed"} <= wanted
    tested = set()
    configs = {name: yaml.safe_load((CONFIGS / name).read_text()) for name in SHIPPED}
    configs["smoke, with keys it leaves out"] = smoke()
    configs["smoke, with keys it leaves out"]["tune"]["runs"][1]["step"] = 0.2
    configs["smoke, with keys it leaves out"]["tune"]["runs"][1] |= {
        "elite_frac": 0.2, "smoothing": 0.7, "std_floor": 1e-4
    }  # fmt: skip
    configs["smoke, with keys it leaves out"]["tune"]["runs"][0] |= {
        "crossover_eta": 15.0, "mutation_eta": 20.0, "crossover_prob": 0.9, "mutation_prob": 0.1
    }  # fmt: skip
    configs["smoke, with keys it leaves out"]["tune"]["td"]["stages"] = [16384]
    for name, config in configs.items():
        validate_config(config, schema)
        for key, path in _numbers(config):
            if re.sub(r"\[\d+\]", "[]", key) in tested:
                continue  # each key at its first place
            for bad in (math.nan, math.inf, -math.inf):
                broken = copy.deepcopy(config)
                holder = functools.reduce(operator.getitem, path[:-1], broken)
                holder[path[-1]] = bad
                with pytest.raises(ConfigError) as info:
                    validate_config(broken, schema)
                assert str(info.value).splitlines()[1:] == [
                    f"  config key {key}: {bad} is not a finite number (NaN and infinity are "
                    "refused)"
                ], (name, key)
            tested.add(re.sub(r"\[\d+\]", "[]", key))
    assert wanted <= tested, sorted(wanted - tested)


def test_the_paper_study_is_sized_by_the_docs_power_analysis() -> None:
    """config/paper.yaml, the tuning study of record (issue 49): as many seeds as the primary
    family's largest `seeds_needed` in docs/ (the default study's method pairs), capped at 64;
    every run's per-seed training and selection games at least the default study's."""
    table = (CONFIGS.parent / "docs" / "tables" / "method_pairs.md").read_text().splitlines()
    header = [c.strip() for c in table[0].strip("|").split("|")]
    rows = [dict(zip(header, (c.strip() for c in r.strip("|").split("|")), strict=True))
            for r in table[2:] if r.startswith("|")]  # fmt: skip
    needed = [float(r["seeds_needed"]) for r in rows if r["family"] == "against the control"]
    assert needed and all(math.isfinite(n) for n in needed)
    paper, default = (load_config(CONFIGS / name) for name in ("paper.yaml", "config.yaml"))
    assert len(paper["tune"]["seeds"]) == min(64, max(needed))
    assert paper["tune"]["selection"] == default["tune"]["selection"]
    assert paper["tune"]["target_difference"] == default["tune"]["target_difference"]
    ours = {r["name"]: r for r in default["tune"]["runs"]}
    for run in paper["tune"]["runs"]:
        method = get_method(run["method"])
        base = ours[run["name"]]
        assert method.training_games(run) >= method.training_games(base), run["name"]
