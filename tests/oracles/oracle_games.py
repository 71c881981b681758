"""What the oracle tests share: the positions compared, g2048's agent on one board, and ties."""

from __future__ import annotations

import functools
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from g2048 import evaluators
from g2048.agents import STATS_SIZE, TABLE_BITS, AgentConfig, choose_move
from g2048.agents.expectimax import NO_LIMIT, new_table, shallow_values
from g2048.cli.watch import positions as game_positions
from g2048.engine.rng import game_seeds, rng_state
from g2048.play import agent_params, evaluator_rows

POSITIONS = 10_000
RTOL, ATOL = 1e-12, 1e-9  # values equal up to rounding


@functools.cache
def played_positions() -> tuple[int, ...]:
    """The first POSITIONS positions (the start and every position a move is asked for) of
    greedy classic4 games from game_seeds(36, "oracle-source001", ...), game after game, as
    play_games plays them (g2048.cli.watch.positions steps through its game loop)."""
    greedy = AgentConfig("greedy")
    boards: list[int] = []
    for seed in game_seeds(36, "oracle-source001", 100):
        game = [p.board for p in game_positions(greedy, int(seed), "classic4")]
        boards += game[:-1]  # the last position is dead: no move to compare
        if len(boards) >= POSITIONS:
            return tuple(boards[:POSITIONS])
    raise AssertionError("too few positions: play more games")


def best_set(values: np.ndarray) -> set[int]:
    """The moves whose value equals the best up to rounding."""
    top = values.max()
    return {d for d in range(4) if np.isclose(values[d], top, rtol=RTOL, atol=ATOL)}


class Expectimax:
    """g2048's expectimax agent with one evaluator at one depth: its move on a board (the
    agent's choose_move) and its move values (shallow_values, the search choose_move runs at
    1 to 3 plies without cutoff, budget or Star1)."""

    def __init__(self, evaluator: str, depth: int) -> None:
        self.depth = depth
        self.agent = AgentConfig("expectimax", depth=depth)
        self.ev_kind, self.weights, self.tables = evaluator_rows(self.agent, evaluator)
        self.params = agent_params(self.agent, evaluator, self.tables)
        self.table = new_table(int(self.params[TABLE_BITS]))
        self.stats = np.zeros(STATS_SIZE, dtype=np.int64)
        self.rng = rng_state(0)  # expectimax draws nothing
        self.decisions = 0

    def choice(self, board: int) -> tuple[np.ndarray, int]:
        """(the value of each direction, -inf: illegal; the direction chosen)."""
        b = np.uint64(board)
        self.decisions += 1
        move = choose_move(
            self.agent.kind, self.params, self.ev_kind, self.weights, self.tables, b,
            self.rng, self.table, np.int64(self.decisions), self.stats,
        )  # fmt: skip
        values, done = shallow_values(
            b, self.depth, self.ev_kind, self.weights[0], self.tables[0],
            np.zeros(2, dtype=np.int64), NO_LIMIT, 0,
        )  # fmt: skip
        assert done
        values = np.array(values)
        assert move == int(np.argmax(values))  # the first best in g2048's order
        return values, int(move)


def has_jdk() -> bool:
    """Whether javac and java are on the PATH."""
    return shutil.which("javac") is not None and shutil.which("java") is not None


NO_JDK = "no JDK: javac and java run the source's Java (Debian: default-jdk-headless)"


def compile_java(folder: Path, out: Path) -> Path:
    """The .java files under `folder`, compiled into `out`."""
    sources = sorted(str(p) for p in folder.rglob("*.java"))
    subprocess.run(["javac", "-encoding", "UTF-8", "-d", str(out), *sources], check=True)
    return out


def run_java(
    classes: Path, main: str, args: list[str], lines: list[str], processes: int = 1
) -> list[tuple[np.ndarray, int]]:
    """A source's harness `main`, fed `lines` on its input (split over `processes` JVMs run at
    once, each line answered on its own): for each line the direction it chose and its values
    of the four moves (each output line reads "move v0 v1 v2 v3")."""
    size = -(-len(lines) // processes)
    chunks = [lines[i : i + size] for i in range(0, len(lines), size)]
    runs = [
        subprocess.Popen(
            ["java", "-cp", str(classes), main, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for _ in chunks
    ]

    def feed(run: subprocess.Popen, chunk: list[str]) -> tuple[str, str]:
        return run.communicate("".join(f"{line}\n" for line in chunk))

    with ThreadPoolExecutor(len(runs)) as pool:  # each JVM fed and read at once
        done = list(pool.map(feed, runs, chunks))
    out = []
    for run, chunk, (stdout, stderr) in zip(runs, chunks, done, strict=True):
        assert run.returncode == 0, stderr
        answers = [line.split() for line in stdout.splitlines()]
        assert len(answers) == len(chunk)
        out += [(np.array([float(v) for v in values]), int(move)) for move, *values in answers]
    return out


def greedy_values(evaluator: str, weights: tuple[float, ...], boards: list[int]) -> list:
    """g2048's values of the four moves of each board at one ply (the moved boards' values)
    with `evaluator` weighted by `weights`."""
    fn, w, table = evaluators.prepare(evaluator, weights)
    stats = np.zeros(2, dtype=np.int64)
    return [
        np.array(shallow_values(np.uint64(b), 1, fn, w, table, stats, NO_LIMIT, 0)[0])
        for b in boards
    ]
