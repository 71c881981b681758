"""The 2048 engine: a 64-bit bitboard with 65536-entry row tables, exact rules, numba throughout.

Layout: cell (r, c) holds a rank (tile value 2**rank, 0 = empty) in the nibble at bit
16*r + 4*c, so row 0 is the low 16 bits and column 0 the low nibble of each row. LEFT and
RIGHT are four row-table lookups; UP and DOWN transpose, look up, transpose back.

Rank 15 (32768) is the largest a nibble holds. A move that would merge two 32768 tiles is
flagged, never applied: the tables leave such a pair unmerged and add OVERFLOW to the score, so
game loops stop the game there (also when it is the only move left) and `move` raises
TileOverflowError.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from g2048.parallel import thread_count
from g2048.rng import next_below, rng_state, seed_state

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
DIRECTIONS = ("up", "down", "left", "right")
MAX_RANK = 15
OVERFLOW = 1 << 31  # added to a move's score when it would merge two 32768 tiles

_ROW_MASK = np.uint64(0xFFFF)
_NIBBLE_LOW_BITS = np.uint64(0x1111111111111111)


class TileOverflowError(OverflowError):
    """A move would merge two 32768 tiles, which a 4-bit cell cannot hold."""


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


def _as_columns(rows: np.ndarray) -> np.ndarray:
    """Each 16-bit row spread into column 0 of a board (nibble i -> row i)."""
    r = rows.astype(np.uint64)
    return (
        (r & np.uint64(0xF))
        | ((r >> np.uint64(4)) & np.uint64(0xF)) << np.uint64(16)
        | ((r >> np.uint64(8)) & np.uint64(0xF)) << np.uint64(32)
        | ((r >> np.uint64(12)) & np.uint64(0xF)) << np.uint64(48)
    )


COL_UP = _as_columns(ROW_LEFT)
COL_DOWN = _as_columns(ROW_RIGHT)


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
    t = transpose(b)
    return (
        table[b & _ROW_MASK]
        + table[(b >> np.uint64(16)) & _ROW_MASK]
        + table[(b >> np.uint64(32)) & _ROW_MASK]
        + table[b >> np.uint64(48)]
        + table[t & _ROW_MASK]
        + table[(t >> np.uint64(16)) & _ROW_MASK]
        + table[(t >> np.uint64(32)) & _ROW_MASK]
        + table[t >> np.uint64(48)]
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
def empty_mask(b: np.uint64) -> np.uint64:
    """One bit (the low bit of the nibble) per empty cell."""
    x = b | (b >> np.uint64(2))
    x |= x >> np.uint64(1)
    return ~x & _NIBBLE_LOW_BITS


@njit(cache=True, inline="always")
def count_empty(b: np.uint64) -> int:
    """Number of empty cells, 0..16."""
    x = empty_mask(b)
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def max_rank(b: np.uint64) -> int:
    """The largest rank on the board (0 for an empty board)."""
    best = np.int64(0)
    while b:
        best = max(best, np.int64(b & np.uint64(0xF)))
        b >>= np.uint64(4)
    return best


@njit(cache=True, inline="always")
def game_over(b: np.uint64) -> bool:
    """True when no direction changes the board: it is full and no two neighbours are equal
    (or it is empty, which no game reaches)."""
    across = empty_mask(b ^ (b >> np.uint64(4))) & np.uint64(0x0111011101110111)
    down = empty_mask(b ^ (b >> np.uint64(16))) & np.uint64(0x0000111111111111)
    return b == 0 or (empty_mask(b) == 0 and (across | down) == 0)


@njit(cache=True)
def spawn_tile(b: np.uint64, state: np.ndarray) -> np.uint64:
    """Place a 2 (p = 0.9) or a 4 (p = 0.1) on a uniformly chosen empty cell; b must not be full."""
    empties = empty_mask(b)
    k = next_below(state, count_empty(b))
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
def _random_games(seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = seeds.size
    scores = np.zeros(n, dtype=np.int64)
    ranks = np.zeros(n, dtype=np.int64)
    moves = np.zeros(n, dtype=np.int64)
    for i in prange(n):
        state = seed_state(seeds[i])
        final, scores[i], moves[i] = play_random(start_board(state), state, 1 << 62)
        ranks[i] = max_rank(final)
    return scores, ranks, moves


# ----- the Python API: validated, with Python ints in and out -----


def _rank_of(value: object) -> int:
    v = int(value)  # type: ignore[call-overload]
    if v != value or v < 0 or (v and (v < 2 or v > 2**MAX_RANK or v & (v - 1))):
        raise ValueError(f"tile value must be 0 or a power of two in 2..32768, got {value!r}")
    return v.bit_length() - 1 if v else 0


def _board(board: object) -> np.uint64:
    if isinstance(board, bool) or not isinstance(board, int | np.integer):
        raise ValueError(f"board must be an integer, got {board!r}")
    if not 0 <= int(board) < 2**64:
        raise ValueError(f"board must be in [0, 2**64), got {board}")
    return np.uint64(int(board))


def _direction(direction: object) -> int:
    if isinstance(direction, bool) or not isinstance(direction, int | np.integer):
        raise ValueError(f"direction must be 0..3 (UP, DOWN, LEFT, RIGHT), got {direction!r}")
    if not 0 <= int(direction) <= 3:
        raise ValueError(f"direction must be 0..3 (UP, DOWN, LEFT, RIGHT), got {direction}")
    return int(direction)


def encode(grid: object) -> int:
    """The board of a 4x4 grid of tile values (0 = empty)."""
    try:
        cells = np.asarray(grid, dtype=object)
    except ValueError as exc:  # ragged nesting
        raise ValueError(f"grid must be 4x4, got {grid!r}") from exc
    if cells.shape != (4, 4):
        raise ValueError(f"grid must be 4x4, got shape {cells.shape}")
    board = 0
    for i, value in enumerate(cells.ravel()):
        board |= _rank_of(value) << (4 * i)
    return board


def decode(board: int) -> np.ndarray:
    """The 4x4 grid of tile values (int64, 0 = empty) of a board."""
    b = int(_board(board))
    ranks = np.array([(b >> (4 * i)) & 0xF for i in range(16)], dtype=np.int64)
    return np.where(ranks > 0, 1 << ranks, 0).reshape(4, 4)


def move(board: int, direction: int) -> tuple[int, int]:
    """(new board, score gained) after sliding; (board, 0) for an illegal move. No spawn."""
    after, gained = shift_scored(_board(board), _direction(direction))
    if gained >= OVERFLOW:
        raise TileOverflowError(
            f"moving {DIRECTIONS[direction]} would merge two 32768 tiles on board {board:#018x}"
        )
    return int(after), int(gained)


def legal_moves(board: int) -> list[int]:
    """Directions that change the board, ascending (one that would merge two 32768 tiles
    counts: it changes the board, though `move` refuses it)."""
    b = _board(board)
    return [d for d in range(4) if _changes(b, d)]


def _changes(b: np.uint64, direction: int) -> bool:
    after, gained = shift_scored(b, direction)
    return after != b or gained >= OVERFLOW


def is_game_over(board: int) -> bool:
    """True when no move changes the board."""
    return bool(game_over(_board(board)))


def max_tile(board: int) -> int:
    """The largest tile value on the board (0 for an empty board)."""
    rank = max_rank(_board(board))
    return 1 << rank if rank else 0


def empty_count(board: int) -> int:
    """Number of empty cells."""
    return int(count_empty(_board(board)))


def spawn(board: int, rng: np.ndarray) -> int:
    """The board with one tile spawned per the rules, advancing `rng` (from `rng_state`)."""
    b = _board(board)
    if count_empty(b) == 0:
        raise ValueError(f"cannot spawn on a full board {int(b):#018x}")
    return int(spawn_tile(b, rng))


def new_game(seed: int) -> int:
    """The start position of the game with this seed: two tiles, each a 2 (p=0.9) or a 4."""
    return int(start_board(rng_state(seed)))


def random_games(seeds: np.ndarray, threads: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play one random-policy game per seed in parallel: (scores, max tile values, moves)."""
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    with thread_count(threads):
        scores, ranks, moves = _random_games(seeds)
    return scores, np.where(ranks > 0, 1 << ranks, 0), moves
