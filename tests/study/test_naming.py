"""The study's naming rules: candidate names, weight specs, the selection format, objective
names, the switching pairs, and the schema's agreement with the package."""

from pathlib import Path

import numpy as np
import pytest
import yaml

from g2048.agents import AgentConfig
from g2048.evaluators import EVALUATOR_NAMES
from g2048.report import figures
from g2048.report.tables import describe_agent
from g2048.study.config import (
    load_schema,
    network_pairs,
    switching_pairs,
    validate_config,
)
from g2048.study.naming import (
    OBJECTIVE_NAMES,
    OBJECTIVES,
    WeightSpec,
    candidate_name,
    parse_candidate,
    parse_weights,
    selected_weights,
    tuning_purpose,
)

CONFIGS = Path(__file__).resolve().parents[2] / "config"


def smoke() -> dict:
    return yaml.safe_load((CONFIGS / "smoke.yaml").read_text())


RUNS = ("nsga2", "cem", "nneonneo-cmaes", "td")


@pytest.mark.parametrize("run", RUNS)
def test_candidate_names_round_trip(run: str) -> None:
    assert parse_candidate(candidate_name(run, 12), RUNS) == (run, 12)


@pytest.mark.parametrize(
    "name", ["hand-classic4", "nsga2", "nsga2-s", "ga-s1", "cem-s1x", "nneonneo-s1", "cmaes-s1"]
)
def test_other_names_are_not_candidates(name: str) -> None:
    assert parse_candidate(name, RUNS) is None


@pytest.mark.parametrize("text", ["tuned:nsga2", "tuned:td", "front:nsga2", "tuned:nneonneo-cem"])
def test_weight_specs_parse_and_print_back(text: str) -> None:
    assert str(parse_weights(text)) == text


def test_weight_specs_know_their_kind_and_refuse_other_text() -> None:
    assert parse_weights("front:nneonneo-nsga2") == WeightSpec("front", "nneonneo-nsga2")
    assert parse_weights("front:nsga2").switching and not parse_weights("tuned:cem").switching
    kinds = {spec: parse_weights(f"{spec}:nsga2").entry for spec in ("tuned", "front", "balanced")}
    assert kinds == {"tuned": "weights", "front": "switching", "balanced": "balanced"}
    assert parse_weights([1.0, 2.0]) is None and parse_weights(None) is None
    for text in ("tuned:", "best:cem", "tuned:Cem", "tuned:cem-", "tuned:cem nsga2"):
        with pytest.raises(ValueError, match="weights must be numbers, tuned:<run>, front"):
            parse_weights(text)


def test_selected_weights_reads_the_vector_or_the_switching_rows() -> None:
    selection = {"weights": [1, 2], "balanced": [3, 4], "switching": [[1, 2], [3, 4], [5, 6]]}
    np.testing.assert_array_equal(selected_weights(selection), [1.0, 2.0])
    np.testing.assert_array_equal(selected_weights(selection, "balanced"), [3.0, 4.0])
    assert selected_weights(selection, "switching").shape == (3, 2)
    with pytest.raises(ValueError, match="no 'switching' entry"):
        selected_weights({"weights": [1, 2]}, "switching")
    with pytest.raises(ValueError, match="'balanced' entry must hold a list of numbers"):
        selected_weights(selection | {"balanced": [[1, 2]]}, "balanced")


def test_tuning_purposes_name_the_run_and_the_step() -> None:
    assert tuning_purpose("nsga2", 3) == "nsga2-s3"
    assert tuning_purpose("cem", 1, "iter4") == "cem-s1-iter4"


def test_objectives_are_named_once_for_tables_and_figures() -> None:
    assert OBJECTIVE_NAMES == ("score", "log2_max_tile", "moves", "empty_mean")
    front = {"seed": 1, "F": [[1, 2, 3, 4], [2, 1, 3, 4]], "front": [0, 1]}
    fig = figures.pareto_fronts([front], [{"train": [1, 2, 3, 4]}])
    labels = {ax.get_xlabel() for ax in fig.axes} | {ax.get_ylabel() for ax in fig.axes}
    assert labels == {o.label for o in OBJECTIVES}


def test_switching_pairs_match_the_front_with_its_balanced_twin() -> None:
    config = validate_config(smoke())
    assert switching_pairs(config) == [("switching-d2", "balanced-d2")]
    for entry in config["benchmark"]["entries"]:
        if entry["name"] == "balanced-d2":
            entry["agent"]["depth"] = 3  # no longer the switching agent's depth
    assert switching_pairs(config) == []


def test_network_pairs_match_every_heuristic_of_the_same_agent() -> None:
    config = validate_config(yaml.safe_load((CONFIGS / "config.yaml").read_text()))
    assert network_pairs(config) == [
        ("ntuple-d1", "greedy"), ("ntuple-d1", "nneonneo-d1"), ("ntuple-d1", "classic4-d1"),
        ("ntuple-d1", "nsga4-d1"), ("ntuple-d1", "cem8-d1"), ("ntuple-d3", "nneonneo-d3"),
        ("ntuple-d3", "nneonneo-cmaes-d3"), ("ntuple-d3", "nneonneo-cem-d3"),
        ("ntuple-d3", "nneonneo-nsga2-d3"), ("ntuple-100us", "expectimax-100us"),
        ("ntuple-1ms", "expectimax-1ms"),
    ]  # fmt: skip
    for entry in config["benchmark"]["entries"]:
        if entry["name"] == "nneonneo-d3":
            entry["agent"]["cutoff"] = 0.001  # other search settings: no longer comparable
    assert ("ntuple-d3", "nneonneo-d3") not in network_pairs(config)


def test_the_schema_lists_the_package_evaluators() -> None:
    assert tuple(load_schema()["$defs"]["evaluator"]["enum"]) == EVALUATOR_NAMES


def test_describe_agent_reads_defaults_from_the_package() -> None:
    assert (
        describe_agent({"name": "expectimax"}) == f"expectimax d{AgentConfig('expectimax').depth}"
    )
    rollouts = AgentConfig("montecarlo").rollouts
    assert describe_agent({"name": "hybrid"}) == f"hybrid d3 {rollouts} rollouts"


def test_describe_agent_names_the_depth_rule_and_the_budget() -> None:
    assert describe_agent({"name": "expectimax", "depth": "auto"}) == "expectimax auto depth"
    timed = {"name": "expectimax", "depth": 9, "budget_ms": 10}
    assert describe_agent(timed) == "expectimax to d9 10 ms/move"
    assert describe_agent({"name": "montecarlo", "budget_nodes": 400}) == (
        "montecarlo 400 nodes/move"
    )
