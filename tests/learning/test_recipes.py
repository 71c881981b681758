"""TD training's settings, defined once (TDConfig): the config's tune.td schema, the train
command's flags and the training function all come from it, and the named recipes are its."""

import argparse
import dataclasses
import importlib
import inspect
import re
from pathlib import Path

import pytest

from g2048.cli.main import build_parser, main
from g2048.learning.recipes import BLOCK, RECIPES, TRAIN_ONLY, TDConfig, td_schema
from g2048.learning.td import train
from g2048.settings import SettingError, setting, setting_key, settings_mapping, settings_of
from g2048.study import stages
from g2048.study.config import load_schema
from g2048.study.methods import get_method
from g2048.study.records.logs import ReportedError

PACKAGE = Path(__file__).resolve().parents[2] / "g2048"
SCHEMA = td_schema("", train=True)


def train_flags() -> dict[str, argparse.Action]:
    """The train command's options, by destination."""
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a for a in commands.choices["train"]._actions}


def test_the_config_schema_is_tdconfigs() -> None:
    td = load_schema()["properties"]["tune"]["properties"]["td"]
    study = td_schema("")
    assert td["properties"] == study["properties"]
    assert td["required"] == study["required"] == ["network", "games"]
    assert list(get_method("td").keys) == list(study["properties"])
    # the train command's own settings are no keys of a study (whose runs record every key)
    assert set(SCHEMA["properties"]) - set(study["properties"]) == {"from", "from_sha256"}
    assert set(TRAIN_ONLY) == {"from", "from_sha256"}


def test_the_train_flags_are_tdconfigs_settings() -> None:
    flags = train_flags()
    for key, spec in SCHEMA["properties"].items():
        action = flags[key]
        assert action.option_strings == ["--" + key.replace("_", "-")]
        # (the network may come from --patterns or --from instead)
        assert action.required == (key in SCHEMA["required"] and key != "network")
        assert action.default is argparse.SUPPRESS  # the recipe's value, else TDConfig's
        assert action.choices == spec.get("enum")
        if spec.get("default", "") != "" and spec.get("type") != "boolean":
            assert f"(default {spec['default']})" in action.help
    run_options = {"help", "recipe", "patterns", "seed", "study_seed", "threads", "out", "force"}
    run_options |= {"curve"}
    assert set(flags) == set(SCHEMA["properties"]) | run_options


def test_the_function_takes_a_tdconfig_whose_fields_are_the_settings() -> None:
    fields = settings_of(TDConfig)
    assert [setting_key(f) for f in fields] == list(SCHEMA["properties"])
    parameters = inspect.signature(TDConfig).parameters
    assert list(parameters) == [*(f.name for f in fields), "block"]
    for field in fields:
        default = parameters[field.name].default
        want = SCHEMA["properties"][setting_key(field)].get("default", inspect.Parameter.empty)
        assert (list(default) if isinstance(default, tuple) else default) == want
    taken = inspect.signature(train).parameters
    assert list(taken)[:2] == ["config", "seeds"]
    assert not set(taken) & ({f.name for f in fields} | {"lam", "lambda_", "block"})


def test_each_setting_is_spelled_out_only_in_its_definition() -> None:
    """No train flag, schema key or keyword default of a TD setting in the learner, the study
    or the CLI but in g2048/learning/recipes.py (the names read elsewhere, e.g.
    config["lambda"], are not definitions)."""
    patterns = []
    for field in settings_of(TDConfig):
        key = setting_key(field)
        flag = "--" + key.replace("_", "-")
        patterns += [rf"train\.add_argument\(\s*[\"']{flag}[\"']", rf"[\"']{key}[\"']: Key\("]
        if field.default is not dataclasses.MISSING:  # a default given again
            patterns += [rf"\b{field.name}: [\w\[\], .]+ = "]
    definition = PACKAGE / "learning" / "recipes.py"
    # the layers that once defined them again (an evaluator's stages are a network's own)
    for path in [
        p for layer in ("learning", "study", "cli") for p in (PACKAGE / layer).rglob("*.py")
    ]:
        if path != definition:
            text = path.read_text()
            for pattern in patterns:
                assert not re.search(pattern, text), f"{path}: {pattern}"


