"""Source 001's Python (seeds/001_52f6222afca9121c.txt), transcribed as published: its
heuristic (sections 2.1-2.3), its board and moves (3.1) and its expectimax search (3.3), in its
order, with its names and logic. A test oracle, not part of the package.

The published listing lost every line break and indentation (rebuilt here from the syntax
alone), its quotes and the characters = + < > (so `!=` shows as `!`, `+=` as nothing, `-=` as
`-`). Each line where such an operator or quote was restored says in a `listing:` comment what
the listing showed; where the loss leaves a choice, the comment says which reading is taken.
The heuristic's operators are restored as g2048.evaluators.classic4's docstring reads them.

Kept as published, though arguable:
- `cache` is global, keyed (board, depth, player), and never cleared: a long game grows it
  without bound. The key fixes the value, so a cached value is always right; callers may
  clear it between positions to bound memory (the test does).
- `evaluate` values any board by the heuristic, a dead board (no legal move) too: a move node
  without a legal move, or a leaf that is a full board, gets its heuristic value, however high.
- A board must be a tuple of tuples, as section 3.1 says: the moves return tuples, and a list
  of lists would never compare equal to them, so every move would look legal.
"""

from math import log2

# ruff: noqa: B905 (the source's zip calls, kept as published)


def monotonicity_score(board):
    score = 0.0  # listing: "score 0.0"
    for row in board:
        cur = 0.0  # listing: "cur 0.0"
        for j in range(3):
            a, b = row[j], row[j + 1]  # listing: "a, b row[j], row[j 1]"
            if a and b and a > b:  # listing: "a and b and a b" (classic4 reads a > b)
                cur += log2(a) - log2(b)  # listing: "cur log2(a) - log2(b)"
        # listing: "score max(cur, 0.0)"; at the row's level (cur is per row), as classic4 reads
        score += max(cur, 0.0)
    for col in zip(*board):
        cur = 0.0  # listing: "cur 0.0"
        for i in range(3):
            a, b = col[i], col[i + 1]  # listing: "a, b col[i], col[i 1]"
            if a and b and a > b:  # listing: "a and b and a b" (classic4 reads a > b)
                cur += log2(a) - log2(b)  # listing: "cur log2(a) - log2(b)"
        score += max(cur, 0.0)  # listing: "score max(cur, 0.0)"
    return score


def smoothness_score(board):
    penalty = 0.0  # listing: "penalty 0.0"
    for i in range(4):
        for j in range(3):
            a, b = board[i][j], board[i][j + 1]  # listing: "a, b board[i][j], board[i][j 1]"
            if a and b:
                penalty -= abs(log2(a) - log2(b))  # listing: "penalty - abs(...)"
            a, b = board[j][i], board[j + 1][i]  # listing: "a, b board[j][i], board[j 1][i]"
            if a and b:
                penalty -= abs(log2(a) - log2(b))  # listing: "penalty - abs(...)"
    return penalty


def evaluate(board):
    empty_w = 2.7  # listing: "empty_w 2.7"
    mono_w = 1.0  # listing: "mono_w 1.0"
    smooth_w = 0.1  # listing: "smooth_w 0.1"
    corner_w = 2.0  # listing: "corner_w 2.0"
    empties = sum(row.count(0) for row in board)  # listing: "empties sum(...)"
    max_tile = max(max(row) for row in board)  # listing: "max_tile max(...)"
    # listing: "in_corner max_tile in (...)"
    in_corner = max_tile in (board[0][0], board[0][3], board[3][0], board[3][3])
    # listing: "(empty_w * empties mono_w * ... smooth_w * ... corner_w * ...)", + restored
    return (
        empty_w * empties
        + mono_w * monotonicity_score(board)
        + smooth_w * smoothness_score(board)
        + corner_w * max_tile * in_corner
    )


SIZE = 4  # listing: "SIZE 4"


