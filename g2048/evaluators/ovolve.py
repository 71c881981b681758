"""Source 004's evaluation (after ovolve/2048-AI): smoothness, monotonicity, ln(empty + 1),
max rank.

value = 0.1 * smoothness + 1.0 * monotonicity + 2.7 * ln(empty + 1) + 1.0 * max_rank by
default, all on ranks (the source's board holds log2 of the tiles, 0 = empty):

- smoothness: -sum |a - b| over adjacent non-empty pairs of rows and columns.
- monotonicity: ovolve's `monotonicity2`. Each line is walked from its first cell, stepping over
  empty cells to the next tile (or to the last cell when only empties follow), so an empty first
  or last cell takes part as rank 0; the decreases and the increases along the walk are summed
  over the rows (Dh, Ih) and over the columns (Dv, Iv), and the feature is
  -(min(Dh, Ih) + min(Dv, Iv)): 0 for a board ordered towards one corner, negative otherwise.
- ln_empty: ln(1 + empty cells).
- max_rank: the largest rank, log2 of the largest tile.

The source matches ovolve except that its smoothness compares adjacent cells only where ovolve looks
past empty cells to the next tile; we follow the source. No bug needed fixing. One departure, the
project's for every evaluator: a board with no legal move is worth DEAD_VALUE (`evaluate`), where
the source values it by these features like any board; its own program, run on 10 000 positions
(tests/oracles), chooses another move for that reason on 34 at depth 2 and 9 at depth 3.
"""

from __future__ import annotations

import math
from decimal import Context, Decimal

import numpy as np
from numba import njit

from g2048.engine.bitboard import empty_count, max_rank
from g2048.evaluators.lines import (
    LINE_RANKS,
    LINE_ROUGHNESS,
    field,
    line_sums,
    pack,
    row_col_sums,
)

NAME = "ovolve"
FEATURES = ("smoothness", "monotonicity", "ln_empty", "max_rank")
DEFAULT_WEIGHTS = (0.1, 1.0, 2.7, 1.0)
BOUNDS = ((0.0, 1.0), (0.0, 5.0), (0.0, 10.0), (0.0, 5.0))
# ln(1 + empty cells), looked up rather than computed: correctly rounded from 40-digit decimal
# arithmetic, the same bits on every machine (numpy's log1p runs SVML code on CPUs with AVX-512,
# and the C library's log1p is 1 ULP off at 3 and 14), and every value of ovolve follows them.
LN_EMPTY = np.array([float(Decimal(1 + k).ln(Context(prec=40))) for k in range(17)])


@njit(cache=True)
def _walk(ranks: np.ndarray) -> tuple[int, int]:
    """(decreases, increases) along ovolve's walk of a line, in nibble order."""
    decreases = 0
    increases = 0
    current = 0
    nxt = 1
    while nxt < 4:
        while nxt < 4 and ranks[nxt] == 0:
            nxt += 1
        if nxt >= 4:
            nxt -= 1
        if ranks[current] > ranks[nxt]:
            decreases += ranks[current] - ranks[nxt]
        else:
            increases += ranks[nxt] - ranks[current]
        current = nxt
        nxt += 1
    return decreases, increases


@njit(cache=True)
def _walks(line_ranks: np.ndarray) -> np.ndarray:
    """`_walk` of every line: (65536, 2) decreases and increases."""
    out = np.zeros((line_ranks.shape[0], 2))
    for line in range(line_ranks.shape[0]):
        out[line, 0], out[line, 1] = _walk(line_ranks[line])
    return out


# Per line: roughness, decreases and increases along ovolve's walk.
LINE_FEATURES = np.column_stack([LINE_ROUGHNESS, _walks(LINE_RANKS)]).astype(np.float64)
PACKED = pack(LINE_FEATURES)


def features(board: int) -> np.ndarray:
    """The four features of `board`."""
    rows, cols, grid = line_sums(LINE_FEATURES, board)
    return np.array(
        [
            -(rows[0] + cols[0]),
            -(min(rows[1], rows[2]) + min(cols[1], cols[2])),
            math.log(1 + int(np.sum(grid == 0))),
            float(grid.max()),
        ]
    )


@njit(cache=True, inline="always")
def value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """weights . features(board): eight packed lookups and bit operations."""
    rows, cols = row_col_sums(board, PACKED)
    mono = min(field(rows, 1), field(rows, 2)) + min(field(cols, 1), field(cols, 2))
    return (
        -weights[0] * (field(rows, 0) + field(cols, 0))
        - weights[1] * mono
        + weights[2] * LN_EMPTY[empty_count(board)]
        + weights[3] * max_rank(board)
    )
