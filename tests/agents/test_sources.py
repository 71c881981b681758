"""The sources' rules of search (g2048.agents.sources) and the java.util.Random they draw from
(g2048.engine.javarng). tests/oracles checks the rules move for move against the sources'
programs; these check the pieces on their own."""

from __future__ import annotations

import numpy as np
import pytest

from g2048 import evaluators
from g2048.agents import AgentConfig
from g2048.agents.sources import SOURCE001, SOURCE004, first_best, source_spawn, source_values
from g2048.api import Player
from g2048.engine.board import decode, encode
from g2048.engine.javarng import java_state, next_double, next_int

BOUNDS = (1, 2, 3, 4, 5, 7, 10, 13, 16)
# `new java.util.Random(seed)`, then nextInt(b) for b in BOUNDS and nextDouble() twice, as
# OpenJDK 17 prints them (java.util.Random's algorithms are fixed by its documentation).
JDK = {
    0: ([0, 1, 1, 2, 0, 0, 1, 2, 9], 0.7815346320453048, 0.2527761665759859),
    42: ([0, 0, 0, 0, 0, 4, 5, 3, 10], 0.09132461105841794, 0.4512572194454507),
    123456789: ([0, 1, 2, 1, 0, 0, 3, 0, 11], 0.43100345670406226, 0.49033806436318894),
    2**48 - 1: ([0, 0, 0, 2, 4, 4, 7, 12, 13], 0.05653720805104445, 0.3097674408076614),
}


@pytest.mark.parametrize("seed", list(JDK))
def test_java_random_draws_what_the_jdk_draws(seed: int) -> None:
    state = java_state(np.uint64(seed))
    ints = [next_int(state, bound) for bound in BOUNDS]
    assert (ints, next_double(state), next_double(state)) == JDK[seed]


def test_java_random_next_int_is_uniform_below_its_bound() -> None:
    state = java_state(np.uint64(7))
    draws = np.array([next_int(state, 3) for _ in range(30_000)])
    assert set(draws) == {0, 1, 2}
    assert np.all(np.abs(np.bincount(draws) - 10_000) < 400)  # ~6 sd of a binomial count


def test_a_spawn_takes_the_drawn_empty_cell_in_row_major_order() -> None:
    """nextInt over the n empty cells picks the cell, nextDouble() < 0.9 a 2: replayed here
    from the same generator."""
    board = encode([[2, 0, 4, 0], [0, 0, 0, 0], [8, 8, 8, 8], [0, 2, 0, 0]])
    empties = [(r, c) for r in range(4) for c in range(4) if decode(board)[r, c] == 0]
    for seed in range(50):
        replay = java_state(np.uint64(seed))
        k, two = next_int(replay, len(empties)), next_double(replay) < 0.9
        after = decode(source_spawn(np.uint64(board), java_state(np.uint64(seed))))
        changed = np.argwhere(after != decode(board))
        assert [tuple(changed[0])] == [empties[k]] and len(changed) == 1
        assert after[empties[k]] == (2 if two else 4)


def test_each_source_breaks_a_tie_in_its_own_order() -> None:
    """Four moves of one value (a lone tile in the middle, at one ply): source 001 tries left
    first, source 004 (as g2048) up."""
    board = np.uint64(encode([[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]))
    ev = evaluators.prepare("ovolve")
    values = np.array(source_values(board, 1, SOURCE004, 0, ev, java_state(np.uint64(0))))
    assert np.all(values == values[0])
    assert first_best(values, SOURCE001) == 2  # left
    assert first_best(values, SOURCE004) == 0  # up
    decide = Player(AgentConfig("expectimax", depth=1, rules="source001"), "ovolve").decide
    assert decide(board).move == "left"


def test_a_dead_board_is_valued_by_the_heuristic_under_a_sources_rules() -> None:
    """Moving left fills the board for good whatever spawns (the new tile meets an 8 and a
    32): g2048 values the move below every live board, the sources by their heuristic."""
    b = np.uint64(encode([[0, 2, 4, 8], [4, 8, 16, 32], [8, 16, 32, 64], [16, 32, 64, 128]]))
    ev = evaluators.prepare("ovolve")
    ours = Player(AgentConfig("expectimax", depth=2), "ovolve").decide(b).values
    theirs = source_values(b, 2, SOURCE004, 0, ev, java_state(np.uint64(0)))
    assert ours["left"] < -1e11 < theirs[2] and ours["up"] == pytest.approx(theirs[0])
