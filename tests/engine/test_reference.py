"""Hand cases showing that the reference engine (the oracle) follows the rules of 2048."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from g2048.engine.reference import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    merge_line,
    ref_is_game_over,
    ref_legal_moves,
    ref_move,
    ref_overflows,
    ref_random_game,
    ref_spawn,
)


def row_grid(row: list[int]) -> list[list[int]]:
    """A grid whose top row is `row`, the rest empty."""
    return [list(row), [0] * 4, [0] * 4, [0] * 4]


def transpose(grid: list[list[int]]) -> list[list[int]]:
    """Rows become columns."""
    return [list(col) for col in zip(*grid, strict=True)]


def mirror(grid: list[list[int]]) -> list[list[int]]:
    """Left and right swap."""
    return [row[::-1] for row in grid]


@pytest.mark.parametrize(
    ("row", "direction", "expected", "score"),
    [
        ([2, 2, 2, 2], LEFT, [4, 4, 0, 0], 8),
        ([2, 2, 2, 2], RIGHT, [0, 0, 4, 4], 8),
        ([4, 4, 8, 0], LEFT, [8, 8, 0, 0], 8),
        ([2, 0, 2, 4], LEFT, [4, 4, 0, 0], 4),
        ([0, 0, 0, 2], LEFT, [2, 0, 0, 0], 0),
        ([0, 0, 0, 2], RIGHT, [0, 0, 0, 2], 0),
        ([2, 2, 2, 0], RIGHT, [0, 0, 2, 4], 4),
        ([2, 2, 2, 0], LEFT, [4, 2, 0, 0], 4),
        ([2, 4, 8, 16], LEFT, [2, 4, 8, 16], 0),
        ([16384, 16384, 0, 0], LEFT, [32768, 0, 0, 0], 32768),
    ],
)
def test_rule_examples_in_a_row(row: list[int], direction: int, expected: list[int], score: int):
    """The examples of the rules, moved sideways."""
    assert ref_move(row_grid(row), direction) == (row_grid(expected), score)


@pytest.mark.parametrize(
    ("column", "direction", "expected", "score"),
    [
        ([2, 2, 2, 2], UP, [4, 4, 0, 0], 8),
        ([2, 2, 2, 2], DOWN, [0, 0, 4, 4], 8),
        ([2, 2, 2, 0], DOWN, [0, 0, 2, 4], 4),
        ([0, 0, 0, 2], DOWN, [0, 0, 0, 2], 0),
        ([0, 0, 0, 2], UP, [2, 0, 0, 0], 0),
    ],
)
def test_rule_examples_in_a_column(
    column: list[int], direction: int, expected: list[int], score: int
):
    """The examples of the rules, moved vertically (column 0 holds the line)."""
    grid = transpose(row_grid(column))
    assert ref_move(grid, direction) == (transpose(row_grid(expected)), score)


def test_move_leaves_the_input_grid_alone():
    """ref_move returns a new grid."""
    grid = row_grid([2, 2, 0, 0])
    ref_move(grid, LEFT)
    assert grid == row_grid([2, 2, 0, 0])


def test_every_line_moves_independently():
    """All four rows move and score together."""
    grid = [[2, 2, 0, 0], [0, 4, 0, 4], [8, 8, 8, 8], [2, 4, 2, 4]]
    expected = [[4, 0, 0, 0], [8, 0, 0, 0], [16, 16, 0, 0], [2, 4, 2, 4]]
    assert ref_move(grid, LEFT) == (expected, 4 + 8 + 32)


def test_merging_two_32768_tiles_overflows():
    """32768 + 32768 does not fit in a cell."""
    with pytest.raises(OverflowError):
        ref_move(row_grid([32768, 32768, 0, 0]), LEFT)
    assert ref_overflows(row_grid([0, 32768, 0, 32768]), RIGHT)
    assert not ref_overflows(row_grid([32768, 32768, 0, 0]), UP)
    assert merge_line([32768, 32768, 2, 2], check_overflow=False) == ([65536, 4, 0, 0], 65540)


def test_full_board_without_equal_neighbours_is_game_over():
    """No empty cell and no equal neighbour: no legal move."""
    grid = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    assert ref_legal_moves(grid) == []
    assert ref_is_game_over(grid)


def test_full_board_with_one_horizontal_pair_moves_only_sideways():
    """A single equal pair in a row makes LEFT and RIGHT legal, nothing else."""
    grid = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]
    assert ref_legal_moves(grid) == [LEFT, RIGHT]
    assert not ref_is_game_over(grid)


def test_tiles_packed_at_the_top_can_only_move_down():
    """Empty bottom row and no equal neighbours: DOWN is the only legal move."""
    grid = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [0, 0, 0, 0]]
    assert ref_legal_moves(grid) == [DOWN]


def test_a_would_be_overflow_counts_as_a_legal_move():
    """A move that would merge two 32768 tiles changes the board, so it is legal."""
    grid = [[32768, 32768, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    assert ref_legal_moves(grid) == [LEFT, RIGHT]


cells = st.sampled_from([0, 0, 0, 2, 2, 4, 4, 8, 16])
grids = st.lists(st.lists(cells, min_size=4, max_size=4), min_size=4, max_size=4)


@settings(max_examples=300)
@given(grids)
def test_directions_are_symmetric(grid: list[list[int]]):
    """RIGHT is LEFT mirrored, UP is LEFT transposed, DOWN is RIGHT transposed."""
    left, left_score = ref_move(grid, LEFT)
    assert ref_move(mirror(grid), RIGHT) == (mirror(left), left_score)
    assert ref_move(transpose(grid), UP) == (transpose(left), left_score)
    assert ref_move(transpose(mirror(grid)), DOWN) == (transpose(mirror(left)), left_score)


@settings(max_examples=300)
@given(grids, st.sampled_from([UP, DOWN, LEFT, RIGHT]))
def test_move_keeps_the_tile_sum_and_scores_the_merges(grid: list[list[int]], direction: int):
    """Merging a + a into 2a keeps the sum; each merge removes one tile and scores 2a."""
    new, score = ref_move(grid, direction)
    assert sum(map(sum, new)) == sum(map(sum, grid))
    tiles_before = sum(v != 0 for row in grid for v in row)
    tiles_after = sum(v != 0 for row in new for v in row)
    assert score % 2 == 0
    assert (score == 0) == (tiles_before == tiles_after)


def test_spawn_places_one_small_tile_on_an_empty_cell():
    """ref_spawn adds exactly one 2 or 4 where there was nothing."""
    rng = random.Random(7)
    grid = row_grid([2, 4, 8, 16])
    for _ in range(100):
        new = ref_spawn(grid, rng)
        changed = [(r, c) for r in range(4) for c in range(4) if new[r][c] != grid[r][c]]
        assert len(changed) == 1
        r, c = changed[0]
        assert grid[r][c] == 0
        assert new[r][c] in (2, 4)


def test_random_game_ends_in_game_over_with_consistent_totals():
    """A reference random game reports an even score, a power-of-two max tile and >= 14 moves."""
    score, top, moves = ref_random_game(random.Random(3))
    assert score % 2 == 0
    assert top & (top - 1) == 0
    assert top >= 4
    assert moves >= 14  # 16 tiles at the end, 2 at the start, one spawn per move
