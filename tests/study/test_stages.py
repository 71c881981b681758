"""The stages' own choices (the games they play are tested with the agents and the pipeline)."""

import os

import numpy as np
import pytest

from g2048.study import stages


@pytest.mark.parametrize(
    ("agent", "threads"),
    [
        ({"name": "expectimax", "depth": 27, "budget_ms": 1}, 1),
        ({"name": "montecarlo", "budget_ms": 0.1}, 1),
        ({"name": "expectimax", "depth": 27, "budget_nodes": 2000}, 2),
        ({"name": "greedy"}, 2),
    ],
)
def test_timed_agents_play_one_game_at_a_time(
    monkeypatch: pytest.MonkeyPatch, agent: dict, threads: int
) -> None:
    calls = []
    monkeypatch.setattr(stages, "play_games", lambda *a, **kw: calls.append(kw["threads"]))
    seeds = np.arange(4, dtype=np.uint64)
    stages.play_weight_set("nneonneo", None, agent, seeds, 2, print, "row")
    assert calls == [threads]


def test_a_timed_row_plays_a_game_on_each_core_but_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 16-core job a timed row plays 15 games at once, each pinned to a CPU of its own;
    an untimed row keeps its threads whatever the job's cores."""
    calls = []
    monkeypatch.setattr(stages, "play_games", lambda *a, **kw: calls.append(kw))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)))
    seeds = np.arange(30, dtype=np.uint64)
    timed = {"name": "expectimax", "depth": 27, "budget_ms": 1}
    stages.play_weight_set("nneonneo", None, timed, seeds, 2, print, "row", cores=16)
    stages.play_weight_set("nneonneo", None, {"name": "greedy"}, seeds, 2, print, "row", cores=16)
    assert calls[0]["threads"] == 15 and calls[0]["cores"] == list(range(1, 16))
    assert calls[1]["threads"] == 2 and calls[1]["cores"] == []
