"""What the search tests share: realistic boards, one whole serial search, a random network."""

import numpy as np

from g2048.agents.expectimax import NO_LIMIT, move_values
from g2048.engine.bitboard import is_game_over, play_random, start_board
from g2048.engine.board import decode
from g2048.engine.rng import rng_state
from g2048.evaluators import ntuple

NO_ROLLOUTS = (0, 0, 0, np.uint64(0))  # mc: static evaluation at the leaves


def serial_values(b, depth, ev, cutoff, tt, stats, mc=NO_ROLLOUTS, upper=np.inf) -> np.ndarray:  # noqa: ANN001
    """move_values of one whole serial search from root b (no node limit, no deadline, root
    probability 1, table not shared; upper: Star1's bound, inf = none)."""
    args = (np.uint64(b), depth, ev, mc, cutoff, tt, 1, stats, NO_LIMIT, 0, 1.0, False, upper)
    return np.array(move_values(*args)[0])


def played_boards(n: int, moves: int, seed: int) -> list[list[list[int]]]:
    """Positions after `moves` random moves from n start positions: realistic, varied fullness."""
    out = []
    for i in range(n):
        state = rng_state(seed + i)
        b = play_random(np.uint64(start_board(state)), state, moves)[0]
        if not is_game_over(b):
            out.append(decode(int(b)).tolist())
    return out


def random_network(name: str, seed: int) -> ntuple.Network:
    rng = np.random.default_rng(seed)
    size = ntuple.lut_size(ntuple.network_tuples(name))
    return ntuple.Network(name, rng.normal(0.0, 100.0, size).astype(np.float32))
