"""The files `--weights` (and train's `--from`) name: heuristic weights, the pipeline's
selection files and network files, each checked against what the study recorded of it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from g2048.agents import AgentConfig
from g2048.evaluators import network
from g2048.evaluators.ntuple import TDL2048, Network, network_format
from g2048.study.naming import NETWORK_EVALUATOR, selected_weights
from g2048.study.records.integrity import check_recorded
from g2048.study.results import (
    parse_json,
    path_seed,
    read_text,
    seed_problem,
    unknown_selection_keys,
)


def read_weights(text: str, agent: AgentConfig) -> np.ndarray:
    """The --weights value: comma-separated numbers, or a JSON file holding a list of numbers
    (3 lists for switching) or a selection file of the pipeline (results/select/...)."""
    path = Path(text)
    if not (path.suffix == ".json" or path.exists()):
        if agent.weight_rows > 1:
            raise ValueError(
                f"agent {agent.name!r} takes {agent.weight_rows} weight vectors: give --weights "
                f"a JSON file, got {text!r}"
            )
        try:
            return np.array([float(v) for v in text.split(",")])
        except ValueError:
            raise ValueError(
                f"--weights must be comma-separated numbers or a JSON file, got {text!r}"
            ) from None
    check_recorded(path)
    try:
        with open(path, "rb") as file:
            kind = network_format(file.read(4))
    except OSError:  # _json_file says why
        kind = None
    if kind is not None:
        first = "import it (import-network), then play it" if kind == TDL2048 else "play it"
        raise ValueError(
            f"weights file {text} holds a network ({kind}), not heuristic weights: {first} "
            f"with --evaluator {NETWORK_EVALUATOR}"
        )
    data = _json_file(path, "weights file")
    if isinstance(data, dict):
        return _selected(data, text, agent.weight_rows > 1)
    try:
        return np.array(data, dtype=np.float64)
    except (TypeError, ValueError):
        shape = "3 lists of numbers" if agent.weight_rows > 1 else "a list of numbers"
        raise ValueError(
            f"weights file {text} must hold {shape}, got {json.dumps(data)[:60]}"
        ) from None


def _json_file(path: Path, what: str) -> object:
    """The JSON of the file `path`, a `what` ("weights file"); ValueError in one line naming
    it: unreadable, empty, not UTF-8 text (read_text), not JSON."""
    try:
        text = read_text(path)
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ValueError(f"{what} {path} {exc}") from None
    try:
        return parse_json(text)
    except ValueError as exc:
        raise ValueError(f"{what} {path} is not valid JSON: {exc}") from None


def _selected(data: object, text: str, switching: bool) -> np.ndarray | str:
    """The weights a selection file (parsed: `data`) offers (naming.selected_weights), or
    ValueError naming the file: not an object, or holding a key no selection of its method
    holds."""
    if not isinstance(data, dict):
        raise ValueError(f"selection file {text} holds a {type(data).__name__}, not a JSON object")
    unknown = unknown_selection_keys(data)
    if unknown:
        raise ValueError(
            f"selection file {text}: holds the key(s) {', '.join(unknown)}, which no selection "
            f"of method {data.get('method')!r} holds"
        )
    seed = path_seed(text)  # a seed's selection: its own seed, as the workflow checks it
    if seed is not None and (problem := seed_problem(data, seed)) is not None:
        raise ValueError(f"selection file {text}: {problem}")
    own = Path(text).parent / str(data.get("run")) / f"seed{data.get('seed')}.json"
    if "selection_values" in data and own.is_file():  # a run's pick, beside its seeds'
        check_recorded(own)
        seed_selection = _json_file(own, "selection file")
        if not isinstance(seed_selection, dict):
            raise ValueError(f"selection file {own} holds a {type(seed_selection).__name__}")
        differ = [k for k in seed_selection if seed_selection[k] != data.get(k)]
        if differ:
            raise ValueError(
                f"selection file {text}: picks seed {data.get('seed')}, but its "
                f"{', '.join(differ)} differ from that seed's selection file {own}: edited or "
                "replaced since?"
            )
    try:
        return selected_weights(data, "switching" if switching else "weights")
    except ValueError as exc:
        raise ValueError(f"selection file {text}: {exc}") from None


def recorded_network(path: str) -> Network:
    """The network file `path`, checked against the SHA-256 its training run recorded when the
    run's result file lies beside it (results/tune/td/seed1.npz and seed1.json, as the pipeline
    writes them; a network of `train --out` has none), and against its hash record."""
    loaded = network(path)
    if Path(path).is_file():
        check_recorded(path)
    run_file = Path(path).with_suffix(".json")
    if not run_file.is_file():
        return loaded
    try:
        recorded = parse_json(run_file.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(
            f"{run_file}, the run that trained {path}, cannot be read: {exc}"
        ) from None
    if not isinstance(recorded, dict) or "network_sha256" not in recorded:
        return loaded
    digest = hashlib.sha256(np.ascontiguousarray(loaded.lut).tobytes()).hexdigest()
    if digest != recorded["network_sha256"]:
        raise ValueError(
            f"{path}: its weights' SHA-256 is {digest[:16]}..., not "
            f"{str(recorded['network_sha256'])[:16]}... as its training run recorded in "
            f"{run_file}: replaced since?"
        )
    return loaded


def read_network(text: str | None) -> Network:
    """The --weights value of the ntuple evaluator: a network file (.npz), or the selection
    file of a td run (results/select/td/...) naming one."""
    if text is None:
        raise ValueError("--evaluator ntuple needs --weights: a network file (.npz)")
    if Path(text).suffix == ".json":
        check_recorded(text)
        data = _json_file(Path(text), "selection file")
        text = _selected(data, text, switching=False)
    return recorded_network(text)
