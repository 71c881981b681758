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

from g2048.bench import time_search


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
    for depth in args.depth:
        df, seconds, warm = time_search(
            depth,
            args.games,
            args.max_moves,
            args.repeat,
            args.cutoff,
            args.table_bits,
            args.evaluator,
        )
        if args.games == 0:
            print(f"depth {depth}: compile/load {warm:.1f} s")
            continue
        digest = hashlib.sha256(df.drop(columns="seconds").to_csv().encode()).hexdigest()[:12]
        print(
            f"depth {depth}: {df.moves.sum() / seconds:,.0f} moves/s, "
            f"{df.nodes.sum() / seconds / 1e6:.1f} M nodes/s ({df.moves.sum()} moves, "
            f"{df.nodes.sum()} nodes), digest {digest} (compile/load {warm:.1f} s)"
        )


if __name__ == "__main__":
    main()
