"""Reading and writing result files: JSON with sorted keys and fixed float formatting, CSV via
pandas, so that equal results give byte-identical files.

One checked reader per kind of result file (games, tuning run, selection, history, network): a
file that is unreadable, truncated or not what it must hold raises ResultFileError naming the
file, what is wrong and how to rebuild it, before anything downstream uses it. What it must
hold: the types, shapes and ranges of its values (numbers finite, weights inside their
evaluator's box, see g2048.study.weights; a network of the kind and size the config names), and
its provenance: given the run's record (`config.run_record`: what the config says the run is),
the run, method, evaluator, seeds and settings the file records must be the config's, and a
network's weights must have the SHA-256 its training run recorded.

naming.TIMING_COLUMNS (per-game CSVs and tables) are the only columns that differ between two runs
of the same study, but for the rows marked in TIMED_COLUMN (games under a time budget, whose
every column depends on the machine's speed); determinism checks and result digests leave
them out.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from g2048.evaluators import get_evaluator
from g2048.evaluators.ntuple import (
    Network,
    lut_size,
    network_file_problem,
    network_tuples,
    stage_text,
)
from g2048.play import COLUMNS
from g2048.study.methods import METHODS, Method, get_method
from g2048.study.naming import NETWORK_EVALUATOR, network_file
from g2048.study.records.logs import ReportedError
from g2048.study.weights import shown, weights_problem

TIMED_COLUMN = "timed"  # True in the rows of games played under a time budget (all timing)
PARALLEL_COLUMN = "parallel"  # True in rows searched in parallel: NODE_COLUMNS vary with timing
NODE_COLUMNS = ("nodes", "nodes_per_move")
REBUILD = (
    "delete it and run the same snakemake command again: it is rebuilt, with everything made "
    "from it"
)


class ResultFileError(ReportedError):
    """A result file that cannot be used: the message names it, the fault and the remedy."""

    def __init__(self, path: str | Path, problem: str) -> None:
        super().__init__(f"result file {path}: {problem}; {REBUILD}")


def _plain(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def write_json(path: str | Path, data: dict) -> None:
    """Write `data` as indented JSON with sorted keys (numpy values become plain numbers)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(_plain(data), indent=2, sort_keys=True) + "\n")


# How deep a JSON file the study reads may nest: its result, selection and digest files nest 4
# levels at most. Python's JSON parser, and the readers that walk what it parsed, recurse: a
# file nested 100 000 levels deep would end them in a RecursionError traceback.
MAX_JSON_DEPTH = 32
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def parse_json(text: str) -> object:
    """json.loads, within MAX_JSON_DEPTH levels of nesting: ValueError beyond (measured before
    parsing, without recursion, on the text with its strings taken out)."""
    codes = np.frombuffer(_JSON_STRING.sub('""', text).encode(), dtype=np.uint8)
    steps = np.isin(codes, (ord("["), ord("{"))).astype(np.int64)
    steps -= np.isin(codes, (ord("]"), ord("}")))
    depth = int(np.cumsum(steps).max(initial=0))
    if depth > MAX_JSON_DEPTH:
        raise ValueError(
            f"nested {depth} levels deep, more than the {MAX_JSON_DEPTH} a study's JSON file "
            "may be (its files nest 4)"
        )
    return json.loads(text)