def test_lambda_is_one_setting_keyed_lambda() -> None:
    config = TDConfig("lines4x2", 1000, lambda_=0.5)
    assert settings_mapping(config)["lambda"] == 0.5
    with pytest.raises(SettingError, match=r"lambda must be in \[0, 1\], got 1.5") as info:
        TDConfig("lines4x2", 1000, lambda_=1.5)
    assert info.value.key == "lambda"


def test_the_rules_across_settings_name_the_setting_to_blame() -> None:
    cases = [
        ({"tc_games": 3000}, "tc_games", "tc_games 3000 is more than games (2000)"),
        ({"tc_games": 1000, "coherence": True}, "tc_games", "tc_games needs coherence off"),
        ({"checkpoint_every": 1500}, "checkpoint_every", f"a multiple of {BLOCK}"),
        ({"batch": 7}, "batch", f"batch must divide {BLOCK}"),
        ({"batch": 10, "lock_free": True}, "lock_free", "lock_free plays every game at once"),
        ({"stages": (64, 32)}, "stages", "must increase"),
    ]
    for settings, key, message in cases:
        with pytest.raises(SettingError, match=re.escape(message)) as info:
            TDConfig("lines4x2", 2000, **settings)
        assert info.value.key == key


def test_the_recipes_are_tdl2048s() -> None:
    base = {"network": "4x6patt", "games": 100_000}
    configs = {name: recipe.config(base) for name, recipe in RECIPES.items()}
    assert configs["td"] == TDConfig("4x6patt", 100_000)
    assert configs["otd"] == TDConfig("4x6patt", 100_000, init=320_000)
    assert configs["otd-tc"] == TDConfig(
        "4x6patt", 100_000, init=320_000, tc_games=10_000, tc_alpha=1.0
    )
    assert configs["2-stage"].stages == (4096,)
    assert configs["td-lambda"].lambda_ == 0.5
    assert [r.label for r in RECIPES.values()] == ["TD", "OTD", "OTD+TC", "2-stage", "TD(0.5)"]
    # the settings given override the recipe's; its TC share rounds down to a block
    assert RECIPES["otd"].config(base | {"init": 1000}).init == 1000
    assert RECIPES["otd-tc"].config(base | {"games": 25_000}).tc_games == 2000
    with pytest.raises(SettingError, match="games must be at least 10000"):
        RECIPES["otd-tc"].config(base | {"games": 5000})


def test_train_takes_a_recipe_under_the_flags_given(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """`train --recipe otd-tc` runs the recipe's settings, a flag given overriding one."""
    given = []

    def record(method, settings, *rest):  # noqa: ANN001, ANN002, ANN202
        given.append(settings)
        raise ReportedError("recorded")

    monkeypatch.setattr(stages, "train", record)
    args = ["train", "--network", "lines4x2", "--games", "20000", "--recipe", "otd-tc"]
    assert main([*args, "--init", "500", "--out", str(tmp_path / "net.npz")]) == 1
    want = TDConfig("lines4x2", 20000, init=500.0, tc_games=2000, tc_alpha=1.0)
    assert given == [want]


@dataclasses.dataclass(frozen=True)
class MoreTD(TDConfig):
    """TDConfig with one more setting, as a contributor adds one: one line."""

    decay: float = setting(0.0, description="a new setting", type="number", minimum=0, maximum=1)


def test_a_new_td_setting_is_one_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    """One field added to TDConfig reaches the train command's flags, the config's tune.td
    section (with its default) and the checks of both."""
    monkeypatch.setattr(importlib.import_module("g2048.cli.networks"), "TDConfig", MoreTD)
    args = build_parser().parse_args(["train", "--network", "lines4x2", "--games", "1000",
                                      "--out", "x.npz", "--decay", "0.5"])  # fmt: skip
    assert args.decay == 0.5
    td = get_method("td")
    monkeypatch.setattr(td, "settings_class", MoreTD)
    section = load_schema()["properties"]["tune"]["properties"]["td"]
    assert section["properties"]["decay"]["default"] == 0.0
    with pytest.raises(SettingError, match="decay must be in") as info:
        td.check_section({"network": "lines4x2", "games": 1000, "decay": 2.0})
    assert info.value.key == "decay"