def slide(line):
    """单行向左滑动并合并返回合并后的行"""  # listing: the text without its quotes
    arr = [v for v in line if v != 0]  # listing: "arr [v for v in line if v ! 0]"
    res = []  # listing: "res []"
    i = 0  # listing: "i 0"
    while i < len(arr):  # listing: "while i len(arr):"
        if i + 1 < len(arr) and arr[i] == arr[i + 1]:  # listing: "i 1 len(arr) and arr[i] arr[i 1]"
            res.append(arr[i] * 2)
            i += 2  # listing: "i 2"
        else:
            res.append(arr[i])
            i += 1  # listing: "i 1"
    return tuple(res + [0] * (SIZE - len(res)))  # listing: "tuple(res [0] * (SIZE - len(res)))"


def move_left(board):
    return tuple(slide(row) for row in board)


def move_right(board):
    return tuple(slide(row[::-1])[::-1] for row in board)


def move_up(board):
    transposed = tuple(zip(*board))  # listing: "transposed tuple(zip(*board))"
    return tuple(zip(*tuple(slide(col) for col in transposed)))


def move_down(board):
    transposed = tuple(zip(*board))  # listing: "transposed tuple(zip(*board))"
    return tuple(zip(*tuple(slide(col[::-1])[::-1] for col in transposed)))


def set_tile(board, i, j, tile):
    rows = list(board)  # listing: "rows list(board)"
    row = list(rows[i])  # listing: "row list(rows[i])"
    row[j] = tile  # listing: "row[j] tile"
    rows[i] = tuple(row)  # listing: "rows[i] tuple(row)"
    return tuple(rows)


def all_moves(board):
    results = []  # listing: "results []"
    for fn in (move_left, move_up, move_right, move_down):
        nb = fn(board)  # listing: "nb fn(board)"
        if nb != board:  # listing: "if nb ! board:"
            results.append(nb)
    return results


cache = {}  # listing: "cache {}"


def expectimax(board, depth, player=True):  # listing: "playerTrue"
    key = (board, depth, player)  # listing: "key (board, depth, player)"
    if key in cache:
        return cache[key]
    if depth == 0:  # listing: "if depth 0:"
        val = evaluate(board)  # listing: "val evaluate(board)"
        cache[key] = val  # listing: "cache[key] val"
        return val
    if player:
        best = -float("inf")  # listing: "best -float(inf)"
        for nb in all_moves(board):
            # listing: "best max(best, expectimax(nb, depth - 1, False))"
            best = max(best, expectimax(nb, depth - 1, False))
        if best == -float("inf"):  # listing: "if best -float(inf):"
            best = evaluate(board)  # listing: "best evaluate(board)"
        cache[key] = best  # listing: "cache[key] best"
        return best
    else:
        # listing: "empties [(i, j) for i in range(SIZE) for j in range(SIZE) if board[i][j] 0]"
        empties = [(i, j) for i in range(SIZE) for j in range(SIZE) if board[i][j] == 0]
        if not empties:
            val = evaluate(board)  # listing: "val evaluate(board)"
            cache[key] = val  # listing: "cache[key] val"
            return val
        total = 0.0  # listing: "total 0.0"
        for i, j in empties:
            for tile, prob in ((2, 0.9), (4, 0.1)):
                # listing: "total prob * expectimax(set_tile(board, i, j, tile), depth - 1, True)"
                total += prob * expectimax(set_tile(board, i, j, tile), depth - 1, True)
        val = total / len(empties)  # listing: "val total / len(empties)"
        cache[key] = val  # listing: "cache[key] val"
        return val


def choose_move(board, depth=4):  # listing: "depth4"
    best_score, best_dir = -float("inf"), None  # listing: "best_score, best_dir -float(inf), None"
    for direction, fn in enumerate((move_left, move_up, move_right, move_down)):
        nb = fn(board)  # listing: "nb fn(board)"
        if nb == board:  # listing: "if nb board:"
            continue
        score = expectimax(nb, depth - 1, False)  # listing: "score expectimax(...)"
        # listing: "if score best_score:"; read as > (the first best move in the order above
        # wins a tie; >= would give the last)
        if score > best_score:
            best_score, best_dir = score, direction  # listing: "best_score, best_dir score, ..."
    return best_dir
