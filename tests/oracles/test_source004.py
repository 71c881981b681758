"""g2048's ovolve expectimax against source 004's own Java program (source004/*.java, as
published but for an import and the prose between its members; Oracle.java is our harness).

Depth: the source's `findBestMove` values each legal move by `expectimax(copy, maxDepth - 1,
false)`, and each call spends one unit of depth on its layer (player or chance) until depth 0
is valued by `evaluate`: its maxDepth d searches d plies (1 = M E, 2 = M C E, 3 = M C M E), as
g2048 counts them (DESIGN.md). So the source's `new ExpectimaxAI(game, d)` is g2048's
`AgentConfig("expectimax", depth=d)` with the `ovolve` evaluator (source 004's heuristic, with
its default weights), compared at d = 1, 2, 3 on the positions of test_source001.

Both try the directions in the same order (UP, DOWN, LEFT, RIGHT) and keep the first best
(`value > bestValue`). The legal moves always agree, and the values agree up to rounding
(rtol 1e-12: the source adds (0.9 / n) x each 2 and (0.1 / n) x each 4 to its total, g2048
0.9 x the 2 + 0.1 x the 4 per cell and divides by n at the end; its ln(empty + 1) is Java's
Math.log, g2048's a correctly rounded table) except in class 2. Each position whose moves
differ falls in one of two classes, counted exactly per depth in EXPECTED:
1. tie: several moves share the best value up to rounding on both sides, the same set, and
   rounding orders them differently (e.g. 7.222597647104055 against ...056), so the first best
   differs.
2. dead: g2048 values a board without a legal move at DEAD_VALUE (g2048.evaluators.evaluate),
   the source by its heuristic (`if (depth == 0 || game.isGameOver()) return evaluate(game)`).
   The project's plain reference search (g2048.engine.reference.ref_expectimax) valuing every
   board by the heuristic (dead boards too) gives the source's values, and valuing dead boards
   at DEAD_VALUE gives g2048's, up to rounding; each side's move is among the best of its own
   reference values.
Positions where only class 2's values differ and the moves agree are counted too (dead_values).
Skipped without a JDK (javac and java on the PATH; Debian: default-jdk-headless).
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
    has_jdk,
    played_positions,
    run_java,
)

from g2048 import evaluators
from g2048.engine.board import decode, encode
from g2048.engine.reference import ref_expectimax

SOURCE = Path(__file__).parent / "source004"
pytestmark = pytest.mark.skipif(not has_jdk(), reason=NO_JDK)

# Per depth: positions whose chosen moves agree, differ by a tie, differ by the dead-board
# convention; positions whose moves agree but whose values differ by that convention.
EXPECTED = {
    1: {"agree": 10_000, "tie": 0, "dead": 0, "dead_values": 0},
    2: {"agree": 9746, "tie": 220, "dead": 34, "dead_values": 241},
    3: {"agree": 9868, "tie": 123, "dead": 9, "dead_values": 266},
}


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source's classes and the harness, compiled."""
    return compile_java(SOURCE, tmp_path_factory.mktemp("source004"))


def source_choices(classes: Path, depth: int, boards: list[int]) -> list[tuple[np.ndarray, int]]:
    """The source's move values and chosen direction (g2048's numbering: the same order) on
    each board, from one run of the harness."""
    lines = [f"{depth} {b:x}" for b in boards]
    return run_java(classes, "Oracle", [], lines)


def reference_values(board: int, depth: int, dead_low: bool) -> np.ndarray:
    """ref_expectimax with ovolve's value of every board (dead_low: DEAD_VALUE for a dead one)."""
    fn, weights, table = evaluators.prepare("ovolve")

    def value(grid: list[list[int]]) -> float:
        b = np.uint64(encode(grid))
        return float(evaluators.evaluate(fn, b, weights, table, not dead_low))

    return np.array(ref_expectimax(decode(board).tolist(), depth, value))


def compare(classes: Path, depth: int) -> Counter:
    """The classes of EXPECTED counted over the positions at one depth; asserts that every
    position falls in one of them."""
    ours_at = Expectimax("ovolve", depth)
    boards = list(played_positions())
    counts: Counter = Counter()
    for board, (theirs, their_move) in zip(
        boards, source_choices(classes, depth, boards), strict=True
    ):
        ours, our_move = ours_at.choice(board)
        assert np.array_equal(np.isneginf(theirs), np.isneginf(ours)), hex(board)
        close = np.allclose(theirs, ours, rtol=RTOL, atol=ATOL)
        if not close:  # the values of dead boards apart, each side is the reference's
            heuristic = reference_values(board, depth, dead_low=False)
            dead_low = reference_values(board, depth, dead_low=True)
            np.testing.assert_allclose(theirs, heuristic, rtol=RTOL, atol=ATOL, err_msg=hex(board))
            np.testing.assert_allclose(ours, dead_low, rtol=RTOL, atol=ATOL, err_msg=hex(board))
        if their_move == our_move:
            counts["agree"] += 1
            counts["dead_values"] += not close
        elif close:
            assert best_set(theirs) == best_set(ours) >= {their_move, our_move}, hex(board)
            counts["tie"] += 1
        else:
            assert their_move in best_set(heuristic) and our_move in best_set(dead_low)
            counts["dead"] += 1
    return counts


@pytest.mark.parametrize(
    "depth", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)]
)
def test_ovolve_chooses_the_source_programs_move(classes: Path, depth: int) -> None:
    counts = compare(classes, depth)
    assert counts["agree"] + counts["tie"] + counts["dead"] == POSITIONS
    assert {k: counts[k] for k in EXPECTED[depth]} == EXPECTED[depth]
