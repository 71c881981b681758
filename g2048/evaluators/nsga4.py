"""Source 000's four normalised objectives (NSGA-II post): monotonicity, empty, merges, corner.

Each feature lies in [0, 1] and the weights live on the simplex, as in the source:

- monotonicity: per line, the rank drops D and rises R between adjacent cells in nibble order
  (left to right, top to bottom; an empty cell has rank 0), summed over the rows (Dh, Rh) and
  over the columns (Dv, Rv); the feature is (|Dh - Rh| + |Dv - Rv|) / (Dh + Rh + Dv + Rv), 1 when
  the board has no step at all.
- empty: empty cells / 15, clipped at 1 (16 empty cells only on an empty board).
- merges: adjacent equal non-empty pairs in rows and columns (empties do not separate) / 24.
- corner: 1 when a corner cell holds the largest rank, else 0.

Deviations from the source. Its monotonicity, max(Dh', Rh') + max(Dv', Rv') on 4**rank
differences divided by a fixed 20000 and clipped at 1, is capped at 1 in every position with a
128 or more (4**7 = 16384 alone nearly fills the 20000; 24% of random-policy positions, 76% of
greedy ones), so it stops telling positions apart for most of a game, and its max() also grows
with any large gradient, ordered or not. Ours works on ranks and divides by the
board's own total variation: max(D, R) / (D + R) lies in [1/2, 1] and equals (1 + |D - R| /
(D + R)) / 2, so the feature is the source's max() made scale-free and stretched to [0, 1]: 1 when
every row steps one way and every column one way, 0 when the steps cancel. The source's corner test
takes the first maximum in scan order, so a second copy of the largest tile outside a corner hides
one in a corner; ours asks whether any corner holds the largest rank.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.engine.bitboard import empty_count, max_in_corner
from g2048.evaluators.lines import (
    FIRST,
    SECOND,
    field,
    line_sums,
    pack,
    row_col_sums,
)

NAME = "nsga4"
FEATURES = ("monotonicity", "empty", "merges", "corner")
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
BOUNDS = ((0.0, 1.0), (0.0, 1.0), (0.0, 1.0), (0.0, 1.0))
EMPTY_NORM = 15.0
MERGE_NORM = 24.0  # 12 adjacent pairs in the rows + 12 in the columns


# Per line: rank drops, rank rises (nibble order, empty = 0) and equal non-empty pairs.
_STEPS = SECOND - FIRST
LINE_FEATURES = np.column_stack(
    [
        np.clip(-_STEPS, 0, None).sum(axis=1),
        np.clip(_STEPS, 0, None).sum(axis=1),
        ((FIRST > 0) & (_STEPS == 0)).sum(axis=1),
    ]
).astype(np.float64)
PACKED = pack(LINE_FEATURES)


@njit(cache=True, inline="always")
def monotonicity(drops_h: float, rises_h: float, drops_v: float, rises_v: float) -> float:
    """The net share of the rank steps: 1 when rows and columns each step one way only."""
    total = drops_h + rises_h + drops_v + rises_v
    if total == 0:
        return 1.0
    return (abs(drops_h - rises_h) + abs(drops_v - rises_v)) / total


def features(board: int) -> np.ndarray:
    """The four normalised features of `board`."""
    rows, cols, grid = line_sums(LINE_FEATURES, board)
    corners = (grid[0, 0], grid[0, 3], grid[3, 0], grid[3, 3])
    return np.array(
        [
            monotonicity(rows[0], rows[1], cols[0], cols[1]),
            min(int(np.sum(grid == 0)), EMPTY_NORM) / EMPTY_NORM,
            (rows[2] + cols[2]) / MERGE_NORM,
            float(grid.max() in corners),
        ]
    )


@njit(cache=True, inline="always")
def value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """weights . features(board): eight packed lookups and bit operations."""
    rows, cols = row_col_sums(board, PACKED)
    mono = monotonicity(field(rows, 0), field(rows, 1), field(cols, 0), field(cols, 1))
    empty = min(empty_count(board), 15) / EMPTY_NORM
    merges = (field(rows, 2) + field(cols, 2)) / MERGE_NORM
    corner = 1.0 if max_in_corner(board) else 0.0
    return weights[0] * mono + weights[1] * empty + weights[2] * merges + weights[3] * corner
