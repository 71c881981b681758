"""Tests of the board evaluators: hand-computed features, `value` against weights . features,
dead boards, magnitudes, and the spread of nsga4's monotonicity over real game positions."""

import itertools
import math
from types import ModuleType

import numpy as np
import pytest
from kinds import assert_each_names_its_entry

from g2048 import evaluators
from g2048.engine.bitboard import is_game_over, line_indices, play_random, start_board
from g2048.engine.board import encode
from g2048.engine.rng import rng_state
from g2048.evaluators import (
    AFTERSTATE,
    DEAD_VALUE,
    EVALUATORS,
    HEURISTICS,
    MODULES,
    nneonneo,
    ntuple,
)

# Three hand boards, shown as ranks (log2 of the tiles, 0 = empty) in the comments below.
SNAKE_BOARD = encode(
    [[2048, 1024, 512, 256], [16, 32, 64, 128], [8, 4, 2, 0], [0, 0, 0, 2]]
)  # 11 10 9 8 / 4 5 6 7 / 3 2 1 0 / 0 0 0 1
MESSY_BOARD = encode(
    [[2, 64, 4, 0], [128, 2, 2, 8], [0, 16, 4, 2], [4, 0, 32, 4]]
)  # 1 6 2 0 / 7 1 1 3 / 0 4 2 1 / 2 0 5 2
FULL_BOARD = encode(
    [[4, 8, 16, 32], [8, 16, 32, 64], [2, 4, 8, 2], [4, 2, 2, 64]]
)  # 2 3 4 5 / 3 4 5 6 / 1 2 3 1 / 2 1 1 6: no empty cell, one merge (the two 2s), two 64s