def read_text(path: str | Path) -> str:
    """The text of the file `path`; ValueError with a phrase for the caller to put after the
    file's name ("is empty", "is not UTF-8 text (...)"): the one check of the study's text
    files (selections, result and record files, benchmark records) before they are parsed.
    OSError as reading raises it."""
    data = Path(path).read_bytes()
    if not data.strip():
        raise ValueError("is empty")
    try:
        return data.decode()
    except UnicodeDecodeError as exc:
        raise ValueError(f"is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_json(path: str | Path, keys: tuple[str, ...] = ()) -> dict:
    """Read a JSON result file holding an object with (at least) `keys`."""
    try:
        text = read_text(path)
    except OSError as exc:
        raise ResultFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise ResultFileError(path, str(exc)) from None
    try:
        data = parse_json(text)
    except ValueError as exc:
        raise ResultFileError(path, f"is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ResultFileError(path, f"holds a {type(data).__name__}, not a JSON object")
    missing = [k for k in keys if k not in data]
    if missing:
        raise ResultFileError(path, f"lacks the key(s) {', '.join(missing)}")
    return data


def write_csv(path: str | Path, df: pd.DataFrame) -> None:
    """Write a DataFrame as CSV without the index."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False)


def _read_csv(
    path: str | Path, columns: tuple[str, ...], numeric: tuple[str, ...] | None = None
) -> pd.DataFrame:
    """The CSV with every one of `columns`, no value missing, and the `numeric` ones (default:
    all of `columns`) numbers (or true/false), finite."""
    try:
        df = pd.read_csv(path)
    except (OSError, ValueError) as exc:  # pandas' parser errors are ValueErrors
        raise ResultFileError(path, f"cannot be read as CSV ({exc})") from None
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ResultFileError(path, f"lacks the column(s) {', '.join(missing)}")
    if df[list(columns)].isna().any().any():
        rows = df.index[df[list(columns)].isna().any(axis=1)].tolist()
        raise ResultFileError(path, f"has missing values (rows {rows[:5]}): truncated?")
    for column in columns if numeric is None else numeric:
        values = df[column]
        if pd.api.types.is_bool_dtype(values):
            continue
        if not pd.api.types.is_numeric_dtype(values):
            bad = pd.to_numeric(values, errors="coerce").isna()
            row = int(np.argmax(bad.to_numpy()))
            raise ResultFileError(
                path, f"column {column} holds {values.iloc[row]!r} in row {row}, not a number"
            )
        finite = np.isfinite(values.to_numpy(dtype=np.float64))
        if not finite.all():
            row = int(np.argmin(finite))
            raise ResultFileError(
                path, f"column {column} holds {values.iloc[row]} in row {row}, not a finite number"
            )
    return df


def read_games(path: str | Path, seeds: np.ndarray, start: int = 0) -> pd.DataFrame:
    """The per-game records of games start, start + 1, ... played from `seeds`: every column of
    play.COLUMNS, no missing value, the games in order and complete, each with its own seed."""
    df = _read_csv(path, COLUMNS, tuple(c for c in COLUMNS if c != "depths"))
    if len(df) != len(seeds):
        raise ResultFileError(path, f"holds {len(df)} games, not {len(seeds)}: truncated?")
    if not np.array_equal(df["game"].to_numpy(), np.arange(start, start + len(seeds))):
        raise ResultFileError(path, f"does not hold games {start}..{start + len(seeds) - 1}")
    if not np.array_equal(df["seed"].to_numpy(dtype=np.uint64), np.asarray(seeds, np.uint64)):
        raise ResultFileError(path, "holds games of other seeds than its config derives")
    return df


def _method(path: str | Path, data: dict) -> Method:
    """The method a result file names."""
    try:
        return get_method(data["method"])
    except ValueError as exc:
        raise ResultFileError(path, str(exc)) from None


def _canonical(value: object) -> object:
    """`value` as its JSON file holds it (numpy values and tuples made plain)."""
    return json.loads(json.dumps(_plain(value), sort_keys=True))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _numbers(path: str | Path, key: str, value: object, where: str = "") -> None:
    """ResultFileError unless `value` is a finite number or a list (of lists, or a mapping) of
    them: the numeric entries of tuning results and selections."""
    if isinstance(value, list):
        for i, item in enumerate(value):
            _numbers(path, key, item, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for name, item in value.items():
            _numbers(path, key, item, f"{where}.{name}")
        return
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if ok:
        try:
            ok = math.isfinite(value)
        except OverflowError:  # an int beyond any float
            ok = False
    if not ok:
        raise ResultFileError(
            path,
            f"its {key!r} entry holds {shown(value)}{' at ' + where if where else ''}, "
            "not a finite number",
        )


# A seed's selection (select stage): results/select/<run>/seed<k>.json
SEED_SELECTION = re.compile(r"seed(\d+)\.json")


def path_seed(path: str | Path) -> int | None:
    """The seed a seed's selection file names in its path (results/select/<run>/seed<k>.json),
    None for any other file."""
    path = Path(path)
    match = SEED_SELECTION.fullmatch(path.name)
    return int(match[1]) if match and path.parent.parent.name == "select" else None


def seed_problem(data: dict, seed: int) -> str | None:
    """What is wrong when a result file's `seed` entry is not `seed`, the seed of its path."""
    if data.get("seed") == seed:
        return None
    return f"records seed {shown(data.get('seed'))}, not {seed} (the seed of its path)"


def _check_provenance(
    path: str | Path, data: dict, record: dict, seed: int | None, keys: tuple[str, ...]
) -> None:
    """ResultFileError unless what the file records (`keys` of run, method, evaluator,
    study_seed, settings; and its seed) is what the config says of the run (`record`):
    `seed` is the one its path names, or None for any of the run's seeds (a pick)."""
    run = record["run"]
    if data["run"] != run:
        raise ResultFileError(
            path, f"records run {shown(data['run'])}, not {run!r}: a file of another run?"
        )
    if data["method"] != record["method"]:
        raise ResultFileError(
            path,
            f"records method {shown(data['method'])}; the config's run {run} is {record['method']}",
        )
    if "evaluator" in keys and data["evaluator"] != record["evaluator"]:
        raise ResultFileError(
            path,
            f"records evaluator {shown(data['evaluator'])}; the config's run {run} tunes "
            f"{record['evaluator']}",
        )
    if not _is_int(data["seed"]):
        raise ResultFileError(path, f"records seed {shown(data['seed'])}, not an integer")
    if seed is not None and (problem := seed_problem(data, seed)) is not None:
        raise ResultFileError(path, problem)
    if seed is None and data["seed"] not in record["seeds"]:
        raise ResultFileError(
            path,
            f"records seed {data['seed']}, not one of the config's tune.seeds {record['seeds']}",
        )
    if "study_seed" in keys and data.get("study_seed") != record["study_seed"]:
        raise ResultFileError(
            path,
            f"records study_seed {shown(data.get('study_seed'))}; the config's is "
            f"{record['study_seed']}",
        )
    if "settings" in keys:
        mine, config = _canonical(data["settings"]), _canonical(record["settings"])
        if mine != config:
            first = next(
                k
                for k in sorted(mine.keys() | config.keys())
                if mine.get(k, ...) != config.get(k, ...)
            )
            raise ResultFileError(
                path,
                f"records settings other than the config's for run {run} ({first}: "
                f"{shown(mine.get(first, '(none)'))} here, "
                f"{shown(config.get(first, '(none)'))} in the config)",
            )
    selection = record.get("selection")
    if (
        "selection" in keys
        and selection is not None
        and _canonical(data.get("selection")) != (_canonical(selection))
    ):
        raise ResultFileError(
            path,
            f"records the selection rule {shown(data.get('selection'))}; the config's is "
            f"{record['selection']} (tune.selection, tune.metric)",
        )


def _check_weights(path: str | Path, key: str, evaluator: str, value: object) -> None:
    problem = weights_problem(evaluator, value)
    if problem is not None:
        raise ResultFileError(path, f"its {key!r} entry {problem}")


def _check_offer(path: str | Path, offer: dict, method: Method, evaluator: str) -> None:
    """ResultFileError unless `offer` (a selection, or what a tuning run's file would select)
    holds valid weights of `evaluator`: its vector and, when the method offers them (or the
    file has them), the switching agent's three rows."""
    try:
        get_evaluator(evaluator)
    except ValueError as exc:
        raise ResultFileError(path, str(exc)) from None
    _check_weights(path, "weights", evaluator, offer["weights"])
    if "switching" in offer or method.switches(evaluator):
        rows = offer.get("switching")
        if isinstance(rows, np.ndarray):
            rows = rows.tolist()
        if not isinstance(rows, list) or len(rows) != 3:
            raise ResultFileError(
                path, f"its 'switching' entry must hold 3 weight vectors, got {shown(rows)}"
            )
        for row in rows:
            _check_weights(path, "switching", evaluator, row)
    if "balanced" in offer:
        _check_weights(path, "balanced", evaluator, offer["balanced"])
    for key in ("train", "fresh", "metric"):
        if key in offer:
            _numbers(path, key, _plain(offer[key]))


def read_tune(path: str | Path, record: dict | None = None, seed: int | None = None) -> dict:
    """A tuning run's result (tune stage): its method's keys, the run's seed and settings,
    every numeric entry finite, and what it offers for selection valid (weights of the run's
    evaluator inside its box; a td run's network file, its digest and games). With the run's
    `record` (config.run_record) and `seed`: the run, method, seed, study seed and settings
    the config gives it."""
    data = read_json(path, ("run", "method", "seed", "settings"))
    method = _method(path, data)
    missing = [k for k in method.result_keys if k not in data]
    if missing:
        raise ResultFileError(path, f"lacks the key(s) {', '.join(missing)}")
    if not isinstance(data["settings"], dict):
        raise ResultFileError(path, f"its 'settings' entry is {shown(data['settings'])}")
    if record is not None:
        _check_provenance(path, data, record, seed, ("study_seed", "settings", "selection"))
    elif not _is_int(data["seed"]):
        raise ResultFileError(path, f"records seed {shown(data['seed'])}, not an integer")
    for key in ("games_played", "train_games", "selection_games"):
        if key in data and not (_is_int(data[key]) and data[key] >= 0):
            raise ResultFileError(path, f"records {key} {shown(data[key])}, not a count")
    if {"train_games", "selection_games"} <= data.keys() and data.get("games_played") != (
        data["train_games"] + data["selection_games"]
    ):
        raise ResultFileError(
            path, "records games_played other than its train_games and selection_games summed"
        )
    if method.trains_network:
        expected = network_file(data["run"], data["seed"])
        if data["network"] != expected:
            raise ResultFileError(
                path, f"names the network file {shown(data['network'])}, not {expected}"
            )
        digest = data["network_sha256"]
        if not (isinstance(digest, str) and len(digest) == 64 and set(digest) <= set(_HEX)):
            raise ResultFileError(path, f"records network_sha256 {shown(digest)}, not a SHA-256")
        if data["games"] != data["settings"].get("games") or not _is_int(data["games"]):
            raise ResultFileError(
                path,
                f"records {shown(data['games'])} games, its settings "
                f"{shown(data['settings'].get('games'))}",
            )
        return data
    for key in (*method.result_keys, "reevaluation"):
        if key in data:
            _numbers(path, key, data[key])
    evaluator = data["settings"].get("evaluator")
    try:
        offer = method.select(data)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise ResultFileError(
            path, f"offers no weights to select ({type(exc).__name__}: {exc})"
        ) from None
    _check_offer(path, offer, method, evaluator)
    return data


_HEX = "0123456789abcdef"


# What every selection holds (stages.select; a pick adds its seeds' selection values); its
# method's `selection_keys` may add others.
SELECTION_KEYS = ("run", "method", "seed", "evaluator", "weights", "selection_values")


def unknown_selection_keys(data: dict) -> list[str]:
    """The keys of a selection that no selection of its method holds (of any method, when the
    method it names is unknown)."""
    try:
        extras = get_method(data.get("method")).selection_keys
    except ValueError:
        extras = tuple(k for m in METHODS.values() for k in m.selection_keys)
    return [k for k in data if k not in SELECTION_KEYS and k not in extras]


def read_selection(
    path: str | Path, record: dict | None = None, seed: int | None = None, pick: bool = False
) -> dict:
    """The weights a tuning run offers (select stage; with `pick`, the seed's weights worth
    most on the run's selection games, pick_tuned): weights of its evaluator's length, finite,
    inside the evaluator's box, and NSGA-II's three switching rows; or the file of a td run's
    network.
    With the run's `record` (config.run_record): the run, method and evaluator the config
    gives it, and the seed of its path (`seed`), or for a pick one of the run's seeds whose
    selection value (which it records) is the best."""
    data = read_json(path, ("run", "method", "seed", "evaluator", "weights"))
    method = _method(path, data)
    unknown = unknown_selection_keys(data)
    if unknown:
        raise ResultFileError(
            path,
            f"holds the key(s) {', '.join(unknown)}, which no selection of method "
            f"{method.name} holds: written by something else?",
        )
    if record is not None:
        _check_provenance(path, data, record, seed, ("evaluator",))
    elif not _is_int(data["seed"]):
        raise ResultFileError(path, f"records seed {shown(data['seed'])}, not an integer")
    if pick or "selection_values" in data:
        _check_pick(path, data, record)
    if data["evaluator"] == NETWORK_EVALUATOR or method.trains_network:
        if not method.trains_network or data["evaluator"] != NETWORK_EVALUATOR:
            raise ResultFileError(
                path,
                f"records evaluator {shown(data['evaluator'])} for method {method.name}: "
                "networks are trained by td, and only networks",
            )
        expected = network_file(data["run"], data["seed"])
        if data["weights"] != expected:
            raise ResultFileError(
                path, f"names the network file {shown(data['weights'])}, not {expected}"
            )
        return data
    _check_offer(path, data, method, data["evaluator"])
    return data


def _check_pick(path: str | Path, data: dict, record: dict | None) -> None:
    """A pick's selection values (one per seed, finite) make its seed the best."""
    values = data.get("selection_values")
    _numbers(path, "selection_values", values)
    seeds = None if record is None else record["seeds"]
    if not isinstance(values, list) or (seeds is not None and len(values) != len(seeds)):
        count = "one per seed" if seeds is None else f"{len(seeds)}, one per seed"
        raise ResultFileError(
            path, f"its 'selection_values' entry must hold {count}, got {shown(values)}"
        )
    if seeds is not None and data["seed"] != seeds[int(np.argmax(values))]:
        raise ResultFileError(
            path,
            f"picks seed {data['seed']}, but the selection values it records make seed "
            f"{seeds[int(np.argmax(values))]} the best",
        )


def read_history(path: str | Path, method: str) -> pd.DataFrame:
    """A tuning run's history (per generation, iteration or block of games) by `method`: its
    columns, numbers, finite."""
    return _read_csv(path, get_method(method).history_columns)


# The numeric columns of a run's held-out progress (stages.held_out_progress); its gains are
# NaN at the first point only.
PROGRESS_COLUMNS = ("seed", "step", "evaluations", "training_games", "progress_games", "mean", "se")


def read_progress(path: str | Path, run: str, seed: int) -> pd.DataFrame:
    """A weight-tuning run's held-out progress for one seed: its columns, numbers, finite,
    every row of run `run` and seed `seed`, steps increasing, a gain at every point but the
    first."""
    df = _read_csv(
        path, (*PROGRESS_COLUMNS, "run", "method", "evaluator", "measure"), PROGRESS_COLUMNS
    )
    if df.empty or set(df["run"]) != {run} or set(df["seed"]) != {seed}:
        raise ResultFileError(path, f"does not hold the progress of run {run} seed {seed} alone")
    if not df["step"].is_monotonic_increasing or df["step"].duplicated().any():
        raise ResultFileError(path, "its steps do not increase")
    if not {"gain", "gain_se"} <= set(df.columns):
        raise ResultFileError(path, "lacks the column(s) gain, gain_se")
    gains = pd.DataFrame(df[["gain", "gain_se"]]).apply(pd.to_numeric, errors="coerce")
    if not np.isfinite(gains.to_numpy(dtype=float)[1:]).all():
        raise ResultFileError(path, "lacks a finite gain and gain_se at a point after the first")
    return df


def read_network(
    path: str | Path,
    network: str,
    sha256: str | None = None,
    run_file: str | Path = "",
    stages: list[int] | tuple[int, ...] = (),
) -> Network:
    """A trained network (tune stage, td): a network file holding a network of the kind and
    `stages` the config names (`network`: so its tuples; a file without stages is one stage),
    a float32 table of that size, every weight finite, and (`sha256`) the digest of its
    weights that its training run recorded in `run_file`. Its kind and stages are read before
    its table, so a file of a big network of the wrong kind is refused without loading it."""
    stages = tuple(stages)
    if (problem := network_file_problem(path)) is not None:
        raise ResultFileError(path, problem)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = sorted(data.files)
            if arrays not in (["lut", "name"], ["lut", "name", "stages"]):
                raise ResultFileError(
                    path,
                    f"holds the arrays {', '.join(arrays) or '(none)'}, not name, lut and "
                    f"(for a multistage network) stages",
                )
            name = data["name"]
            if name.dtype.kind != "U" or name.shape != ():
                raise ResultFileError(path, f"its name is {name!r}, not a network's name")
            if str(name) != network:
                raise ResultFileError(
                    path,
                    f"holds a {str(name)!r} network; the config's tune.td.network is {network!r}",
                )
            held = data["stages"] if "stages" in arrays else np.zeros(0, dtype=np.int64)
            if held.dtype.kind != "i" or held.ndim != 1 or tuple(held.tolist()) != stages:
                raise ResultFileError(
                    path,
                    f"holds a network{stage_text(tuple(held.tolist())) or ' of one stage'}; "
                    f"the config's tune.td.stages is {list(stages)}",
                )
            lut = data["lut"]
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as exc:
        if isinstance(exc, ResultFileError):
            raise
        raise ResultFileError(path, f"is not a network file ({exc})") from None
    size = lut_size(network_tuples(network)) * (len(stages) + 1)
    if lut.dtype != np.float32 or lut.shape != (size,):
        raise ResultFileError(
            path,
            f"holds a table of {lut.dtype} {lut.shape}; a {network} network (tuples "
            f"{network_tuples(network)}){stage_text(stages)} has {size} float32 weights",
        )
    finite = np.isfinite(lut)
    if not finite.all():
        raise ResultFileError(
            path,
            f"holds {int(lut.size - finite.sum())} NaN or infinite weights (the first at entry "
            f"{int(np.argmin(finite))})",
        )
    lut = np.ascontiguousarray(lut)
    digest = hashlib.sha256(lut.tobytes()).hexdigest()
    if sha256 is not None and digest != sha256:
        raise ResultFileError(
            path,
            f"its weights' SHA-256 is {digest[:16]}..., not {sha256[:16]}... as its training "
            f"run recorded in {run_file}: replaced since?",
        )
    return Network(network, lut, stages)
