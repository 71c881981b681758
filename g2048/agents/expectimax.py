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
rollouts 0 = static evaluation; `tt` is the table (see new_table). They are unpacked once per
decision and the search calls `evaluate` directly: an array (or a tuple holding one) passed to an
inlined helper costs two atomic reference-count calls per use when a call that may raise sits in
between, more than a leaf's evaluation. So the stack's frames and the table's slots are numpy
records (FRAME, ENTRY), which numba passes to the helpers as plain pointers: a helper that takes
frames, entries and numbers adds no reference counting. The two or three plies above the leaves,
which hold most of the nodes, are valued in one call each by `_chance_sum`, with `evaluate`
compiled in. For nneonneo's evaluator (LINE_TABLE) `_line_table_best` values a move's leaf from the
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
    is_game_over,
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
# A frame of move_values' stack: its node's board and, for a chance node, its empty cells not
# yet spawned; next: a chance node's next tile (0: the 2 in its lowest unspawned cell, 1: the 4;
# the cell leaves `cells` then), a move node's next direction to try; slot: its table slot (-1:
# none); empties, done: a chance node's empty cells and cells done; cut: whether it was cut off
# (its value is then an upper bound); prob: its path probability; acc: a chance node's weighted
# sum so far, a move node's best exact child value; two: the value of the current cell's 2;
# kept, pruned: the least path probability below the node that the cutoff kept and the greatest
# that it pruned (see move_values on the table); alpha: what the node's value must exceed to
# matter (Star1; -inf without it); bound: the greatest upper bound among a move node's children;
# up, down, left, right: the root's move values (-inf: illegal).
FRAME = np.dtype(
    [("board", np.uint64), ("cells", np.uint64)]
    + [(name, np.int64) for name in ("next", "slot", "empties", "done", "cut")]
    + [(name, np.float64) for name in ("prob", "acc", "two", "kept", "pruned", "alpha", "bound")]
    + [(name, np.float64) for name in ("up", "down", "left", "right")]
)
# A slot of the transposition table: the chance node's board, its tag (stamp << 8 | remaining
# plies, _BOUND_TAG if its value is an upper bound, XORed with _entry_check when threads share
# the table), its value and the least kept and greatest pruned path probability below it,
# relative to its own.
ENTRY = np.dtype(
    [("board", np.uint64), ("tag", np.uint64)]
    + [(name, np.float64) for name in ("value", "kept", "pruned")]
)
_MARGIN = 1e-9  # relative: a cached value is reused only with every cutoff decision this clear
_BOUND_TAG = np.uint64(0x80)  # in an entry's tag: its value is an upper bound (Star1)


@njit(cache=True)
def new_table(log2_size: int) -> np.ndarray:
    """An empty transposition table of 2**log2_size slots of ENTRY (log2_size 0: caching off),
    every slot with a tag no decision uses."""
    table = np.zeros(1 << log2_size, dtype=ENTRY)
    for entry in table:
        entry.tag = np.uint64(0xFFFFFFFFFFFFFFFF)
    return table


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


@njit(cache=True, inline="always")
def _set_frame(f, board, cells, slot, prob, acc, cut, alpha) -> None:  # noqa: ANN001
    """Frame f as a new node `board`, its first child next (see FRAME)."""
    f.board, f.cells, f.next, f.slot = board, cells, 0, slot
    f.empties, f.done, f.cut = empty_count(board), 0, cut
    f.prob, f.acc, f.kept, f.pruned, f.alpha, f.bound = prob, acc, np.inf, 0.0, alpha, NEG_INF


@njit(cache=True, inline="always")
def _set_root(f, b, prob) -> None:  # noqa: ANN001
    """Frame f as the root b (path probability prob), every move's value -inf until searched."""
    _set_frame(f, b, np.uint64(0), -1, prob, NEG_INF, False, NEG_INF)
    f.up, f.down, f.left, f.right = NEG_INF, NEG_INF, NEG_INF, NEG_INF


@njit(cache=True, inline="always")
def _merge(f, kept, pruned) -> None:  # noqa: ANN001
    """Fold the least kept and the greatest pruned path probability below a node into those of
    frame f, a frame above it."""
    f.kept = min(f.kept, kept)
    f.pruned = max(f.pruned, pruned)


@njit(cache=True, inline="always")
def _record_cutoff(f, prob, cutoff) -> None:  # noqa: ANN001
    """Record in frame f the cutoff's decision on a child chance node of path probability prob."""
    if prob < cutoff:
        f.pruned = max(f.pruned, prob)
    else:
        f.kept = min(f.kept, prob)


