"""`python tools/bench_peers.py PEERS` (`make bench-peers PEERS=path`): g2048's speed beside the
other programs whose source is in PEERS (a checkout of one, or a folder holding checkouts), each
built from that source in a scratch folder with its own build files, run interleaved with
g2048 (which program goes first alternates, pair by pair), and each pair's ratio printed.

- nneonneo/2048-ai (github.com/nneonneo/2048-ai, its `2048.h` declares `find_best_move`): built
  with its `configure` and `make` (its -O3), its library loaded with ctypes as its own
  `ailib.py` loads it, unmodified. Both programs choose the move on each of the same fixed
  positions (`python -m g2048 bench`'s: every 25th position of two 3-ply games) with the same
  search: nneonneo's heuristic, its adaptive depth (g2048's depth "auto": 2 x max(3, distinct
  tiles - 2) + 1 plies), probability cutoff 1e-4, each its own transposition table (g2048's of
  2**16 slots, TABLE_BITS). A pair
  times one pass of each over the positions; the ratio is g2048's decisions per second over
  nneonneo's (its time over g2048's). nneonneo's `find_best_move` prints each board and move:
  into /dev/null, inside its timed pass. The line also gives the share of positions where
  both chose the same move (nneonneo values in float32, g2048 in float64: near-ties differ).
- TDL2048+ (github.com/moporgic/TDL2048, its `2048.cpp` names moporgic): built with its
  `make`, then `tools/td_speed.py --tdl` (TD training and 1-ply evaluation of the four
  6-tuple network, interleaved pairs; that tool's docstring says what it times).

The machine's speed drifts: compare only within pairs, on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

TOOLS = Path(__file__).resolve().parent
NNEONNEO, TDL2048 = "nneonneo/2048-ai", "TDL2048+"
# g2048's transposition table against nneonneo's adaptive depth (7 to 17 plies): 2**16 slots, as
# the paper config's deep searches (the default 2**12 fills up beyond 9 plies; nneonneo's table,
# a hash map per root move, grows as it needs).
TABLE_BITS = 16


def peer_kind(folder: Path) -> str | None:
    """Which peer program the checkout `folder` holds (NNEONNEO, TDL2048), or None."""
    header, source = folder / "2048.h", folder / "2048.cpp"
    if header.is_file() and "find_best_move" in header.read_text(errors="replace"):
        return NNEONNEO
    if source.is_file() and "moporgic" in source.read_text(errors="replace"):
        return TDL2048
    return None


def find_peers(path: Path) -> dict[str, Path]:
    """The peer checkouts at `path`: itself, or the folders directly inside it."""
    found = {}
    for folder in [path, *sorted(p for p in path.iterdir() if p.is_dir())]:
        kind = peer_kind(folder)
        if kind is not None:
            found.setdefault(kind, folder)
    return found


def build(source: Path, scratch: Path, commands: list[list[str]]) -> Path:
    """A copy of `source` in `scratch`, built there by `commands` (run in order); ValueError
    naming the command and its last output lines if one fails."""
    copy = scratch / source.name
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".git"))
    for command in commands:
        done = subprocess.run(command, cwd=copy, capture_output=True, text=True)
        if done.returncode != 0:
            tail = (done.stdout + done.stderr).strip().splitlines()[-5:]
            raise ValueError(f"{' '.join(command)} failed in {copy}: " + " | ".join(tail))
    return copy


def pair_ratios(
    ours: Callable[[], float], theirs: Callable[[], float], pairs: int
) -> list[tuple[float, float]]:
    """`pairs` interleaved (our seconds, their seconds) of two timed passes, the first pair
    ours first, the next theirs first, and so on."""
    times = []
    for i in range(pairs):
        if i % 2 == 0:
            a = ours()
            b = theirs()
        else:
            b = theirs()
            a = ours()
        times.append((a, b))
    return times


def summary(times: list[tuple[float, float]]) -> str:
    """g2048's speed over the peer's (their seconds over ours): median pair (range), and the
    ratio of the totals."""
    ratios = [b / a for a, b in times]
    total = sum(b for _, b in times) / sum(a for a, _ in times)
    return (
        f"{statistics.median(ratios):.2f}x median of {len(times)} pairs "
        f"({min(ratios):.2f}-{max(ratios):.2f}), {total:.2f}x the ratio of the totals"
    )


class _Quiet:
    """File descriptor 1 sent to /dev/null (the C library's printf included) while open."""

    def __enter__(self) -> None:
        sys.stdout.flush()
        self._libc = ctypes.CDLL(None)
        self._saved = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)

    def __exit__(self, *exc: object) -> None:
        self._libc.fflush(None)
        os.dup2(self._saved, 1)
        os.close(self._saved)


