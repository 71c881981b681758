"""Reading and writing result files: JSON with sorted keys and fixed float formatting, CSV via
pandas, so that equal results give byte-identical files.

The TIMING_COLUMNS (per-game CSVs and tables) are the only columns that differ between two runs
of the same study; determinism checks and result digests leave them out.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

TIMING_COLUMNS = ("seconds", "ms_per_move", "wall_seconds")


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


def read_json(path: str | Path) -> dict:
    """Read a JSON result file."""
    return json.loads(Path(path).read_text())


def write_csv(path: str | Path, df: pd.DataFrame) -> None:
    """Write a DataFrame as CSV without the index."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False)


def read_games(paths: list[str | Path]) -> pd.DataFrame:
    """Per-game records from several CSV files (e.g. benchmark shards), in order."""
    return pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
