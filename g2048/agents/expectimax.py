"""Expectimax search over player moves and exact chance layers, with an optional probability
cutoff and a transposition table (the structure of nneonneo/2048-ai, made reproducible).

`depth` counts plies below the root board: 1 = M E (greedy), 2 = M C E, 3 = M C M E, ...
A chance node whose path probability falls below `cutoff` is valued by the static evaluation
of its board (0 disables the cutoff). The table caches chance-node values keyed by
(board, remaining depth) for the current decision only (entries carry the decision's stamp).
An entry is reused only where every cutoff decision below it would come out as it did: it keeps
the least path probability the cutoff kept below it and the greatest it pruned, relative to its
own, and a node reached with another path probability reuses it only if both decisions stay
clear of the cutoff (by a relative margin, against rounding). So a cached value equals the
recomputed one exactly, with or without a cutoff: the table changes no value, only the work,
whatever order the nodes are visited in. (nneonneo's table reuses a value whatever the path
probability, so its values depend on the visiting order.)

Leaves are valued by the evaluator or, for the hybrid agent (source 004, 4.4), by Monte Carlo
rollouts: merge_potential(leaf) + mean rollout gain, which is the expected final score up to
the score already made and the 4 points of each 4 spawned along the search path (the same in
expectation below every move of a max node at fixed depth, so decisions do not change).

An afterstate evaluator (the n-tuple network, `adds_rewards`) values the score still to come,
so the search adds each move's score on the way: a move node is max over moves of (score of
the move + value of its chance node). A board the player is to move from is valued by its best
move (see g2048.evaluators.evaluate), so for such an evaluator depth 2k searches the same tree
as depth 2k + 1.

Speed (numba): the tree is walked with an explicit stack, not recursion, because numba's cache
mishandles self-recursive functions that call into other modules. Shared state travels as
tuples: `ev` = (evaluator kind, weights, table); `mc` = (rollouts, policy, step cap, rollout base),
rollouts 0 = static evaluation; `tt` = (keys, values) (see new_table). They are unpacked once
per decision and the search calls `evaluate` directly: an array (or a tuple holding one) passed
to an inlined helper costs two atomic reference-count calls per use when a call that may raise
sits in between, more than a leaf's evaluation. The two or three plies above the leaves, which
hold most of the nodes, are valued in one call each by `_chance_sum`, with `evaluate` compiled
in. For nneonneo's evaluator (LINE_TABLE) `_line_table_best` values a move's leaf from the
lines along the move, summed once per chance node and corrected by the one line the new tile
changes, and the four crossing lines: exact, as the row table's values make every such sum
exact (see g2048.evaluators.nneonneo.prepare). That evaluator gets a compiled copy of
`_chance_sum` of its own (`_line_table_sum`), which calls nothing that may raise, so numba drops
its reference counting of the table (1.09x on the kernel). A search of 3 plies or fewer values
its root moves without the stack (`shallow_values`, chosen by g2048.agents.deepening); the root's
values are a tuple of four (`four_values`), not an array to allocate per decision. With rollouts
every node goes through the stack.
`stats` counts search nodes visited (every board the search generates: root, chance and move
nodes, leaves) [0] and table hits [1].
"""

from __future__ import annotations

import numpy as np
from numba import njit

from g2048.agents.rollout import mean_rollout_gain, merge_potential
from g2048.engine.bitboard import (
    COL_DOWN,
    COL_UP,
    DOWN,
    LEFT,
    RIGHT,
    ROW_LEFT,
    ROW_RIGHT,
    UP,
    as_column,
    empty_count,
    empty_mask,
    move_score,
    row_sum,
    shift,
    transpose,
)
from g2048.engine.clock import monotonic_ns
from g2048.engine.lockfree import float_bits
from g2048.engine.rng import mix64
from g2048.evaluators import LINE_TABLE, adds_rewards, evaluate