HAND_FEATURES = {
    "nsga4": {
        # rows drop D / rise R (empty = rank 0): 3/0, 0/3, 3/0, 0/1 -> Dh 6, Rh 4;
        # columns 11 4 3 0: D 11; 10 5 2 0: D 10; 9 6 1 0: D 9; 8 7 0 1: D 8 R 1 -> Dv 38, Rv 1;
        # mono (|6 - 4| + |38 - 1|) / 49; 4 empty; no merge; the 2048 in a corner.
        SNAKE_BOARD: [39 / 49, 4 / 15, 0, 1],
        # rows 6/5, 6/2, 3/4, 5/5 -> 20/16; columns 7/8, 9/3, 1/4, 2/4 -> 19/19;
        # mono (4 + 0) / 74; 3 empty; one merge (row 1: 1 1); the 128 is not in a corner.
        MESSY_BOARD: [4 / 74, 3 / 15, 1 / 24, 0],
        # rows 0/3, 0/3, 2/2, 1/5 -> 3/13; columns 2/2, 3/1, 4/1, 5/6 -> 14/10;
        # mono (10 + 4) / 40; no empty; one merge; a 64 in a corner (the other one is not).
        FULL_BOARD: [14 / 40, 0, 1 / 24, 1],
    },
    "classic4": {
        # log2 drops over non-empty pairs: rows 3 + 0 + 2 + 0, columns 8 + 8 + 8 + 1;
        # roughness: rows 3 + 3 + 2 + 0, columns 8 + 8 + 8 + 1; corner: the 2048 itself.
        SNAKE_BOARD: [4, 30, -33, 2048],
        # drops: rows 4 + 6 + 3 + 3, columns 0 + 5 + 1 + 2; roughness: rows 9 + 8 + 3 + 3,
        # columns 6 + 8 + 5 + 3; the 128 is off the corners.
        MESSY_BOARD: [3, 24, -45, 0],
        # drops: rows 0 + 0 + 2 + 1, columns 2 + 3 + 4 + 5; roughness: rows 3 + 3 + 4 + 6,
        # columns 4 + 4 + 5 + 11; a 64 in the bottom-right corner.
        FULL_BOARD: [0, 17, -40, 64],
    },
    "cem8": {
        # mono per direction (diff + sign over consecutive tiles): rows ->: -6 + 6 - 4 + 0,
        # rows <-: 6 - 6 + 4 + 0, columns down: -10 - 10 - 10 - 9, columns up: 39 -> best 39;
        # snake 518 + 214 + 38 + 3; the 1024 touches the 2048; border tiles >= 512: 2048 1024 512.
        SNAKE_BOARD: [4 / 16, -33 / 32, 39 / 64, 11 / 15, 773 / 3000, 1, 3 / 8, 0],
        # mono: rows -> 1 - 3 - 5 + 0, rows <- -1 + 5 + 5 + 0, columns down 1 - 2 + 4 - 1,
        # columns up -1 + 2 - 4 + 1 -> 9; snake 125 + 108 + 38 + 16; the 64 is only diagonal to
        # the 128 (the seed would say 1); border tiles >= 32: the 64, the 32 and the 128.
        MESSY_BOARD: [3 / 16, -45 / 32, 9 / 64, 7 / 15, 287 / 3000, 0, 3 / 8, 0],
        # mono: rows -> 6 + 6 + 1 + 5 = 18, rows <- -16, columns down -4, up 4;
        # snake 184 + 176 + 38 + 21; a 32 above the 64; border tiles >= 16: 16 32 64 64; danger.
        FULL_BOARD: [0, -40 / 32, 18 / 64, 6 / 15, 419 / 3000, 1, 4 / 8, -1],
    },
    "ovolve": {
        # ovolve's walk, decreases D / increases I: rows 3/0, 0/3, 3/0 (the last 1 against the
        # empty last cell), 0/1 -> 6/4; columns 11/0, 10/0, 9/0, 7/0 (8 7 . 1) -> 37/0;
        # mono -(min(6, 4) + min(37, 0)).
        SNAKE_BOARD: [-33, -4, math.log(5), 11],
        # rows 6/5, 6/2, 3/4, 3/3 (2 . 5 2) -> 18/14; columns 5/6, 9/3, 1/4, 2/4 -> 17/17.
        MESSY_BOARD: [-45, -31, math.log(4), 7],
        # rows 0/3, 0/3, 2/2, 1/5 -> 3/13; columns 2/2, 3/1, 4/1, 5/6 -> 14/10.
        FULL_BOARD: [-40, -13, 0, 6],
    },
}


def board_of(ranks: np.ndarray) -> int:
    """The board of 16 ranks in reading order."""
    return sum(int(r) << (4 * i) for i, r in enumerate(ranks))


def game_positions(games: int) -> list[int]:
    """Every position of `games` random-policy games, the final (dead) ones left out."""
    positions = []
    for seed in range(games):
        state = rng_state(seed)
        board = np.uint64(start_board(state))
        while not is_game_over(board):
            positions.append(int(board))
            board = np.uint64(play_random(board, state, 1)[0])
    return positions


