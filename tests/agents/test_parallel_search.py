"""Parallel search within one move (g2048.agents.parallel, montecarlo's split rollouts): the same
values and games as serial search, on any number of threads."""

import numpy as np
import pytest
from searches import NO_ROLLOUTS, played_boards, random_network, serial_values

from g2048 import evaluators
from g2048.agents import PARALLEL, STATS_SIZE, AgentConfig
from g2048.agents.expectimax import new_table
from g2048.agents.montecarlo import montecarlo_values
from g2048.agents.parallel import split_move_values
from g2048.engine.board import encode
from g2048.engine.parallel import thread_count
from g2048.engine.rng import game_seeds
from g2048.play import play_games

EV = evaluators.prepare("nneonneo")


def boards(n: int, seed: int) -> list[np.uint64]:
    return [np.uint64(encode(g)) for moves in (30, 150) for g in played_boards(n, moves, seed)]


def serial(b, depth, cutoff, tt, ev=EV, mc=NO_ROLLOUTS) -> tuple:  # noqa: ANN001
    """move_values on one thread: (values, nodes)."""
    stats = np.zeros(2, dtype=np.int64)
    return serial_values(b, depth, ev, cutoff, tt, stats, mc), stats[0]


def split(b, depth, cutoff, tt, threads, ev=EV, mc=NO_ROLLOUTS) -> tuple:  # noqa: ANN001
    """split_move_values on `threads` threads: (values, nodes)."""
    stats = np.zeros(2, dtype=np.int64)
    with thread_count(threads):
        values, done = split_move_values(b, depth, ev, mc, cutoff, tt, 7, stats, 0, threads, np.inf)
    assert done
    return values, stats[0]


@pytest.mark.parametrize("depth", [3, 4, 5])
@pytest.mark.parametrize("cutoff", [0.0, 1e-3])
def test_split_search_equals_serial_search_bit_for_bit(depth: int, cutoff: float) -> None:
    """Every value equal on 1 and 2 threads with a shared table; without a table the very same
    nodes are visited, so the split itself loses or adds none."""
    for b in boards(6, seed=depth):
        expected, _ = serial(b, depth, cutoff, new_table(14))
        for threads in (1, 2):
            np.testing.assert_array_equal(
                split(b, depth, cutoff, new_table(14), threads)[0], expected
            )
        plain, nodes = serial(b, depth, cutoff, new_table(0))
        values, split_nodes = split(b, depth, cutoff, new_table(0), 2)
        np.testing.assert_array_equal(values, plain)
        assert split_nodes == nodes


def test_split_search_equals_serial_search_for_networks_and_rollouts() -> None:
    """An afterstate network (move scores added on the way) and hybrid rollout leaves."""
    kind, w, table = evaluators.prepare("ntuple", random_network("lines4x2", seed=3))
    network = (kind, w, table)
    rollouts = (2, 0, 5, np.uint64(99))  # 2 random rollouts of at most 5 moves per leaf
    for b in boards(3, seed=11):
        for ev, mc in ((network, NO_ROLLOUTS), (EV, rollouts)):
            expected, _ = serial(b, 3, 1e-3, new_table(12), ev, mc)
            np.testing.assert_array_equal(split(b, 3, 1e-3, new_table(12), 2, ev, mc)[0], expected)


def test_a_torn_table_entry_fails_its_checksum() -> None:
    """Entries a split search wrote, with their values altered afterwards as a torn write would
    leave them, are not reused: the search recomputes them. The same alteration in a serial
    search's entries (no checksum) changes its values, so the test can tell."""
    b = boards(2, seed=5)[-1]
    expected, _ = serial(b, 5, 0.0, new_table(16))
    for search in (split, serial):
        tt = new_table(16)
        if search is split:
            search(b, 5, 0.0, tt, 2)
        else:
            search(b, 5, 0.0, tt)
        tt["value"] += 1000.0  # every entry's value
        again = search(b, 5, 0.0, tt, 2)[0] if search is split else search(b, 5, 0.0, tt)[0]
        assert np.array_equal(again, expected) == (search is split)


def test_parallel_rollouts_equal_serial_rollouts() -> None:
    """Monte Carlo: fixed counts and node budgets give the same values and rollout counts on any
    number of threads; a time budget runs whole rounds of every move's rollouts."""
    mc = (0, 0, 0, np.uint64(21))
    for b in boards(3, seed=8):
        counted = []
        for threads in (0, 1, 2):
            stats = np.zeros(STATS_SIZE, dtype=np.int64)
            with thread_count(max(threads, 1)):
                fixed = montecarlo_values(b, 5, 0.0, 0, mc, EV, stats, threads)
                budget = montecarlo_values(b, 1, 0.0, 13, mc, EV, stats, threads)
            counted.append((fixed, budget, stats[0]))
        for fixed, budget, rollouts in counted[1:]:
            np.testing.assert_array_equal(fixed, counted[0][0])
            np.testing.assert_array_equal(budget, counted[0][1])
            assert rollouts == counted[0][2]
        stats = np.zeros(STATS_SIZE, dtype=np.int64)
        with thread_count(2):
            timed = montecarlo_values(b, 1, 0.5, 0, mc, EV, stats, 2)
        legal = np.sum(np.array(timed) > -np.inf)
        assert stats[0] % (16 * 2 * legal) == 0 and stats[0] > 0


@pytest.mark.parametrize(
    "agent",
    [
        AgentConfig("expectimax", depth=5, cutoff=1e-3),
        AgentConfig("expectimax", depth=7, cutoff=1e-3, budget_nodes=0, table_bits=14),
        AgentConfig("montecarlo", rollouts=8, step_cap=20),
        AgentConfig("hybrid", depth=3, rollouts=2, step_cap=5),
    ],
    ids=["expectimax-5", "expectimax-7", "montecarlo", "hybrid"],
)
def test_parallel_agents_play_the_serial_games(agent: AgentConfig) -> None:
    """Whole games: the same moves and scores with the search split over 2 threads; node
    counts agree where they cannot depend on timing (rollouts)."""
    seeds = game_seeds(4, "split", 2)
    plain = play_games(agent, seeds, max_moves=60)
    split_agent = AgentConfig(**{**agent.__dict__, "parallel": True})
    parallel = play_games(split_agent, seeds, threads=2, max_moves=60)
    columns = ["score", "max_tile", "moves", "depths"]
    assert parallel[columns].equals(plain[columns])
    assert parallel["parallel"].all() and not plain["parallel"].any()
    if agent.name == "montecarlo":
        assert parallel["nodes"].equals(plain["nodes"])


def test_parallel_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="parallel does not apply"):
        AgentConfig("greedy", parallel=True)
    with pytest.raises(ValueError, match="budget_nodes with parallel"):
        AgentConfig("expectimax", parallel=True, budget_nodes=1000)
    with pytest.raises(ValueError, match="parallel must be true or false"):
        AgentConfig("expectimax", parallel=1)
    AgentConfig("montecarlo", parallel=True, budget_nodes=1000)  # rollouts: reproducible
    # one thread searches serially: no parallel loop is launched (games may run concurrently)
    assert AgentConfig("expectimax", parallel=True).params(1)[PARALLEL] == 0
    assert AgentConfig("expectimax", parallel=True).params(4)[PARALLEL] == 4
    assert AgentConfig("expectimax").params(4)[PARALLEL] == 0
