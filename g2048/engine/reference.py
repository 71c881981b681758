"""A plain reference implementation of the 2048 rules and of expectimax search: the oracle that
the fast engine and the search's stack machine are tested against.

Grids are 4x4 lists of lists of tile values (0 = empty), row 0 at the top, column 0 at the
left. Written from the rules, not from the bitboard engine; nothing here is fast or clever.
The benchmark also plays it, to report the numba engine's speed as a ratio.
"""

import math
import random
from collections.abc import Callable

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
DIRECTIONS = (UP, DOWN, LEFT, RIGHT)
SIZE = 4
MAX_TILE = 32768

Grid = list[list[int]]


def line_cells(direction: int, i: int) -> list[tuple[int, int]]:
    """The (row, column) cells of line i, listed from the side the tiles move towards."""
    near_to_far = list(range(SIZE)) if direction in (UP, LEFT) else list(range(SIZE))[::-1]
    if direction in (UP, DOWN):
        return [(r, i) for r in near_to_far]  # column i
    return [(i, c) for c in near_to_far]  # row i


def merge_line(line: list[int], check_overflow: bool = True) -> tuple[list[int], int]:
    """Move one line towards index 0: drop the gaps, merge equal neighbours once, pad with 0.

    Raises OverflowError when two MAX_TILE tiles would merge, unless check_overflow is False.
    """
    tiles = [v for v in line if v != 0]
    out: list[int] = []
    score = 0
    k = 0
    while k < len(tiles):
        if k + 1 < len(tiles) and tiles[k] == tiles[k + 1]:
            merged = 2 * tiles[k]
            if check_overflow and merged > MAX_TILE:
                raise OverflowError(f"merging two {tiles[k]} tiles would make {merged}")
            out.append(merged)
            score += merged
            k += 2
        else:
            out.append(tiles[k])
            k += 1
    return out + [0] * (len(line) - len(out)), score


def ref_move(grid: Grid, direction: int, check_overflow: bool = True) -> tuple[Grid, int]:
    """The grid after a move and the score it gains; an illegal move gives the same grid and 0."""
    new = [list(row) for row in grid]
    score = 0
    for i in range(SIZE):
        cells = line_cells(direction, i)
        merged, gained = merge_line([grid[r][c] for r, c in cells], check_overflow)
        for (r, c), value in zip(cells, merged, strict=True):
            new[r][c] = value
        score += gained
    return new, score


def ref_legal_moves(grid: Grid) -> list[int]:
    """Directions whose move changes the grid (a would-be overflow merge counts as a change)."""
    return [d for d in DIRECTIONS if ref_move(grid, d, check_overflow=False)[0] != grid]


def ref_is_game_over(grid: Grid) -> bool:
    """True when no move changes the grid."""
    return not ref_legal_moves(grid)


def ref_overflows(grid: Grid, direction: int) -> bool:
    """True when moving in this direction would merge two MAX_TILE tiles."""
    try:
        ref_move(grid, direction)
    except OverflowError:
        return True
    return False


def ref_spawn(grid: Grid, rng: random.Random) -> Grid:
    """Place a 2 (probability 0.9) or a 4 on a uniformly chosen empty cell."""
    empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] == 0]
    r, c = rng.choice(empty)
    new = [list(row) for row in grid]
    new[r][c] = 4 if rng.random() < 0.1 else 2
    return new


def ref_random_game(rng: random.Random) -> tuple[int, int, int]:
    """Play one game choosing uniformly among legal moves: (score, max tile, moves)."""
    grid = ref_spawn(ref_spawn([[0] * SIZE for _ in range(SIZE)], rng), rng)
    score = moves = 0
    while legal := ref_legal_moves(grid):
        grid, gained = ref_move(grid, rng.choice(legal))
        grid = ref_spawn(grid, rng)
        score += gained
        moves += 1
    return score, max(max(row) for row in grid), moves


