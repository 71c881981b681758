"""The n-tuple network evaluator: its values against a plain evaluation of the same network,
hand-computed cases, its file format, and the agents that add rewards along the path."""

import numpy as np
import pytest
from searches import played_boards, random_network, serial_values

from g2048 import evaluators
from g2048.agents import AgentConfig
from g2048.agents.expectimax import new_table
from g2048.agents.rollout import EVALUATOR_POLICY, rollout_gain
from g2048.engine.bitboard import shift_scored, spawn_tile
from g2048.engine.board import decode, encode, legal_moves, move
from g2048.engine.reference import (
    ref_afterstate_expectimax,
    ref_downgrade,
    ref_ntuple_value,
    ref_symmetries,
)
from g2048.engine.rng import game_seeds, rng_state
from g2048.evaluators import ntuple
from g2048.play import play_games


def plain_luts(network: ntuple.Network) -> list[list[float]]:
    """The network's weights as one plain list per tuple (for a 8x6patt, 134 million floats:
    list them once per network, not once per board)."""
    luts, offset = [], 0
    for t in network.tuples:
        luts.append(network.lut[offset : offset + 16 ** len(t)].tolist())
        offset += 16 ** len(t)
    return luts


def plain_value(
    network: ntuple.Network, grid: list[list[int]], luts: list[list[float]] | None = None
) -> float:
    """The plain reference's value of `grid` (`luts`: plain_luts(network), if already made)."""
    return ref_ntuple_value(grid, list(network.tuples), luts or plain_luts(network))


def test_symmetries_are_the_eight_distinct_images_of_the_grid() -> None:
    cells = [ntuple.symmetric_cell(c, s) for s in range(8) for c in range(16)]
    images = {tuple(cells[16 * s : 16 * s + 16]) for s in range(8)}
    assert len(images) == 8 and all(sorted(i) == list(range(16)) for i in images)
    grid = [[4 * r + c + 1 for c in range(4)] for r in range(4)]
    assert len({str(g) for g in ref_symmetries(grid)}) == 8


# One network per tuple set (the others share theirs), 8x6patt holding every 6x6patt's.
DISTINCT = ["wu6x4", "sj4x2+6x2", "lines4x2", "5x6patt", "4x5patt", "8x6patt"]


def test_every_named_network_is_checked_through_one_of_distinct_tuples() -> None:
    sets = {name: set(ntuple.NETWORKS[name]) for name in DISTINCT}
    for name, tuples in ntuple.NETWORKS.items():
        assert any(set(tuples) <= covered for covered in sets.values()), name
    # TDL2048+'s names for the networks this project named first
    assert ntuple.NETWORKS["4x6patt"] == ntuple.NETWORKS["wu6x4"]
    assert ntuple.NETWORKS["2x4patt"] == ntuple.NETWORKS["lines4x2"]
    assert [len(ntuple.NETWORKS[f"{m}x6patt"]) for m in (4, 5, 6, 7, 8)] == [4, 5, 6, 7, 8]
    assert ntuple.NETWORKS["8x6patt"][7] == (0, 1, 4, 8, 9, 10)  # TDL2048+'s "01489a"


def test_an_optimistic_network_values_every_board_at_its_initial_value() -> None:
    for name in ("lines4x2", "4x5patt"):
        network = ntuple.initial_network(name, 320000.0)
        for grid in played_boards(5, 40, seed=9):
            assert evaluators.value("ntuple", encode(grid), network, after=True) == 320000.0
    assert not ntuple.initial_network("lines4x2", 0.0).lut.any()


@pytest.mark.slow
@pytest.mark.parametrize("name", DISTINCT)
def test_values_equal_the_plain_evaluation_on_played_boards(name: str) -> None:
    network = random_network(name, seed=3)
    luts = plain_luts(network)
    for grid in played_boards(12, 60, seed=4):
        got = evaluators.value("ntuple", encode(grid), network, after=True)
        assert got == pytest.approx(plain_value(network, grid, luts), rel=1e-9, abs=1e-6)


