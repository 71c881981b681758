"""The one loop every tuner runs in (pycma's and pymoo's ask-and-tell shape): ask the tuner for
candidates, evaluate them, tell it their values, and count, record, report and checkpoint.

A tuner is an object with ``ask() -> X`` (the next step's (n, d) candidates), ``tell(X, f) ->
row`` (their values; the step's history fields), ``incumbent() -> x`` (the point it would
return if stopped now) and ``result(history)`` (what the run yields); the loop owns everything
around those calls: the number of steps, the count of evaluations, the history table (each
row with the step's incumbent, so that a run's progress can be measured afterwards on games of
its own), the callback and the checkpoint.

Checkpoints are replays, not snapshots: the file holds every step's candidates and values so
far, and a resumed run re-asks a new tuner step by step, checks that it proposes exactly the
stored candidates, and tells it the stored values instead of evaluating them again. So a tuner
needs no code to save its state (a generator, cma's internals), the file holds plain arrays
(no pickle), and a resumed run ends exactly where an uninterrupted one ends.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from g2048 import archive_problem
from g2048.settings import check_settings, from_settings, setting, setting_key, settings_of

CHECKPOINT_VERSION = 1


class Tuner(Protocol):
    """What the loop asks of a tuner (see the module docstring)."""

    step_name: str  # what one step is called in the history ("iteration", "generation")

    def ask(self) -> np.ndarray: ...

    def tell(self, X: np.ndarray, f: np.ndarray) -> dict[str, float]: ...

    def incumbent(self) -> np.ndarray: ...

    def result(self, history: pd.DataFrame) -> Any: ...


def checkpoint_key(settings: dict) -> str:
    """The digest that ties a checkpoint to a run's settings (never resumed under others)."""
    text = json.dumps({"version": CHECKPOINT_VERSION, **settings}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _save(path: Path, key: str, steps: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Write the steps so far atomically (a kill mid-write leaves the previous file)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as file:
        np.savez(
            file,
            key=np.array(key),
            sizes=np.array([len(X) for X, _ in steps], dtype=np.int64),
            X=np.concatenate([X for X, _ in steps]),
            f=np.concatenate([f for _, f in steps]),
        )
        file.flush()
        os.fsync(file.fileno())
    os.replace(tmp, path)


def unreadable(path: Path, error: Exception) -> str:
    """The line that reports a checkpoint which cannot be read (`error`: what reading it
    raised), before the run starts over."""
    return f"checkpoint {path} unreadable ({archive_problem(path, error)}): starting from step 0"


def _load(
    path: Path, key: str, note: Callable[[str], None] | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The steps stored at `path` for the run of `key`; none when the file is missing, of
    other settings or unreadable (the run then starts afresh and overwrites it): an unreadable
    one (empty, truncated, not what `_save` writes) is reported to `note` in one line."""
    if not path.exists():
        return []
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["key"]) != key:
                return []
            ends = np.cumsum(data["sizes"])
            X, f = data["X"], data["f"]
            if len(X) != len(f) or (len(ends) and ends[-1] != len(X)):
                raise ValueError(f"{len(X)} candidates, {len(f)} values, steps of {ends[-1:]}")
            starts = ends - data["sizes"]
            return [(X[a:b], f[a:b]) for a, b in zip(starts, ends, strict=True)]
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        if note is not None:
            note(unreadable(path, exc))
        return []


INCUMBENT = "incumbent_"  # the history's columns incumbent_0, incumbent_1, ...


def _told(tuner: Tuner, X: np.ndarray, f: np.ndarray) -> dict[str, float]:
    """Tell `tuner` the values f of X; the step's history fields, its incumbent after them."""
    row = tuner.tell(X, f)
    incumbent = np.asarray(tuner.incumbent(), dtype=float)
    return row | {f"{INCUMBENT}{k}": float(v) for k, v in enumerate(incumbent)}


def _replay(
    tuner: Tuner, steps: list[tuple[np.ndarray, np.ndarray]]
) -> list[dict[str, float]] | None:
    """Tell `tuner` the stored steps; their history rows, or None as soon as the tuner asks
    for candidates other than the stored ones (a checkpoint of other code)."""
    rows = []
    for X, f in steps:
        asked = np.asarray(tuner.ask(), dtype=float)
        if asked.shape != X.shape or not np.array_equal(asked, X):
            return None
        rows.append(_told(tuner, asked, f))
    return rows


LOOP_OPTIONS = ("callback", "checkpoint", "key", "resumed", "note")


# The schemas of the settings most tuners declare (`g2048.settings.setting`'s keywords).
POPULATION = {
    "description": "candidates per iteration (at most 10 000)",
    "type": "integer",
    "minimum": 2,
    "maximum": 10_000,
}
ITERATIONS = {"description": "iterations (at most 10 000)", "type": "integer", "minimum": 1,
              "maximum": 10_000}  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class TunerConfig:
    """What every tuner's config class shares: its settings checked against their schemas
    (SettingError naming the first refused); a subclass declares them and its loop `steps`."""

    def __post_init__(self) -> None:
        check_settings(self)


@dataclass(frozen=True, kw_only=True)
class IterationsConfig(TunerConfig):
    """The config of a tuner that runs `iterations` steps."""

    iterations: int = setting(**ITERATIONS)

    @property
    def steps(self) -> int:
        """The loop's steps: one an iteration."""
        return self.iterations


def run_tuner(tuner: type, evaluate: Callable[[np.ndarray], ArrayLike], *args: Any,
              config: Any = None, **settings: Any) -> Any:  # fmt: skip  # noqa: ANN401
    """`optimise` the ask-and-tell `tuner` (a class whose `config_class` declares its
    settings) made by ``tuner(*args, config=config, **rest)`` for the config's `steps`:
    `settings` holds the config's (when `config` is not given), the loop's own options
    (LOOP_OPTIONS) and the rest of the tuner's arguments (seed, bounds, ...)."""
    loop = {k: settings.pop(k) for k in LOOP_OPTIONS if k in settings}
    if config is None:
        keys = {setting_key(f) for f in settings_of(tuner.config_class)}
        given = {k: settings.pop(k) for k in list(settings) if k in keys}
        config = from_settings(tuner.config_class, given)
    return optimise(lambda: tuner(*args, config=config, **settings), evaluate, config.steps, **loop)


def optimise(
    make_tuner: Callable[[], Tuner],
    evaluate: Callable[[np.ndarray], ArrayLike],
    steps: int,
    *,
    callback: Callable[[int, Any], None] | None = None,
    checkpoint: str | Path | None = None,
    key: dict | None = None,
    resumed: Callable[[list[np.ndarray]], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> Any:
    """Run `steps` ask-evaluate-tell steps of the tuner `make_tuner()` makes; its result.

    ``evaluate`` maps (n, d) candidates (a copy) to their values. The history has a row per
    step: the step's number (named by the tuner's ``step_name``), ``evaluations`` (candidates
    evaluated so far, the run's budget count), the tuner's row and its incumbent after the
    step (``incumbent_<k>``, k = 0 .. d - 1). ``callback(step,
    result_so_far)`` is called after each step. With ``checkpoint``, every step is saved there
    (after the callback, so a callback that kills the process leaves the step unsaved), and a
    run resumes from a file whose ``key`` (the run's settings, digested) matches: the stored
    steps are replayed into a fresh tuner without evaluating them, then ``resumed(X of each
    replayed step)`` is called (to bring the caller's own state, such as a game counter, to
    where it was). A file whose candidates the tuner does not ask for again is ignored; one
    that cannot be read is reported to ``note`` (the caller's log) in one line, then ignored.
    """
    if steps < 1:
        raise ValueError(f"steps must be >= 1, got {steps}")
    path = None if checkpoint is None else Path(checkpoint)
    digest = checkpoint_key(key or {})
    tuner = make_tuner()
    done = [] if path is None else _load(path, digest, note)[:steps]
    rows = _replay(tuner, done) if done else []
    if rows is None:  # the stored run is not this tuner's: start again
        tuner, done, rows = make_tuner(), [], []
    if done and resumed is not None:
        resumed([X for X, _ in done])
    evaluations = sum(len(X) for X, _ in done)
    history = [
        {tuner.step_name: i, "evaluations": n, **row}
        for i, (n, row) in enumerate(zip(np.cumsum([len(X) for X, _ in done]), rows, strict=True))
    ]
    for step in range(len(done), steps):
        X = np.asarray(tuner.ask(), dtype=float)
        f = np.array(evaluate(X.copy()), dtype=float)
        row = _told(tuner, X, f)
        evaluations += len(X)
        history.append({tuner.step_name: step, "evaluations": evaluations, **row})
        done.append((X, f))
        if callback is not None:
            callback(step, tuner.result(pd.DataFrame(history)))
        if path is not None:
            _save(path, digest, done)
    return tuner.result(pd.DataFrame(history))
