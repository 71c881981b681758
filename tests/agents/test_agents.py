"""Agents: expectimax against a brute-force reference search, the table and cutoff options,
Monte Carlo and hybrid reproducibility, switching's rule, and strength sanity on fixed seeds."""

import itertools

import numpy as np
import pandas as pd
import pytest
from kinds import assert_each_names_its_entry
from searches import NO_ROLLOUTS, played_boards, random_network, serial_values

from g2048 import agents, evaluators
from g2048.agents import (
    AGENTS,
    BALANCED,
    CORNER_HEAVY,
    EMPTY_HEAVY,
    STATS_SIZE,
    AgentConfig,
    choose_move,
    switching_row,
)
from g2048.agents.expectimax import (
    NO_LIMIT,
    _all_moves,
    _line_table_best,
    move_values,
    new_table,
    shallow_values,
)
from g2048.agents.rollout import BIASED_POLICY, EVALUATOR_POLICY, POLICIES, RANDOM_POLICY
from g2048.engine.bitboard import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    empty_mask,
    row_sum,
    shift,
    transpose,
)
from g2048.engine.board import encode
from g2048.engine.reference import ref_expectimax
from g2048.engine.rng import game_seeds, rng_state
from g2048.play import COLUMNS, evaluator_rows, play_games


def engine_values(grid: list[list[int]], depth: int, name: str, table_bits: int = 0) -> np.ndarray:
    fn, w, table = evaluators.prepare(name)
    stats = np.zeros(2, dtype=np.int64)
    return serial_values(encode(grid), depth, (fn, w, table), 0.0, new_table(table_bits), stats)


HAND_BOARDS = [
    [[2, 4, 8, 16], [0, 0, 2, 0], [0, 2, 0, 0], [0, 0, 0, 4]],
    [[1024, 512, 256, 128], [8, 16, 32, 64], [4, 2, 0, 0], [2, 0, 0, 0]],
    [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]],  # one empty cell, nearly dead
    [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0]],
]


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("grid", HAND_BOARDS)
def test_expectimax_equals_brute_force_on_hand_boards(depth: int, grid) -> None:  # noqa: ANN001
    def value(g: list[list[int]]) -> float:
        return evaluators.value("nneonneo", encode(g))

    expected = ref_expectimax(grid, depth, value)
    got = engine_values(grid, depth, "nneonneo")
    np.testing.assert_allclose(got, expected, rtol=1e-9)
    assert int(np.argmax(got)) == int(np.argmax(expected))


@pytest.mark.parametrize("name", sorted(evaluators.EVALUATORS))
def test_expectimax_equals_brute_force_for_every_evaluator(name: str) -> None:
    def value(g: list[list[int]]) -> float:
        return evaluators.value(name, encode(g))

    for grid in played_boards(6, 40, seed=11):
        for depth in (1, 2):
            expected = ref_expectimax(grid, depth, value)
            got = engine_values(grid, depth, name)
            np.testing.assert_allclose(got, expected, rtol=1e-9)


def test_expectimax_depth_3_equals_brute_force_on_played_boards() -> None:
    def value(g: list[list[int]]) -> float:
        return evaluators.value("ovolve", encode(g))

    for grid in played_boards(4, 80, seed=5):
        np.testing.assert_allclose(
            engine_values(grid, 3, "ovolve"), ref_expectimax(grid, 3, value), rtol=1e-9
        )


