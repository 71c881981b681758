"""g2048's greedy cem8 player against source 003's own Java (source003/: its Board and
Evaluator as published; Oracle.java is our harness and runs the greedy step that its
CrossEntropyTuner.simulate and Train.main both write: move, spawn(r), evaluate, first best),
with cem8's default weights (the source's CEM initial mean) on both sides.

Depth: the source's player looks one move ahead (depth 1, M E in g2048's count) but values each
move after one random spawn (its `java.util.Random`, seeded here with the position's index), so
it is compared with g2048's depth-1 search (the greedy agent's) with `cem8`. `Train` itself does
not compile as published (it assigns the tuner's private `mu`), so the step is run from the
harness.

This is not an equivalence test: cem8 fixes three of the source's features against its own
comments (its docstring: monotonicity, second_adjacent, edge_big), and values a move by its
afterstate, without the spawn. It measures how often the source's greedy step chooses g2048's
move, and why not. The harness also gives the source's value of each move without the spawn.
Each position falls in one of three classes, counted exactly in EXPECTED:
1. agree: the source's step chooses g2048's move.
2. spawn: it does not, but its values without the spawn put g2048's move best (up to
   rounding): the random tile made the difference.
3. evaluation: its values without the spawn prefer another move: the three redefined features
   decide (with their weights at 0 the source's values without the spawn are cem8's up to
   rounding on every position: tested).
`unspawned` counts the positions where its values without the spawn put g2048's move best.
Skipped without a JDK.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from oracle_games import (
    ATOL,
    NO_JDK,
    POSITIONS,
    RTOL,
    Expectimax,
    best_set,
    compile_java,
    greedy_values,
    has_jdk,
    played_positions,
    run_java,
)

from g2048.evaluators import cem8

SOURCE = Path(__file__).parent / "source003"
pytestmark = pytest.mark.skipif(not has_jdk(), reason=NO_JDK)

EXPECTED = {"agree": 6934, "spawn": 2269, "evaluation": 797, "unspawned": 8910}


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source's classes and the harness, compiled."""
    return compile_java(SOURCE, tmp_path_factory.mktemp("source003"))


def source_values(
    classes: Path, weights: tuple[float, ...], boards: list[int]
) -> list[tuple[np.ndarray, int]]:
    """The source's value of each move without the spawn and the move its greedy step
    chooses (with the spawn, seeded by the position's index), from one run of the harness."""
    lines = [f"{b:x} {k}" for k, b in enumerate(boards)]
    return run_java(classes, "Oracle", [repr(w) for w in weights], lines)


def test_the_features_cem8_keeps_value_moves_as_the_source_does(classes: Path) -> None:
    weights = list(cem8.DEFAULT_WEIGHTS)
    for name in ("monotonicity", "second_adjacent", "edge_big"):
        weights[cem8.FEATURES.index(name)] = 0.0
    boards = list(played_positions())
    theirs_all = source_values(classes, tuple(weights), boards)
    ours_all = greedy_values("cem8", tuple(weights), boards)
    for board, (theirs, _), ours in zip(boards, theirs_all, ours_all, strict=True):
        np.testing.assert_allclose(theirs, ours, rtol=RTOL, atol=ATOL, err_msg=hex(board))


def test_how_often_the_source_greedy_step_chooses_cem8s_move(classes: Path) -> None:
    ours_at = Expectimax("cem8", 1)
    boards = list(played_positions())
    counts: Counter = Counter()
    theirs_all = source_values(classes, cem8.DEFAULT_WEIGHTS, boards)
    for board, (theirs, their_move) in zip(boards, theirs_all, strict=True):
        ours, our_move = ours_at.choice(board)
        assert np.array_equal(np.isneginf(theirs), np.isneginf(ours)), hex(board)
        unspawned = our_move in best_set(theirs)
        counts["unspawned"] += unspawned
        if their_move == our_move:
            counts["agree"] += 1
        else:
            counts["spawn" if unspawned else "evaluation"] += 1
    assert counts["agree"] + counts["spawn"] + counts["evaluation"] == POSITIONS
    assert {k: counts[k] for k in EXPECTED} == EXPECTED
