"""The study's naming rules, each defined once: tuning runs, a tuned candidate's name,
the weight specs of the config (`tuned:<run>`, `front:<run>`, `balanced:<run>`), the game-seed
purposes of every stage, and the objectives with their labels. Pure data and string rules:
nothing here plays.

A tuning run is a named entry of the config's `tune` section (e.g. `cem`, `nneonneo-cmaes`): a
method, an evaluator, a fitness agent and a budget. Its name names its files, its candidates
(`<run>-s<seed>`) and the purposes of its game seeds. The methods themselves are the objects of
`g2048.study.methods`."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

NETWORK_EVALUATOR = "ntuple"  # what a td run trains, and the evaluator of its weight sets
RUN_NAME = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"  # lower-case words joined by hyphens
_CANDIDATE = re.compile(rf"(?P<run>{RUN_NAME})-s(?P<seed>\d+)")
WEIGHT_SPEC = rf"(?:tuned|front|balanced):{RUN_NAME}"  # a config's reference to a run's weights
_SPEC = re.compile(rf"(?P<kind>tuned|front|balanced):(?P<run>{RUN_NAME})")
# the entry of a selection file each kind of spec reads
SELECTION_ENTRY = {"tuned": "weights", "front": "switching", "balanced": "balanced"}
FRESH_STEP = "fresh"  # the step of a run's re-evaluation on fresh seeds
TRANSFER_PREFIX = "tuned-"  # a run's picked weights in the depth-transfer validation


def candidate_name(run: str, seed: int) -> str:
    """The name of the weights a tuning run (run name, seed) selected, e.g. "nsga2-s1"."""
    return f"{run}-s{seed}"


def parse_candidate(name: str, runs: tuple[str, ...] | list[str]) -> tuple[str, int] | None:
    """(run, seed) of a tuned candidate's name, one of `runs`; None for any other name."""
    match = _CANDIDATE.fullmatch(name)
    if match is None or match["run"] not in runs:
        return None
    return match["run"], int(match["seed"])


def transfer_name(run: str) -> str:
    """The name of a run's picked weights in the depth-transfer validation, e.g. "tuned-cem"."""
    return f"{TRANSFER_PREFIX}{run}"


@dataclass(frozen=True)
class WeightSpec:
    """A config's reference to tuned weights: `tuned:<run>` (the run's pick among its seeds,
    a vector or for td a network), `front:<run>` (the switching agent's three rows from the
    front of that NSGA-II run's pick) or `balanced:<run>` (that front's balanced point, source
    000's own pick)."""

    kind: str  # "tuned", "front" or "balanced"
    run: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.run}"

    @property
    def switching(self) -> bool:
        """True for the switching agent's rows."""
        return self.kind == "front"

    @property
    def entry(self) -> str:
        """The entry of the run's selection file that holds these weights."""
        return SELECTION_ENTRY[self.kind]


def parse_weights(weights: object) -> WeightSpec | None:
    """The WeightSpec of a config's `weights` value; None for explicit numbers or defaults.
    Whether the run exists (and has a front) is the config's check."""
    if not isinstance(weights, str):
        return None
    match = _SPEC.fullmatch(weights)
    if match is None:
        raise ValueError(
            f"weights must be numbers, tuned:<run>, front:<run> or balanced:<run>, got {weights!r}"
        )
    return WeightSpec(match["kind"], match["run"])


def selected_weights(selection: dict, key: str = "weights") -> np.ndarray | str:
    """The weights a selection file (written by the select stage) offers in its entry `key`
    (SELECTION_ENTRY's): its three switching rows, one vector (its pick, or NSGA-II's balanced
    point), or (a td run's) the path of its network file. The one reader of that format, for
    the pipeline and the CLI."""
    switching = key == SELECTION_ENTRY["front"]
    if key not in selection:
        raise ValueError(f"the selection has no {key!r} entry (keys: {', '.join(selection)})")
    if selection.get("evaluator") == NETWORK_EVALUATOR and key == "weights":
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


def network_file(run: str, seed: int) -> str:
    """The network file a run that trains networks writes for `seed` (the train rule's output,
    relative to the study's folder), e.g. "results/tune/td/seed1.npz"."""
    return f"results/tune/{run}/seed{seed}.npz"


def tuning_purpose(run: str, seed: int, step: str = "") -> str:
    """Seed purpose of a tuning run's games, e.g. "nsga2-s1", or of one of its steps when the
    run plays fresh seeds each time, e.g. "cem-s1-iter3", or of its re-evaluation on fresh
    seeds before selection, "cem-s1-fresh"."""
    base = candidate_name(run, seed)
    return f"{base}-{step}" if step else base


# The columns of result files that depend on the machine's speed (see g2048.study.results).
TIMING_COLUMNS = (
    "seconds",
    "ms_per_move",
    "wall_seconds",
    "cpu_seconds",
    "warmup_seconds",
    "moves_per_s",
)

VALIDATE_PURPOSE = "validate"
PROGRESS_PURPOSE = "progress"  # the held-out games that measure a tuning run's progress
BENCHMARK_PURPOSE = "benchmark"
PLAY_PURPOSE = "play"
WARM_UP_PURPOSE = "warm-up"  # the one game that compiles a tuning job's kernels before its clock


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


def objective_label(name: str) -> str:
    """An objective's (or fitness's) name as a reader reads it: 'log2_max_tile' -> 'mean log2
    max tile'."""
    labels = {o.name: o.label for o in OBJECTIVES}
    return labels.get(name, name.replace("_", " "))
