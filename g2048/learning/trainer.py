"""A TD training run's state (`Trainer`: the network, its TC accumulators, the games done and
the learning curve) and its checkpoints: written atomically with a digest of the state, tied to
the run's settings by a key, and refused when damaged (non-finite values, another digest).
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from g2048 import archive_problem
from g2048.evaluators.ntuple import Network, prepare
from g2048.learning.kernels import MAX_RANK, MOVES, SCORE

CURVE_COLUMNS = (
    "games",
    "mean_score",
    "mean_moves",
    "reach_2048",
    "reach_4096",
    "reach_8192",
    "moves_per_s",
)
CHECKPOINT_VERSION = 1


def block_row(games: int, records: np.ndarray, seconds: float) -> list[float]:
    """A learning-curve row for the block of games that ends at `games`."""
    ranks = records[:, MAX_RANK]
    moves = records[:, MOVES]
    return [
        games,
        records[:, SCORE].mean(),
        moves.mean(),
        *((ranks >= r).mean() for r in (11, 12, 13)),
        moves.sum() / max(seconds, 1e-9),
    ]


class TrainingError(ValueError):
    """A training run that cannot go on (diverged weights, a damaged checkpoint): the message
    says what and where in one line."""


def nonfinite(values: np.ndarray) -> str | None:
    """'N NaN or infinite values (the first at entry k)', or None when every value is finite."""
    finite = np.isfinite(values)
    if finite.all():
        return None
    return (
        f"{int(values.size - finite.sum())} NaN or infinite values (the first at entry "
        f"{int(np.argmin(finite))})"
    )


def unreadable(path: Path, error: Exception) -> str:
    """The line that reports a checkpoint which cannot be read (`error`: what reading it
    raised), before the run starts over."""
    return f"checkpoint {path} unreadable ({archive_problem(path, error)}): starting from game 0"


def checkpoint_key(settings: dict) -> str:
    """The digest that ties a checkpoint to the run's settings (never resumed under others)."""
    text = json.dumps({"version": CHECKPOINT_VERSION, **settings}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Trainer:
    """A TD run's state: the network (and TC accumulators), games done and the curve."""

    network: Network
    coherence: bool
    games_done: int = 0
    curve: list[list[float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        size = self.network.lut.size if self.coherence else 0
        self.tc_e = np.zeros(size, dtype=np.float32)
        self.tc_a = np.zeros(size, dtype=np.float32)
        self.weights, self.table = prepare(self.network)
        self.promoted = np.zeros(1, dtype=np.int64)  # the last stage whose table is in use

    def save(self, path: Path, key: str) -> None:
        """Write a checkpoint atomically (a kill mid-write leaves the previous one)."""
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as f:
            np.savez(
                f,
                key=np.array(key),
                sha256=np.array(self.digest()),
                name=np.array(self.network.name),
                games_done=np.array(self.games_done),
                table=self.table,
                tc_e=self.tc_e,
                tc_a=self.tc_a,
                promoted=self.promoted,
                curve=np.array(self.curve, dtype=np.float64).reshape(-1, len(CURVE_COLUMNS)),
            )
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    def restore(
        self, path: Path, key: str, games: int, note: Callable[[str], None] | None = None
    ) -> bool:
        """Resume from the checkpoint at `path` if it exists, holds this run's key and is no
        further on than `games`; one that cannot be read (empty, truncated, not what `save`
        writes) is reported to `note` in one line (`unreadable`) and not resumed."""
        if not path.exists():
            return False
        try:  # read it all before changing anything: a file that fails half-way leaves no trace
            with np.load(path, allow_pickle=False) as data:
                if str(data["key"]) != key or str(data["name"]) != self.network.name:
                    return False
                if int(data["games_done"]) > games:
                    return False
                stored = {name: data[name] for name in ("table", "tc_e", "tc_a", "curve")}
                promoted = data["promoted"] if "promoted" in data.files else 0
                games_done = int(data["games_done"])
                saved = str(data["sha256"]) if "sha256" in data.files else None
        except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            if note is not None:
                note(unreadable(path, exc))
            return False
        state = {"table": self.table, "tc_e": self.tc_e, "tc_a": self.tc_a}
        if any(stored[name].shape != array.shape for name, array in state.items()):
            return False
        for name, array in state.items():
            array[:] = stored[name]
        self.promoted[:] = promoted
        self.games_done = games_done
        self.curve = stored["curve"].tolist()
        arrays = {"weights": self.table.view(np.float32), "TC sums": self.tc_e}
        arrays |= {"TC magnitudes": self.tc_a, "learning curve": np.array(self.curve)}
        for what, values in arrays.items():
            if (problem := nonfinite(values)) is not None:
                raise TrainingError(
                    f"checkpoint {path}: its {what} hold {problem}, not resumed: delete it to "
                    "train from the start"
                )
        if saved is not None and saved != self.digest():
            raise TrainingError(
                f"checkpoint {path}: its state's SHA-256 is {self.digest()[:16]}..., not "
                f"{saved[:16]}... as it was saved: edited since? Not resumed: delete it to "
                "train from the start"
            )
        return True

    def digest(self) -> str:
        """The SHA-256 of the state a checkpoint saves (weights, TC sums, stage, games)."""
        h = hashlib.sha256(self.table.tobytes())
        for part in (self.tc_e, self.tc_a, self.promoted, np.array(self.games_done)):
            h.update(part.tobytes())
        return h.hexdigest()

    def check_finite(self, since: int, rates: str) -> None:
        """TrainingError unless every weight is finite: the games since the last check (at
        `since` games) diverged, at the learning `rates` (e.g. 'alpha 2')."""
        problem = nonfinite(self.table.view(np.float32))
        if problem is not None:
            raise TrainingError(
                f"training diverged: the network's weights hold {problem} after game "
                f"{self.games_done} (finite after game {since}), at {rates}; nothing written: "
                "train with a smaller learning rate"
            )