@pytest.mark.slow
def test_nneonneo_leaves_summed_in_place_equal_its_evaluation() -> None:
    """The search's straight-line leaves for nneonneo's evaluator give, for every spawn of many
    chance nodes, exactly the best evaluation over the legal moves and their number (-inf, 0
    where none is legal)."""
    kind, w, table = evaluators.prepare("nneonneo")
    assert kind == evaluators.LINE_TABLE
    grids = played_boards(20, 30, seed=21) + played_boards(40, 150, seed=22) + HAND_BOARDS
    boards = {np.uint64(shift(np.uint64(encode(g)), d)) for g in grids for d in range(4)}
    spawns = no_move = 0
    for b in boards:
        t, cells = np.uint64(transpose(b)), int(empty_mask(b))
        moved = tuple(np.uint64(a) for a in _all_moves(b))
        flipped = tuple(np.uint64(transpose(a)) for a in moved)
        slid = (flipped[UP], flipped[DOWN], moved[LEFT], moved[RIGHT])
        sums = tuple(float(row_sum(a, table)) for a in slid)
        while cells:
            cell = np.uint64(cells & -cells)
            cells ^= int(cell)
            for rank in (1, 2):
                spawned = b | (cell * np.uint64(rank))
                legal = [a for a in (shift(spawned, d) for d in range(4)) if a != spawned]
                values = [evaluators.evaluate(kind, a, w, table, True) for a in legal]
                expected = (max(values, default=-np.inf), len(legal))
                best = _line_table_best(b, t, moved, flipped, sums, cell, rank, table)
                assert best == expected
                spawns += 1
                no_move += not legal
    assert spawns > 1000 and no_move > 0


@pytest.mark.parametrize("name", ["nneonneo", "classic4", "ntuple"])
def test_shallow_search_equals_the_stack_search(name: str) -> None:
    """Searches of 1-3 plies skip the stack (shallow_values): the same values, completion and
    node counts as move_values, also when a node limit stops it, whatever the cutoff (the
    root's chance nodes have path probability 1, and all below them are leaves)."""
    if name == "ntuple":  # an afterstate evaluator: the search adds the moves' scores
        ev = evaluators.prepare(name, random_network("lines4x2", seed=3))
    else:
        ev = evaluators.prepare(name)
    grids = played_boards(6, 40, seed=31) + played_boards(6, 200, seed=32) + HAND_BOARDS
    limits = (NO_LIMIT, 3, 40)
    runs = 0
    for grid, depth, cutoff, limit in itertools.product(grids, (1, 2, 3), (1e-4, 0.5), limits):
        b = np.uint64(encode(grid))
        stats = np.zeros(2, dtype=np.int64)
        args = (b, depth, ev, NO_ROLLOUTS, cutoff, new_table(12), 1, stats, limit, 0, 1.0, False)
        stack = (*move_values(*args, np.inf), int(stats[0]))
        stats[:] = 0
        shallow = (*shallow_values(b, depth, *ev, stats, limit, 0), int(stats[0]))
        assert shallow == stack, (grid, depth, limit)
        runs += not stack[1]
    assert runs > 0  # some searches stopped at the node limit


def table_runs(grid: list[list[int]], depth: int, cutoff: float) -> list[tuple]:
    """(values, stats) of one search without a table, with a small one (many collisions and
    overwrites) and with a large one."""
    fn, w, table = evaluators.prepare("nneonneo")
    runs = []
    for bits in (0, 6, 16):
        stats = np.zeros(2, dtype=np.int64)
        values = serial_values(encode(grid), depth, (fn, w, table), cutoff, new_table(bits), stats)
        runs.append((values, stats))
    return runs


# Boards on which a table that reuses a value whatever the path probability (as nneonneo's
# does) changes a move's value at depth 7: the same board, reached along paths of different
# probability, has other nodes below it pruned.
ORDER_DEPENDENT = [
    ([[2, 16, 2, 8], [2, 32, 0, 0], [4, 0, 2, 0], [4, 0, 0, 0]], 0.01),
    ([[4, 2, 0, 2], [2, 8, 0, 0], [64, 16, 16, 4], [8, 2, 2, 2]], 0.03),
    ([[2, 2, 16, 4], [4, 16, 64, 16], [0, 4, 128, 2], [0, 0, 2, 4]], 0.01),
]


@pytest.mark.parametrize(("grid", "cutoff"), ORDER_DEPENDENT)
def test_the_table_changes_no_value_where_a_cutoff_decides_differently(grid, cutoff) -> None:  # noqa: ANN001
    runs = table_runs(grid, 7, cutoff)
    for values, _ in runs[1:]:
        np.testing.assert_array_equal(values, runs[0][0])


