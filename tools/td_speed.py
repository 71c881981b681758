"""TD(0) training and 1-ply evaluation speed of the four 6-tuple network (wu6x4), alone or side
by side with TDL2048+ (github.com/moporgic/TDL2048, built separately with its own makefile;
its `4x6patt` is the same network).

    python tools/td_speed.py --games 10000
    python tools/td_speed.py --games 10000 --pairs 5 --tdl /path/to/TDL2048/2048

Alone, it prints g2048's training rate (game moves with their updates per second, from zero
weights, one thread) and its evaluation rate (greedy 1-ply games with the network it just
trained). With --tdl it runs interleaved pairs, alternating which program goes first: training
against TDL2048+'s backward TD(0) (`-tt backward`, the update rule of g2048.learning.kernels) and,
unless --no-forward, against its default forward mode; then evaluation against its `-e` with
the network it trained in backward mode. A pair's ratio is g2048's rate over TDL2048+'s.

Two rates per run. Wall: TDL2048+'s own (its summary line's ops), g2048's the moves over the
wall-clock time of the kernel call. CPU: the same moves over the CPU time used meanwhile
(g2048's thread time over the call; TDL2048+'s process time from the line that starts its
recipe to its summary line, read from /proc), which leaves out the time a busy machine keeps
a program waiting for a core. The machine's speed drifts: compare only within pairs.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from g2048.engine.rng import game_seeds
from g2048.evaluators.ntuple import prepare, zero_network
from g2048.learning.kernels import EPISODE, kernels

NETWORK, ALPHA = "wu6x4", 0.1


def train_rate(games: int) -> tuple[float, float, np.ndarray]:
    """(wall moves/s, CPU moves/s, the trained table) of one training run from zero."""
    train_games = kernels(NETWORK, ())[0][0]
    _, table = prepare(zero_network(NETWORK))
    seeds = game_seeds(1, "td-speed", games)
    records = np.zeros((games, 3), dtype=np.int64)
    none = np.zeros(0, dtype=np.float32)
    t0, c0 = time.perf_counter(), time.thread_time()
    train_games(
        seeds, table, (ALPHA, 0.0), none, none, records, EPISODE, np.zeros(1, dtype=np.int64)
    )
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    moves = records[:, 2].sum()
    return moves / wall, moves / cpu, table


def eval_rate(table: np.ndarray, games: int) -> tuple[float, float, float]:
    """(wall moves/s, CPU moves/s, mean score) of greedy 1-ply games with the network."""
    greedy_games = kernels(NETWORK, ())[2]
    seeds = game_seeds(1, "td-speed-eval", games)
    records = np.zeros((games, 3), dtype=np.int64)
    t0, c0 = time.perf_counter(), time.thread_time()
    greedy_games(seeds, table, records)
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    moves = records[:, 2].sum()
    return moves / wall, moves / cpu, records[:, 0].mean()


def cpu_seconds(pid: int) -> float:
    """The user + system CPU time a running process has used (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tdl_rates(binary: str, args: list[str]) -> tuple[float, float, float]:
    """(wall moves/s = its summary's ops, CPU moves/s, mean score) of one TDL2048+ run. The CPU
    time runs from its line that starts the recipe (after the network is made or loaded) to its
    summary line (before the network is saved)."""
    with subprocess.Popen(
        [binary, "-n", "4x6patt", *args, "-%", "-s"], stdout=subprocess.PIPE, text=True
    ) as proc:
        out = []
        for line in proc.stdout:
            if line.startswith(("optimize:", "evaluate:")):
                start = cpu_seconds(proc.pid)
            elif line.startswith("summary"):
                cpu = cpu_seconds(proc.pid) - start
            out.append(line)
    if proc.returncode != 0:
        raise RuntimeError(f"{binary} {' '.join(args)} failed:\n{''.join(out)}")
    pattern = r"^summary\s+(\d+)ms\s+([\d.]+)ops\s+total:\s+avg=(\d+)"
    match = re.search(pattern, "".join(out), re.MULTILINE)
    if match is None:
        raise RuntimeError(f"no summary line in the output of {binary}:\n{''.join(out)}")
    ms, ops, score = (float(x) for x in match.groups())
    return ops, ops * ms / 1000 / max(cpu, 1e-9), score


def summary(label: str, ratios: list[float]) -> str:
    return (
        f"{label}: median {statistics.median(ratios):.2f} "
        f"(min {min(ratios):.2f}, max {max(ratios):.2f}) over {len(ratios)} pairs"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10000, help="games per run (default 10000)")
    parser.add_argument("--pairs", type=int, default=5, help="interleaved pairs (default 5)")
    parser.add_argument("--tdl", help="the TDL2048+ binary (without it: g2048 alone)")
    parser.add_argument("--no-forward", action="store_true", help="skip TDL2048+'s forward mode")
    args = parser.parse_args()
    # compile (or load from the cache) before any timing
    train_rate(1)
    eval_rate(prepare(zero_network(NETWORK))[1], 1)
    if args.tdl is None:
        for _ in range(args.pairs):
            wall, cpu, table = train_rate(args.games)
            ewall, ecpu, score = eval_rate(table, args.games)
            print(
                f"train {wall:,.0f} moves/s (CPU {cpu:,.0f}), eval {ewall:,.0f} moves/s "
                f"(CPU {ecpu:,.0f}; mean score {score:.0f})",
                flush=True,
            )
        return 0
    modes = {"backward": ["-tt", "backward"]}
    if not args.no_forward:
        modes["forward"] = []
    ratios: dict[str, list[tuple[float, float]]] = {mode: [] for mode in modes}
    ratios["eval"] = []
    with tempfile.TemporaryDirectory() as tmp:
        weights = str(Path(tmp) / "4x6patt.w")
        train = ["-t", f"1x{args.games}", "-a", str(ALPHA)]
        table = None
        for pair in range(args.pairs):
            for mode, extra in modes.items():
                save = ["-o", weights] if mode == "backward" else []
                for first in (0, 1) if pair % 2 == 0 else (1, 0):
                    if first == 0:
                        ours = train_rate(args.games)
                        table = ours[2]
                    else:
                        theirs = tdl_rates(args.tdl, train + extra + save)
                ratios[mode].append((ours[0] / theirs[0], ours[1] / theirs[1]))
                print(
                    f"pair {pair + 1} train vs {mode}: g2048 {ours[0]:,.0f} (CPU {ours[1]:,.0f}), "
                    f"TDL2048+ {theirs[0]:,.0f} (CPU {theirs[1]:,.0f}) moves/s, ratio "
                    f"{ours[0] / theirs[0]:.2f} (CPU {ours[1] / theirs[1]:.2f})",
                    flush=True,
                )
        evaluate = ["-e", f"1x{args.games}", "-i", weights]
        for pair in range(args.pairs):
            for first in (0, 1) if pair % 2 == 0 else (1, 0):
                if first == 0:
                    ours = eval_rate(table, args.games)
                else:
                    theirs = tdl_rates(args.tdl, evaluate)
            ratios["eval"].append((ours[0] / theirs[0], ours[1] / theirs[1]))
            print(
                f"pair {pair + 1} eval: g2048 {ours[0]:,.0f} (CPU {ours[1]:,.0f}; mean score "
                f"{ours[2]:.0f}), TDL2048+ {theirs[0]:,.0f} (CPU {theirs[1]:,.0f}; "
                f"{theirs[2]:.0f}) moves/s, ratio {ours[0] / theirs[0]:.2f} "
                f"(CPU {ours[1] / theirs[1]:.2f})",
                flush=True,
            )
    for mode, label in [(m, f"training vs TDL2048+ {m}") for m in modes] + [("eval", "eval")]:
        for i, clock in enumerate(("wall", "CPU")):
            print(summary(f"{label}, g2048 / TDL2048+ ({clock})", [r[i] for r in ratios[mode]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