def test_a_hand_computed_value() -> None:
    # Network lines4x2: the top row and the second row. A lone 2 in the top-left corner lies
    # on 4 of the top row's 8 images: as their first cell twice (index 1 = 2's rank in the
    # first digit) and as their last cell twice (index 1 << 12); the other 4 images read
    # empty cells (index 0). No image of the second row reaches a corner: index 0, 8 times.
    lut = np.zeros(2 * 16**4, dtype=np.float32)
    lut[0], lut[1], lut[1 << 12], lut[16**4] = 0.5, 3.0, 10.0, 0.25
    network = ntuple.Network("lines4x2", lut)
    board = encode([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    expected = 2 * 3.0 + 2 * 10.0 + 4 * 0.5 + 8 * 0.25
    assert evaluators.value("ntuple", board, network, after=True) == expected
    assert plain_value(network, decode(board)) == expected


def test_a_dead_board_is_worth_zero_and_a_live_one_its_best_move() -> None:
    network = random_network("lines4x2", seed=1)
    dead = encode([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert evaluators.value("ntuple", dead, network) == 0.0
    grid = [[2, 2, 4, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    best = max(
        move(encode(grid), d)[1] + plain_value(network, decode(move(encode(grid), d)[0]))
        for d in legal_moves(encode(grid))
    )
    assert evaluators.value("ntuple", encode(grid), network) == pytest.approx(best, rel=1e-9)


def test_network_files_round_trip_and_bad_files_are_named(tmp_path) -> None:  # noqa: ANN001
    network = random_network("lines4x2", seed=2)
    path = tmp_path / "net.npz"
    ntuple.save_network(path, network)
    loaded = ntuple.load_network(path)
    assert loaded.name == "lines4x2"
    np.testing.assert_array_equal(loaded.lut, network.lut)
    ntuple.save_network(tmp_path / "again.npz", loaded)
    assert (tmp_path / "again.npz").read_bytes() == path.read_bytes()
    (tmp_path / "bad.npz").write_text("not a network")
    with pytest.raises(ValueError, match="bad.npz"):
        ntuple.load_network(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="float32 table of 131072"):
        ntuple.Network("lines4x2", np.zeros(5, dtype=np.float32))
    with pytest.raises(ValueError, match="unknown network"):
        ntuple.zero_network("huge")
    with pytest.raises(ValueError, match="network file"):
        evaluators.prepare("ntuple", [1.0, 2.0])


def test_a_multistage_network_values_each_board_by_its_stages_weights() -> None:
    # three stages of random weights, from the first 32 and the first 128 on: every played
    # board is valued as the plain evaluation of its stage's weights alone, by the evaluator
    # and by the kernels' path (shape_value)
    one = ntuple.lut_size(ntuple.NETWORKS["lines4x2"])
    rng = np.random.default_rng(5)
    network = ntuple.Network("lines4x2", rng.normal(0, 50, 3 * one).astype(np.float32), (32, 128))
    shape = ntuple.network_shape(network.tuples)
    staging = ntuple.network_staging(network.tuples, network.stages)
    seen = set()
    for grid in [g for moves in (3, 40, 100) for g in played_boards(10, moves, seed=6)]:
        top = max(max(row) for row in grid)
        stage = (top >= 32) + (top >= 128)
        seen.add(stage)
        alone = ntuple.Network("lines4x2", network.lut[stage * one : (stage + 1) * one])
        want = plain_value(alone, grid)
        got = evaluators.value("ntuple", encode(grid), network, after=True)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-6)
        assert ntuple.shape_value(np.uint64(encode(grid)), shape, staging, network.lut) == got
    assert seen == {0, 1, 2}


def test_multistage_files_round_trip_and_older_files_load_as_one_stage(tmp_path) -> None:  # noqa: ANN001
    network = ntuple.initial_network("lines4x2", 1000.0, (16384,))
    assert network.lut.size == 2 * ntuple.lut_size(network.tuples)
    ntuple.save_network(tmp_path / "two.npz", network)
    loaded = ntuple.load_network(tmp_path / "two.npz")
    assert loaded.stages == (16384,)
    np.testing.assert_array_equal(loaded.lut, network.lut)
    # a one-stage file holds name and lut only, as every file written before stages existed
    ntuple.save_network(tmp_path / "one.npz", ntuple.zero_network("lines4x2"))
    with np.load(tmp_path / "one.npz") as data:
        assert sorted(data.files) == ["lut", "name"]
    assert ntuple.load_network(tmp_path / "one.npz").stages == ()
    for bad, match in (((100,), "a tile, 4 to 32768"), ((65536,), "4 to 32768"),
                       ((512, 256), "must increase"), ((256, 256), "must increase")):  # fmt: skip
        with pytest.raises(ValueError, match=match):
            ntuple.zero_network("lines4x2", bad)
    with pytest.raises(ValueError, match=r"in 2 stages \(from 16384\) needs a float32 table"):
        ntuple.Network("lines4x2", ntuple.zero_network("lines4x2").lut, (16384,))


def test_downgrading_closes_the_highest_gap_below_the_largest_tile_as_the_reference() -> None:
    # random boards of big tiles with gaps: the engine's downgrading equals the plain one
    rng = np.random.default_rng(8)
    for _ in range(3000):
        ranks = rng.choice(16, size=16, p=np.r_[0.3, np.full(15, 0.7 / 15)])
        grid = [[int(2**r) if r else 0 for r in ranks[4 * i : 4 * i + 4]] for i in range(4)]
        for threshold in (0, 2048, 16384, 32768):
            rank = threshold.bit_length() - 1 if threshold else 0
            got = decode(int(ntuple.downgraded(np.uint64(encode(grid)), rank))).tolist()
            assert got == ref_downgrade(grid, threshold), (grid, threshold)
    # by hand: 32768 beside 8192 and 2 (16384 missing) becomes 16384; no gap, no change
    grid = [[32768, 8192, 2, 0], [0] * 4, [0] * 4, [0] * 4]
    assert ref_downgrade(grid, 32768)[0] == [16384, 8192, 2, 0]
    full = [[32768, 16384, 8192, 4096], [2048, 1024, 512, 256], [128, 64, 32, 16], [8, 4, 2, 0]]
    assert ref_downgrade(full, 32768) == full


def test_a_downgrading_network_values_a_board_as_its_downgraded_board() -> None:
    network = random_network("lines4x2", seed=4)
    plain_w, table = ntuple.prepare(network)
    down_w, _ = ntuple.prepare(network, downgrade=2048)
    rng = np.random.default_rng(9)
    changed = 0
    for _ in range(300):
        ranks = rng.choice(13, size=16)
        board = np.uint64(encode([[int(2**r) if r else 0 for r in ranks[4 * i : 4 * i + 4]]
                                  for i in range(4)]))  # fmt: skip
        low = np.uint64(ntuple.downgraded(board, 11))
        changed += low != board
        assert ntuple.value(board, down_w, table) == ntuple.value(low, plain_w, table)
    assert changed > 50
    # an agent downgrades through its setting, and only with a network
    agent = AgentConfig("greedy", downgrade=64)
    games = game_seeds(3, "downgrade", 40)
    down = play_games(agent, games, "ntuple", network).score.to_numpy()
    plain = play_games(AgentConfig("greedy"), games, "ntuple", network).score.to_numpy()
    assert not np.array_equal(down, plain)
    with pytest.raises(ValueError, match="tile-downgrading is for the 'ntuple' evaluator"):
        play_games(agent, games, "nneonneo")


def search_values(grid: list[list[int]], depth: int, network: ntuple.Network) -> np.ndarray:
    kind, w, table = evaluators.prepare("ntuple", network)
    stats = np.zeros(2, dtype=np.int64)
    return serial_values(encode(grid), depth, (kind, w, table), 0.0, new_table(12), stats)


@pytest.mark.slow
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_expectimax_adds_the_rewards_on_the_path(depth: int) -> None:
    network = random_network("lines4x2", seed=5)

    def after_value(g: list[list[int]]) -> float:
        return plain_value(network, g)

    for grid in played_boards(4 if depth == 3 else 8, 50, seed=6):
        expected = ref_afterstate_expectimax(grid, depth, after_value)
        np.testing.assert_allclose(search_values(grid, depth, network), expected, rtol=1e-9)


def test_every_agent_plays_with_a_network_and_greedy_takes_reward_plus_value() -> None:
    network = random_network("lines4x2", seed=7)
    seeds = game_seeds(1, "ntuple-agents", 2)
    for agent in (
        AgentConfig("greedy"),
        AgentConfig("expectimax", depth=3, cutoff=0.01),
        AgentConfig("montecarlo", rollouts=2, rollout_policy="evaluator", step_cap=5),
        AgentConfig("hybrid", depth=2, rollouts=2, rollout_policy="evaluator", step_cap=3),
    ):
        games = play_games(agent, seeds, "ntuple", network, max_moves=40)
        assert (games.moves > 0).all(), agent
    grid = [[2, 2, 4, 8], [0, 4, 4, 0], [2, 0, 0, 0], [0, 0, 0, 2]]
    values = search_values(grid, 1, network)
    for d in range(4):
        after, score = move(encode(grid), d)
        assert values[d] == pytest.approx(score + plain_value(network, decode(after)), rel=1e-9)
    with pytest.raises(ValueError, match="weighted heuristic"):
        play_games(AgentConfig("switching"), seeds, "ntuple", network)


@pytest.mark.parametrize("name", ["lines4x2", "nneonneo"])
def test_evaluator_rollouts_play_the_greedy_moves(name: str) -> None:
    network = random_network("lines4x2", seed=8)
    weights = network if name == "lines4x2" else None
    kind, w, table = evaluators.prepare("ntuple" if weights else name, weights)
    ev = (kind, w, table)
    stats = np.zeros(2, dtype=np.int64)
    for grid in played_boards(5, 20, seed=9):
        b = np.uint64(encode(grid))
        gain = rollout_gain(b, False, EVALUATOR_POLICY, 30, rng_state(4), ev)
        # the same 30 moves, each chosen by depth-1 expectimax (greedy), the same spawns
        state, total = rng_state(4), 0
        for _ in range(30):
            values = serial_values(b, 1, ev, 0.0, new_table(0), stats)
            if values.max() == -np.inf:
                break
            after, score = shift_scored(b, int(np.argmax(values)))
            total += score
            b = spawn_tile(after, state)
        assert gain == total


def nibble(board: int, cell: int) -> int:
    return (board >> (4 * cell)) & 0xF


def test_symmetric_boards_are_the_eight_images_of_symmetric_cell() -> None:
    rng = np.random.default_rng(11)
    for board in rng.integers(0, 2**63, 200, dtype=np.uint64) * np.uint64(2) + np.uint64(1):
        images = ntuple.symmetric_boards(board)
        for s in range(8):
            for c in range(16):
                got = nibble(int(images[s]), c)
                assert got == nibble(int(board), ntuple.symmetric_cell(c, s)), (s, c)


# Tuples that are no runs of cells in order: the rotations of their runs wrap around.
ODD_TUPLES = ((5, 1, 2, 9), (15, 14, 0, 3, 4, 8))


@pytest.mark.parametrize("tuples", [*(ntuple.NETWORKS[n] for n in DISTINCT), ODD_TUPLES])
def test_runs_read_each_cell_of_each_image(tuples: tuple) -> None:
    # every index equals the tuple's cells read one nibble at a time, cell j in nibble j; the
    # kernels built per network (network_shape) read the same entries and sum them alike
    weights, shape = ntuple.layout(tuples), ntuple.network_shape(tuples)
    staging = ntuple.network_staging(tuples)
    rng = np.random.default_rng(12)
    lut = rng.normal(0.0, 100.0, ntuple.lut_size(tuples)).astype(np.float32)
    table = lut.view(np.float64)  # (every lut_size is even)
    idx = np.empty(8 * len(tuples), dtype=np.int64)
    fast = np.empty(8 * len(tuples) + 3, dtype=np.uint64)
    grids = played_boards(10, 80, seed=13)
    boards = [encode(g) for g in grids] + [int(x) for x in rng.integers(0, 2**63, 20)]
    for board in boards:
        expected, offset = [], 0
        for t in tuples:
            for s in range(8):
                cells = [nibble(board, ntuple.symmetric_cell(c, s)) for c in t]
                expected.append(offset + sum(r << (4 * j) for j, r in enumerate(cells)))
            offset += 16 ** len(t)
        ntuple.indices(np.uint64(board), weights, idx)
        assert idx.tolist() == expected
        ntuple.shape_indices(np.uint64(board), shape, staging, fast, 3)
        assert fast[3:].tolist() == expected
        plain = 0.0
        for i in expected:
            plain += float(lut[i])
        assert ntuple.value(np.uint64(board), weights, table) == plain
        assert ntuple.shape_value(np.uint64(board), shape, staging, lut) == plain
