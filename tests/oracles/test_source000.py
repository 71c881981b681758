"""g2048's nsga4 expectimax against source 000's own Java program (source000/: its Board,
Evaluator and Expectimax as published; Oracle.java is our harness), with nsga4's default
weights (0.25 each) on both sides.

Depth: the source's `bestMove` moves, spawns one random tile (its own `java.util.Random`, seeded
here with the position's index) and values the result by `expect(b, depth - 1)`, which spends one
unit of depth per layer (chance, then player) until depth 0 is valued by `Evaluator.score`. So
its depth d searches the d plies of g2048's depth d (1 = M E, 2 = M C E, 3 = M C M E) below an
extra random tile after the root move, a bug that g2048 does not copy (DESIGN.md: two tiles
appear). The source's depth d is compared with `AgentConfig("expectimax", depth=d)`, `nsga4`.

This is not an equivalence test: nsga4 departs from the source's Evaluator on purpose (its
docstring: the source's monotonicity saturates from a 128 on and its corner test takes the first
maximum in scan order), and from its search (the spawn). It measures how often the source's own
program chooses g2048's move, and why not. The harness also gives the source's value of each
move without the root spawn (its `expect` on the moved board). Each position falls in one of
three classes, counted exactly per depth in EXPECTED:
1. agree: the published program chooses g2048's move.
2. spawn: it does not, but its search without the root spawn values g2048's move best (up to
   rounding): its random tile made the difference.
3. evaluation: its search without the spawn prefers another move: its own Evaluator (the
   monotonicity and corner features that nsga4 redefines) or its valuing of boards without a
   legal move by the heuristic where g2048 gives DEAD_VALUE. At depth 1 the leaves are the
   moved boards, never dead, so the two redefined features alone decide there: with their
   weights at 0 (empty and merges only), the source's values without the spawn are nsga4's
   up to rounding on every position (tested).
`unspawned` counts the positions where the search without the spawn values g2048's move best.
Skipped without a JDK.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from oracle_games import (
    ATOL,
    NO_JDK,
    POSITIONS,
    RTOL,
    Expectimax,
    best_set,
    compile_java,
    greedy_values,
    has_jdk,
    played_positions,
    run_java,
)

from g2048.evaluators import nsga4

SOURCE = Path(__file__).parent / "source000"
pytestmark = pytest.mark.skipif(not has_jdk(), reason=NO_JDK)

EXPECTED = {
    1: {"agree": 5028, "spawn": 689, "evaluation": 4283, "unspawned": 5162},
    2: {"agree": 5117, "spawn": 701, "evaluation": 4182, "unspawned": 5234},
    3: {"agree": 5711, "spawn": 1301, "evaluation": 2988, "unspawned": 6245},
}


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source's classes and the harness, compiled."""
    return compile_java(SOURCE, tmp_path_factory.mktemp("source000"))


def source_values(
    classes: Path, depth: int, weights: tuple[float, ...], boards: list[int]
) -> list[tuple[np.ndarray, int]]:
    """The source's value of each move without its root spawn and the move it chooses (with
    the spawn, seeded by the position's index) on each board, from one run of the harness."""
    lines = [f"{depth} {b:x} {k}" for k, b in enumerate(boards)]
    return run_java(classes, "com.example.g2048.Oracle", [repr(w) for w in weights], lines)


def compare(classes: Path, depth: int) -> Counter:
    """The classes of EXPECTED counted over the positions at one depth."""
    ours_at = Expectimax("nsga4", depth)
    boards = list(played_positions())
    counts: Counter = Counter()
    theirs_all = source_values(classes, depth, nsga4.DEFAULT_WEIGHTS, boards)
    for board, (theirs, their_move) in zip(boards, theirs_all, strict=True):
        ours, our_move = ours_at.choice(board)
        assert np.array_equal(np.isneginf(theirs), np.isneginf(ours)), hex(board)
        unspawned = our_move in best_set(theirs)
        counts["unspawned"] += unspawned
        if their_move == our_move:
            counts["agree"] += 1
        else:
            counts["spawn" if unspawned else "evaluation"] += 1
    return counts


def test_the_features_nsga4_keeps_value_moves_as_the_source_does(classes: Path) -> None:
    weights = (0.0, 0.25, 0.25, 0.0)  # empty cells and merges; monotonicity and corner off
    boards = list(played_positions())
    theirs_all = source_values(classes, 1, weights, boards)
    ours_all = greedy_values("nsga4", weights, boards)
    for board, (theirs, _), ours in zip(boards, theirs_all, ours_all, strict=True):
        np.testing.assert_allclose(theirs, ours, rtol=RTOL, atol=ATOL, err_msg=hex(board))


@pytest.mark.parametrize(
    "depth", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)]
)
def test_how_often_the_source_program_chooses_nsga4s_move(classes: Path, depth: int) -> None:
    counts = compare(classes, depth)
    assert counts["agree"] + counts["spawn"] + counts["evaluation"] == POSITIONS
    assert {k: counts[k] for k in EXPECTED[depth]} == EXPECTED[depth]
