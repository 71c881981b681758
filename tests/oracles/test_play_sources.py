"""The sources' own programs' games (play_sources.py, workflow/resources/source_games.csv): the
file holds the games of every program the claims table names, as the script makes them."""

from __future__ import annotations

import csv
import random
import subprocess

import numpy as np
import play_sources
import pytest
from oracle_games import NO_JDK, compile_java, has_jdk

from g2048.engine.bitboard import DOWN, LEFT, RIGHT, UP, move_score
from g2048.engine.board import encode
from g2048.report.claims import PROGRAMS


def committed() -> list[dict]:
    with play_sources.OUT.open() as f:
        return list(csv.DictReader(f))


def test_the_file_holds_each_programs_games_and_the_command_that_made_them() -> None:
    rows = committed()
    named = {p for p in PROGRAMS.values() if not p.startswith("not run: ")}
    assert named == set(play_sources.PROGRAMS) == {r["program"] for r in rows}
    for name, (_, _, games, _, _) in play_sources.PROGRAMS.items():
        mine = [r for r in rows if r["program"] == name]
        assert [int(r["seed"]) for r in mine] == list(range(1, games + 1))
        assert {r["command"] for r in mine} == {
            f"python tests/oracles/play_sources.py --only {name}"
        }


def test_source001s_points_are_g2048s() -> None:
    """The driver scores source 001's moves (the source keeps no score) as g2048 does."""
    rng = random.Random(3)
    directions = (LEFT, UP, RIGHT, DOWN)  # source 001's order
    for _ in range(2000):
        board = tuple(tuple(rng.choice([0, 0, 2, 2, 4, 8]) for _ in range(4)) for _ in range(4))
        ours = np.uint64(encode([list(row) for row in board]))
        for d in range(4):
            assert play_sources.move_score(board, d) == int(move_score(ours, directions[d]))


def test_a_source001_game_is_the_committed_one() -> None:
    seed, score, tile, moves = play_sources.play_source001(3, 1)
    first = next(r for r in committed() if r["program"] == "source001-d3")
    assert (seed, score, tile, moves) == tuple(
        int(first[k]) for k in ("seed", "score", "max_tile", "moves")
    )


@pytest.mark.skipif(not has_jdk(), reason=NO_JDK)
def test_source004s_games_are_the_committed_ones(tmp_path) -> None:  # noqa: ANN001
    classes = compile_java(play_sources.HERE / "source004", tmp_path)
    out = subprocess.run(
        ["java", "-cp", str(classes), "Play", "1", "3", "1"], capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip
    rows = [r for r in committed() if r["program"] == "source004-d1"][:3]
    assert out.split() == [r[k] for r in rows for k in ("seed", "score", "max_tile", "moves")]
