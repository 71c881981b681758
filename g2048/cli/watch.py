"""One game move by move, for `python -m g2048 watch`: the very game `play_games` plays from a
seed (same spawn and agent streams, same decisions), stepped in Python so that a terminal can
redraw the board after each move, plus the board's text and 256-colour ANSI rendering.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from g2048.agents import STATS_SIZE, TABLE_BITS, AgentConfig
from g2048.agents.expectimax import new_table
from g2048.engine.bitboard import DIRECTIONS, start_board
from g2048.engine.board import decode
from g2048.engine.parallel import max_threads
from g2048.play import agent_params, evaluator_rows, game_streams, play_on


@dataclass(frozen=True)
class Position:
    """A board during a game: the score and moves so far, and the move that led to it."""

    board: int
    score: int
    moves: int
    last_move: int | None  # a direction (g2048.engine.board.UP...), None at the start

    @property
    def max_tile(self) -> int:
        return int(decode(self.board).max())


def positions(
    agent: AgentConfig,
    seed: int,
    evaluator: str = "nneonneo",
    weights: object = None,
    max_moves: int = 0,
) -> Iterator[Position]:
    """The start position and the position after every move of the game that `play_games`
    plays from `seed` (with the same `max_moves`, 0 = no cap); the last one is the final
    position.

    Each move is one call of `g2048.play.play_on`, the game loop of `play_game`. Boards go back
    to numba as np.uint64: numba returns them as Python ints, which it would type as int64 on
    the way in (a second compilation, and OverflowError from 2**63 on).
    """
    ev_kind, w, tables = evaluator_rows(agent, evaluator, weights)
    params = agent_params(agent, evaluator, tables, max_threads())
    seed = np.uint64(seed)
    spawns, rng = game_streams(seed)
    table = new_table(int(params[TABLE_BITS]))
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    stop = np.zeros(1, dtype=np.int64)
    board = np.uint64(start_board(spawns))
    score = moves = 0
    yield Position(int(board), score, moves, None)
    while max_moves <= 0 or moves < max_moves:
        after, gained, moves, _, ended, _, d = play_on(
            agent.kind, params, ev_kind, w, tables, board, spawns, rng, table, stats, moves,
            moves + 1, stop,
        )  # fmt: skip
        if ended:
            return
        board = np.uint64(after)
        score += int(gained)
        yield Position(int(board), score, moves, int(d))


# The original game's palette in xterm 256-colour indices: (tile, text), the original's hex
# alongside. The nearest colour would merge 16 with 32 and 128..1024; these stay distinct.
_PALETTE = {
    0: (250, 242),  # cdc1b4, text 776e65
    2: (254, 242),  # eee4da
    4: (223, 242),  # ede0c8
    8: (216, 231),  # f2b179, text f9f6f2
    16: (209, 231),  # f59563
    32: (203, 231),  # f67c5f
    64: (202, 231),  # f65e3b
    128: (222, 231),  # edcf72
    256: (221, 231),  # edcc61
    512: (220, 231),  # edc850
    1024: (214, 231),  # edc53f
    2048: (178, 231),  # edc22e
    4096: (237, 231),  # 3c3a32, every larger tile too
}
_BOARD = "\x1b[48;5;248m"  # bbada0
_CELL_WIDTH = 7
RESET = "\x1b[0m"
CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen
_STYLES = {tile: f"\x1b[48;5;{bg}m\x1b[1;38;5;{fg}m" for tile, (bg, fg) in _PALETTE.items()}


def _header(position: Position) -> str:
    last = "-" if position.last_move is None else DIRECTIONS[position.last_move]
    return f"score {position.score}  moves {position.moves}  last move {last}"


def render(position: Position, colour: bool) -> str:
    """The position as text: a header line, then the board, in ANSI colours or plain."""
    grid = decode(position.board)
    if not colour:
        rows = ["".join(f"{v or '.':>6}" for v in row) for row in grid]
        return "\n".join([_header(position), *rows])
    gap = f"{_BOARD} "
    border = f"{_BOARD}{' ' * (4 * _CELL_WIDTH + 5)}{RESET}"
    lines = [_header(position), border]
    for row in grid:
        styles = [_STYLES[min(int(v), 4096)] for v in row]
        for line in range(3):  # the value on the middle line of a cell 3 lines high
            cells = [
                f"{style}{(v if v and line == 1 else ''):^{_CELL_WIDTH}}"
                for style, v in zip(styles, row, strict=True)
            ]
            lines.append(gap + gap.join(cells) + gap + RESET)
        lines.append(border)
    return "\n".join(lines)
