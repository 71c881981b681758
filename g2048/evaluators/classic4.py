"""Source 001's classic expectimax heuristic: empty cells, monotonicity, smoothness, corner bonus.

value = 2.7 * empty + 1.0 * monotonicity + 0.1 * smoothness + 2.0 * corner by default, with

- empty: the number of empty cells (0..16).
- monotonicity: the source's `monotonicity_score`: over adjacent non-empty pairs (a, b) with a > b,
  read left to right in the rows and top to bottom in the columns, the sum of log2(a) - log2(b).
  It rewards only the drops towards the right and the bottom, i.e. the top-left corner.
- smoothness: -sum |log2(a) - log2(b)| over adjacent non-empty pairs of rows and columns.
- corner: the largest tile's value (e.g. 2048) when a corner cell holds it, else 0.

The source's listing lost its operators; we read `if a and b and a > b: cur += log2(a) - log2(b)`
and `score += max(cur, 0)`, where the max is a no-op since cur only grows. As written, rises are
never penalised, so a zig-zag row such as 8 2 8 2 (drops 2 + 2) outscores the ordered 8 4 2 0
(drops 1 + 1), against the post's prose ("disordered boards score low"); we keep it as specified.
The corner term is a tile value, not a rank: at weight 2 it is worth 4096 for a 2048 in a corner,
against at most 43 for the empty term, so it dominates the sum once the big tiles appear. One
departure, the project's for every evaluator: a board with no legal move is worth DEAD_VALUE
(`evaluate`), where the source values it by these features like any board; its own program, run
on 10 000 positions (tests/oracles), chooses another move for that reason on 135 at depth 2 and
57 at depth 3 (1.35% and 0.57%), all near a game's end.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.engine.bitboard import empty_count, max_in_corner, max_rank
from g2048.evaluators.lines import (
    FIRST,
    LINE_ROUGHNESS,
    SECOND,
    field,
    line_sums,
    pack,
    row_col_sums,
)

NAME = "classic4"
FEATURES = ("empty", "monotonicity", "smoothness", "corner")
DEFAULT_WEIGHTS = (2.7, 1.0, 0.1, 2.0)
BOUNDS = ((0.0, 10.0), (0.0, 4.0), (0.0, 1.0), (0.0, 8.0))


# Per line: the log2 drops between adjacent non-empty cells (nibble order), the roughness.
_DROPS = np.where((SECOND > 0) & (FIRST > SECOND), FIRST - SECOND, 0).sum(axis=1)
LINE_FEATURES = np.column_stack([_DROPS, LINE_ROUGHNESS]).astype(np.float64)
PACKED = pack(LINE_FEATURES)


def features(board: int) -> np.ndarray:
    """The four features of `board`."""
    rows, cols, grid = line_sums(LINE_FEATURES, board)
    top = int(grid.max())
    in_a_corner = top in (grid[0, 0], grid[0, 3], grid[3, 0], grid[3, 3])
    return np.array(
        [
            float(np.sum(grid == 0)),
            rows[0] + cols[0],
            -(rows[1] + cols[1]),
            float(2**top) if top and in_a_corner else 0.0,
        ]
    )


@njit(cache=True, inline="always")
def value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """weights . features(board): eight packed lookups and bit operations."""
    rows, cols = row_col_sums(board, PACKED)
    top = max_rank(board)
    corner = float(1 << top) if top and max_in_corner(board) else 0.0
    return (
        weights[0] * empty_count(board)
        + weights[1] * (field(rows, 0) + field(cols, 0))
        - weights[2] * (field(rows, 1) + field(cols, 1))
        + weights[3] * corner
    )