NEG_INF = -np.inf
NO_LIMIT = 1 << 62  # a node limit no search reaches
CLOCK_EVERY = 1024  # nodes between two readings of the clock under a deadline (~10-30 us)
CLOCK_EVERY_NETWORK = 32  # the same for a network, whose nodes take ~30 times as long
TWO_PROB, FOUR_PROB = 0.9, 0.1  # the spawn probabilities of a 2 and of a 4
_LINE = np.uint64(0xFFFF)  # row 0 of a board
_COLUMN = np.uint64(0x000F000F000F000F)  # column 0 of a board
# Columns of the stack frames (see move_values): boards (uint64), counters (int64), reals
# (float64). A chance frame's _NEXT is 0 before the 2 in its lowest unspawned cell, 1 before
# the 4 (the cell leaves _CELLS then); a move frame's is the next direction to try.
_BOARD, _CELLS = range(2)
_NEXT, _SLOT, _EMPTIES, _DONE, _CUT = range(5)
# _KEPT, _PRUNED: the least path probability of a chance node below the frame's node that the
# cutoff kept, and the greatest of one that it pruned (see move_values on the table).
# _ALPHA: what the node's value must exceed to matter (Star1; -inf without it); _DONE: a chance
# node's cells done, _CUT: whether it was cut off (its value is then an upper bound); _BOUND: the
# greatest upper bound among a move node's children (-inf: none).
_PROB, _ACC, _TWO, _KEPT, _PRUNED, _ALPHA, _BOUND = range(7)
_MARGIN = 1e-9  # relative: a cached value is reused only with every cutoff decision this clear
_BOUND_TAG = np.uint64(0x80)  # in an entry's tag: its value is an upper bound (Star1)


