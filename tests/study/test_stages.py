"""The stages' own choices (the games they play are tested with the agents and the pipeline)."""

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