@pytest.mark.parametrize("cutoff", [0.0, 1e-4])
def test_transposition_table_changes_no_value_and_saves_work(cutoff: float) -> None:
    saved = 0
    for grid in played_boards(5, 60, seed=2) + played_boards(3, 250, seed=3):
        runs = table_runs(grid, 5, cutoff)
        for values, _ in runs[1:]:
            np.testing.assert_array_equal(values, runs[0][0])
        saved += runs[0][1][0] - runs[2][1][0]
    assert saved > 0


def outcome(df) -> np.ndarray:  # noqa: ANN001
    return df[["score", "max_tile", "moves", "empty_mean"]].to_numpy()


@pytest.mark.slow
def test_table_on_and_off_play_identical_games_at_cutoff_zero() -> None:
    seeds = game_seeds(3, "tt", 3)
    # depth 5: the table serves chance nodes with two or more plies below them
    on = play_games(AgentConfig("expectimax", depth=5, table_bits=16), seeds, max_moves=60)
    off = play_games(AgentConfig("expectimax", depth=5, table_bits=0), seeds, max_moves=60)
    np.testing.assert_array_equal(outcome(on), outcome(off))
    assert (on.nodes < off.nodes).all()  # the table saved work


def test_cutoff_prunes_work() -> None:
    seeds = game_seeds(3, "cutoff", 2)
    exact = play_games(AgentConfig("expectimax", depth=4), seeds, max_moves=100)
    pruned = play_games(AgentConfig("expectimax", depth=4, cutoff=0.05), seeds, max_moves=100)
    assert pruned.nodes.sum() < 0.8 * exact.nodes.sum()


def test_games_do_not_depend_on_threads() -> None:
    seeds = game_seeds(4, "threads", 6)
    agent = AgentConfig("expectimax", depth=2)
    one = play_games(agent, seeds, threads=1)
    two = play_games(agent, seeds, threads=2)
    pd.testing.assert_frame_equal(one.drop(columns="seconds"), two.drop(columns="seconds"))


@pytest.mark.parametrize(
    "agent",
    [
        AgentConfig("montecarlo", rollouts=5),
        AgentConfig("montecarlo", rollouts=5, rollout_policy="biased"),
        AgentConfig("hybrid", depth=2, rollouts=2, step_cap=20),
    ],
)
def test_randomised_agents_are_reproducible_from_the_seed(agent: AgentConfig) -> None:
    seeds = game_seeds(5, "mc", 2)
    first = play_games(agent, seeds, max_moves=60)
    again = play_games(agent, seeds, max_moves=60)
    other = play_games(agent, game_seeds(6, "mc", 2), max_moves=60)
    pd.testing.assert_frame_equal(first.drop(columns="seconds"), again.drop(columns="seconds"))
    assert not np.array_equal(outcome(first), outcome(other))


def test_hybrid_at_depth_1_is_monte_carlo() -> None:
    """Depth 1 values a move by rollouts from its board, as Monte Carlo does, with the same
    random stream: merge_potential(after) = merge_potential(before) + the move's score."""
    seeds = game_seeds(7, "hybrid", 2)
    mc = play_games(AgentConfig("montecarlo", rollouts=4), seeds, max_moves=80)
    hybrid = play_games(AgentConfig("hybrid", depth=1, rollouts=4), seeds, max_moves=80)
    np.testing.assert_array_equal(outcome(mc), outcome(hybrid))


def test_switching_with_three_equal_rows_is_expectimax() -> None:
    seeds = game_seeds(8, "switching", 2)
    w = evaluators.check_weights("nsga4")
    plain = play_games(AgentConfig("expectimax", depth=2), seeds, "nsga4", w, max_moves=200)
    switching = play_games(
        AgentConfig("switching", depth=2), seeds, "nsga4", [w, w, w], max_moves=200
    )
    np.testing.assert_array_equal(outcome(plain), outcome(switching))