@njit(cache=True, inline="always")
def _fold_move(f, value, bounded, rewards, root) -> None:  # noqa: ANN001
    """Fold the value of move frame f's current child (an upper bound if `bounded`) into f,
    plus the move's score if `rewards`; the root (`root`) keeps each move's value too."""
    d = f.next - 1
    if rewards:
        value += move_score(f.board, d)
    if root and d == UP:
        f.up = value
    elif root and d == DOWN:
        f.down = value
    elif root and d == LEFT:
        f.left = value
    elif root:
        f.right = value
    if bounded:
        f.bound = max(f.bound, value)
    else:
        f.acc = max(f.acc, value)


@njit(cache=True, inline="always")
def _fold_chance(f, value, bounded, star, upper) -> None:  # noqa: ANN001
    """Fold the value of chance frame f's current child (its cell's 2, then its 4) into f; with
    Star1, cut f off at its upper bound once even `upper` for the rest of its cells cannot lift
    it above its alpha (or the child's value is itself a bound)."""
    two = f.next == 1  # the child was the 2
    if two:
        f.two = value
    else:
        f.acc += TWO_PROB * f.two + FOUR_PROB * value
        f.done += 1
    if star:  # the rest of the node at most: this cell's 4 (after its 2), the cells after it
        n = f.empties
        if two:
            rest = TWO_PROB * value + FOUR_PROB * upper
            rest += (n - f.done - 1) * upper
        else:
            rest = (n - f.done) * upper
        if bounded or f.acc + rest <= f.alpha * n:
            f.acc += rest
            f.cells = np.uint64(0)
            f.cut = 1


@njit(cache=True, inline="always")
def _next_move(f, star) -> tuple:  # noqa: ANN001
    """Move frame f's next legal child (f.board when none is left) and, with Star1, what the
    child must exceed to matter (-inf without)."""
    node = f.board
    d = f.next
    child = node
    while d < 4 and child == node:
        child = shift(node, d)
        d += 1
    f.next = d
    return child, max(f.alpha, f.acc) if star else NEG_INF


@njit(cache=True, inline="always")
def _next_spawn(f, star, upper) -> tuple:  # noqa: ANN001
    """Chance frame f's next child (f.cells is not empty), its path probability and, with Star1,
    what it must exceed to matter (the cells after it counted at `upper`; -inf without)."""
    cells, n = f.cells, f.empties
    cell = cells & (~cells + np.uint64(1))
    need = alpha = NEG_INF
    if star:
        need = f.alpha * n - f.acc
        need -= (n - f.done - 1) * upper
    if f.next == 0:
        child, prob = f.board | cell, f.prob * TWO_PROB / n
        f.next = 1
        if star:
            alpha = (need - FOUR_PROB * upper) / TWO_PROB
    else:
        child, prob = f.board | (cell << np.uint64(1)), f.prob * FOUR_PROB / n
        f.next = 0
        f.cells = cells ^ cell
        if star:
            alpha = (need - TWO_PROB * f.two) / FOUR_PROB
    return child, prob, alpha


@njit(cache=True, inline="always")
def _store(entry, f, value, bounded, stamp, rem, shared) -> None:  # noqa: ANN001
    """Write chance frame f's `value` (an upper bound if `bounded`; `rem` plies left) to its
    table `entry`, its path probabilities relative to its own."""
    kept = f.kept / f.prob
    pruned = f.pruned / f.prob
    tag = np.uint64((stamp << 8) | rem)
    if bounded:
        tag |= _BOUND_TAG
    if shared:
        tag ^= _entry_check(f.board, value, kept, pruned)
    entry.board, entry.tag, entry.value, entry.kept, entry.pruned = (
        f.board,
        tag,
        value,
        kept,
        pruned,
    )


@njit(cache=True, inline="always")
def _probe(entry, f, child, stamp, rem, prob, alpha, cutoff, shared) -> tuple:  # noqa: ANN001
    """(hit, value, bounded) of the chance node `child` (`rem` plies left, path probability
    `prob`, a child of frame f) from its table `entry`: a hit only where every cutoff decision
    below it comes out as it did (see move_values), its path probabilities then merged into f's."""
    tag = np.uint64((stamp << 8) | rem)
    word = entry.tag
    if entry.board != child or not (shared or word & ~_BOUND_TAG == tag):
        return False, 0.0, False  # (a miss reads only the entry's first 16 bytes)
    value, kept, pruned = entry.value, entry.kept * prob, entry.pruned * prob
    if shared:
        word ^= _entry_check(child, value, entry.kept, entry.pruned)
    bounded = word & _BOUND_TAG != 0  # an upper bound (Star1) serves only a node it cuts off
    hit = (
        word & ~_BOUND_TAG == tag
        and (not bounded or value <= alpha)
        and kept >= cutoff * (1.0 + _MARGIN)
        and (pruned == 0.0 or pruned < cutoff * (1.0 - _MARGIN))
    )
    if hit:
        _merge(f, kept, pruned)
    return hit, value, bounded


@njit(cache=True, inline="always")
def _is_leaf(child, chance, rem, prob, cutoff) -> bool:  # noqa: ANN001
    """Whether the search values `child` (a chance node if `chance`, `rem` plies left, path
    probability `prob`) statically: at the depth, below the cutoff, or with no legal move."""
    return rem == 0 or (chance and prob < cutoff) or (not chance and is_game_over(child))


