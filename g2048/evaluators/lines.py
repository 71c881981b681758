"""Shared helpers of the evaluators: per-line tables and bit tricks on the board.

A line is a row (nibble i = column i) or a column (nibble i = row i) as a 16-bit index, so one
table over the 65536 lines serves rows and columns alike. The small integer quantities of a line
that a `value` needs are packed into one uint64 per line, FIELD_BITS bits per field: a single
lookup per line gives them all, and the sum over the 4 rows (or the 4 columns) of the packed words
sums every field at once without carries, as long as each field of a line stays below FIELD_LIMIT.
Cell masks hold one bit per cell, the low bit of its nibble, like `board.empty_mask`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.board import line_indices, transpose

FIELD_BITS = 12
FIELD_LIMIT = 1 << (FIELD_BITS - 2)  # per line, so that a sum over 4 lines still fits a field
MAX_FIELDS = 64 // FIELD_BITS

_LINE = np.uint64(0xFFFF)
_FIELD = np.uint64((1 << FIELD_BITS) - 1)
_BYTES_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)
_BYTE_ONES = np.uint64(0x0101010101010101)
_BYTE_BIT4 = np.uint64(0x1010101010101010)
CORNER_CELLS = np.uint64(0x1001000000001001)


@njit(cache=True)
def unpack_line(line: int, ranks: np.ndarray) -> None:
    """Write the 4 ranks of a 16-bit line into `ranks`, nibble order."""
    for i in range(4):
        ranks[i] = (line >> (4 * i)) & 0xF


@njit(cache=True)
def roughness(ranks: np.ndarray) -> int:
    """Sum of |a - b| over the adjacent pairs of non-empty cells of a line, on ranks (log2)."""
    total = 0
    for i in range(3):
        if ranks[i] and ranks[i + 1]:
            total += abs(ranks[i] - ranks[i + 1])
    return total


def pack(fields: np.ndarray) -> np.ndarray:
    """Pack a (65536, k) table of integers in [0, FIELD_LIMIT) into one uint64 word per line."""
    values = np.asarray(fields)
    if values.shape[0] != 65536 or values.shape[1] > MAX_FIELDS:
        raise ValueError(f"need 65536 lines of at most {MAX_FIELDS} fields, got {values.shape}")
    if values.min() < 0 or values.max() >= FIELD_LIMIT or np.any(values != np.round(values)):
        raise ValueError(f"fields must be integers in [0, {FIELD_LIMIT})")
    packed = np.zeros(65536, dtype=np.uint64)
    for k in range(values.shape[1]):
        packed |= values[:, k].astype(np.uint64) << np.uint64(FIELD_BITS * k)
    return packed


@njit(cache=True, inline="always")
def field(word: np.uint64, k: int) -> int:
    """Field k of a packed word (or of a sum of packed words)."""
    return np.int64((word >> np.uint64(FIELD_BITS * k)) & _FIELD)


@njit(cache=True, inline="always")
def row_sum(b: np.uint64, packed: np.ndarray) -> np.uint64:
    """Sum of the packed words of the 4 rows of b (of its columns when b is transposed)."""
    return (
        packed[b & _LINE]
        + packed[(b >> np.uint64(16)) & _LINE]
        + packed[(b >> np.uint64(32)) & _LINE]
        + packed[b >> np.uint64(48)]
    )


@njit(cache=True, inline="always")
def row_col_sums(b: np.uint64, packed: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """Sums of the packed words over the 4 rows and over the 4 columns of b."""
    return row_sum(b, packed), row_sum(transpose(b), packed)


def line_sums(table: np.ndarray, board: int) -> tuple[np.ndarray, np.ndarray]:
    """Python side: a per-line feature table summed over the rows and over the columns."""
    idx = line_indices(board)
    return table[idx[:4]].sum(axis=0), table[idx[4:]].sum(axis=0)


@njit(cache=True, inline="always")
def at_least(b: np.uint64, rank: int) -> np.uint64:
    """Cell mask of the cells whose rank is >= `rank` (0..16), by byte-wise carries."""
    add = np.uint64(16 - rank) * _BYTE_ONES
    even = ((b & _BYTES_LOW) + add) >> np.uint64(4)
    odd = ((b >> np.uint64(4)) & _BYTES_LOW) + add
    return (even & _BYTE_ONES) | (odd & _BYTE_BIT4)


@njit(cache=True, inline="always")
def count_cells(mask: np.uint64) -> int:
    """Number of cells in a cell mask."""
    x = (mask + (mask >> np.uint64(4))) & _BYTES_LOW
    return np.int64((x * _BYTE_ONES) >> np.uint64(56))


@njit(cache=True)
def _line_max() -> np.ndarray:
    table = np.zeros(65536, dtype=np.uint8)
    for line in range(65536):
        for i in range(4):
            table[line] = max(table[line], (line >> (4 * i)) & 0xF)
    return table


LINE_MAX = _line_max()


@njit(cache=True, inline="always")
def top_rank(b: np.uint64) -> int:
    """The largest rank on the board, by four row lookups."""
    return np.int64(
        max(
            max(LINE_MAX[b & _LINE], LINE_MAX[(b >> np.uint64(16)) & _LINE]),
            max(LINE_MAX[(b >> np.uint64(32)) & _LINE], LINE_MAX[b >> np.uint64(48)]),
        )
    )


@njit(cache=True, inline="always")
def in_corner(b: np.uint64, rank: int) -> bool:
    """True when one of the four corner cells holds `rank`."""
    return (at_least(b, rank) & ~at_least(b, rank + 1) & CORNER_CELLS) != 0


def grid_ranks(board: int) -> np.ndarray:
    """Python side: the 4x4 grid of ranks (0 = empty), row 0 on top."""
    b = int(board)
    return np.array([(b >> (4 * i)) & 0xF for i in range(16)], dtype=np.int64).reshape(4, 4)


def no_table(weights: np.ndarray) -> np.ndarray:
    """`prepare` of an evaluator whose `value` needs no weight-dependent table."""
    return np.zeros(1)
