"""g2048's classic4 expectimax against source 001's own program (source001.py, transcribed).

Depth: the source's `choose_move(board, depth)` values each legal move by
`expectimax(after, depth - 1, False)`, and each call of `expectimax` spends one unit of depth
on its layer (player or chance) until depth 0 is valued by `evaluate`: its depth d searches d
plies, 1 = M E, 2 = M C E, 3 = M C M E, as g2048 counts them (DESIGN.md). So the source's depth
d is g2048's `AgentConfig("expectimax", depth=d)`, compared here at d = 1, 2, 3.

Positions: the first 10 000 positions (the start and every position a move is asked for) of
greedy classic4 games (oracle_games.played_positions), deterministic.

At each position both sides give every legal move's value and their chosen move; the legal
moves always agree, and the values agree within rounding (rtol 1e-12: the source adds 0.9 x
the 2 and 0.1 x the 4 to its running total one at a time and g2048 their sum, so they can
differ in the last bits) except in class 3. Each position whose moves differ falls in one of
three classes, counted exactly per depth in EXPECTED:
1. tie: several moves share the best value (within rounding) on both sides, the same set, and
   each side picks the first of them in its own order: the source in (left, up, right, down)
   (`score > best_score`), g2048 in (up, down, left, right). At depth 1 the values are equal
   to the last bit (the evaluations are: no sum is involved), so every depth-1 tie is exact.
2. tie_rounding: as tie, but rounding orders the equal values differently on one side, so it
   picks another of them than the first in its order.
3. dead: g2048 values a board left without a legal move at DEAD_VALUE (-1e12, below any live
   board: g2048.evaluators.evaluate), the source by its heuristic as for any board (a full
   board with its largest tile in a corner scores high). Such leaves appear from depth 2 (a
   spawn that fills the last cell, or a move node with no move). With the source's `evaluate`
   giving DEAD_VALUE to dead boards, its values agree with g2048's within rounding and it
   chooses g2048's move (or one tied with it).
Positions where only class 3's values differ and the moves agree are counted too (dead_values).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import source001
from oracle_games import ATOL, POSITIONS, RTOL, Expectimax, best_set, played_positions

from g2048 import evaluators
from g2048.engine.bitboard import DOWN, LEFT, RIGHT, UP, shift
from g2048.engine.board import decode, encode
from g2048.evaluators import DEAD_VALUE

# The source's direction numbers (choose_move's enumerate) as g2048's directions, and its moves.
SOURCE_DIRECTIONS = (LEFT, UP, RIGHT, DOWN)
G2048_DIRECTIONS = (UP, DOWN, LEFT, RIGHT)
SOURCE_MOVES = (source001.move_left, source001.move_up, source001.move_right, source001.move_down)

# Per depth: positions whose chosen moves agree, differ by a tie (by the order rule, or by
# rounding), differ by the dead-board convention; positions whose moves agree but whose values
# differ by that convention.
EXPECTED = {
    1: {"agree": 8992, "tie": 1008, "tie_rounding": 0, "dead": 0, "dead_values": 0},
    2: {"agree": 9613, "tie": 247, "tie_rounding": 5, "dead": 135, "dead_values": 140},
    3: {"agree": 9851, "tie": 89, "tie_rounding": 3, "dead": 57, "dead_values": 218},
}


def source_board(board: int) -> tuple[tuple[int, ...], ...]:
    """The source's board of a g2048 board: a tuple of rows of tile values (0 = empty), row 0
    on top, of Python ints (section 3.1 of the source: tuples, so moves compare equal)."""
    return tuple(tuple(int(v) for v in row) for row in decode(board))


def first_in(order: tuple[int, ...], moves: set[int]) -> int:
    """The first of `moves` in a direction order."""
    return next(d for d in order if d in moves)


def source_values(board: tuple, depth: int) -> np.ndarray:
    """The source's value of each move (g2048's direction order, -inf: illegal), as its
    choose_move computes them."""
    values = np.full(4, -np.inf)
    for k, move in enumerate(SOURCE_MOVES):
        after = move(board)
        if after != board:
            values[SOURCE_DIRECTIONS[k]] = source001.expectimax(after, depth - 1, False)
    return values


def source_choice(board: tuple, depth: int) -> tuple[np.ndarray, int]:
    """The source's move values and its chosen move (a g2048 direction), from a fresh cache
    (the key fixes the value, so clearing it changes no value; it bounds the memory)."""
    source001.cache.clear()
    values = source_values(board, depth)
    move = SOURCE_DIRECTIONS[source001.choose_move(board, depth)]
    source001.cache.clear()
    return values, move


def dead_low_evaluate(board: tuple) -> float:
    """The source's evaluate with g2048's convention: DEAD_VALUE for a board without a move."""
    if all(move(board) == board for move in SOURCE_MOVES):
        return DEAD_VALUE
    return LITERAL_EVALUATE(board)


LITERAL_EVALUATE = source001.evaluate


def compare(depth: int) -> Counter:
    """The classes of EXPECTED counted over the positions at one depth; asserts that every
    position falls in one of them."""
    ours_at = Expectimax("classic4", depth)
    counts: Counter = Counter()
    for board in played_positions():
        grid = source_board(board)
        theirs, their_move = source_choice(grid, depth)
        ours, our_move = ours_at.choice(board)
        assert np.array_equal(np.isneginf(theirs), np.isneginf(ours)), hex(board)
        assert depth > 1 or np.array_equal(theirs, ours), hex(board)  # no sum: equal bits
        close = np.allclose(theirs, ours, rtol=RTOL, atol=ATOL)
        if not close:  # the values of dead boards apart: as g2048 values them, they agree
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(source001, "evaluate", dead_low_evaluate)
                dead_low, dead_low_move = source_choice(grid, depth)
            np.testing.assert_allclose(dead_low, ours, rtol=RTOL, atol=ATOL, err_msg=hex(board))
        if their_move == our_move:
            counts["agree"] += 1
            counts["dead_values"] += not close
        elif close:
            tied = best_set(ours)
            assert best_set(theirs) == tied >= {their_move, our_move}, hex(board)
            in_order = their_move == first_in(SOURCE_DIRECTIONS, tied)
            in_order &= our_move == first_in(G2048_DIRECTIONS, tied)
            counts["tie" if in_order else "tie_rounding"] += 1
        else:
            assert dead_low_move in best_set(ours) and our_move in best_set(dead_low), hex(board)
            counts["dead"] += 1
    return counts


def test_source_board_reads_the_cells_row_by_row() -> None:
    assert source_board(0x1) == ((2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    cell_1_2 = 3 << (16 * 1 + 4 * 2)  # rank 3 (an 8) at row 1, column 2
    assert source_board(cell_1_2 | 0xB << 60) == (
        (0, 0, 0, 0),
        (0, 0, 8, 0),
        (0, 0, 0, 0),
        (0, 0, 0, 2048),
    )
    grids = [source_board(b) for b in played_positions()[:500]]
    assert all(type(v) is int for grid in grids for row in grid for v in row)
    assert [encode(grid) for grid in grids] == list(played_positions()[:500])


def test_source_moves_are_g2048_moves_in_its_direction_order() -> None:
    for board in played_positions()[:2000]:
        grid = source_board(board)
        for k, move in enumerate(SOURCE_MOVES):
            assert move(grid) == source_board(int(shift(np.uint64(board), SOURCE_DIRECTIONS[k])))


def test_source_evaluate_is_classic4_on_live_boards_to_the_last_bit() -> None:
    fn, weights, table = evaluators.prepare("classic4")
    for board in played_positions()[:2000]:
        b = np.uint64(board)
        for after in {int(shift(b, d)) for d in range(4)}:  # the board and its moves' results
            grid = source_board(after)
            ours = float(evaluators.evaluate(fn, np.uint64(after), weights, table, True))
            assert source001.evaluate(grid) == ours, hex(after)


def test_positions_range_from_open_to_nearly_full_boards() -> None:
    boards = played_positions()
    assert len(boards) == POSITIONS
    empties = Counter(16 - np.count_nonzero(decode(b)) for b in boards)
    assert min(empties) == 0 and max(empties) == 14


@pytest.mark.parametrize(
    "depth", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)]
)
def test_classic4_chooses_the_source_programs_move(depth: int) -> None:
    counts = compare(depth)
    assert sum(counts[k] for k in ("agree", "tie", "tie_rounding", "dead")) == POSITIONS
    assert {k: counts[k] for k in EXPECTED[depth]} == EXPECTED[depth]
