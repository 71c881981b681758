"""Reading and writing result files: JSON with sorted keys and fixed float formatting, CSV via
pandas, so that equal results give byte-identical files.

One checked reader per kind of result file (games, tuning run, selection, history): a file that
is unreadable, truncated or not what it must hold raises ResultFileError naming the file, what
is wrong and how to rebuild it, before anything downstream uses it.

naming.TIMING_COLUMNS (per-game CSVs and tables) are the only columns that differ between two runs
of the same study, but for the rows marked in TIMED_COLUMN (games under a time budget, whose
every column depends on the machine's speed); determinism checks and result digests leave
them out.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from g2048.play import COLUMNS
from g2048.study.methods import Method, get_method
from g2048.study.naming import NETWORK_EVALUATOR, selected_weights

TIMED_COLUMN = "timed"  # True in the rows of games played under a time budget (all timing)
PARALLEL_COLUMN = "parallel"  # True in rows searched in parallel: NODE_COLUMNS vary with timing
NODE_COLUMNS = ("nodes", "nodes_per_move")
REBUILD = (
    "delete it and run the same snakemake command again: it is rebuilt, with everything made "
    "from it"
)


class ResultFileError(ValueError):
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


def read_json(path: str | Path, keys: tuple[str, ...] = ()) -> dict:
    """Read a JSON result file holding an object with (at least) `keys`."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise ResultFileError(path, f"cannot be read ({exc.strerror or exc})") from None
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


def _read_csv(path: str | Path, columns: tuple[str, ...]) -> pd.DataFrame:
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
    return df


def read_games(path: str | Path, seeds: np.ndarray, start: int = 0) -> pd.DataFrame:
    """The per-game records of games start, start + 1, ... played from `seeds`: every column of
    play.COLUMNS, no missing value, the games in order and complete, each with its own seed."""
    df = _read_csv(path, COLUMNS)
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


def read_tune(path: str | Path) -> dict:
    """A tuning run's result (tune stage): its method's keys, the run's seed and settings."""
    data = read_json(path, ("run", "method", "seed", "settings"))
    return read_json(path, _method(path, data).result_keys)


def read_selection(path: str | Path) -> dict:
    """The weights a tuning run offers (select stage): numbers of the evaluator's length, and
    NSGA-II's three switching rows; or the file of a td run's network."""
    data = read_json(path, ("run", "method", "seed", "evaluator", "weights"))
    if data["evaluator"] == NETWORK_EVALUATOR:
        try:
            network = selected_weights(data, switching=False)
        except ValueError as exc:
            raise ResultFileError(path, str(exc)) from None
        if not Path(network).is_file():
            raise ResultFileError(path, f"names the network file {network}, which is missing")
        return data
    switching = "switching" in data or _method(path, data).switches(data["evaluator"])
    try:  # the format's one reader, as the pipeline and the CLI read it
        weights = selected_weights(data, switching=False)
        rows = selected_weights(data, switching=True) if switching else np.tile(weights, (3, 1))
    except ValueError as exc:
        raise ResultFileError(path, str(exc)) from None
    if rows.shape != (3, weights.size) or not np.isfinite(rows).all():
        raise ResultFileError(path, "holds weights of the wrong shape or non-finite values")
    return data


def read_history(path: str | Path, method: str) -> pd.DataFrame:
    """A tuning run's history (per generation, iteration or block of games) by `method`."""
    return _read_csv(path, get_method(method).history_columns)