def test_switching_rule_picks_the_row_the_seed_describes() -> None:
    corner_ok = encode([[64, 2, 4, 8], [2, 4, 8, 2], [4, 2, 0, 0], [0, 0, 0, 0]])
    assert switching_row(np.uint64(corner_ok), 3) == BALANCED
    off_corner = encode([[2, 64, 4, 8], [2, 4, 8, 2], [4, 2, 0, 0], [0, 0, 0, 0]])
    assert switching_row(np.uint64(off_corner), 3) == CORNER_HEAVY
    crowded = encode([[64, 2, 4, 8], [2, 4, 8, 2], [4, 2, 4, 8], [2, 0, 0, 0]])
    assert switching_row(np.uint64(crowded), 3) == EMPTY_HEAVY
    assert switching_row(np.uint64(crowded), 2) == BALANCED


def mean_score(agent: AgentConfig, n: int, evaluator: str = "nneonneo") -> float:
    return float(play_games(agent, game_seeds(9, "strength", n), evaluator, threads=2).score.mean())


def test_greedy_beats_random() -> None:
    assert mean_score(AgentConfig("greedy"), 30) > 2 * mean_score(AgentConfig("random"), 30)


def test_expectimax_depth_3_beats_greedy() -> None:
    depth3 = mean_score(AgentConfig("expectimax", depth=3), 8)
    assert depth3 > 2 * mean_score(AgentConfig("greedy"), 8)


def test_monte_carlo_beats_random() -> None:
    mc = mean_score(AgentConfig("montecarlo", rollouts=10), 6)
    assert mc > 2 * mean_score(AgentConfig("random"), 30)


def test_play_games_reports_one_row_per_game() -> None:
    seeds = game_seeds(10, "rows", 5)
    df = play_games(AgentConfig("greedy"), seeds)
    assert list(df.columns) == list(COLUMNS)
    assert len(df) == 5 and (df.seed.to_numpy() == seeds).all()
    assert (df.moves > 0).all() and (df.score % 2 == 0).all()
    assert ((df.empty_mean > 0) & (df.empty_mean < 16)).all()
    assert not df.overflow.any()
    assert df.nodes.gt(df.moves).all()


def test_max_moves_stops_games() -> None:
    df = play_games(AgentConfig("random"), game_seeds(10, "cap", 4), max_moves=7)
    assert (df.moves == 7).all()


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"name": "minimax"}, "agent"),
        ({"name": "expectimax", "depth": 0}, "depth"),
        ({"name": "expectimax", "cutoff": -0.1}, "cutoff"),
        ({"name": "montecarlo", "rollouts": 0}, "rollouts"),
        ({"name": "montecarlo", "rollout_policy": "smart"}, "rollout_policy"),
        ({"name": "hybrid", "step_cap": -1}, "step_cap"),
        ({"name": "expectimax", "table_bits": 40}, "table_bits"),
    ],
)
def test_bad_agent_settings_name_the_setting(kwargs: dict, key: str) -> None:
    with pytest.raises(ValueError, match=key):
        AgentConfig(**kwargs)


def test_switching_needs_three_weight_vectors() -> None:
    with pytest.raises(ValueError, match="3 weight vector"):
        play_games(AgentConfig("switching"), game_seeds(1, "x", 1), "nsga4", [0.25] * 4)


def test_choose_move_returns_minus_one_on_a_dead_board() -> None:
    dead = np.uint64(encode([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]))
    kind, w, t = evaluator_rows(AgentConfig("expectimax"), "nneonneo")
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    for agent in (AgentConfig("random"), AgentConfig("expectimax"), AgentConfig("montecarlo")):
        d = choose_move(
            agent.kind, agent.params(), kind, w, t, dead, rng_state(1), new_table(4), 1, stats
        )
        assert d == -1


def test_the_kind_constants_name_their_agents_and_policies() -> None:
    """numba dispatches on the constants; each must be its name's index in the one table."""
    constants = {
        "random": agents.RANDOM,
        "greedy": agents.GREEDY,
        "expectimax": agents.EXPECTIMAX,
        "montecarlo": agents.MONTECARLO,
        "hybrid": agents.HYBRID,
        "switching": agents.SWITCHING,
    }
    assert_each_names_its_entry(constants, AGENTS)
    assert all(AgentConfig(name).kind == kind for name, kind in constants.items())
    policies = {"random": RANDOM_POLICY, "biased": BIASED_POLICY, "evaluator": EVALUATOR_POLICY}
    assert_each_names_its_entry(policies, POLICIES)