@njit(cache=True)
def new_table(log2_size: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty transposition table of 2**log2_size slots (log2_size 0: caching off):
    keys[2i], keys[2i + 1] = board, tag of slot i (tag = stamp << 8 | remaining); values[3i]
    its value, values[3i + 1], values[3i + 2] the least kept and the greatest pruned path
    probability below it, relative to its own (see move_values)."""
    size = 1 << log2_size
    keys = np.zeros(2 * size, dtype=np.uint64)
    keys[1::2] = np.uint64(0xFFFFFFFFFFFFFFFF)  # a tag no decision uses
    return keys, np.zeros(3 * size, dtype=np.float64)


@njit(cache=True, inline="always")
def _entry_check(board, value, kept, pruned) -> np.uint64:  # noqa: ANN001
    """A checksum of a table entry, stored XORed into its tag when threads share the table: an
    entry torn by two threads writing one slot at once fails it (but with odds of 2**-64)."""
    check = mix64(board ^ float_bits(value))
    return mix64(check ^ float_bits(kept)) ^ float_bits(pruned)


@njit(cache=True)
def rollout_leaf(b, spawn_pending, mc, ev) -> float:  # noqa: ANN001
    """A hybrid leaf's value: merge_potential(b) + the mean gain of mc's rollouts from b."""
    gain = mean_rollout_gain(b, spawn_pending, mc[0], mc[1], mc[2], mc[3], ev)
    return merge_potential(b) + gain


# `evaluate` compiled into _chance_sum only (compiling it into every leaf site of move_values
# would take numba minutes). Never called on its own, so never compiled or cached on its own.
_evaluate_inline = njit(inline="always")(evaluate.py_func)


@njit(cache=True, inline="always")
def _all_moves(b):  # noqa: ANN001, ANN202
    """The boards after each direction (b for an illegal move), in straight-line code, where UP
    and DOWN share one transposition."""
    return shift(b, UP), shift(b, DOWN), shift(b, LEFT), shift(b, RIGHT)


@njit(cache=True, inline="always")
def _tile_lines(b, t, cell, rank):  # noqa: ANN001, ANN202
    """The row and the column (read top to bottom) through the empty cell `cell` (a one-bit
    mask) of b with a tile of `rank` put there, from t = transpose(b), and the bit offsets of
    that row (16 x its index) and column (4 x its index) in b."""
    k = 16 - empty_count(cell - np.uint64(1))  # the cell's index: 4 x row + column
    row_at = np.uint64(16 * (k >> 2))
    col_at = np.uint64(4 * (k & 3))
    tile = np.uint64(rank)
    row = ((b >> row_at) & _LINE) | (tile << col_at)
    col = ((t >> (col_at << np.uint64(2))) & _LINE) | (tile << (row_at >> np.uint64(2)))
    return row, col, row_at, col_at


@njit(cache=True, inline="always")
def _moves_with_tile(b, t, moved, cell, rank):  # noqa: ANN001, ANN202
    """`_all_moves` of b plus a tile of `rank` on its empty cell `cell` (a one-bit mask), from
    t = transpose(b) and moved = _all_moves(b): a move treats lines independently, so only the
    tile's row (LEFT, RIGHT) or column (UP, DOWN) needs a table lookup."""
    row, col, row_at, col_at = _tile_lines(b, t, cell, rank)
    keep_rows = ~(_LINE << row_at)
    keep_cols = ~(_COLUMN << col_at)
    return (
        (moved[0] & keep_cols) | (COL_UP[col] << col_at),
        (moved[1] & keep_cols) | (COL_DOWN[col] << col_at),
        (moved[2] & keep_rows) | (np.uint64(ROW_LEFT[row]) << row_at),
        (moved[3] & keep_rows) | (np.uint64(ROW_RIGHT[row]) << row_at),
    )


@njit(cache=True, inline="always")
def _slide_value(x, tx, along, line, at, t_at, before, table) -> float:  # noqa: ANN001
    """The LINE_TABLE value of one move of a spawned board (-inf if the move is illegal), in
    the frame where the move slides rows (the transpose for UP and DOWN): x = the move's result
    without the new tile, tx its transpose, along = row_sum(x); the tile's row becomes `line`,
    at bit `at` of x (a column at bit t_at of tx); before: the spawned board in this frame.
    Only that row changes along the slide, so its sum is corrected by two lookups; every
    crossing line changes. Exact for any order of the sums: see evaluators.nneonneo.prepare."""
    after = (x & ~(_LINE << at)) | (line << at)
    if after == before:
        return NEG_INF
    crossing = (tx & ~(_COLUMN << t_at)) | (as_column(line) << t_at)
    return along - table[(x >> at) & _LINE] + table[line] + row_sum(crossing, table)


@njit(cache=True, inline="always")
def _line_table_best(b, t, moved, flipped, sums, cell, rank, table) -> tuple:  # noqa: ANN001
    """For the LINE_TABLE evaluator (its value is `sum_lines`, its weights in its table): the
    best value over the legal moves from b plus a tile of `rank` on `cell` (-inf if none) and
    how many there are, from t = transpose(b), moved = _all_moves(b), flipped = their
    transposes and sums = row_sum of flipped[UP], flipped[DOWN], moved[LEFT], moved[RIGHT]
    (the lines each move slides): per move, the moved line and the values of the old and new
    line along the move and of the four crossing lines (seven lookups, the old line's the same
    for every spawn in its line) instead of the moved line and eight line values, and no
    transposition (the crossing lines are spread from the moved line): 1.17x on the kernel."""
    row, col, row_at, col_at = _tile_lines(b, t, cell, rank)
    t_row_at = col_at << np.uint64(2)  # the tile's column, a row of the transpose
    t_col_at = row_at >> np.uint64(2)  # and its row, a column
    spawned = b | (np.uint64(rank) << (row_at + col_at))
    t_spawned = t | (np.uint64(rank) << (t_row_at + t_col_at))
    up = _slide_value(
        flipped[0], moved[0], sums[0], np.uint64(ROW_LEFT[col]), t_row_at, col_at, t_spawned, table
    )
    down = _slide_value(
        flipped[1], moved[1], sums[1], np.uint64(ROW_RIGHT[col]), t_row_at, col_at, t_spawned, table
    )
    left = _slide_value(
        moved[2], flipped[2], sums[2], np.uint64(ROW_LEFT[row]), row_at, t_col_at, spawned, table
    )
    right = _slide_value(
        moved[3], flipped[3], sums[3], np.uint64(ROW_RIGHT[row]), row_at, t_col_at, spawned, table
    )
    legal = (up > NEG_INF) + (down > NEG_INF) + (left > NEG_INF) + (right > NEG_INF)
    return max(max(up, down), max(left, right)), legal


def _chance_sum_of(kind, b, weights, table, moves_left, alpha, upper) -> tuple:  # noqa: ANN001
    """Sum over the empty cells of the chance node b of 0.9 x (its child with a 2 there) + 0.1 x
    (with a 4), the number of nodes below b, and whether it stopped early: once the sum so far
    plus `upper` for every cell left cannot exceed alpha x cells (Star1), that bound is
    returned instead. The children are leaves (moves_left 0) or move nodes above leaves
    (moves_left 1; a move node without a legal move is a leaf)."""
    total = 0.0
    nodes = 0
    n = empty_count(b)
    done = 0
    rewards = adds_rewards(kind)
    t = transpose(b)
    moved = flipped = _all_moves(b)
    sums = (0.0, 0.0, 0.0, 0.0)
    line_table = moves_left and kind == LINE_TABLE
    if line_table:
        flipped = (
            transpose(moved[0]),
            transpose(moved[1]),
            transpose(moved[2]),
            transpose(moved[3]),
        )
        sums = (
            row_sum(flipped[0], table),
            row_sum(flipped[1], table),
            row_sum(moved[2], table),
            row_sum(moved[3], table),
        )
    cells = empty_mask(b)
    while cells:
        cell = cells & (~cells + np.uint64(1))
        cells ^= cell
        two = 0.0
        for four in range(2):
            spawned = b | (cell << np.uint64(four))
            value = NEG_INF
            if line_table:
                value, legal = _line_table_best(b, t, moved, flipped, sums, cell, 1 + four, table)
                nodes += legal
            elif moves_left:
                for d, after in enumerate(_moves_with_tile(b, t, moved, cell, 1 + four)):
                    if after != spawned:
                        nodes += 1
                        leaf = _evaluate_inline(kind, after, weights, table, True)
                        if rewards:
                            leaf += move_score(spawned, d)
                        value = max(value, leaf)
            if value == NEG_INF:
                value = _evaluate_inline(kind, spawned, weights, table)
            if four:
                total += TWO_PROB * two + FOUR_PROB * value
            else:
                two = value
        nodes += 2
        done += 1
        if cells and total + (n - done) * upper <= alpha * n:
            return total + (n - done) * upper, nodes, True
    return total, nodes, False


_chance_sum = njit(cache=True)(_chance_sum_of)
_chance_sum_inline = njit(inline="always")(_chance_sum_of)


@njit(cache=True)
def _line_table_sum(b, table, moves_left, alpha, upper) -> tuple:  # noqa: ANN001
    """_chance_sum for LINE_TABLE, compiled for that kind alone: the other evaluators' calls
    drop out, and with them the reference counting of `table` on every call."""
    return _chance_sum_inline(LINE_TABLE, b, table, table, moves_left, alpha, upper)


@njit(cache=True, inline="always")
def _chance_value(kind, b, weights, table, moves_left, alpha, upper) -> tuple:  # noqa: ANN001
    """_chance_sum(kind, b, ...), by _line_table_sum for LINE_TABLE."""
    if kind == LINE_TABLE:
        return _line_table_sum(b, table, moves_left, alpha, upper)
    return _chance_sum(kind, b, weights, table, moves_left, alpha, upper)


@njit(cache=True, inline="always")
def _clock_every(kind) -> int:  # noqa: ANN001
    """Nodes between two readings of the clock for an evaluator of `kind`."""
    return CLOCK_EVERY_NETWORK if adds_rewards(kind) else CLOCK_EVERY


@njit(cache=True, inline="always")
def _out_of_budget(nodes, node_limit, deadline, next_clock, clock_every) -> tuple:  # noqa: ANN001
    """Whether a search that has generated `nodes` nodes stops now (more than node_limit, or
    the deadline passed: the clock is read once nodes reach next_clock), and the next_clock."""
    if nodes > node_limit or (deadline and nodes >= next_clock):
        if nodes > node_limit or monotonic_ns() >= deadline:
            return True, next_clock
        return False, nodes + clock_every
    return False, next_clock


@njit(cache=True, inline="always")
def four_values(values: np.ndarray) -> tuple:
    """A root's four move values as a tuple, the form every agent returns them in (a tuple
    needs no allocation, which a search of 3 plies would spend 5% of its time on)."""
    return values[0], values[1], values[2], values[3]


@njit(cache=True, inline="always")
def _replaced(values, d, value) -> tuple:  # noqa: ANN001
    """The tuple `values` with its item d replaced by `value`."""
    return (
        value if d == 0 else values[0],
        value if d == 1 else values[1],
        value if d == 2 else values[2],
        value if d == 3 else values[3],
    )


@njit(cache=True, inline="always")
def best_move(values) -> int:  # noqa: ANN001
    """The direction of the greatest of a root's move values (the first on ties), -1 when every
    move is illegal (-inf)."""
    best, top = -1, NEG_INF
    for d in range(4):
        if values[d] > top:
            best, top = d, values[d]
    return best


@njit(cache=True, error_model="numpy")
def shallow_values(b, depth, kind, weights, table, stats, node_limit, deadline) -> tuple:  # noqa: ANN001
    """move_values of a search of 1 to 3 plies without rollouts or Star1, with the same values
    and nodes (and stopping points under a node limit), without the stack: each root move's
    chance node is a leaf (depth 1) or valued by one call of _chance_sum (the root's path
    probability, 1, is above any cutoff, and nothing is cached: no chance node recurs). Under a
    deadline the clock is read before each root move (a search of at most 5 nodes would never
    read it otherwise)."""
    b = np.uint64(b)
    values = (NEG_INF, NEG_INF, NEG_INF, NEG_INF)
    nodes = 1
    next_clock = 1
    stop = False
    for d in range(4):
        child = shift(b, d)
        if child == b:
            continue
        nodes += 1
        stop, next_clock = _out_of_budget(nodes, node_limit, deadline, next_clock, 1)
        if stop:
            break
        leaf = depth == 1
        if leaf:  # (`leaf`, not a literal True, which numba would compile evaluate once more for)
            value = evaluate(kind, child, weights, table, leaf)
        else:
            value, below, _ = _chance_value(kind, child, weights, table, depth - 2, NEG_INF, np.inf)
            value /= empty_count(child)
            nodes += below
        if adds_rewards(kind):
            value += move_score(b, d)
        values = _replaced(values, d, value)
    stats[0] += nodes
    return values, not stop


@njit(cache=True, error_model="numpy")
def move_values(
    b, depth, ev, mc, cutoff, tt, stamp, stats, node_limit, deadline, prob, shared, upper
) -> tuple:  # noqa: ANN001, E501
    """Expectimax value of each direction from root board b (-inf for an illegal move), and
    whether the search completed: it is abandoned (False, values incomplete) once it has
    generated more than node_limit nodes or, when deadline > 0, once the monotonic clock
    passes deadline (ns; read every CLOCK_EVERY nodes).

    prob: the root's path probability (1, or less for a subtree of a larger search). shared:
    other threads use the table at the same time (g2048.agents.split): its entries then carry a
    checksum, and the root's chance nodes are cached too. upper: an upper bound of every leaf's
    value for Star1 pruning (Ballard 1983), inf for none: a chance node whose value cannot
    exceed what its parent already has (its cells left counted at `upper`) is cut off and
    valued by that bound. Such a move's value is then an upper bound below the best move's, so
    the best move and its value are exactly those of plain search (if rounding ever let a bound
    reach the best value, the search is repeated without pruning). Bounds are cached too,
    marked, and serve only a node that they cut off as well.

    Frame k of the stack holds the node k plies below b: a move node for even k (b first), a
    chance node for odd k. Each pass of the loop folds values into the frames and generates
    the next child, then values the child (if it is a leaf, a chance node one or two plies
    above the leaves, or cached) or pushes its frame. The root's frame keeps each move's value
    instead of the best. (error_model="numpy" drops the zero checks of the divisions by a chance
    node's empty-cell count, which is never 0.)
    """
    b = np.uint64(b)  # as Python ints arrive as int64
    kind, weights, table = ev
    rollouts = mc[0]
    rewards = adds_rewards(kind) and not rollouts  # a rollout value counts the score made
    keys, cached = tt
    mask = np.uint64(cached.size // 3 - 1)  # 0: no table
    # whether cutoff decisions are recorded: only a table's entries need them, and a search of
    # 3 plies or fewer caches nothing (the root's chance nodes are not cached)
    track = cutoff > 0.0 and mask != 0 and depth > 3
    star = upper < np.inf
    values = np.full(4, NEG_INF)
    root_best = root_bound = NEG_INF  # the best exact and the greatest bounded root values
    boards = np.empty((depth, 2), dtype=np.uint64)
    ints = np.empty((depth, 5), dtype=np.int64)
    reals = np.empty((depth, 7), dtype=np.float64)
    boards[0, _BOARD] = b
    ints[0, _NEXT] = 0
    reals[0, _PROB] = prob
    reals[0, _KEPT] = np.inf
    reals[0, _PRUNED] = 0.0
    top = 0
    nodes = 1
    hits = 0
    clock_every = 1 if rollouts else _clock_every(kind)  # a rollout leaf: as long as 1000 nodes
    next_clock = clock_every
    known = False  # whether `value` is the value of `child`, to fold into frame `top`
    value = 0.0
    bounded = False  # whether `value` is only an upper bound (Star1)
    child_alpha = NEG_INF
    child, child_chance, child_prob, rem = b, False, 1.0, depth
    while True:
        # fold the child's value into the frames until one has another child to value
        while True:
            if known:
                if value == NEG_INF and not child_chance:  # a move node with no legal move
                    if rollouts:
                        value = rollout_leaf(child, False, mc, ev)
                    else:
                        value = evaluate(kind, child, weights, table)
                if top & 1 == 0:
                    if rewards:  # the score of the move that led to the child
                        value += move_score(boards[top, _BOARD], ints[top, _NEXT] - 1)
                    if top == 0:
                        values[ints[0, _NEXT] - 1] = value
                        if bounded:
                            root_bound = max(root_bound, value)
                        else:
                            root_best = max(root_best, value)
                    elif bounded:
                        reals[top, _BOUND] = max(reals[top, _BOUND], value)
                    else:
                        reals[top, _ACC] = max(reals[top, _ACC], value)
                else:
                    two = ints[top, _NEXT] == 1  # the child was the 2
                    if two:
                        reals[top, _TWO] = value
                    else:
                        reals[top, _ACC] += TWO_PROB * reals[top, _TWO] + FOUR_PROB * value
                        ints[top, _DONE] += 1
                    if star:  # (only Star1 makes bounds: `bounded` implies `star`)
                        # the rest of the node at most: this cell's 4 (after its 2), the cells
                        # after it
                        n = ints[top, _EMPTIES]
                        if two:
                            rest = TWO_PROB * value + FOUR_PROB * upper
                            rest += (n - ints[top, _DONE] - 1) * upper
                        else:
                            rest = (n - ints[top, _DONE]) * upper
                        if bounded or reals[top, _ACC] + rest <= reals[top, _ALPHA] * n:
                            reals[top, _ACC] += rest  # cut off: its value is an upper bound
                            boards[top, _CELLS] = np.uint64(0)
                            ints[top, _CUT] = 1
            known = True
            node = boards[top, _BOARD]
            rem = depth - top
            if top & 1 == 0:  # a move node: its next legal move
                child_chance = True
                child_prob = reals[top, _PROB]
                d = ints[top, _NEXT]
                child = node
                while d < 4 and child == node:
                    child = shift(node, d)
                    d += 1
                ints[top, _NEXT] = d
                if child != node:
                    if star:  # what the child must exceed to matter
                        child_alpha = root_best
                        if top:
                            child_alpha = max(reals[top, _ALPHA], reals[top, _ACC])
                    break
                if top == 0:
                    if root_bound > root_best:  # rounding let a bound reach the best: redo
                        star, upper, child_alpha = False, np.inf, NEG_INF
                        values[:] = NEG_INF
                        root_best = root_bound = NEG_INF
                        ints[0, _NEXT] = 0
                        known = False
                        continue
                    stats[0] += nodes
                    stats[1] += hits
                    return four_values(values), True
                value = reals[top, _ACC]
                bounded = reals[top, _BOUND] > value
                if bounded:
                    value = reals[top, _BOUND]
                child_chance = False
            else:  # a chance node: its next spawn
                child_chance = False
                cells = boards[top, _CELLS]
                n = ints[top, _EMPTIES]
                if cells:
                    cell = cells & (~cells + np.uint64(1))
                    need = 0.0
                    if star:  # what the child must exceed, the cells after it at `upper`
                        need = reals[top, _ALPHA] * n - reals[top, _ACC]
                        need -= (n - ints[top, _DONE] - 1) * upper
                    if ints[top, _NEXT] == 0:
                        child = node | cell
                        child_prob = reals[top, _PROB] * TWO_PROB / n
                        ints[top, _NEXT] = 1
                        if star:
                            child_alpha = (need - FOUR_PROB * upper) / TWO_PROB
                    else:
                        child = node | (cell << np.uint64(1))
                        child_prob = reals[top, _PROB] * FOUR_PROB / n
                        ints[top, _NEXT] = 0
                        boards[top, _CELLS] = cells ^ cell
                        if star:
                            child_alpha = (need - TWO_PROB * reals[top, _TWO]) / FOUR_PROB
                    break
                value = reals[top, _ACC] / n
                bounded = ints[top, _CUT] != 0
                slot = ints[top, _SLOT]
                if slot >= 0:
                    kept = reals[top, _KEPT] / reals[top, _PROB]
                    pruned = reals[top, _PRUNED] / reals[top, _PROB]
                    tag = np.uint64((stamp << 8) | rem)
                    if bounded:
                        tag |= _BOUND_TAG
                    if shared:
                        tag ^= _entry_check(node, value, kept, pruned)
                    keys[2 * slot] = node
                    keys[2 * slot + 1] = tag
                    cached[3 * slot] = value
                    cached[3 * slot + 1] = kept
                    cached[3 * slot + 2] = pruned
                child_chance = True
            child = node  # the frame's node, now valued
            if track:
                reals[top - 1, _KEPT] = min(reals[top - 1, _KEPT], reals[top, _KEPT])
                reals[top - 1, _PRUNED] = max(reals[top - 1, _PRUNED], reals[top, _PRUNED])
            top -= 1
        # value the child now, or push its frame
        nodes += 1
        stop, next_clock = _out_of_budget(nodes, node_limit, deadline, next_clock, clock_every)
        if stop:
            stats[0] += nodes
            stats[1] += hits
            return four_values(values), False
        child_rem = rem - 1
        slot = -1
        if track and child_chance and child_rem:  # the cutoff decides: record its decision
            if child_prob < cutoff:
                reals[top, _PRUNED] = max(reals[top, _PRUNED], child_prob)
            else:
                reals[top, _KEPT] = min(reals[top, _KEPT], child_prob)
        bounded = False
        if child_rem == 0 or (child_chance and child_prob < cutoff):
            if rollouts:
                value = rollout_leaf(child, child_chance, mc, ev)
            else:
                value = evaluate(kind, child, weights, table, child_chance)
        elif child_chance and mask and (top > 0 or shared) and child_rem > 1:
            # (a serial search does not cache the root's chance nodes: none recurs)
            slot = np.int64(mix64(child ^ np.uint64(child_rem)) & mask)
            tag = np.uint64((stamp << 8) | child_rem)
            word = keys[2 * slot + 1]
            hit = keys[2 * slot] == child and (shared or word & ~_BOUND_TAG == tag)
            if hit:  # the entry itself only now: a miss reads no line of `cached`
                value = cached[3 * slot]
                kept = cached[3 * slot + 1]
                pruned = cached[3 * slot + 2]
                if shared:
                    word ^= _entry_check(child, value, kept, pruned)
                    hit = word & ~_BOUND_TAG == tag
                # an upper bound (Star1) serves only a node it cuts off as well
                bounded = word & _BOUND_TAG != 0
                kept *= child_prob
                pruned *= child_prob
                hit = (
                    hit
                    and (not bounded or value <= child_alpha)
                    and kept >= cutoff * (1.0 + _MARGIN)
                    and (pruned == 0.0 or pruned < cutoff * (1.0 - _MARGIN))
                )
            if hit:
                hits += 1
                reals[top, _KEPT] = min(reals[top, _KEPT], kept)
                reals[top, _PRUNED] = max(reals[top, _PRUNED], pruned)
            else:
                known = False
        else:
            known = False
        if not known:  # push the child's frame
            top += 1
            cells = empty_mask(child)
            acc = 0.0 if child_chance else NEG_INF
            cut = False
            if child_chance and child_rem <= 2 and not rollouts:  # all its children at once
                acc, below, cut = _chance_value(
                    kind, child, weights, table, child_rem - 1, child_alpha, upper
                )
                cells = np.uint64(0)
                nodes += below
            boards[top, _BOARD] = child
            boards[top, _CELLS] = cells
            ints[top, _NEXT] = 0
            ints[top, _SLOT] = slot
            ints[top, _EMPTIES] = empty_count(child)
            ints[top, _DONE] = 0
            ints[top, _CUT] = cut
            reals[top, _PROB] = child_prob
            reals[top, _ACC] = acc
            reals[top, _KEPT] = np.inf
            reals[top, _PRUNED] = 0.0
            reals[top, _ALPHA] = child_alpha
            reals[top, _BOUND] = NEG_INF
