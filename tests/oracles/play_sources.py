"""Play whole games with the sources' own programs and write them to the file the claims table
reads (workflow/resources/source_games.csv): does the source's program, run as published on a
few games, reproduce the claims this study's reimplementation did not? Run by hand (minutes,
not part of the tests):

    .venv/bin/python tests/oracles/play_sources.py            # every program below
    .venv/bin/python tests/oracles/play_sources.py --only source001-d3

Each program is the source's search as published, driven by a game loop of ours that draws its
tiles from a seeded generator (the sources publish none that can be seeded): source 004's
ExpectimaxAI, MonteCarloAI and HybridAI through source004/Play.java (its own Game2048 with a
seeded Random; the Monte Carlo players' draws from Seeded.RANDOM), source
001's choose_move (source001.py) through `play_source001` below (its board of tile values,
spawns 2 w.p. 0.9 else 4 on a uniform empty cell, from random.Random(seed)). Every row of the
file names the command that made it. The programs the claims table names but cannot run are
listed, with why, in g2048.report.claims.PROGRAMS.
"""

from __future__ import annotations

import argparse
import csv
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import source001
from oracle_games import compile_java, has_jdk

HERE = Path(__file__).parent
OUT = HERE.parents[1] / "workflow" / "resources" / "source_games.csv"
FIELDS = ["program", "seed", "score", "max_tile", "moves", "command"]

# program name (as g2048.report.claims.PROGRAMS names it) -> (source, depth, games, source
# 004's player and its rollouts)
PROGRAMS = {
    "source004-d1": ("004", 1, 100, "expectimax", 0),
    "source004-d3": ("004", 3, 50, "expectimax", 0),
    "source004-d5": ("004", 5, 20, "expectimax", 0),
    "source004-mc100": ("004", 1, 30, "mc", 100),
    "source004-mc1000": ("004", 1, 2, "mc", 1000),
    "source001-d3": ("001", 3, 50, "", 0),
    "source001-d4": ("001", 4, 20, "", 0),
    "source001-d5": ("001", 5, 10, "", 0),
}
FIRST_SEED = 1


def merged_score(line: tuple[int, ...]) -> int:
    """The points of sliding one line towards its start: each merged tile's value, merges
    resolved from that side (source001.slide's rule; the source keeps no score)."""
    arr = [v for v in line if v]
    score, i = 0, 0
    while i < len(arr):
        if i + 1 < len(arr) and arr[i] == arr[i + 1]:
            score += 2 * arr[i]
            i += 2
        else:
            i += 1
    return score


def move_score(board: tuple, direction: int) -> int:
    """The points of source 001's move `direction` (its order: left, up, right, down)."""
    columns = tuple(zip(*board, strict=True))
    lines = {0: board, 1: columns, 2: [r[::-1] for r in board], 3: [c[::-1] for c in columns]}
    return sum(merged_score(tuple(line)) for line in lines[direction])


def spawn(board: tuple, rng: random.Random) -> tuple:
    """A 2 (probability 0.9) or a 4 on a uniform empty cell."""
    empties = [(i, j) for i in range(4) for j in range(4) if board[i][j] == 0]
    i, j = empties[rng.randrange(len(empties))]
    return source001.set_tile(board, i, j, 2 if rng.random() < 0.9 else 4)


def play_source001(depth: int, seed: int) -> tuple[int, int, int, int]:
    """One game of source 001's choose_move at `depth`: (seed, score, max tile, moves). Its
    cache is cleared before each move (the key fixes the value, so no value changes; it only
    bounds the memory a game takes)."""
    rng = random.Random(seed)
    board = spawn(spawn(((0,) * 4,) * 4, rng), rng)
    moves = [source001.move_left, source001.move_up, source001.move_right, source001.move_down]
    score = played = 0
    while source001.all_moves(board):
        source001.cache.clear()
        direction = source001.choose_move(board, depth)
        score += move_score(board, direction)
        board = spawn(moves[direction](board), rng)
        played += 1
    return seed, score, max(max(row) for row in board), played


def run(name: str, classes: Path | None) -> list[dict]:
    """The games of one program, each as a row of the file."""
    source, depth, games, player, rollouts = PROGRAMS[name]
    command = f"python tests/oracles/play_sources.py --only {name}"
    seeds = range(FIRST_SEED, FIRST_SEED + games)
    if source == "004":
        out = subprocess.run(
            ["java", "-cp", str(classes), "Play", str(depth), str(games), str(FIRST_SEED),
             player, str(rollouts)],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        results = [tuple(int(v) for v in line.split()) for line in out.splitlines()]
    else:
        with ProcessPoolExecutor(2) as pool:
            results = list(pool.map(play_source001, [depth] * games, seeds))
    return [dict(zip(FIELDS, (name, *result, command), strict=True)) for result in results]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=list(PROGRAMS), default=list(PROGRAMS))
    names = parser.parse_args().only
    if any(PROGRAMS[n][0] == "004" for n in names) and not has_jdk():
        sys.exit("no JDK: javac and java run source 004's Java")
    kept = []
    if OUT.exists():  # the other programs' games stay
        with OUT.open() as f:
            kept = [row for row in csv.DictReader(f) if row["program"] not in names]
    with tempfile.TemporaryDirectory() as tmp:
        classes = compile_java(HERE / "source004", Path(tmp)) if has_jdk() else None
        rows = kept + [row for name in names for row in run(name, classes)]
    rows.sort(key=lambda r: (list(PROGRAMS).index(r["program"]), int(r["seed"])))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
