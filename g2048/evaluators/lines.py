"""Shared helpers of the evaluators: per-line feature tables, packed for one lookup per line.

A line is a row (nibble i = column i) or a column (nibble i = row i) as a 16-bit index, so one
table over the 65536 lines serves rows and columns alike. The small integer quantities of a line
that a `value` needs are packed into one uint64 per line, FIELD_BITS bits per field: a single
lookup per line gives them all, and the sum over the 4 rows (or the 4 columns) of the packed words
sums every field at once without carries, as long as each field of a line stays below FIELD_LIMIT.
Board-wide bit tricks (cell masks, ranks, corners) live in g2048.engine.bitboard.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.engine.bitboard import line_indices, transpose
from g2048.engine.board import rank_grid

FIELD_BITS = 12
FIELD_LIMIT = 1 << (FIELD_BITS - 2)  # per line, so that a sum over 4 lines still fits a field
MAX_FIELDS = 64 // FIELD_BITS

_LINE = np.uint64(0xFFFF)
_FIELD = np.uint64((1 << FIELD_BITS) - 1)


# The 4 ranks of every 16-bit line in nibble order, LINE_RANKS[line, i], and the pairs of
# adjacent cells of every line: FIRST[line, j], SECOND[line, j] = ranks j and j + 1.
LINE_RANKS = (np.arange(65536)[:, None] >> (4 * np.arange(4))) & 0xF
FIRST, SECOND = LINE_RANKS[:, :-1], LINE_RANKS[:, 1:]
# Per line: sum of |a - b| over the adjacent pairs of non-empty cells, on ranks (log2).
LINE_ROUGHNESS = np.where((FIRST > 0) & (SECOND > 0), np.abs(FIRST - SECOND), 0).sum(axis=1)


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


def line_sums(table: np.ndarray, board: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Python side, for `features`: a per-line feature table summed over the rows and over the
    columns, and the board's 4x4 grid of ranks."""
    idx = line_indices(board)
    return table[idx[:4]].sum(axis=0), table[idx[4:]].sum(axis=0), rank_grid(board)


def no_table(weights: np.ndarray) -> np.ndarray:
    """`prepare` of the evaluators whose `value` needs no weight-dependent table (the default)."""
    return np.zeros(1)
