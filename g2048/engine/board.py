"""The engine's Python API: validated boards as Python ints in, Python ints and tile values out.

Each function wraps the njit function of the same quantity in `bitboard` (see g2048.engine).
"""

from __future__ import annotations

import numpy as np

from g2048.engine import bitboard
from g2048.engine.bitboard import DIRECTIONS, DOWN, LEFT, MAX_RANK, OVERFLOW, RIGHT, UP
from g2048.engine.parallel import thread_count
from g2048.engine.rng import rng_state

__all__ = [
    "DIRECTIONS", "DOWN", "LEFT", "RIGHT", "UP", "TileOverflowError", "decode", "empty_count",
    "encode", "is_game_over", "legal_moves", "max_tile", "move", "new_game", "random_games",
    "rank_grid", "spawn",
]  # fmt: skip


class TileOverflowError(OverflowError):
    """A move would merge two 32768 tiles, which a 4-bit cell cannot hold."""


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


def rank_grid(board: int) -> np.ndarray:
    """The 4x4 grid of ranks (int64, 0 = empty, else log2 of the tile) of a board, row 0 on top."""
    b = int(_board(board))
    return np.array([(b >> (4 * i)) & 0xF for i in range(16)], dtype=np.int64).reshape(4, 4)


def decode(board: int) -> np.ndarray:
    """The 4x4 grid of tile values (int64, 0 = empty) of a board."""
    grid = rank_grid(board)
    return np.where(grid > 0, 1 << grid, 0)


def move(board: int, direction: int) -> tuple[int, int]:
    """(new board, score gained) after sliding; (board, 0) for an illegal move. No spawn."""
    after, gained = bitboard.shift_scored(_board(board), _direction(direction))
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
    after, gained = bitboard.shift_scored(b, direction)
    return after != b or gained >= OVERFLOW


def is_game_over(board: int) -> bool:
    """True when no move changes the board."""
    return bool(bitboard.is_game_over(_board(board)))


def max_tile(board: int) -> int:
    """The largest tile value on the board (0 for an empty board)."""
    rank = bitboard.max_rank(_board(board))
    return 1 << rank if rank else 0


def empty_count(board: int) -> int:
    """Number of empty cells."""
    return int(bitboard.empty_count(_board(board)))


def spawn(board: int, rng: np.ndarray) -> int:
    """The board with one tile spawned per the rules, advancing `rng` (from `rng_state`)."""
    b = _board(board)
    if bitboard.empty_count(b) == 0:
        raise ValueError(f"cannot spawn on a full board {int(b):#018x}")
    return int(bitboard.spawn_tile(b, rng))


def new_game(seed: int) -> int:
    """The start position of the game with this seed: two tiles, each a 2 (p=0.9) or a 4."""
    return int(bitboard.start_board(rng_state(seed)))


def random_games(seeds: np.ndarray, threads: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play one random-policy game per seed in parallel: (scores, max tile values, moves)."""
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    with thread_count(threads):
        scores, top, moves = bitboard.random_playouts(seeds)
    return scores, np.where(top > 0, 1 << top, 0), moves
