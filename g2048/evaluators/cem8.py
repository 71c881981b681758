"""Source 003's eight features (cross-entropy post), normalised as in the source; m = largest rank.

- empty: empty cells / 16.
- smoothness: -sum |a - b| over adjacent non-empty pairs of rows and columns, on ranks, / 32.
- monotonicity: for each of the 4 directions (rows left to right, rows right to left, columns
  top to bottom, columns bottom to top), sum over those 4 lines, stepping over empty cells, of
  diff + sign(diff) for consecutive tiles (diff = next rank - previous rank, sign(0) = +1); the
  best direction / 64.
- max_tile: m / 15.
- snake: sum of SNAKE[cell] * rank over the board / 3000 (SNAKE snakes from the top-left cell).
- second_adjacent: 1 when a tile of at least half the largest (rank >= m - 1) is orthogonally
  adjacent to a largest tile, else 0.
- edge_big: tiles of at least a quarter of the largest (rank >= m - 2) on the 12 border cells / 8.
- danger: -1 when at most 2 cells are empty, else 0.

Deviations from the source, all fixing a bug against its own comments. Monotonicity: the source adds
|diff|, which makes every direction score the same up to the +-1 terms, while its comment says
increases count positive and decreases negative; we add the signed diff. second_adjacent: the
seed only tests second largest >= largest / 2, never the adjacency its name and comment announce.
edge_big: the source counts cells >= max / 4 in integer division, so with a largest tile of 2 every
empty border cell counts; we count tiles only. DEFAULT_WEIGHTS are the source's CEM initial mean;
the CEM samples it with sigma 1, and BOUNDS is a box of at least 3 sigma around it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.engine.bitboard import (
    EDGE_CELLS,
    at_least,
    count_cells,
    empty_count,
    max_rank,
    transpose,
)
from g2048.evaluators.lines import (
    LINE_RANKS,
    LINE_ROUGHNESS,
    field,
    line_sums,
    pack,
    row_sum,
)

NAME = "cem8"
FEATURES = (
    "empty",
    "smoothness",
    "monotonicity",
    "max_tile",
    "snake",
    "second_adjacent",
    "edge_big",
    "danger",
)
DEFAULT_WEIGHTS = (2.0, 0.6, 0.8, 0.5, 0.9, 0.4, 0.5, 1.5)
BOUNDS = ((-5.0, 5.0),) * 8
SNAKE = np.array([[15, 14, 13, 12], [8, 9, 10, 11], [7, 6, 5, 4], [0, 1, 2, 3]])
MONO_OFFSET = 32  # keeps the signed per-line monotonicity fields non-negative
_LINE = np.uint64(0xFFFF)
_NOT_LAST_COLUMN = np.uint64(0x0111011101110111)


@njit(cache=True)
def _direction_scores(line_ranks: np.ndarray, step: int) -> np.ndarray:
    """Per line, the sum of diff + sign(diff) over consecutive tiles (empty cells skipped),
    walking the nibbles forward (step 1) or backward (step -1)."""
    out = np.zeros(line_ranks.shape[0])
    for line in range(line_ranks.shape[0]):
        prev = -1
        for j in range(4):
            rank = line_ranks[line, j if step > 0 else 3 - j]
            if rank == 0:
                continue
            if prev >= 0:
                diff = rank - prev
                out[line] += diff + (1 if diff >= 0 else -1)
            prev = rank
    return out


# Per line: roughness, forward and backward monotonicity, sum of ranks, sum of i * rank_i.
LINE_FEATURES = np.column_stack(
    [
        LINE_ROUGHNESS,
        _direction_scores(LINE_RANKS, 1),
        _direction_scores(LINE_RANKS, -1),
        LINE_RANKS.sum(axis=1),
        (LINE_RANKS * np.arange(4)).sum(axis=1),
    ]
).astype(np.float64)
PACKED = pack(LINE_FEATURES + np.array([0, MONO_OFFSET, MONO_OFFSET, 0, 0]))


def features(board: int) -> np.ndarray:
    """The eight features of `board`, the global ones read off the grid of ranks."""
    rows, cols, grid = line_sums(LINE_FEATURES, board)
    top = int(grid.max())
    empty = int(np.sum(grid == 0))
    second = max(top - 1, 1)
    adjacent = any(
        grid[r, c] == top and grid[r2, c2] >= second
        for r in range(4)
        for c in range(4)
        for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= r2 < 4 and 0 <= c2 < 4
    )
    border = np.concatenate([grid[0], grid[3], grid[1:3, 0], grid[1:3, 3]])
    return np.array(
        [
            empty / 16,
            -(rows[0] + cols[0]) / 32,
            max(rows[1], rows[2], cols[1], cols[2]) / 64,
            top / 15,
            float(np.sum(SNAKE * grid)) / 3000,
            float(adjacent),
            np.sum(border >= max(top - 2, 1)) / 8,
            -1.0 if empty <= 2 else 0.0,
        ]
    )


@njit(cache=True, inline="always")
def value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """weights . features(board): eight packed lookups and bit operations."""
    w0 = PACKED[board & _LINE]
    w1 = PACKED[(board >> np.uint64(16)) & _LINE]
    w2 = PACKED[(board >> np.uint64(32)) & _LINE]
    w3 = PACKED[board >> np.uint64(48)]
    rows = w0 + w1 + w2 + w3
    cols = row_sum(transpose(board), PACKED)
    mono = (
        max(max(field(rows, 1), field(rows, 2)), max(field(cols, 1), field(cols, 2)))
        - 4 * MONO_OFFSET
    )
    # SNAKE rows are 15 - c, 8 + c, 7 - c and c: sums of ranks and of c * rank per row.
    snake = (
        15 * field(w0, 3)
        - field(w0, 4)
        + 8 * field(w1, 3)
        + field(w1, 4)
        + 7 * field(w2, 3)
        - field(w2, 4)
        + field(w3, 4)
    )
    top = max_rank(board)
    largest = at_least(board, top)
    second = at_least(board, max(top - 1, 1))
    side_by_side = (largest & (second >> np.uint64(4))) | (second & (largest >> np.uint64(4)))
    one_above = (largest & (second >> np.uint64(16))) | (second & (largest >> np.uint64(16)))
    pairs = (side_by_side & _NOT_LAST_COLUMN) | one_above
    empty = empty_count(board)
    return (
        weights[0] * empty / 16
        - weights[1] * (field(rows, 0) + field(cols, 0)) / 32
        + weights[2] * mono / 64
        + weights[3] * top / 15
        + weights[4] * snake / 3000
        + weights[5] * (1.0 if pairs else 0.0)
        + weights[6] * count_cells(at_least(board, max(top - 2, 1)) & EDGE_CELLS) / 8
        - weights[7] * (1.0 if empty <= 2 else 0.0)
    )
