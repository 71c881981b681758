"""Expectimax search speed on fixed games: moves per second and a digest of the results.

Plays the same games (nneonneo evaluator, cutoff 1e-4 unless told, 2**16-slot table) once to
compile or load, then `--repeat` times, and prints the best rate, the nodes searched and a
digest of every result column but `seconds`: an optimisation must leave the digest unchanged.

Instruction counts are deterministic under callgrind; the search's own share is the difference
between a run and one with `--games 0` (which only compiles or loads):

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python scripts/profile_search.py --depth 3 --max-moves 100
"""

from __future__ import annotations

import argparse
import hashlib
import time

from g2048.agents import AgentConfig
from g2048.play import play_games
from g2048.rng import game_seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--max-moves", type=int, default=600)
    parser.add_argument("--cutoff", type=float, default=1e-4)
    parser.add_argument("--table-bits", type=int, default=16)
    parser.add_argument("--evaluator", default="nneonneo")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    seeds = game_seeds(0, "bench-search", args.games)
    for depth in args.depth:
        agent = AgentConfig(
            "expectimax", depth=depth, cutoff=args.cutoff, table_bits=args.table_bits
        )
        t0 = time.perf_counter()
        play_games(agent, seeds[:1], args.evaluator, max_moves=1)
        warm = time.perf_counter() - t0
        if args.games == 0:
            print(f"depth {depth}: compile/load {warm:.1f} s")
            continue
        seconds = float("inf")  # the best of the repeats: other load only slows a run
        for _ in range(args.repeat):
            df = play_games(agent, seeds, args.evaluator, max_moves=args.max_moves)
            seconds = min(seconds, df.seconds.sum())
        digest = hashlib.sha256(df.drop(columns="seconds").to_csv().encode()).hexdigest()[:12]
        print(
            f"depth {depth}: {df.moves.sum() / seconds:,.0f} moves/s, "
            f"{df.nodes.sum() / seconds / 1e6:.1f} M nodes/s ({df.moves.sum()} moves, "
            f"{df.nodes.sum()} nodes), digest {digest} (compile/load {warm:.1f} s)"
        )


if __name__ == "__main__":
    main()