def ref_expectimax(grid: Grid, depth: int, value: Callable[[Grid], float]) -> list[float]:
    """The expectimax value of each root move (-inf for an illegal one), by plain recursion.

    `depth` counts plies below the root: the root's moves, then chance and move layers in turn;
    a layer at depth 0, or a move node without a legal move, is valued by `value`. A chance node
    averages over its empty cells, a 2 with probability 0.9 and a 4 with 0.1 in each.
    """

    def chance(g: Grid, remaining: int) -> float:
        if remaining == 0:
            return value(g)
        empties = [(r, c) for r in range(SIZE) for c in range(SIZE) if g[r][c] == 0]
        total = 0.0
        for r, c in empties:
            two = [row[:] for row in g]
            two[r][c] = 2
            four = [row[:] for row in g]
            four[r][c] = 4
            total += 0.9 * player(two, remaining - 1) + 0.1 * player(four, remaining - 1)
        return total / len(empties)

    def player(g: Grid, remaining: int) -> float:
        if remaining == 0:
            return value(g)
        children = [ref_move(g, d)[0] for d in DIRECTIONS]
        legal = [chance(c, remaining - 1) for c in children if c != g]
        return max(legal) if legal else value(g)

    values = []
    for d in DIRECTIONS:
        child = ref_move(grid, d)[0]
        values.append(-math.inf if child == grid else chance(child, depth - 1))
    return values


def ref_afterstate_expectimax(
    grid: Grid, depth: int, after_value: Callable[[Grid], float]
) -> list[float]:
    """`ref_expectimax` for an afterstate evaluator (a learned estimate of the score still to
    come after a move): a move is worth its score + the value of the board it leaves; a layer
    at depth 0 is valued by after_value (a chance layer) or by the best move's score +
    after_value (a move layer); a board without a legal move is worth 0."""

    def chance(g: Grid, remaining: int) -> float:
        if remaining == 0:
            return after_value(g)
        empties = [(r, c) for r in range(SIZE) for c in range(SIZE) if g[r][c] == 0]
        total = 0.0
        for r, c in empties:
            for tile, p in ((2, 0.9), (4, 0.1)):
                child = [row[:] for row in g]
                child[r][c] = tile
                total += p * player(child, remaining - 1)
        return total / len(empties)

    def player(g: Grid, remaining: int) -> float:
        legal = [ref_move(g, d) for d in DIRECTIONS if ref_move(g, d)[0] != g]
        if not legal:
            return 0.0
        if remaining == 0:
            return max(score + after_value(child) for child, score in legal)
        return max(score + chance(child, remaining - 1) for child, score in legal)

    values = []
    for d in DIRECTIONS:
        child, score = ref_move(grid, d)
        values.append(-math.inf if child == grid else score + chance(child, depth - 1))
    return values


def ref_symmetries(grid: Grid) -> list[Grid]:
    """The 8 images of a grid under rotations and mirrors."""
    out = []
    g = grid
    for _ in range(4):
        g = [list(row) for row in zip(*g[::-1], strict=True)]  # a quarter turn clockwise
        out += [g, [row[::-1] for row in g]]
    return out


def ref_ntuple_value(grid: Grid, tuples: list[tuple[int, ...]], luts: list[list[float]]) -> float:
    """An n-tuple network's value: over the 8 images of the grid and every tuple, the entry of
    the tuple's table indexed by the log2 tiles of its cells (row-major 0..15), the first cell
    the lowest base-16 digit."""
    total = 0.0
    for image in ref_symmetries(grid):
        for cells, lut in zip(tuples, luts, strict=True):
            index = 0
            for j, cell in enumerate(cells):
                tile = int(image[cell // SIZE][cell % SIZE])
                index += (tile.bit_length() - 1 if tile else 0) * 16**j
            total += lut[index]
    return total


def ref_downgrade(grid: Grid, threshold: int) -> Grid:
    """Tile-downgrading: while the largest tile is `threshold` or more and some power of 2
    from 2 up to below the largest is missing from the grid, halve every tile above the
    largest missing one (threshold 0: the grid as it is)."""
    grid = [list(row) for row in grid]
    while threshold:
        tiles = {t for row in grid for t in row if t}
        top = max(tiles, default=0)
        missing = [2**k for k in range(1, top.bit_length() - 1) if 2**k not in tiles]
        if top < threshold or not missing:
            break
        hole = max(missing)
        grid = [[t // 2 if t > hole else t for t in row] for row in grid]
    return grid
