"""Write the source programs' moves that the faithful agents are tested against (issue 50):
for each source player, 10 000 positions, half from whole games of the source's own program
(source004/Games.java; source001.py in a game loop of ours), half from games of g2048's agent
with the source's rules, each with the move the source's program chooses there and every move
of exactly its best value. Run by hand (a few minutes; a JDK for source 004):

    .venv/bin/python tests/oracles/source_moves.py            # every player below
    .venv/bin/python tests/oracles/source_moves.py --only source004-hybrid

The files (moves/<player>.csv.gz) name the command that made them on their first line.
test_source_moves.py checks g2048's agent against them everywhere, and where the source's
runtime is present runs the program again on every position and checks it chooses the
committed moves.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import random
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import source001
from oracle_games import compile_java, has_jdk, run_java
from play_sources import spawn

from g2048.agents import AgentConfig
from g2048.cli.watch import positions as game_positions
from g2048.engine.board import decode, encode
from g2048.engine.rng import game_seeds, next_u64, rng_state

HERE = Path(__file__).parent
MOVES = HERE / "moves"
POSITIONS = 10_000
FIELDS = ["board", "seed", "origin", "move", "best"]
# source 001's directions (left, up, right, down) as g2048 numbers them (up, down, left, right)
FROM_SOURCE001 = (2, 0, 3, 1)
_JAVA_SEED = (1 << 48) - 1


@dataclass(frozen=True)
class SourcePlayer:
    """One source program and g2048's agent with its rules (on `evaluator`, its heuristic)."""

    source: str
    player: str  # source 004's harness name: expectimax, mc, hybrid; source 001: expectimax
    depth: int
    rollouts: int

    @property
    def agent(self) -> AgentConfig:
        name = {"expectimax": "expectimax", "mc": "montecarlo", "hybrid": "hybrid"}[self.player]
        rules = f"source{self.source}"
        return AgentConfig(name, depth=self.depth, rollouts=max(self.rollouts, 1), rules=rules)

    @property
    def evaluator(self) -> str:
        return "classic4" if self.source == "001" else "ovolve"


PLAYERS = {
    "source001-expectimax": SourcePlayer("001", "expectimax", 3, 0),
    "source004-expectimax": SourcePlayer("004", "expectimax", 3, 0),
    "source004-montecarlo": SourcePlayer("004", "mc", 1, 3),
    "source004-hybrid": SourcePlayer("004", "hybrid", 2, 1),
}


def java_seed(index: int) -> int:
    """The seed of position `index`'s decision: what g2048's agent, deciding it from
    rng_state(index) (g2048.api.Player.decide(board, seed=index)), seeds java.util.Random with."""
    return int(next_u64(rng_state(index))) & _JAVA_SEED


def source001_positions(depth: int, count: int) -> list[int]:
    """The first `count` positions a move is asked for in source 001's games (seeds 1, 2, ...;
    its choose_move in play_sources' game loop)."""
    boards: list[int] = []
    seed = 0
    moves = [source001.move_left, source001.move_up, source001.move_right, source001.move_down]
    while len(boards) < count:
        seed += 1
        rng = random.Random(seed)
        board = spawn(spawn(((0,) * 4,) * 4, rng), rng)
        while source001.all_moves(board) and len(boards) < count:
            boards.append(int(encode([list(row) for row in board])))
            source001.cache.clear()
            board = spawn(moves[source001.choose_move(board, depth)](board), rng)
    return boards


def source004_positions(classes: Path, p: SourcePlayer, count: int) -> list[int]:
    """The first `count` positions of source 004's games (Games.java, seeds 1, 2, ...)."""
    command = ["java", "-cp", str(classes), "Games", p.player, str(p.depth), str(p.rollouts)]
    with subprocess.Popen([*command, "1000", "1"], stdout=subprocess.PIPE, text=True) as run:
        boards = [int(next(run.stdout), 16) for _ in range(count)]
        run.kill()
    return boards


