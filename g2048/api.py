"""Play a move from Python: a board in, the agent's move and each move's value out, as
nneonneo/2048-ai's `find_best_move` is used, for any agent of AgentConfig and any evaluator.

    from g2048 import AgentConfig, decide
    decide([[2, 4, 8, 16], [0, 2, 0, 4], [0, 0, 2, 0], [0, 0, 0, 0]], AgentConfig("expectimax"))

A `Player` prepares its evaluator once (a network file is read once) and decides boards one
at a time; `decide` is a Player for one board. The values are those the agent's search gives
the root (`g2048.agents.root_values`, which `choose_move` calls; its move is the greatest
value's, the first on ties in the order of the agent's rules), so on every board of a game
the Player chooses the move the agent played there (tested). The value's unit is the evaluator's:
a heuristic's score of the board the search reaches, or for the network (and rollouts) the
score still to come, the move's own included. A timed agent (budget_ms) searches as deep as
this machine allows in the time, so its move can differ from run to run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from g2048.agents import RANDOM, STATS_SIZE, TABLE_BITS, AgentConfig, root_values
from g2048.agents.expectimax import new_table
from g2048.agents.sources import RULES, first_best
from g2048.engine.board import DIRECTIONS, encode, is_game_over
from g2048.engine.rng import rng_state
from g2048.play import agent_params, evaluator_rows

__all__ = ["AgentConfig", "Decision", "GameOverError", "Player", "decide", "encode", "parse_board"]


class GameOverError(ValueError):
    """A board without a legal move: the game is over on it."""


@dataclass(frozen=True)
class Decision:
    """An agent's move ("up", "down", "left" or "right") and the value of each direction
    (-inf: an illegal move), by direction name, in the order up, down, left, right."""

    move: str
    values: dict[str, float]


def parse_board(text: str) -> int:
    """The board of a text of 16 tile values row by row (0 = empty), separated by commas or
    spaces, with rows optionally separated by '/': "2,4,8,16/0,2,0,4/0,0,2,0/0,0,0,0".
    ValueError in one line on another count, a value that is not a whole number, or a tile
    `encode` refuses."""
    rows = [re.split(r"[,\s]+", row.strip()) for row in text.strip().split("/")]
    values = [v for row in rows for v in row if v]
    if len(values) != 16 or (len(rows) > 1 and any(len([v for v in r if v]) != 4 for r in rows)):
        raise ValueError(
            f"a board is 16 tile values, row by row (4 rows of 4 when separated by '/'), "
            f"got {text!r}"
        )
    try:
        grid = [[int(v) for v in values[4 * r : 4 * r + 4]] for r in range(4)]
    except ValueError:
        bad = next(v for v in values if not v.isdigit())
        raise ValueError(f"not a tile value: {bad!r} in board {text!r}") from None
    return encode(grid)


def _board(board: object) -> np.uint64:
    """A board given as a 4x4 grid of tile values or an encoded board (an int), checked:
    GameOverError when no move is legal on it."""
    if isinstance(board, int | np.integer) and not isinstance(board, bool):
        if not 0 <= int(board) < 2**64:
            raise ValueError(f"an encoded board is in [0, 2**64), got {board}")
        b = int(board)
    else:
        b = encode(board)
    if is_game_over(b):
        raise GameOverError(f"no legal move on board {b:#018x}: the game is over")
    return np.uint64(b)


class Player:
    """An agent (AgentConfig) with its evaluator and weights (as `play` takes them: None for
    the evaluator's defaults, a vector, the switching agent's three rows, or for the ntuple
    evaluator a Network or a network file), prepared once to decide many boards."""

    def __init__(
        self,
        agent: AgentConfig,
        evaluator: str = "nneonneo",
        weights: object = None,
    ) -> None:
        if agent.kind == RANDOM:
            raise ValueError("agent 'random' values no move: it picks a legal one at random")
        self.agent, self.evaluator = agent, evaluator
        self._rows = evaluator_rows(agent, evaluator, weights)
        self._params = agent_params(agent, evaluator, self._rows[2])

    def decide(self, board: object, seed: int = 0, rng: np.ndarray | None = None) -> Decision:
        """The agent's move on `board` (a 4x4 grid of tile values, 0 = empty, or an encoded
        board) and each move's value; GameOverError when no move is legal. The agent's own
        random draws (rollouts) come from `seed`, or from the generator state `rng`
        (g2048.engine.rng), advanced as a game's agent stream is by one move."""
        b = _board(board)
        rng = rng_state(seed) if rng is None else rng
        values = self._values(b, rng)
        best = first_best(np.array(values), RULES.index(self.agent.rules))
        return Decision(DIRECTIONS[best], dict(zip(DIRECTIONS, map(float, values), strict=True)))

    def _values(self, b: np.uint64, rng: np.ndarray) -> tuple:
        """The root's values, as choose_move computes them, with a fresh table."""
        (ev_kind, w, tables), stats = self._rows, np.zeros(STATS_SIZE, dtype=np.int64)
        table = new_table(int(self._params[TABLE_BITS]))
        return root_values(
            self.agent.kind, self._params, ev_kind, w, tables, b, rng, table, np.int64(0), stats
        )


def decide(
    board: object,
    agent: AgentConfig,
    evaluator: str = "nneonneo",
    weights: object = None,
    seed: int = 0,
) -> Decision:
    """The move and move values of `agent` with `evaluator` and `weights` on one board
    (Player.decide; a Player decides many boards without preparing the evaluator again)."""
    return Player(agent, evaluator, weights).decide(board, seed)