def bench_nneonneo(source: Path, scratch: Path, pairs: int) -> str:
    """nneonneo/2048-ai against g2048 on the fixed positions (module docstring)."""
    from g2048.agents import AgentConfig
    from g2048.api import Player
    from g2048.cli.speed import fixed_positions
    from g2048.engine.board import DIRECTIONS, is_game_over

    built = build(source, scratch, [["sh", "configure"], ["make", "bin/2048.so"]])
    lib = ctypes.CDLL(str(built / "bin" / "2048.so"))
    lib.init_tables()
    lib.find_best_move.argtypes = [ctypes.c_uint64]
    lib.find_best_move.restype = ctypes.c_int
    agent = AgentConfig("expectimax", depth="auto", cutoff=1e-4, table_bits=TABLE_BITS)
    player = Player(agent, "nneonneo")
    boards = [int(b) for b in fixed_positions()]
    boards = [b for b in boards if not is_game_over(b)]  # a game's last has no move
    player.decide(boards[0])  # compiled (or read from numba's cache) before any timing
    moves: dict[str, list[str]] = {"ours": [], "theirs": []}

    def ours() -> float:
        start = time.perf_counter()
        chosen = [player.decide(b).move for b in boards]
        seconds = time.perf_counter() - start
        moves["ours"] = chosen
        return seconds

    def theirs() -> float:
        with _Quiet():
            start = time.perf_counter()
            chosen = [lib.find_best_move(ctypes.c_uint64(b)) for b in boards]
            seconds = time.perf_counter() - start
        moves["theirs"] = [DIRECTIONS[m] if 0 <= m < 4 else "none" for m in chosen]
        return seconds

    times = pair_ratios(ours, theirs, pairs)
    same = np.mean([a == b for a, b in zip(moves["ours"], moves["theirs"], strict=True)])
    rate = len(boards) * len(times) / sum(a for a, _ in times)
    return (
        f"{NNEONNEO}: expectimax, depth auto, cutoff 1e-4, table 2**{TABLE_BITS}, "
        f"{len(boards)} positions: g2048 "
        f"{summary(times)} (g2048 {rate:.1f} decisions/s); the same move on {same:.0%} of them"
    )


def bench_tdl2048(source: Path, scratch: Path, pairs: int, games: int) -> str:
    """TDL2048+ against g2048 through tools/td_speed.py (its output, as it prints it)."""
    built = build(source, scratch, [["make"]])
    command = [sys.executable, str(TOOLS / "td_speed.py"), "--games", str(games)]
    command += ["--pairs", str(pairs), "--tdl", str(built / "2048")]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(f"{' '.join(command)} failed: {done.stderr.strip()[-500:]}")
    return f"{TDL2048}:\n{done.stdout.rstrip()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("peers", type=Path, help="a peer's checkout, or a folder holding them")
    parser.add_argument("--pairs", type=int, default=5, help="interleaved pairs (default 5)")
    parser.add_argument(
        "--td-games", type=int, default=10000, help="TDL2048+: games per run (default 10000)"
    )
    args = parser.parse_args(argv)
    if not args.peers.is_dir():
        parser.exit(2, f"bench-peers: {args.peers} is not a folder (PEERS=path to the source)\n")
    peers = find_peers(args.peers)
    if not peers:
        parser.exit(
            2,
            f"bench-peers: no checkout of {NNEONNEO} or {TDL2048} at {args.peers} or directly "
            "inside it\n",
        )
    with tempfile.TemporaryDirectory(prefix="g2048-peers-") as scratch:
        for kind, source in peers.items():
            try:
                if kind == NNEONNEO:
                    print(bench_nneonneo(source, Path(scratch), args.pairs), flush=True)
                else:
                    line = bench_tdl2048(source, Path(scratch), args.pairs, args.td_games)
                    print(line, flush=True)
            except ValueError as exc:
                parser.exit(1, f"bench-peers: {exc}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