@njit(cache=True, inline="always")
def _finish(stats, nodes, hits, root, done) -> tuple:  # noqa: ANN001
    """A search's result: the root frame's move values and whether it completed, its nodes and
    table hits added to stats."""
    stats[0] += nodes
    stats[1] += hits
    return (root.up, root.down, root.left, root.right), done


@njit(cache=True, error_model="numpy")  # (no zero checks of divisions by empties, never 0)
def move_values(
    b, depth, ev, mc, cutoff, tt, stamp, stats, node_limit, deadline, prob, shared, upper
) -> tuple:  # noqa: ANN001, E501
    """Expectimax value of each direction from root board b (-inf: illegal) and whether the
    search completed (abandoned past node_limit nodes or, if deadline > 0, the monotonic clock's
    deadline in ns). prob: the root's path probability (< 1 in a subtree of a larger search);
    shared: threads share the table tt (g2048.agents.parallel); upper: a bound of every leaf's
    value for Star1 (inf: none). Frame k of the stack (FRAME) holds the node k plies below b;
    each pass folds values into the frames and generates the next child, then values it (a
    leaf, a chance node above the leaves, or cached) or pushes its frame."""
    b = np.uint64(b)  # as Python ints arrive as int64
    (kind, weights, table), rollouts = ev, mc[0]
    rewards = adds_rewards(kind) and not rollouts  # a rollout value counts the score made
    mask = np.uint64(tt.size - 1)  # 0: no table
    track = cutoff > 0.0 and mask != 0 and depth > 3  # (a search of 3 plies caches nothing)
    star, frames = upper < np.inf, np.empty(depth, dtype=FRAME)
    _set_root(frames[0], b, prob)
    top, nodes, hits, value, bounded, known = 0, 1, 0, 0.0, False, False
    next_clock = clock_every = 1 if rollouts else _clock_every(kind)  # rollouts: 1000 nodes long
    while True:
        while True:  # fold the child's value into the frames until one has a child to value
            f = frames[top]
            if known and top & 1:
                _fold_chance(f, value, bounded, star, upper)
            elif known:
                _fold_move(f, value, bounded, rewards, top == 0)
            known, rem = True, depth - top
            if top & 1 == 0:  # a move node: its next legal move
                (child, alpha), child_chance, child_prob = _next_move(f, star), True, f.prob
                if child != f.board:
                    break
                if top == 0 and f.bound > f.acc:  # rounding let a bound reach the best: redo
                    star, upper, known = False, np.inf, False
                    _set_root(f, b, prob)
                    continue
                if top == 0:
                    return _finish(stats, nodes, hits, f, True)
                bounded = f.bound > f.acc
                value, child_chance = f.bound if bounded else f.acc, False
            else:  # a chance node: its next spawn
                if f.cells:
                    (child, child_prob, alpha), child_chance = _next_spawn(f, star, upper), False
                    break
                value, bounded, child_chance = f.acc / f.empties, f.cut != 0, True
                if f.slot >= 0:
                    _store(tt[f.slot], f, value, bounded, stamp, rem, shared)
            child = f.board  # the frame's node, now valued
            if track:
                _merge(frames[top - 1], f.kept, f.pruned)
            top -= 1
        # value the child now, or push its frame
        nodes += 1
        stop, next_clock = _out_of_budget(nodes, node_limit, deadline, next_clock, clock_every)
        if stop:
            return _finish(stats, nodes, hits, frames[0], False)
        child_rem, slot, bounded = rem - 1, -1, False
        if track and child_chance and child_rem:  # the cutoff decides: record its decision
            _record_cutoff(f, child_prob, cutoff)
        if _is_leaf(child, child_chance, child_rem, child_prob, cutoff):
            if rollouts:
                value = rollout_leaf(child, child_chance, mc, ev)
            else:
                value = evaluate(kind, child, weights, table, child_chance)
        elif child_chance and mask and (top > 0 or shared) and child_rem > 1:
            # (a serial search does not cache the root's chance nodes: none recurs)
            slot = np.int64(mix64(child ^ np.uint64(child_rem)) & mask)
            known, value, bounded = _probe(
                tt[slot], f, child, stamp, child_rem, child_prob, alpha, cutoff, shared
            )
            hits += known
        else:
            known = False
        if not known:  # push the child's frame
            top += 1
            cells, acc, cut = empty_mask(child), 0.0 if child_chance else NEG_INF, False
            if child_chance and child_rem <= 2 and not rollouts:  # all its children at once
                acc, below, cut = _chance_value(kind, child, weights, table, rem - 2, alpha, upper)
                cells, nodes = np.uint64(0), nodes + below
            _set_frame(frames[top], child, cells, slot, child_prob, acc, cut, alpha)
