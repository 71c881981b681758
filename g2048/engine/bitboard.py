"""The njit layer of the engine: a 64-bit bitboard with 65536-entry row tables, exact rules.

Boards are np.uint64 (see g2048.engine for the naming convention). Cell (r, c) holds a rank
(tile value 2**rank, 0 = empty) in the nibble at bit 16*r + 4*c, so row 0 is the low 16 bits
and column 0 the low nibble of each row. LEFT and RIGHT are four row-table lookups; UP and DOWN
transpose, look up, transpose back. Cell masks hold one bit per cell, the low bit of its nibble.

Rank 15 (32768) is the largest a nibble holds. A move that would merge two 32768 tiles is
flagged, never applied: the tables leave such a pair unmerged and add OVERFLOW to the score, so
game loops stop the game there (also when it is the only move left) and `board.move` raises
TileOverflowError.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from g2048.engine.rng import next_below, seed_state

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
DIRECTIONS = ("up", "down", "left", "right")
MAX_RANK = 15
OVERFLOW = 1 << 31  # added to a move's score when it would merge two 32768 tiles

_ROW_MASK = np.uint64(0xFFFF)
_NIBBLE_LOW_BITS = np.uint64(0x1111111111111111)
_BYTES_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)
_BYTE_ONES = np.uint64(0x0101010101010101)
_BYTE_BIT4 = np.uint64(0x1010101010101010)
CORNER_CELLS = np.uint64(0x1001000000001001)
EDGE_CELLS = np.uint64(0x1111100110011111)  # every cell but the centre four


@njit(cache=True)
def _build_row_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Result rows and scores of LEFT and RIGHT for every 16-bit row."""
    left = np.zeros(65536, dtype=np.uint16)
    right = np.zeros(65536, dtype=np.uint16)
    score_left = np.zeros(65536, dtype=np.uint32)
    score_right = np.zeros(65536, dtype=np.uint32)
    line = np.zeros(4, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    for row in range(65536):
        for i in range(4):
            line[i] = (row >> (4 * i)) & 0xF
        out[:] = 0
        score = 0
        n = 0  # cells of `out` filled
        can_merge = False  # out[n - 1] may still absorb an equal tile
        for i in range(4):
            rank = line[i]
            if rank == 0:
                continue
            if can_merge and out[n - 1] == rank:
                can_merge = False
                if rank == MAX_RANK:
                    score |= OVERFLOW
                    out[n] = rank
                    n += 1
                else:
                    out[n - 1] = rank + 1
                    score += 1 << (rank + 1)
            else:
                out[n] = rank
                n += 1
                can_merge = True
        result = 0
        for i in range(4):
            result |= out[i] << (4 * i)
        reversed_row = 0
        reversed_result = 0
        for i in range(4):
            reversed_row |= ((row >> (4 * i)) & 0xF) << (4 * (3 - i))
            reversed_result |= ((result >> (4 * i)) & 0xF) << (4 * (3 - i))
        left[row] = result
        score_left[row] = score
        right[reversed_row] = reversed_result
        score_right[reversed_row] = score
    return left, right, score_left, score_right


ROW_LEFT, ROW_RIGHT, SCORE_LEFT, SCORE_RIGHT = _build_row_tables()


@njit(cache=True, inline="always")
def as_column(line: np.uint64) -> np.uint64:
    """A 16-bit line spread into column 0 of a board (nibble i -> row i); also elementwise
    on a uint64 array."""
    return (
        (line & np.uint64(0xF))
        | ((line & np.uint64(0xF0)) << np.uint64(12))
        | ((line & np.uint64(0xF00)) << np.uint64(24))
        | ((line & np.uint64(0xF000)) << np.uint64(36))
    )


COL_UP = as_column.py_func(ROW_LEFT.astype(np.uint64))
COL_DOWN = as_column.py_func(ROW_RIGHT.astype(np.uint64))


@njit(cache=True, inline="always")
def transpose(b: np.uint64) -> np.uint64:
    """Swap rows and columns with three masked shifts per step (nneonneo/2048-ai's trick)."""
    a1 = b & np.uint64(0xF0F00F0FF0F00F0F)
    a2 = b & np.uint64(0x0000F0F00000F0F0)
    a3 = b & np.uint64(0x0F0F00000F0F0000)
    a = a1 | (a2 << np.uint64(12)) | (a3 >> np.uint64(12))
    b1 = a & np.uint64(0xFF00FF0000FF00FF)
    b2 = a & np.uint64(0x00FF00FF00000000)
    b3 = a & np.uint64(0x00000000FF00FF00)
    return b1 | (b2 >> np.uint64(24)) | (b3 << np.uint64(24))


@njit(cache=True, inline="always")
def _apply_rows(b: np.uint64, table: np.ndarray) -> np.uint64:
    return (
        np.uint64(table[b & _ROW_MASK])
        | (np.uint64(table[(b >> np.uint64(16)) & _ROW_MASK]) << np.uint64(16))
        | (np.uint64(table[(b >> np.uint64(32)) & _ROW_MASK]) << np.uint64(32))
        | (np.uint64(table[b >> np.uint64(48)]) << np.uint64(48))
    )


@njit(cache=True, inline="always")
def _apply_cols(t: np.uint64, table: np.ndarray) -> np.uint64:
    return (
        table[t & _ROW_MASK]
        | (table[(t >> np.uint64(16)) & _ROW_MASK] << np.uint64(4))
        | (table[(t >> np.uint64(32)) & _ROW_MASK] << np.uint64(8))
        | (table[t >> np.uint64(48)] << np.uint64(12))
    )


@njit(cache=True, inline="always")
def _sum_rows(b: np.uint64, table: np.ndarray) -> int:
    return (
        np.int64(table[b & _ROW_MASK])
        + np.int64(table[(b >> np.uint64(16)) & _ROW_MASK])
        + np.int64(table[(b >> np.uint64(32)) & _ROW_MASK])
        + np.int64(table[b >> np.uint64(48)])
    )


@njit(cache=True, inline="always")
def sum_lines(b: np.uint64, table: np.ndarray) -> float:
    """Sum of a 65536-entry row table over the 4 rows and the 4 columns (read top to bottom)."""
    return row_sum(b, table) + row_sum(transpose(b), table)


@njit(cache=True, inline="always")
def row_sum(b: np.uint64, table: np.ndarray) -> float:
    """Sum of a 65536-entry row table over the 4 rows of b."""
    return (
        table[b & _ROW_MASK]
        + table[(b >> np.uint64(16)) & _ROW_MASK]
        + table[(b >> np.uint64(32)) & _ROW_MASK]
        + table[b >> np.uint64(48)]
    )


def line_indices(board: int) -> list[int]:
    """The 8 lines of a board as 16-bit row indices: rows 0..3, then columns 0..3."""
    b = int(board)
    t = int(transpose(np.uint64(b)))
    return [(x >> (16 * i)) & 0xFFFF for x in (b, t) for i in range(4)]


@njit(cache=True, inline="always")
def shift(b: np.uint64, direction: int) -> np.uint64:
    """The board after sliding in `direction` (no spawn); unchanged if the move is illegal."""
    if direction == LEFT:
        return _apply_rows(b, ROW_LEFT)
    if direction == RIGHT:
        return _apply_rows(b, ROW_RIGHT)
    if direction == UP:
        return _apply_cols(transpose(b), COL_UP)
    return _apply_cols(transpose(b), COL_DOWN)


@njit(cache=True)
def shift_scored(b: np.uint64, direction: int) -> tuple[np.uint64, int]:
    """`shift` and the score it gains (OVERFLOW is added if two 32768 tiles would merge)."""
    if direction == LEFT:
        return _apply_rows(b, ROW_LEFT), _sum_rows(b, SCORE_LEFT)
    if direction == RIGHT:
        return _apply_rows(b, ROW_RIGHT), _sum_rows(b, SCORE_RIGHT)
    t = transpose(b)
    if direction == UP:
        return _apply_cols(t, COL_UP), _sum_rows(t, SCORE_LEFT)
    return _apply_cols(t, COL_DOWN), _sum_rows(t, SCORE_RIGHT)


@njit(cache=True, inline="always")
def move_score(b: np.uint64, direction: int) -> int:
    """The score `shift(b, direction)` gains, without the board (as in shift_scored)."""
    if direction == LEFT:
        return _sum_rows(b, SCORE_LEFT)
    if direction == RIGHT:
        return _sum_rows(b, SCORE_RIGHT)
    return _sum_rows(transpose(b), SCORE_LEFT if direction == UP else SCORE_RIGHT)


@njit(cache=True, inline="always")
def empty_mask(b: np.uint64) -> np.uint64:
    """One bit (the low bit of the nibble) per empty cell."""
    x = b | (b >> np.uint64(2))
    x |= x >> np.uint64(1)
    return ~x & _NIBBLE_LOW_BITS


@njit(cache=True, inline="always")
def count_cells(mask: np.uint64) -> int:
    """Number of cells in a cell mask."""
    x = (mask + (mask >> np.uint64(4))) & _BYTES_LOW
    return np.int64((x * _BYTE_ONES) >> np.uint64(56))


@njit(cache=True, inline="always")
def empty_count(b: np.uint64) -> int:
    """Number of empty cells, 0..16."""
    return count_cells(empty_mask(b))


@njit(cache=True, inline="always")
def at_least(b: np.uint64, rank: int) -> np.uint64:
    """Cell mask of the cells whose rank is >= `rank` (0..16), by byte-wise carries."""
    add = np.uint64(16 - rank) * _BYTE_ONES
    even = ((b & _BYTES_LOW) + add) >> np.uint64(4)
    odd = ((b >> np.uint64(4)) & _BYTES_LOW) + add
    return (even & _BYTE_ONES) | (odd & _BYTE_BIT4)


@njit(cache=True, inline="always")
def cells_of_rank(b: np.uint64, rank: int) -> np.uint64:
    """Cell mask of the cells holding exactly `rank`."""
    return at_least(b, rank) & ~at_least(b, rank + 1)


@njit(cache=True)
def _line_max() -> np.ndarray:
    table = np.zeros(65536, dtype=np.uint8)
    for line in range(65536):
        for i in range(4):
            table[line] = max(table[line], (line >> (4 * i)) & 0xF)
    return table


LINE_MAX = _line_max()


@njit(cache=True, inline="always")
def max_rank(b: np.uint64) -> int:
    """The largest rank on the board (0 for an empty board), by four row lookups."""
    return np.int64(
        max(
            max(LINE_MAX[b & _ROW_MASK], LINE_MAX[(b >> np.uint64(16)) & _ROW_MASK]),
            max(LINE_MAX[(b >> np.uint64(32)) & _ROW_MASK], LINE_MAX[b >> np.uint64(48)]),
        )
    )


@njit(cache=True)
def distinct_ranks(b: np.uint64) -> int:
    """How many different tiles the board holds (empty cells not counted)."""
    seen = 0
    for _ in range(16):
        seen |= 1 << np.int64(b & np.uint64(0xF))
        b >>= np.uint64(4)
    seen &= ~1
    count = 0
    while seen:
        seen &= seen - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def max_in_corner(b: np.uint64) -> bool:
    """True when a corner cell holds the largest rank."""
    return (cells_of_rank(b, max_rank(b)) & CORNER_CELLS) != 0


@njit(cache=True, inline="always")
def is_game_over(b: np.uint64) -> bool:
    """True when no direction changes the board: it is full and no two neighbours are equal
    (or it is empty, which no game reaches)."""
    across = empty_mask(b ^ (b >> np.uint64(4))) & np.uint64(0x0111011101110111)
    down = empty_mask(b ^ (b >> np.uint64(16))) & np.uint64(0x0000111111111111)
    return b == 0 or (empty_mask(b) == 0 and (across | down) == 0)


@njit(cache=True)
def spawn_tile(b: np.uint64, state: np.ndarray) -> np.uint64:
    """Place a 2 (p = 0.9) or a 4 (p = 0.1) on a uniformly chosen empty cell; b must not be full."""
    empties = empty_mask(b)
    k = next_below(state, empty_count(b))
    for _ in range(k):
        empties &= empties - np.uint64(1)
    cell = empties & (~empties + np.uint64(1))
    rank = np.uint64(2) if next_below(state, 10) == 0 else np.uint64(1)
    return b | (cell * rank)


@njit(cache=True)
def start_board(state: np.ndarray) -> np.uint64:
    """The start position: two spawned tiles on an empty board."""
    return spawn_tile(spawn_tile(np.uint64(0), state), state)


@njit(cache=True)
def random_legal_move(b: np.uint64, state: np.ndarray) -> tuple[int, np.uint64, int]:
    """A direction uniform among the legal ones, its result and score; (-1, b, 0) if none."""
    untried = 0b1111
    remaining = 4
    while remaining:
        k = next_below(state, remaining)
        d = 0
        while True:  # d becomes the k-th untried direction
            if untried & (1 << d):
                if k == 0:
                    break
                k -= 1
            d += 1
        after, gained = shift_scored(b, d)
        if after != b:
            return d, after, gained
        untried &= ~(1 << d)
        remaining -= 1
    return -1, b, 0


@njit(cache=True)
def play_random(b: np.uint64, state: np.ndarray, max_moves: int) -> tuple[np.uint64, int, int]:
    """Random-policy playout from b: (final board, score gained, moves), at most max_moves moves.

    Stops early, before applying it, at a move that would merge two 32768 tiles.
    """
    score = 0
    moves = 0
    while moves < max_moves:
        d, after, gained = random_legal_move(b, state)
        if d < 0 or gained >= OVERFLOW:
            break
        score += gained
        b = spawn_tile(after, state)
        moves += 1
    return b, score, moves


@njit(cache=True, parallel=True)
def random_playouts(seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One random-policy game per seed, in parallel: (scores, max ranks, moves)."""
    n = seeds.size
    scores = np.zeros(n, dtype=np.int64)
    ranks = np.zeros(n, dtype=np.int64)
    moves = np.zeros(n, dtype=np.int64)
    for i in prange(n):
        state = seed_state(seeds[i])
        final, scores[i], moves[i] = play_random(start_board(state), state, 1 << 62)
        ranks[i] = max_rank(final)
    return scores, ranks, moves
