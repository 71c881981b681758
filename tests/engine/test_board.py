"""The bitboard engine (g2048.engine.bitboard and its Python API g2048.engine.board) against the
plain reference in g2048/engine/reference.py."""

import math
import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from stat_checks import binomial_z, chi2_homogeneity_pvalue, chi2_uniform_pvalue

from g2048.engine import bitboard
from g2048.engine.board import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    TileOverflowError,
    decode,
    empty_count,
    encode,
    is_game_over,
    legal_moves,
    max_tile,
    move,
    new_game,
    random_games,
    rank_grid,
    spawn,
)
from g2048.engine.reference import (
    line_cells,
    ref_is_game_over,
    ref_legal_moves,
    ref_move,
    ref_overflows,
)
from g2048.engine.rng import game_seeds, rng_state

Grid = list[list[int]]
EMPTY = [[0] * 4 for _ in range(4)]

# Statistical tests use fixed seeds; a fair engine fails one only if a chi-square p-value falls
# below P_MIN or a binomial count lies more than Z_MAX standard errors from its mean, i.e. with
# probability about 1e-4 and 6e-7, so a fixed seed is essentially never a false alarm while a
# real bias of a few percent is still caught at these sample sizes.
P_MIN = 1e-4
Z_MAX = 5.0


def line_board(line: list[int], direction: int, index: int = 0) -> Grid:
    """A grid holding `line` (listed from the side moved towards) in line `index`, else empty."""
    grid = [[0] * 4 for _ in range(4)]
    for (r, c), value in zip(line_cells(direction, index), line, strict=True):
        grid[r][c] = value
    return grid


def moved(grid: Grid, direction: int) -> tuple[Grid, int]:
    """The engine's move, as a grid and a plain int score."""
    new_board, score = move(encode(grid), direction)
    return decode(new_board).tolist(), int(score)


def assert_move_matches_reference(grid: Grid, direction: int) -> None:
    """Engine and reference agree on board and score, or both refuse an overflowing merge."""
    board = encode(grid)
    if ref_overflows(grid, direction):
        with pytest.raises(TileOverflowError):
            move(board, direction)
        return
    expected, expected_score = ref_move(grid, direction)
    new_board, score = move(board, direction)
    assert decode(new_board).tolist() == expected, (grid, direction)
    assert score == expected_score, (grid, direction)
    if expected == grid:
        assert new_board == board


# --- board strategies ----------------------------------------------------------------------

# Ranks: mostly small (realistic), sometimes anything, sometimes the top of the range.
ranks = st.one_of(st.integers(1, 5), st.integers(1, 11), st.integers(12, 15))


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    """4x4 grids from a small palette of values (many equal neighbours), often with full rows.

    Few draws per grid (one 64-bit integer lays out all cells) keep hypothesis fast.
    """
    palette = [2**r for r in draw(st.lists(ranks, min_size=1, max_size=6))]
    empty_weight = draw(st.integers(0, 4))  # 0: a full board
    full_rows = draw(st.integers(0, 15))  # bit r set: row r has no empty cell
    layout = draw(st.integers(0, 2**64 - 1))  # nibble 4r + c picks the value of cell (r, c)
    grid = []
    for r in range(4):
        row_is_full = empty_weight == 0 or full_rows >> r & 1
        choices = palette if row_is_full else [0] * empty_weight + palette
        nibbles = [layout >> (4 * (4 * r + c)) & 15 for c in range(4)]
        grid.append([choices[k % len(choices)] for k in nibbles])
    return grid


@st.composite
def overflowing_grids(draw: st.DrawFn) -> tuple[Grid, int]:
    """A grid with two 32768 tiles that meet when moving in the returned direction."""
    grid = draw(grids())
    direction = draw(st.sampled_from([UP, DOWN, LEFT, RIGHT]))
    cells = line_cells(direction, draw(st.integers(0, 3)))
    i = draw(st.integers(0, 2))
    j = draw(st.integers(i + 1, 3))
    for k, (r, c) in enumerate(cells):
        if i <= k <= j:
            grid[r][c] = 32768 if k in (i, j) else 0
    return grid, direction


# --- property tests against the reference ----------------------------------------------------


@pytest.mark.slow
@settings(max_examples=4000)
@given(grids())
@example(EMPTY)
@example([[32768] * 4 for _ in range(4)])
def test_move_matches_reference_in_every_direction(grid: Grid):
    """Board and score after each of the four moves equal the reference's."""
    for direction in (UP, DOWN, LEFT, RIGHT):
        assert_move_matches_reference(grid, direction)


