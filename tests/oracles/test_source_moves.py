"""g2048's agents with a source's rules (g2048.agents.sources) play the source program's moves:
on the 10 000 positions of each committed file (moves/, written by source_moves.py from games
of the source's program and of the agent), at least 99.9% of the agent's moves are the
program's, a move of exactly the program's best value counting as its move. Where the
program's runtime is present (Python for source 001, a JDK for source 004), the program runs
again on every position and must choose the committed moves: the files are its play.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from oracle_games import NO_JDK, compile_java, has_jdk
from source_moves import PLAYERS, POSITIONS, best_mask, java_seed, read_moves, source_choices

from g2048.agents import AgentConfig
from g2048.agents.sources import RULES
from g2048.api import Player
from g2048.engine.board import DIRECTIONS

HERE = Path(__file__).parent
AGREEMENT = 0.999  # the least share of positions on which the agent plays the program's move


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Source 004's classes and harnesses, compiled."""
    if not has_jdk():
        pytest.skip(NO_JDK)
    return compile_java(HERE / "source004", tmp_path_factory.mktemp("source004"))


@pytest.mark.parametrize("name", list(PLAYERS))
def test_the_agent_with_the_sources_rules_plays_its_programs_moves(name: str) -> None:
    p = PLAYERS[name]
    rows = read_moves(name)
    assert len(rows) == POSITIONS
    assert {r["origin"] for r in rows} == {"source", "g2048"}  # both programs' games
    player = Player(p.agent, p.evaluator)
    moves = [DIRECTIONS.index(player.decide(r["board"], seed=i).move) for i, r in enumerate(rows)]
    agree = sum((1 << move) & r["best"] != 0 for move, r in zip(moves, rows, strict=True))
    assert agree >= AGREEMENT * POSITIONS, f"{name}: {agree} of {POSITIONS}"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PLAYERS))
def test_the_committed_moves_are_the_source_programs(
    name: str, request: pytest.FixtureRequest
) -> None:
    p = PLAYERS[name]
    classes = None if p.source == "001" else request.getfixturevalue("classes")
    rows = read_moves(name)
    choices = source_choices(p, [r["board"] for r in rows], classes)
    for i, (r, (values, move)) in enumerate(zip(rows, choices, strict=True)):
        assert r["seed"] == java_seed(i)
        assert (move, best_mask(values)) == (r["move"], r["best"]), hex(r["board"])


def test_a_source_has_only_its_own_players_and_settings() -> None:
    with pytest.raises(ValueError, match="rules 'source001' are for the agents expectimax"):
        AgentConfig("montecarlo", rules="source001")
    with pytest.raises(ValueError, match="no cutoff"):
        AgentConfig("expectimax", cutoff=1e-4, rules="source004")
    with pytest.raises(ValueError, match="not by the 'ntuple' network"):
        Player(AgentConfig("expectimax", rules="source004"), "ntuple")
    assert RULES[0] == AgentConfig("expectimax").rules == "g2048"
    assert np.isfinite(
        Player(AgentConfig("montecarlo", rules="source004"), "ovolve")
        .decide([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
        .values["left"]
    )