def agent_positions(p: SourcePlayer, count: int) -> list[int]:
    """The first `count` positions a move is asked for in games of g2048's agent with the
    source's rules (seeds game_seeds(50, "oracle-rules", ...))."""
    boards: list[int] = []
    for seed in game_seeds(50, "oracle-rules", 1000):
        game = [pos.board for pos in game_positions(p.agent, int(seed), p.evaluator)]
        boards += game[:-1]  # the last position is dead: no move to ask for
        if len(boards) >= count:
            return boards[:count]
    raise AssertionError("too few positions: play more games")


def source001_choices(depth: int, boards: list[int]) -> list[tuple[np.ndarray, int]]:
    """Source 001's move values (g2048's numbering, -inf: illegal) and chosen move."""
    fns = (source001.move_left, source001.move_up, source001.move_right, source001.move_down)
    out = []
    for b in boards:
        grid = tuple(tuple(int(v) for v in row) for row in decode(b).tolist())
        source001.cache.clear()
        values = np.full(4, -np.inf)
        for k, fn in enumerate(fns):
            moved = fn(grid)
            if moved != grid:
                values[FROM_SOURCE001[k]] = source001.expectimax(moved, depth - 1, False)
        out.append((values, FROM_SOURCE001[source001.choose_move(grid, depth)]))
    return out


def source_choices(
    p: SourcePlayer, boards: list[int], classes: Path | None
) -> list[tuple[np.ndarray, int]]:
    """The source program's values and move on each board (position i seeded by java_seed(i))."""
    if p.source == "001":
        return source001_choices(p.depth, boards)
    assert classes is not None
    if p.player == "expectimax":
        return run_java(classes, "Oracle", [], [f"{p.depth} {b:x}" for b in boards])
    lines = [
        f"{p.player} {p.depth} {p.rollouts} {java_seed(i)} {b:x}" for i, b in enumerate(boards)
    ]
    return run_java(classes, "OracleRollouts", [], lines, processes=2)


def best_mask(values: np.ndarray) -> int:
    """The moves of exactly the best value, as bits (1 << direction)."""
    return sum(1 << d for d in range(4) if values[d] == values.max())


def read_moves(name: str) -> list[dict]:
    """The rows of a player's committed file (its first line, the command, skipped)."""
    with gzip.open(MOVES / f"{name}.csv.gz", "rt") as f:
        next(f)
        return [
            {
                k: int(v, 16) if k == "board" else v if k == "origin" else int(v)
                for k, v in r.items()
            }
            for r in csv.DictReader(f)
        ]


def write_moves(name: str, classes: Path | None) -> None:
    """Play the positions and write the source's moves on them."""
    p = PLAYERS[name]
    half = POSITIONS // 2
    theirs = (
        source001_positions(p.depth, half)
        if p.source == "001"
        else source004_positions(classes, p, half)
    )
    boards = theirs + agent_positions(p, half)
    origins = ["source"] * half + ["g2048"] * half
    text = io.StringIO()
    text.write(f"# command: python tests/oracles/source_moves.py --only {name}\n")
    writer = csv.DictWriter(text, FIELDS, lineterminator="\n")
    writer.writeheader()
    for i, (b, origin, (values, move)) in enumerate(
        zip(boards, origins, source_choices(p, boards, classes), strict=True)
    ):
        row = {"board": f"{b:x}", "seed": java_seed(i), "origin": origin, "move": move}
        writer.writerow(row | {"best": best_mask(values)})
    MOVES.mkdir(exist_ok=True)
    with gzip.GzipFile(MOVES / f"{name}.csv.gz", "wb", mtime=0) as f:
        f.write(text.getvalue().encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=list(PLAYERS), default=list(PLAYERS))
    names = parser.parse_args().only
    with tempfile.TemporaryDirectory() as tmp:
        classes = compile_java(HERE / "source004", Path(tmp)) if has_jdk() else None
        for name in names:
            write_moves(name, classes)
            print(name, "written")


if __name__ == "__main__":
    main()