@pytest.mark.slow
@settings(max_examples=1000)
@given(overflowing_grids())
def test_merging_two_32768_tiles_raises_like_the_reference(case: tuple[Grid, int]):
    """Whenever two 32768 tiles would merge, the engine raises TileOverflowError."""
    grid, direction = case
    assert ref_overflows(grid, direction)
    for d in (UP, DOWN, LEFT, RIGHT):
        assert_move_matches_reference(grid, d)


@pytest.mark.slow
@settings(max_examples=3000)
@given(grids())
@example([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
def test_legal_moves_and_game_over_match_reference(grid: Grid):
    """legal_moves and is_game_over agree with the reference on non-empty boards.

    Boards where a move would merge two 32768 tiles are left out: whether such a move counts
    as legal is not specified. The empty board has its own test below.
    """
    if grid == EMPTY or any(ref_overflows(grid, d) for d in (UP, DOWN, LEFT, RIGHT)):
        return
    board = encode(grid)
    assert legal_moves(board) == ref_legal_moves(grid)
    assert is_game_over(board) == ref_is_game_over(grid)


@settings(max_examples=1000)
@given(st.one_of(grids(), overflowing_grids().map(lambda case: case[0])))
@example([[32768, 32768, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
def test_game_over_exactly_when_no_legal_move(grid: Grid):
    """Both are defined by "no move changes the board", so they agree on every board, including
    boards where a move would merge two 32768 tiles."""
    board = encode(grid)
    assert is_game_over(board) == (legal_moves(board) == [])


@pytest.mark.slow
@settings(max_examples=2000)
@given(grids(), st.integers(0, 16))
@example(EMPTY, 0)
@example([[32768] * 4 for _ in range(4)], 16)
def test_cell_mask_helpers_match_the_grid(grid: Grid, rank: int):
    b = np.uint64(encode(grid))
    ranks = rank_grid(int(b)).ravel()
    bits = lambda cells: sum(1 << (4 * i) for i in cells)  # noqa: E731
    assert int(bitboard.at_least(b, rank)) == bits(np.flatnonzero(ranks >= rank))
    assert int(bitboard.cells_of_rank(b, rank)) == bits(np.flatnonzero(ranks == rank))
    assert bitboard.count_cells(bitboard.at_least(b, rank)) == np.sum(ranks >= rank)
    assert bitboard.empty_count(b) == empty_count(int(b)) == np.sum(ranks == 0)
    top = ranks.max()
    assert bitboard.max_rank(b) == top and max_tile(int(b)) == (2**top if top else 0)
    corners = {grid[0][0], grid[0][3], grid[3][0], grid[3][3]}
    assert bitboard.max_in_corner(b) == (max(max(row) for row in grid) in corners)


@pytest.mark.slow
@settings(max_examples=3000)
@given(grids())
@example(EMPTY)
def test_encode_decode_round_trip(grid: Grid):
    """decode inverts encode; max_tile and empty_count read the same grid."""
    board = encode(grid)
    cells = decode(board)
    assert isinstance(cells, np.ndarray)
    assert cells.shape == (4, 4)
    assert cells.dtype == np.int64
    assert cells.tolist() == grid
    assert encode(cells) == board
    assert encode(np.array(grid, dtype=np.int64)) == board
    assert max_tile(board) == max(max(row) for row in grid)
    assert empty_count(board) == sum(v == 0 for row in grid for v in row)


def test_engine_matches_reference_along_random_games():
    """Realistic positions: every position of a few random games, all four directions."""
    chooser = random.Random(2048)
    rng = rng_state(2048)
    positions = 0
    for seed in range(12):
        board = new_game(seed)
        while not is_game_over(board):
            grid = decode(board).tolist()
            for direction in (UP, DOWN, LEFT, RIGHT):
                assert_move_matches_reference(grid, direction)
            assert legal_moves(board) == ref_legal_moves(grid)
            board = spawn(move(board, chooser.choice(legal_moves(board)))[0], rng)
            positions += 1
        assert ref_is_game_over(decode(board).tolist())
    assert positions > 12 * 14  # a game needs at least 14 moves to fill the board


# --- hand cases -------------------------------------------------------------------------------


def test_direction_constants():
    """UP, DOWN, LEFT, RIGHT are 0, 1, 2, 3."""
    assert (UP, DOWN, LEFT, RIGHT) == (0, 1, 2, 3)


def test_boards_and_scores_are_python_ints():
    """encode, move, spawn and new_game return plain ints."""
    board = encode([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    new_board, score = move(board, LEFT)
    assert type(board) is int
    assert type(new_board) is int
    assert type(score) is int
    assert type(spawn(new_board, rng_state(1))) is int
    assert type(new_game(1)) is int


def test_four_equal_tiles_merge_in_two_pairs():
    """2 2 2 2 moved left gives 4 4 0 0 and scores 8; moved right gives 0 0 4 4."""
    grid = [[2, 2, 2, 2], [0] * 4, [0] * 4, [0] * 4]
    assert moved(grid, LEFT) == ([[4, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4], 8)
    assert moved(grid, RIGHT) == ([[0, 0, 4, 4], [0] * 4, [0] * 4, [0] * 4], 8)


def test_a_merged_tile_does_not_merge_again_in_the_same_move():
    """4 4 8 0 moved left gives 8 8 0 0, not 16."""
    grid = [[4, 4, 8, 0], [0] * 4, [0] * 4, [0] * 4]
    assert moved(grid, LEFT) == ([[8, 8, 0, 0], [0] * 4, [0] * 4, [0] * 4], 8)


def test_tiles_slide_across_gaps_before_merging():
    """2 0 2 4 moved left gives 4 4 0 0 and scores 4."""
    grid = [[2, 0, 2, 4], [0] * 4, [0] * 4, [0] * 4]
    assert moved(grid, LEFT) == ([[4, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4], 4)


def test_merge_resolves_from_the_far_side():
    """2 2 2 0 moved right gives 0 0 2 4: the pair nearest the right edge merges."""
    grid = [[2, 2, 2, 0], [0] * 4, [0] * 4, [0] * 4]
    assert moved(grid, RIGHT) == ([[0, 0, 2, 4], [0] * 4, [0] * 4, [0] * 4], 4)
    assert moved(grid, LEFT) == ([[4, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4], 4)


def test_move_towards_a_tile_at_the_edge_is_illegal():
    """0 0 0 2 moved right: same board, score 0; moved left: 2 0 0 0, score 0."""
    grid = [[0, 0, 0, 2], [0] * 4, [0] * 4, [0] * 4]
    board = encode(grid)
    assert move(board, RIGHT) == (board, 0)
    assert RIGHT not in legal_moves(board)
    assert moved(grid, LEFT) == ([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], 0)


@pytest.mark.parametrize("direction", [UP, DOWN, LEFT, RIGHT])
@pytest.mark.parametrize("index", [0, 1, 2, 3])
@pytest.mark.parametrize(
    ("line", "expected", "score"),
    [
        ([2, 2, 2, 2], [4, 4, 0, 0], 8),
        ([4, 4, 8, 0], [8, 8, 0, 0], 8),
        ([2, 0, 2, 4], [4, 4, 0, 0], 4),
        ([0, 2, 2, 2], [4, 2, 0, 0], 4),
        ([2, 0, 0, 0], [2, 0, 0, 0], 0),
        ([0, 0, 0, 2], [2, 0, 0, 0], 0),
        ([2, 4, 8, 16], [2, 4, 8, 16], 0),
        ([8, 0, 8, 8], [16, 8, 0, 0], 16),
    ],
)
def test_rule_examples_hold_in_every_line_and_direction(
    line: list[int], expected: list[int], score: int, direction: int, index: int
):
    """Each example, written from the side moved towards, holds in rows and columns alike."""
    assert moved(line_board(line, direction, index), direction) == (
        line_board(expected, direction, index),
        score,
    )


def test_columns_follow_the_rules_with_up_and_down():
    """The row examples, written as column 1 and moved UP / DOWN."""
    grid = [[0, 2, 0, 0], [0, 2, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]]  # column 1: 2 2 2 0
    assert moved(grid, DOWN) == ([[0, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [0, 4, 0, 0]], 4)
    assert moved(grid, UP) == ([[0, 4, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 4)
    top = [[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert move(encode(top), UP) == (encode(top), 0)


def test_score_adds_merges_of_all_lines():
    """Merges in several rows in one move all count."""
    grid = [[2, 2, 0, 0], [0, 4, 0, 4], [8, 8, 8, 8], [2, 4, 2, 4]]
    expected = [[4, 0, 0, 0], [8, 0, 0, 0], [16, 16, 0, 0], [2, 4, 2, 4]]
    assert moved(grid, LEFT) == (expected, 4 + 8 + 32)


def test_full_board_without_equal_neighbours_is_game_over():
    """No empty cell and no equal neighbours: every move is illegal."""
    board = encode([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert legal_moves(board) == []
    assert is_game_over(board)
    for direction in (UP, DOWN, LEFT, RIGHT):
        assert move(board, direction) == (board, 0)


def test_full_board_with_one_equal_pair_moves_only_along_it():
    """A full board with a single horizontal pair: only LEFT and RIGHT are legal."""
    board = encode([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]])
    assert legal_moves(board) == [LEFT, RIGHT]
    assert not is_game_over(board)
    assert decode(move(board, LEFT)[0])[3].tolist() == [4, 2, 16, 0]
    assert move(board, UP) == (board, 0)


def test_tiles_packed_at_the_top_can_only_move_down():
    """Empty bottom row, no equal neighbours: DOWN is the one legal move."""
    board = encode([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [0, 0, 0, 0]])
    assert legal_moves(board) == [DOWN]
    assert not is_game_over(board)


def test_two_16384_tiles_merge_into_32768():
    """The largest legal merge works and scores 32768."""
    grid = [[16384, 16384, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    assert moved(grid, LEFT) == ([[32768, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], 32768)
    assert max_tile(move(encode(grid), RIGHT)[0]) == 32768


@pytest.mark.parametrize(
    ("grid", "direction"),
    [
        ([[32768, 32768, 0, 0], [0] * 4, [0] * 4, [0] * 4], LEFT),
        ([[32768, 0, 0, 32768], [0] * 4, [0] * 4, [0] * 4], RIGHT),
        ([[2, 0, 0, 0], [32768, 0, 0, 0], [32768, 0, 0, 0], [0] * 4], UP),
        ([[2, 0, 0, 0], [32768, 0, 0, 0], [32768, 0, 0, 0], [0] * 4], DOWN),
    ],
)
def test_merging_two_32768_tiles_raises_tile_overflow(grid: Grid, direction: int):
    """32768 + 32768 does not fit in a 4-bit cell: move raises instead of corrupting."""
    with pytest.raises(TileOverflowError):
        move(encode(grid), direction)


def test_tile_overflow_is_an_overflow_error():
    """Callers may catch the built-in OverflowError."""
    assert issubclass(TileOverflowError, OverflowError)


def test_two_32768_tiles_move_freely_across_their_line():
    """Two 32768 side by side only overflow when moved towards each other."""
    grid = [[32768, 32768, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    assert moved(grid, DOWN) == ([[0] * 4, [0] * 4, [0] * 4, [32768, 32768, 0, 0]], 0)


def test_empty_board_has_no_tiles():
    """max_tile is 0 and all 16 cells are empty."""
    board = encode(EMPTY)
    assert max_tile(board) == 0
    assert empty_count(board) == 16


def test_empty_board_is_game_over_since_no_move_changes_it():
    """The rule: game over when no move changes the board; on an empty board none does."""
    board = encode(EMPTY)
    assert legal_moves(board) == []
    assert is_game_over(board)


def test_spawn_on_a_full_board_raises():
    """There is nowhere to put a tile."""
    board = encode([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    with pytest.raises(ValueError):
        spawn(board, rng_state(0))


def test_spawn_advances_the_generator_in_place():
    """spawn consumes randomness from rng, so the state changes; a copy replays it."""
    rng = rng_state(5)
    before = rng.copy()
    board = spawn(encode(EMPTY), rng)
    assert not np.array_equal(rng, before)
    assert spawn(encode(EMPTY), before) == board


def test_new_game_is_a_function_of_its_seed():
    """The same seed gives the same start; different seeds differ somewhere."""
    assert new_game(17) == new_game(17)
    assert len({new_game(seed) for seed in range(50)}) > 40


# --- statistical tests ---------------------------------------------------------------------


def spawn_counts(grid: Grid, n: int, seed: int) -> tuple[list[int], int]:
    """Spawn n times on grid: counts of the new tile per cell (row-major) and number of 4s."""
    board = encode(grid)
    rng = rng_state(seed)
    counts = [0] * 16
    fours = 0
    for _ in range(n):
        new = decode(spawn(board, rng))
        changed = np.flatnonzero(new != np.asarray(grid))
        assert len(changed) == 1
        cell = int(changed[0])
        assert grid[cell // 4][cell % 4] == 0
        assert new.flat[cell] in (2, 4)
        counts[cell] += 1
        fours += int(new.flat[cell] == 4)
    return counts, fours


def test_spawn_on_an_empty_board_is_uniform_with_ten_percent_fours():
    """32000 spawns: about 2000 per cell (chi-square, 15 df) and 10% fours (binomial)."""
    n = 32_000
    counts, fours = spawn_counts(EMPTY, n, seed=101)
    assert chi2_uniform_pvalue(counts) > P_MIN
    assert abs(binomial_z(fours, n, 0.1)) < Z_MAX


def test_spawn_on_a_partly_filled_board_uses_only_empty_cells_uniformly():
    """Nine empty cells, 18000 spawns: never on a tile, about 2000 on each empty cell."""
    grid = [[2, 0, 4, 0], [0, 8, 0, 0], [16, 0, 2, 0], [0, 4, 0, 32]]
    n = 18_000
    counts, fours = spawn_counts(grid, n, seed=202)
    empty_cells = [4 * r + c for r in range(4) for c in range(4) if grid[r][c] == 0]
    assert len(empty_cells) == 9
    assert sum(counts[cell] for cell in empty_cells) == n
    assert chi2_uniform_pvalue([counts[cell] for cell in empty_cells]) > P_MIN
    assert abs(binomial_z(fours, n, 0.1)) < Z_MAX


def test_new_game_places_two_tiles_uniformly_with_ten_percent_fours():
    """24000 starts (seeds 0..23999): exactly two tiles, each 2 or 4, 10% fours (binomial over
    48000 tiles), and every one of the 120 pairs of cells equally likely (chi-square, 119 df,
    about 200 games per pair)."""
    n = 24_000
    pairs = {pair: 0 for pair in combinations(range(16), 2)}
    fours = 0
    for seed in range(n):
        cells = decode(new_game(seed)).ravel()
        occupied = tuple(int(i) for i in np.flatnonzero(cells))
        assert len(occupied) == 2
        assert all(cells[i] in (2, 4) for i in occupied)
        pairs[occupied] += 1
        fours += int(sum(cells[i] == 4 for i in occupied))
    assert chi2_uniform_pvalue(list(pairs.values())) > P_MIN
    assert abs(binomial_z(fours, 2 * n, 0.1)) < Z_MAX


# --- batches of random games ---------------------------------------------------------------


@pytest.fixture(scope="module")
def batch_seeds() -> np.ndarray:
    """Seeds for the random-game batches."""
    return game_seeds(2048, "test_board.random_games", 256)


def test_random_games_return_aligned_int64_arrays(batch_seeds: np.ndarray):
    """Three int64 arrays, one entry per seed."""
    results = random_games(batch_seeds)
    assert len(results) == 3
    for array in results:
        assert isinstance(array, np.ndarray)
        assert array.dtype == np.int64
        assert array.shape == batch_seeds.shape


def test_random_games_do_not_depend_on_thread_count(batch_seeds: np.ndarray):
    """One thread and two threads give the same results, game by game."""
    one = random_games(batch_seeds, threads=1)
    two = random_games(batch_seeds, threads=2)
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(a, b)


def test_random_games_are_reproducible(batch_seeds: np.ndarray):
    """The same seeds twice give the same results."""
    for a, b in zip(random_games(batch_seeds), random_games(batch_seeds), strict=True):
        np.testing.assert_array_equal(a, b)


def test_random_game_does_not_depend_on_its_position_in_the_batch(batch_seeds: np.ndarray):
    """Reversing the seeds reverses the results; a game alone gives its batch result."""
    forward = random_games(batch_seeds, threads=2)
    backward = random_games(batch_seeds[::-1].copy(), threads=2)
    for a, b in zip(forward, backward, strict=True):
        np.testing.assert_array_equal(a, b[::-1])
    alone = random_games(batch_seeds[7:8].copy())
    assert [int(a[0]) for a in alone] == [int(a[7]) for a in forward]


def test_random_game_results_are_consistent(batch_seeds: np.ndarray):
    """Scores are even and >= 0, max tiles powers of two >= 4, at least 14 moves per game, and
    a max tile of 8 or more was made by a merge whose value is counted in the score."""
    scores, tops, moves = random_games(batch_seeds)
    assert np.all(scores >= 0)
    assert np.all(scores % 2 == 0)
    assert np.all(tops >= 4)
    assert np.all(tops & (tops - 1) == 0)
    assert np.all(tops <= 32768)
    assert np.all(moves >= 14)  # 16 tiles at game over, 2 at the start, one spawn per move
    assert np.all(scores[tops >= 8] >= tops[tops >= 8])
    assert len(set(scores.tolist())) > 1


# Random play with the reference engine: 40000 games of tests/reference.py::ref_random_game,
# two runs of 20000 with random.Random(20240) and random.Random(20241).
REF_GAMES = 40_000
REF_SCORE_MEAN, REF_SCORE_SD = 1094.7712, 531.9081
REF_MOVES_MEAN, REF_MOVES_SD = 118.4387, 37.5503
# Games whose max tile was <= 32, 64, 128, >= 256.
REF_MAX_TILE_COUNTS = [2822, 14944, 19156, 3078]


def test_random_games_play_like_the_reference_random_player():
    """40000 engine games against 40000 reference games: mean score and mean move count within
    5 standard errors of the difference of means, and the max-tile distribution passes a
    chi-square homogeneity test (3 df). A policy that is not uniform over legal moves, a wrong
    four-rate or a wrong merge rule shifts these by many standard errors."""
    n = 40_000
    scores, tops, moves = random_games(game_seeds(2048, "test_board.reference_play", n), 2)
    for sample, ref_mean, ref_sd in (
        (scores, REF_SCORE_MEAN, REF_SCORE_SD),
        (moves, REF_MOVES_MEAN, REF_MOVES_SD),
    ):
        se = math.sqrt(sample.var(ddof=1) / n + ref_sd**2 / REF_GAMES)
        assert abs(sample.mean() - ref_mean) < Z_MAX * se, (sample.mean(), ref_mean)
    counts = [
        int(np.sum(tops <= 32)),
        int(np.sum(tops == 64)),
        int(np.sum(tops == 128)),
        int(np.sum(tops >= 256)),
    ]
    assert chi2_homogeneity_pvalue(counts, REF_MAX_TILE_COUNTS) > P_MIN


def test_different_seeds_give_different_games():
    """Different seeds give different games (not all equal results)."""
    scores, _, moves = random_games(game_seeds(1, "distinct", 64))
    assert len(set(zip(scores.tolist(), moves.tolist(), strict=True))) > 32


# --- invalid input -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [3, 6, 12, 65536, 131072, -2, 2.5])
def test_encode_rejects_a_tile_that_is_not_a_power_of_two_up_to_32768(bad: object):
    """A bad tile raises ValueError naming it."""
    grid = [[2, 4, 0, 0], [0, bad, 0, 0], [0] * 4, [0] * 4]
    with pytest.raises(ValueError) as excinfo:
        encode(grid)
    assert str(bad) in str(excinfo.value)


def test_encode_rejects_a_tile_of_one():
    """1 = 2**0 is not a tile."""
    with pytest.raises(ValueError):
        encode([[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])


@pytest.mark.parametrize(
    ("grid", "shape"),
    [
        ([[0] * 4] * 3, (3, 4)),
        ([[0] * 5] * 4, (4, 5)),
        ([0] * 16, (16,)),
        (np.zeros((2, 8), dtype=np.int64), (2, 8)),
    ],
)
def test_encode_rejects_a_grid_that_is_not_4x4(grid: object, shape: tuple[int, ...]):
    """A wrong shape raises ValueError naming the shape."""
    with pytest.raises(ValueError) as excinfo:
        encode(grid)
    message = str(excinfo.value)
    assert str(shape) in message or "x".join(map(str, shape)) in message


def test_encode_rejects_a_ragged_grid():
    """Rows of different lengths are not a 4x4 grid."""
    with pytest.raises(ValueError):
        encode([[0] * 4, [0] * 4, [0] * 3, [0] * 4])


@pytest.mark.parametrize("bad", [4, 5, -1, 100])
def test_move_rejects_a_direction_outside_0_to_3(bad: int):
    """A bad direction raises ValueError naming it."""
    with pytest.raises(ValueError) as excinfo:
        move(encode([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]), bad)
    assert str(bad) in str(excinfo.value)
