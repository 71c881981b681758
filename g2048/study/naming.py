"""The study's naming rules, each defined once: tuning methods, a tuned candidate's name, the
weight specs of the config (`tuned:<method>`, `front:<method>`), the game-seed purposes of every
stage, and the objectives with their labels. Pure data and string rules: nothing here plays."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

# The tuners of heuristic weights, then TD learning of an n-tuple network.
WEIGHT_TUNERS = ("nsga2", "cem")
METHODS = (*WEIGHT_TUNERS, "td")
NETWORK_EVALUATOR = "ntuple"  # what a td run trains, and the evaluator of its weight sets
_CANDIDATE = re.compile(r"(?P<method>[a-z0-9]+)-s(?P<seed>\d+)")


def candidate_name(method: str, seed: int) -> str:
    """The name of the weights a tuning run (method, seed) selected, e.g. "nsga2-s1"."""
    return f"{method}-s{seed}"


def parse_candidate(name: str) -> tuple[str, int] | None:
    """(method, seed) of a tuned candidate's name; None for any other name (a baseline)."""
    match = _CANDIDATE.fullmatch(name)
    if match is None or match["method"] not in METHODS:
        return None
    return match["method"], int(match["seed"])


@dataclass(frozen=True)
class WeightSpec:
    """A config's reference to tuned weights: `tuned:<method>` (the selected vector, or for td
    the network, that validated best) or `front:<method>` (the switching agent's three rows
    from that front)."""

    kind: str  # "tuned" or "front"
    method: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.method}"

    @property
    def switching(self) -> bool:
        """True for the switching agent's rows."""
        return self.kind == "front"


# Every spec a config may name (front points exist for NSGA-II only).
WEIGHT_SPECS = ("tuned:nsga2", "tuned:cem", "tuned:td", "front:nsga2")


def parse_weights(weights: object) -> WeightSpec | None:
    """The WeightSpec of a config's `weights` value; None for explicit numbers or defaults."""
    if not isinstance(weights, str):
        return None
    if weights not in WEIGHT_SPECS:
        raise ValueError(f"weights must be one of {', '.join(WEIGHT_SPECS)}, got {weights!r}")
    kind, method = weights.split(":")
    return WeightSpec(kind, method)


def selected_weights(selection: dict, switching: bool) -> np.ndarray | str:
    """The weights a selection file (written by the select stage) offers: its three switching
    rows, its one vector, or (a td run's) the path of its network file. The one reader of that
    format, for the pipeline and the CLI."""
    key = "switching" if switching else "weights"
    if key not in selection:
        raise ValueError(f"the selection has no {key!r} entry (keys: {', '.join(selection)})")
    if selection.get("evaluator") == NETWORK_EVALUATOR and not switching:
        if not isinstance(selection[key], str):
            raise ValueError(f"a network's selection names its file, got {selection[key]!r}")
        return selection[key]
    try:
        weights = np.asarray(selection[key], dtype=np.float64)
    except (TypeError, ValueError):
        weights = None
    if weights is None or weights.ndim != (2 if switching else 1):
        shape = "3 lists of numbers" if switching else "a list of numbers"
        raise ValueError(f"the selection's {key!r} entry must hold {shape}, got {selection[key]!r}")
    return weights


def tuning_purpose(method: str, seed: int, step: str = "") -> str:
    """Seed purpose of a tuning run's games, e.g. "nsga2-s1", or of one of its steps when the
    run plays fresh seeds each time, e.g. "cem-s1-iter3"."""
    base = candidate_name(method, seed)
    return f"{base}-{step}" if step else base


VALIDATE_PURPOSE = "validate"
BENCHMARK_PURPOSE = "benchmark"
PLAY_PURPOSE = "play"


@dataclass(frozen=True)
class Objective:
    """One of NSGA-II's objectives: its column name in result files and tables, its label in
    figures."""

    name: str
    label: str


OBJECTIVES = (
    Objective("score", "mean score"),
    Objective("log2_max_tile", "mean log2 max tile"),
    Objective("moves", "mean moves"),
    Objective("empty_mean", "mean empty cells"),
)
OBJECTIVE_NAMES = tuple(o.name for o in OBJECTIVES)
