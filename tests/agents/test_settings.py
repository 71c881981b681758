"""Agent settings defined once (g2048.settings): the schema that AgentConfig's fields
write for the study config, and AgentConfig's own checks, accept the same values."""

import copy
import dataclasses
from pathlib import Path

import jsonschema
import pytest
import yaml

from g2048.agents import AGENTS, AgentConfig, agent_schema
from g2048.agents.rollout import POLICIES
from g2048.settings import check_settings, object_schema, setting
from g2048.study.config import load_schema, validate_config

CONFIGS = Path(__file__).resolve().parents[2] / "config"
SCHEMA = agent_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SETTINGS = [f.name for f in dataclasses.fields(AgentConfig) if f.name != "name"]


def _package_accepts(key: str, value: object) -> bool:
    try:
        AgentConfig(**{"name": "expectimax", key: value})
    except ValueError:
        return False
    return True


def _schema_accepts(key: str, value: object) -> bool:
    return VALIDATOR.is_valid({"name": "expectimax", key: value})


def _probes(spec: dict) -> list[object]:
    """Values around each bound of a setting, words it takes and refuses, and wrong types; of
    the default's type where it has one (JSON Schema, unlike AgentConfig, takes 3.0 as an
    integer)."""
    kind = type(spec.get("default"))
    probes: list[object] = ["word", None, [1]]
    if kind is not bool:
        probes += [True, False]
    for part in spec.get("oneOf", [spec]):
        probes += part.get("enum", [])
        if "const" in part:
            probes.append(part["const"])
        if part.get("type") == "boolean":
            probes += [True, False, 1, 0, "yes"]
        for bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if bound in part:
                edge = part[bound]
                if part["type"] == "integer":
                    probes += [edge - 1, edge, edge + 1, edge + 0.5]
                else:
                    probes += [kind(edge), edge - 1e-9, edge + 1e-9]
    return probes


def test_the_config_takes_the_generated_agent_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert load_schema()["$defs"]["agent"] == SCHEMA
    assert SCHEMA["required"] == ["name"] and SCHEMA["additionalProperties"] is False
    assert list(SCHEMA["properties"]) == ["name", *SETTINGS]
    assert SCHEMA["properties"]["name"]["enum"] == list(AGENTS)
    assert SCHEMA["properties"]["rollout_policy"]["enum"] == list(POLICIES)


@pytest.mark.parametrize("key", SETTINGS)
def test_each_default_is_a_value_of_its_own_schema(key: str) -> None:
    spec = SCHEMA["properties"][key]
    assert spec["description"] and "default" in spec
    assert _schema_accepts(key, spec["default"])
    assert getattr(AgentConfig("expectimax"), key) == spec["default"]


def test_the_config_check_fills_in_the_package_defaults() -> None:
    raw = yaml.safe_load((CONFIGS / "smoke.yaml").read_text())
    config = validate_config(copy.deepcopy(raw))
    for given, filled in zip(
        raw["benchmark"]["entries"], config["benchmark"]["entries"], strict=True
    ):
        assert list(filled["agent"]) == [
            *given["agent"],
            *(k for k in SETTINGS if k not in given["agent"]),
        ]
        for key in SETTINGS:
            if key not in given["agent"]:
                default = getattr(AgentConfig, key)
                assert type(filled["agent"][key]) is type(default)
                assert filled["agent"][key] == default


@pytest.mark.parametrize("key", ["name", *SETTINGS])
def test_the_schema_and_the_package_accept_the_same_values(key: str) -> None:
    spec = SCHEMA["properties"][key]
    for value in _probes(spec):
        assert _schema_accepts(key, value) == _package_accepts(key, value), (key, value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "minimax"}, "agent must be one of random, greedy, "),
        ({"depth": "deep"}, "depth must be an integer or 'auto', got 'deep'"),
        ({"depth": 0}, "depth must be in 1..27 or 'auto', got 0"),
        ({"cutoff": 1.0}, r"cutoff must be in \[0, 1\), got 1.0"),
        ({"rollouts": 0}, "rollouts must be in 1..1000000, got 0"),
        ({"budget_ms": 1e9}, "budget_ms must be in \\[0, 60000\\], got 1000000000.0"),
        ({"rollouts": 2.0}, "rollouts must be an integer, got 2.0"),
        ({"rollout_policy": "smart"}, "rollout_policy must be one of random, biased, evaluator"),
        ({"empty_threshold": 17}, "empty_threshold must be in 0..16, got 17"),
        ({"parallel": 1}, "parallel must be true or false, got 1"),
    ],
)
def test_a_refused_value_is_named_with_what_it_must_be(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        AgentConfig(**{"name": "expectimax", **kwargs})


@dataclasses.dataclass(frozen=True)
class _Toy:
    """Bounds the agent's settings do not use: open lower bounds and upper bounds alone."""

    share: float = setting(0.5, description="a share", type="number", exclusiveMinimum=0)
    count: int = setting(1, description="a count", type="integer", maximum=9)
    ratio: float = setting(0.5, description="a ratio", type="number", exclusiveMaximum=1)

    def __post_init__(self) -> None:
        check_settings(self)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"share": 0.0}, "share must be > 0, got 0.0"),
        ({"count": 10}, "count must be <= 9, got 10"),
        ({"ratio": 1.0}, "ratio must be < 1, got 1.0"),
        ({"count": "9"}, "count must be an integer, got '9'"),
    ],
)
def test_the_checks_follow_the_schema_keywords(kwargs: dict, message: str) -> None:
    _Toy(share=0.1, count=9, ratio=0.9)
    with pytest.raises(ValueError, match=message):
        _Toy(**kwargs)
    validator = jsonschema.Draft202012Validator(object_schema(_Toy, "a toy"))
    assert validator.is_valid({"share": 0.1, "count": 9, "ratio": 0.9})
    assert not validator.is_valid(kwargs)
