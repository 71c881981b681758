"""Star1 pruning of chance nodes (expectimax's `upper`, agent option `star`): the same best move
and value as plain search, every other value an upper bound of its own, fewer nodes."""

import numpy as np
import pytest
from searches import NO_ROLLOUTS, played_boards, serial_values

from g2048 import evaluators
from g2048.agents import UPPER as UPPER_INDEX
from g2048.agents import AgentConfig
from g2048.agents.expectimax import new_table
from g2048.agents.parallel import split_move_values
from g2048.engine.board import encode
from g2048.engine.parallel import thread_count
from g2048.engine.rng import game_seeds
from g2048.play import play_games

EV = evaluators.prepare("nneonneo")
UPPER = evaluators.upper_bound("nneonneo", EV[2][None])


def search(b, depth, cutoff, bits, upper) -> tuple:  # noqa: ANN001
    """move_values with a fresh table of 2**bits slots: (values, nodes)."""
    stats = np.zeros(2, dtype=np.int64)
    return serial_values(b, depth, EV, cutoff, new_table(bits), stats, upper=upper), stats[0]


def test_the_bound_holds_on_played_and_random_boards() -> None:
    rng = np.random.default_rng(1)
    boards = [encode(g) for g in played_boards(40, 300, seed=2)]
    boards += [int(rng.integers(0, 2**63)) for _ in range(2000)]  # any ranks, dead boards too
    for b in boards:
        assert evaluators.evaluate(0, np.uint64(b), EV[1], EV[2]) <= UPPER


@pytest.mark.parametrize("depth", [3, 4, 5, 6])
def test_star_keeps_the_best_move_and_value_and_saves_nodes(depth: int) -> None:
    """With and without the cutoff and the table (which caches the cut-off nodes' bounds): the
    best move and its value are plain search's exactly, every value is at least plain search's
    (an upper bound where cut off), and fewer nodes are visited in all."""
    saved = 0
    for cutoff in (0.0, 1e-3):
        for bits in (0, 12):
            for grid in played_boards(6, 120, seed=depth) + played_boards(4, 400, seed=depth):
                b = np.uint64(encode(grid))
                plain, plain_nodes = search(b, depth, cutoff, bits, np.inf)
                star, star_nodes = search(b, depth, cutoff, bits, UPPER)
                assert np.argmax(star) == np.argmax(plain)
                assert star.max() == plain.max()
                assert np.all(star >= plain)
                saved += plain_nodes - star_nodes
    assert saved > 0


def test_split_search_with_star_gives_exact_root_values() -> None:
    """Star1 prunes inside each subtree of a parallel search; the root's values stay exact."""
    for grid in played_boards(4, 150, seed=9):
        b = np.uint64(encode(grid))
        plain, _ = search(b, 5, 1e-3, 12, np.inf)
        stats = np.zeros(2, dtype=np.int64)
        with thread_count(2):
            values, _ = split_move_values(
                b, 5, EV, NO_ROLLOUTS, 1e-3, new_table(12), 5, stats, 0, 2, UPPER
            )
        np.testing.assert_array_equal(values, plain)


def test_star_agents_play_the_plain_games_with_fewer_nodes() -> None:
    seeds = game_seeds(6, "star", 2)
    agent = AgentConfig("expectimax", depth=5, cutoff=1e-4)
    plain = play_games(agent, seeds, max_moves=80)
    star = play_games(AgentConfig(**{**agent.__dict__, "star": True}), seeds, max_moves=80)
    columns = ["score", "max_tile", "moves", "empty_mean"]
    assert star[columns].equals(plain[columns])
    assert star.nodes.sum() < plain.nodes.sum()


def test_star_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="has no such leaves"):
        AgentConfig("hybrid", star=True)
    with pytest.raises(ValueError, match="star must be true or false"):
        AgentConfig("expectimax", star="yes")
    with pytest.raises(ValueError, match="known for nneonneo, not 'ovolve'"):
        play_games(AgentConfig("expectimax", star=True), game_seeds(0, "star", 1), "ovolve")
    assert AgentConfig("expectimax").params(1, UPPER)[UPPER_INDEX] == np.inf  # star off: no bound
