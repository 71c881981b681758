"""Thread scaling of TD training in rounds (`train(..., batch=B, threads=N)`) or lock-free
(`--lock-free`): the wall-clock training rate on 1 thread and on N, in interleaved pairs (the
order alternating), from zero weights each time. In rounds the network is the same on any
number of threads (tested), so only the time differs.

    python tools/td_threads.py --network wu6x4 --games 5000 --batch 40 --threads 2 --pairs 3
    python tools/td_threads.py --games 5000 --lock-free --threads 2 --pairs 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from g2048.engine.rng import game_seeds
from g2048.learning.recipes import TDConfig
from g2048.learning.td import train


def rate(network: str, games: int, batch: int, threads: int, lock_free: bool) -> float:
    """Training moves per second of one run from zero weights."""
    t0 = time.perf_counter()
    _, curve = train(
        TDConfig(network, games, batch=batch, lock_free=lock_free),
        lambda at, n: game_seeds(1, "td-threads", n, at),
        threads=threads,
    )
    return float((curve.mean_moves * 1000).sum()) / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--network", default="wu6x4")
    parser.add_argument("--games", type=int, default=5000, help="a multiple of 1000")
    parser.add_argument("--batch", type=int, default=40, help="a divisor of 1000")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--lock-free", action="store_true", help="lock-free, not in rounds")
    args = parser.parse_args()
    batch = 1 if args.lock_free else args.batch
    rate(args.network, 1000, batch, args.threads, args.lock_free)  # compile
    ratios = []
    for pair in range(args.pairs):
        order = (1, args.threads) if pair % 2 == 0 else (args.threads, 1)
        rates = {t: rate(args.network, args.games, batch, t, args.lock_free) for t in order}
        ratios.append(rates[args.threads] / rates[1])
        print(
            f"pair {pair + 1}: 1 thread {rates[1] / 1e6:.3f} M moves/s, {args.threads} threads "
            f"{rates[args.threads] / 1e6:.3f} M moves/s, {ratios[-1]:.2f}x",
            flush=True,
        )
    print(
        f"speed-up on {args.threads} threads: median {statistics.median(ratios):.2f}x "
        f"(range {min(ratios):.2f}-{max(ratios):.2f}) over {args.pairs} pairs"
    )


if __name__ == "__main__":
    main()
