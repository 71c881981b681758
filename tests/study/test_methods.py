"""The tuning methods as objects: each owns its keys, its run, its result and history, its
selection and its labels; the schema's method part comes from them, every default satisfies its
own schema, and a new method is one class and its registry entry."""

import copy
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import numpy as np
import pandas as pd
import pytest
import yaml

from g2048.report.tables import tuning_table
from g2048.settings import SettingError, setting
from g2048.study import config as study
from g2048.study.config import ConfigError, load_schema, validate_config
from g2048.study.methods import METHODS, Tuned, WeightMethod, get_method
from g2048.study.methods.base import SearchRun
from g2048.study.methods.cem import CEMSettings
from g2048.study.objectives import CEMObjective
from g2048.study.results import read_history, read_selection, read_tune, write_csv, write_json
from g2048.study.stages import select, tune
from g2048.tuning import nsga2

ROOT = Path(__file__).resolve().parents[2]


def smoke() -> dict:
    return yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())


def _defaults(node: object, root: dict, path: str = "") -> list[tuple[str, object, dict]]:
    """Every (path, default, subschema) of a schema."""
    found = []
    if isinstance(node, dict):
        if "default" in node:
            found.append((path, node["default"], node))
        for key, value in node.items():
            found += _defaults(value, root, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _defaults(value, root, f"{path}/{i}")
    return found


SCHEMA = load_schema()


@pytest.mark.parametrize(
    ("path", "default", "subschema"), _defaults(SCHEMA, SCHEMA), ids=lambda x: str(x)[:40]
)
def test_every_schema_default_satisfies_its_own_schema(path, default, subschema) -> None:  # noqa: ANN001
    rest = {k: v for k, v in subschema.items() if k != "default"}
    jsonschema.Draft202012Validator({**rest, "$defs": SCHEMA["$defs"]}).validate(default)


@pytest.mark.parametrize(
    ("method", "name"),
    [
        (m, k)
        for m in METHODS.values()
        for k, field in m.keys.items()
        if field.default not in (dataclasses.MISSING, None)  # None: the key's absence
    ],
    ids=str,
)
def test_every_method_default_satisfies_its_key_schema(method, name: str) -> None:  # noqa: ANN001
    spec = method.schema()["properties"][name]
    rest = {k: v for k, v in spec.items() if k not in ("description", "default")}
    default = method.keys[name].default
    default = list(default) if isinstance(default, tuple) else default
    jsonschema.Draft202012Validator({**rest, "$defs": SCHEMA["$defs"]}).validate(default)


def test_a_td_section_without_optional_keys_gets_their_defaults() -> None:
    config = smoke()
    del config["tune"]["td"]["checkpoint_every"]
    td = validate_config(config)["tune"]["td"]
    assert td["checkpoint_every"] == get_method("td").keys["checkpoint_every"].default
    assert td["coherence"] is False


def test_the_schema_takes_each_methods_keys_and_refuses_another_methods() -> None:
    config = smoke()
    config["tune"]["runs"][0]["noise"] = [0.1, 10]  # a cem key in an nsga2 run
    with pytest.raises(ConfigError, match=r"tune.runs\[0\].noise: not a setting of method nsga2"):
        validate_config(config)
    config = smoke()
    del config["tune"]["runs"][1]["population"]
    with pytest.raises(ConfigError, match="method cem needs 'population'"):
        validate_config(config)
    config = smoke()
    config["tune"]["runs"][0]["method"] = "ga"
    with pytest.raises(ConfigError, match=r"tune.runs\[0\].method: 'ga' is not one of"):
        validate_config(config)
    config = smoke()
    config["tune"]["runs"][0]["name"] = "td"  # the name of a method's own section
    with pytest.raises(ConfigError, match=r"tune.runs\[0\].name"):
        validate_config(config)


def test_unknown_methods_are_named() -> None:
    with pytest.raises(
        ValueError, match="unknown method 'ga'; known: nsga2, cem, cmaes, random, td"
    ):
        get_method("ga")


def test_no_method_name_is_compared_outside_the_registry() -> None:
    """The rest of the package asks the method: no `== "cem"` or `!= "td"` anywhere else."""
    names = "|".join(re.escape(n) for n in METHODS)
    compared = re.compile(rf"""([=!]=\s*["']({names})["'])|(["']({names})["']\s*[=!]=)""")
    sources = [*(ROOT / "g2048").rglob("*.py"), *(ROOT / "workflow").rglob("*.py")]
    sources += [*(ROOT / "workflow").rglob("*.smk"), ROOT / "Snakefile"]
    methods = ROOT / "g2048" / "study" / "methods"
    found = [
        f"{path.relative_to(ROOT)}:{i}"
        for path in sources
        if methods not in path.parents
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if compared.search(line)
    ]
    assert found == []


# A fourth optimiser, as a new method module would define it: random search in the unit box.


@dataclass(frozen=True)
class SearchResult:
    best_x: np.ndarray
    best_f: float
    history: pd.DataFrame


@dataclass(frozen=True)
class RoundsSettings:
    samples: int = setting(description="candidates", type="integer", minimum=1)
    rounds: int = setting(2, description="rounds", type="integer", minimum=1)


class RandomSearch(WeightMethod):
    name = "rs"
    label = "plain random search"
    description = "uniform samples of the tuning box, without the shared loop"
    settings_class = RoundsSettings
    result_keys = ("best_x", "best_f")
    history_columns = ("round", "best_f")
    objective_class = CEMObjective

    def judged_by(self, settings: dict) -> str:
        return "log2_max_tile"

    def training_games(self, settings: dict) -> int:
        options = self.options(settings)
        return options.samples * options.rounds * settings["games"]

    def final_size(self, settings: dict) -> int:
        return settings["samples"]

    def search(  # noqa: ANN001
        self, evaluator, *, agent, games, config, seed, selection, progress, resume, **settings,
    ) -> Tuned:  # fmt: skip
        """Runs whole or not at all: it takes no checkpoint (`resume`); its last round's
        samples, best first, are its final candidates (the study's rule picks among them)."""
        objective = CEMObjective(evaluator, agent, games, run_seed=seed, **settings)
        bounds = objective.evaluator.bounds
        rng = np.random.default_rng(seed)
        best_x, best_f, rows = None, -np.inf, []
        samples = config.samples
        for r in range(config.rounds):
            X = bounds[:, 0] + rng.random((samples, len(bounds))) * (bounds[:, 1] - bounds[:, 0])
            f = objective(X)
            if f.max() > best_f:
                best_x, best_f = X[int(np.argmax(f))], float(f.max())
            rows.append({"round": r, "best_f": best_f})
        result = SearchResult(best_x, best_f, pd.DataFrame(rows))
        order = np.argsort(-f, kind="stable")
        return SearchRun(objective, seed, selection).finish(result, X[order], f[order])


def test_a_new_method_needs_only_its_class_and_its_registry_entry(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(METHODS, "rs", RandomSearch())
    config = smoke()
    run = {"name": "random", "method": "rs", "evaluator": "cem8", "agent": {"name": "greedy"}}
    run |= {"games": 2, "samples": 6, "max_moves": 100}  # the budget and game of cem and cmaes
    config["tune"]["runs"].append(run)
    validated = validate_config(copy.deepcopy(config))
    assert "random" in study.run_names(validated)
    assert study.tuned_evaluator(validated, "random") == "cem8"
    bad = copy.deepcopy(config)
    bad["tune"]["runs"][-1]["pop_size"] = 4
    with pytest.raises(ConfigError, match="pop_size: not a setting of method rs"):
        validate_config(bad)
    del bad["tune"]["runs"][-1]["pop_size"], bad["tune"]["runs"][-1]["samples"]
    with pytest.raises(ConfigError, match="method rs needs 'samples'"):
        validate_config(bad)
    description = load_schema()["$defs"]["tuning_run"]["properties"]["samples"]["description"]
    assert description == "rs (required): candidates."

    settings = validated["tune"]["runs"][-1]
    rule = study.selection_rule(validated)  # the smoke study's: 2 candidates, 2 games each
    data, history, cost = tune("random", settings, 1, 2048, 1, lambda _: None, rule)
    assert data["train_games"] == 2 * 6 * 2  # two rounds (the default) of six two-game samples
    assert data["selection_games"] == 2 * 2 and cost.loc[0, "cpu_seconds"] > 0
    write_json(tmp_path / "seed1.json", data)
    write_csv(tmp_path / "seed1_history.csv", history)
    result = read_tune(tmp_path / "seed1.json", study.run_record(validated, "random"), 1)
    assert read_history(tmp_path / "seed1_history.csv", "rs").shape == (2, 2)
    selected = select(result)
    write_json(tmp_path / "select.json", selected)
    best = int(np.argmax(result["reevaluation"]["metric"]))
    assert read_selection(tmp_path / "select.json")["weights"] == result["reevaluation"]["X"][best]
    table = tuning_table([selected])
    assert table.loc[0, "method"] == "rs" and table.loc[0, "evaluator"] == "cem8"


@dataclass(frozen=True, kw_only=True)
class MoreCEM(CEMSettings):
    """A cem run's settings with one more, declared as a contributor adds one: one line."""

    restarts: int = setting(0, description="restarts", type="integer", minimum=0, maximum=5)


def test_a_new_tuner_setting_is_one_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    """One field added to a method's settings class reaches the config's schema (described,
    with its default), the method's checks and its run's settings; the checks of the study's
    config and of the tuner are that class's (NSGA-II's even population, written once)."""
    cem = get_method("cem")
    monkeypatch.setattr(cem, "settings_class", MoreCEM)
    properties = load_schema()["$defs"]["tuning_run"]["properties"]
    assert properties["restarts"] == {
        "description": "cem (default 0): restarts.", "type": "integer", "minimum": 0,
        "maximum": 5,
    }  # fmt: skip
    run = smoke()["tune"]["runs"][1]
    assert cem.options(run | {"restarts": 2}).restarts == 2
    with pytest.raises(SettingError, match=r"^restarts must be in 0..5, got 9$") as info:
        cem.check_section(run | {"restarts": 9})
    assert info.value.key == "restarts"
    config = smoke()
    config["tune"]["runs"][1]["restarts"] = 9
    with pytest.raises(ConfigError, match=r"tune.runs\[1\].restarts"):
        validate_config(config)
    config = smoke()
    config["tune"]["runs"][0]["pop_size"] = 6
    validate_config(config)
    config["tune"]["runs"][0]["pop_size"] = 7
    with pytest.raises(ConfigError, match=r"tune.runs\[0\].pop_size"):
        validate_config(config)
    with pytest.raises(SettingError, match="pop_size must be a multiple of 2, got 7"):
        nsga2.NSGA2Config(pop_size=7, generations=1)
