"""nneonneo/2048-ai's heuristic: a per-row score, precomputed for all 65536 rows, summed over
the 4 rows and the 4 columns.

Per line: lost_penalty + empty_w*empty + merges_w*merges - mono_w*min(mono_left, mono_right)
- sum_w*sum(rank**SUM_POWER), the monotonicity differences taken on rank**MONO_POWER. The five
weights are tunable; the two powers are the fixed constants of the original.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.engine.bitboard import line_indices, sum_lines

NAME = "nneonneo"
FEATURES = ("lines", "empty", "merges", "monotonicity_penalty", "sum_penalty")
DEFAULT_WEIGHTS = (200000.0, 270.0, 700.0, 47.0, 11.0)
BOUNDS = ((0.0, 400000.0), (0.0, 1000.0), (0.0, 2000.0), (0.0, 200.0), (0.0, 50.0))
MONO_POWER = 4.0
SUM_POWER = 3.5
GRID_BITS = LINE_BITS = 24  # the row table's resolution and range (see prepare)


@njit(cache=True)
def _row_features() -> np.ndarray:
    """The five features of every 16-bit line (row or column)."""
    table = np.zeros((65536, 5))
    line = np.zeros(4, dtype=np.int64)
    for row in range(65536):
        for i in range(4):
            line[i] = (row >> (4 * i)) & 0xF
        total = 0.0
        empty = 0
        merges = 0
        prev = 0
        counter = 0
        for i in range(4):
            rank = line[i]
            total += rank**SUM_POWER
            if rank == 0:
                empty += 1
            else:
                if prev == rank:
                    counter += 1
                elif counter > 0:
                    merges += 1 + counter
                    counter = 0
                prev = rank
        if counter > 0:
            merges += 1 + counter
        mono_left = 0.0
        mono_right = 0.0
        for i in range(1, 4):
            a = line[i - 1] ** MONO_POWER
            b = line[i] ** MONO_POWER
            if line[i - 1] > line[i]:
                mono_left += a - b
            else:
                mono_right += b - a
        table[row, 0] = 1.0
        table[row, 1] = empty
        table[row, 2] = merges
        table[row, 3] = -min(mono_left, mono_right)
        table[row, 4] = -total
    return table


ROW_FEATURES = _row_features()


def prepare(weights: np.ndarray) -> np.ndarray:
    """The weighted row table that `value` sums over the board's lines, each entry rounded to
    a multiple of 2**-GRID_BITS (at most 2**-25 from the exact weighted sum). Entries of that
    grid below 2**LINE_BITS in magnitude make any sum of a board's 8 lines exact in float64
    (2**27 needs 51 bits of a 53-bit significand): the search may add them in any order, or
    correct a sum by the lines a move changes, and get the very value of `value`."""
    # an elementwise product, not `@`: a BLAS call would leave OpenBLAS threads spinning on
    # the cores the games need
    table = (ROW_FEATURES * weights).sum(axis=1)
    largest = np.abs(table).max()
    if largest >= 2.0**LINE_BITS:
        raise ValueError(
            f"{NAME} weights {weights.tolist()} give a line the value {largest:.4g}: "
            f"line values must stay below 2**{LINE_BITS} (weights within {BOUNDS} do)"
        )
    return np.ldexp(np.round(np.ldexp(table, GRID_BITS)), -GRID_BITS)


def features(board: int) -> np.ndarray:
    """The five features of `board`: sums over its 8 lines."""
    return ROW_FEATURES[line_indices(board)].sum(axis=0)


@njit(cache=True, inline="always")
def value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """weights . features(board), by eight table lookups."""
    return sum_lines(board, table)