def realistic_boards(n: int, seed: int) -> list[int]:
    """Live boards: positions of random games, and random grids with ranks up to 15."""
    rng = np.random.default_rng(seed)
    played = game_positions(20)
    boards = [played[i] for i in rng.choice(len(played), n // 2, replace=False)]
    while len(boards) < n:
        ranks = rng.integers(1, 16, 16) * (rng.random(16) < rng.uniform(0.3, 1.0))
        if not is_game_over(np.uint64(board := board_of(ranks))):
            boards.append(board)
    return boards


def bound_corners(name: str) -> list[np.ndarray]:
    """The weight vectors at the corners of the evaluator's BOUNDS."""
    return [np.array(c) for c in itertools.product(*EVALUATORS[name].bounds.tolist())]


DEAD_BOARDS = [
    encode([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]),
    # ranks 1..15 and a 2, all neighbours different: the largest tiles a dead board can hold
    encode(
        [
            [2, 4, 8, 16],
            [256, 128, 64, 32],
            [512, 1024, 2048, 4096],
            [2, 32768, 16384, 8192],
        ]
    ),
]


def test_registry_order() -> None:
    names = ["nneonneo", "nsga4", "classic4", "cem8", "ovolve", "ntuple"]
    assert [m.NAME for m in MODULES] == names
    assert MODULES[AFTERSTATE].NAME == "ntuple" and len(HEURISTICS) == AFTERSTATE
    for kind, module in enumerate(HEURISTICS):
        ev = EVALUATORS[module.NAME]
        assert ev.kind == kind
        assert len(ev.features) == ev.default_weights.size == ev.bounds.shape[0]
        assert np.all(ev.bounds[:, 0] <= ev.default_weights)
        assert np.all(ev.default_weights <= ev.bounds[:, 1])


def test_the_kind_constants_name_their_modules() -> None:
    constants = {
        "nneonneo": evaluators.NNEONNEO,
        "nsga4": evaluators.NSGA4,
        "classic4": evaluators.CLASSIC4,
        "cem8": evaluators.CEM8,
        "ovolve": evaluators.OVOLVE,
        "ntuple": evaluators.NTUPLE,
    }
    assert_each_names_its_entry(constants, [module.NAME for module in MODULES])


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_evaluate_dispatches_each_kind_to_its_module(module: ModuleType) -> None:
    """evaluate(kind of a module) is that module's value, on random weights and boards: a
    reordering of MODULES or of evaluate's branches would break it."""
    rng = np.random.default_rng(11)
    if module is ntuple:
        size = ntuple.lut_size(ntuple.network_tuples("lines4x2"))
        network = ntuple.Network("lines4x2", rng.normal(0, 100, size).astype(np.float32))
        kind, w, table = evaluators.prepare(ntuple.NAME, network)
    else:
        lo, hi = EVALUATORS[module.NAME].bounds.T
        kind, w, table = evaluators.prepare(module.NAME, rng.uniform(lo, hi))
    assert kind == MODULES.index(module)
    for board in map(np.uint64, realistic_boards(40, seed=4)):
        want = module.value(board, w, table)
        assert evaluators.evaluate(kind, board, w, table, True) == want
        if module is not ntuple:  # the network values a board to move from by its best move
            assert evaluators.evaluate(kind, board, w, table) == want


def test_an_unknown_kind_is_no_evaluator() -> None:
    board = np.uint64(SNAKE_BOARD)
    kind, w, table = evaluators.prepare("ovolve")
    assert math.isnan(evaluators.evaluate(len(MODULES), board, w, table))
    assert math.isnan(evaluators.evaluate(-1, board, w, table, True))


@pytest.mark.parametrize(
    ("name", "board"), [(name, board) for name, hand in HAND_FEATURES.items() for board in hand]
)
def test_hand_features(name: str, board: int) -> None:
    expected = HAND_FEATURES[name][board]
    np.testing.assert_allclose(evaluators.features(name, board), expected, rtol=1e-12, atol=1e-12)
    weights = EVALUATORS[name].default_weights
    assert evaluators.value(name, board) == pytest.approx(weights @ expected, rel=1e-12)


def test_nneonneo_hand_rows() -> None:
    # 2 2 8 . : 1 empty; counter rule: the run of two 1s closes at the 3 -> 1 + 1 merges;
    # rank**4 steps: 1 -> 1 right 0, 1 -> 3 right 80, 3 -> 0 left 81 -> -min(81, 80);
    # sum of rank**3.5: 1 + 1 + 3**3.5.
    row = 1 | 1 << 4 | 3 << 8
    np.testing.assert_allclose(
        nneonneo.ROW_FEATURES[row], [1, 1, 2, -80, -(2 + 3**3.5)], rtol=1e-12
    )
    # 4 4 4 32: a run of three 2s closes at the 5 -> 1 + 2 merges; only rises (625 - 16), so
    # min(left, right) = 0; sum 3 * 2**3.5 + 5**3.5.
    row = 2 | 2 << 4 | 2 << 8 | 5 << 12
    np.testing.assert_allclose(
        nneonneo.ROW_FEATURES[row], [1, 0, 3, 0, -(3 * 2**3.5 + 5**3.5)], rtol=1e-12
    )


def test_nneonneo_table_sums_exactly_in_any_order() -> None:
    """The row table lies on the 2**-24 grid, so a board's 8 line values add up exactly: its
    value is the exact (fsum) sum of the lines, as the search's line corrections assume."""
    boards = realistic_boards(100, seed=3)
    for weights in bound_corners("nneonneo") + [nneonneo.DEFAULT_WEIGHTS]:
        table = nneonneo.prepare(np.asarray(weights, dtype=np.float64))
        assert np.all(np.ldexp(table, 24) == np.round(np.ldexp(table, 24)))
        assert np.abs(table).max() < 2.0**24
        for board in boards:
            lines = table[line_indices(board)]
            assert nneonneo.value(np.uint64(board), None, table) == math.fsum(lines)
            assert math.fsum(lines[::-1]) == math.fsum(lines) == float(np.sum(lines[::-1]))


def test_nneonneo_rejects_weights_beyond_exact_sums() -> None:
    with pytest.raises(ValueError, match=r"line values must stay below 2\*\*24"):
        evaluators.prepare("nneonneo", [0.0, 0.0, 0.0, 400.0, 0.0])


@pytest.mark.parametrize("name", list(EVALUATORS))
def test_value_is_weights_dot_features(name: str) -> None:
    rng = np.random.default_rng(7)
    lo, hi = EVALUATORS[name].bounds.T
    boards = realistic_boards(200, seed=1)
    for chunk in np.array_split(np.array(boards, dtype=np.uint64), 10):
        weights = rng.uniform(lo, hi)
        fn, w, table = evaluators.prepare(name, weights)
        for board in chunk:
            expected = weights @ evaluators.features(name, int(board))
            got = evaluators.evaluate(fn, board, w, table)
            assert got == pytest.approx(expected, rel=1e-9, abs=1e-9), hex(int(board))


@pytest.mark.parametrize("name", list(EVALUATORS))
def test_dead_boards_score_below_every_live_board(name: str) -> None:
    boards = realistic_boards(60, seed=2) + [
        encode([[32768] * 4] * 3 + [[32768] * 3 + [0]]),
        encode([[32768, 16384, 8192, 4096], [256, 512, 1024, 2048], [128] * 4, [0] * 4]),
    ]
    for weights in bound_corners(name) + [EVALUATORS[name].default_weights]:
        fn, w, table = evaluators.prepare(name, weights)
        for board in DEAD_BOARDS:
            assert evaluators.evaluate(fn, np.uint64(board), w, table) == DEAD_VALUE
        values = [evaluators.evaluate(fn, np.uint64(b), w, table) for b in boards]
        assert max(abs(v) for v in values) < 1e9


def test_nsga4_monotonicity_spans_its_range() -> None:
    positions = game_positions(100)
    mono = np.array([evaluators.value("nsga4", b, [1, 0, 0, 0]) for b in positions])
    big = np.array([max((b >> (4 * i)) & 0xF for i in range(16)) >= 7 for b in positions])
    assert len(positions) > 5000 and big.mean() > 0.1
    assert np.all((mono >= 0) & (mono <= 1))
    # The seed's 4**rank sum over 20000 sits at exactly 1 in every position with a 128 or more
    # (24% of all here); ours stays spread out there too.
    assert np.mean(mono == 1.0) < 0.02
    assert np.mean(mono[big] == 1.0) < 0.02
    low, high = np.quantile(mono, [0.1, 0.9])
    assert high - low > 0.3
    assert np.quantile(mono[big], 0.9) - np.quantile(mono[big], 0.1) > 0.2
