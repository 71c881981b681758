"""Compile the kernels that a study's jobs call into the cache, in a step of its own before the
run (`make run` does it, `make warm` alone): a few minutes once per version of the code, said
up front, and then no job's time includes them (`plan` reads the jobs' times).

It trains the config's network (`tune.td`) for one block of games and plays a few moves of
every agent and evaluator that the config's tuning runs and benchmark rows play (a network
row with that untrained network), each as its jobs call it: what it compiles is what they
would. With the cache warm it takes seconds.

    python -m g2048.study.warm [CONFIG]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from g2048.study import config as study
from g2048.study.config import ConfigError, load_config
from g2048.study.records.logs import kernel_cache

BLOCK = 1000  # one learning-curve row of games: the least a training run plays


def _plays(config: dict) -> list[tuple[dict, str, bool]]:
    """The (agent, evaluator, plays the run's network) of every tuning run and benchmark row,
    each once."""
    seen, out = set(), []
    rows = [{**run, "weights": None} for run in config["tune"]["runs"] if "agent" in run]
    rows += config["benchmark"]["entries"]
    depth = config["validate"]["depth"]
    rows += [{"agent": {"name": "expectimax", "depth": depth}, "evaluator": "classic4"}]
    for row in rows:
        network = row["evaluator"] == "ntuple"
        key = json.dumps([row["agent"], row["evaluator"], network], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append((row["agent"], row["evaluator"], network))
    return out


def warm(config: dict, say: object = print) -> float:
    """Compile (or load) the kernels of the study of `config` (checked); the seconds taken."""
    from g2048.engine.rng import game_seeds
    from g2048.evaluators import check_weights
    from g2048.learning.recipes import TDConfig
    from g2048.learning.td import train
    from g2048.play import play_games
    from g2048.settings import from_settings

    start = time.perf_counter()
    network = None
    td = config["tune"].get("td")
    if td:
        keys = {k: v for k, v in td.items() if k not in ("name", "games", "checkpoint_every")}
        recipe = from_settings(TDConfig, {**keys, "games": BLOCK})
        network, _ = train(recipe, lambda at, n: game_seeds(0, "warm", n, at))
    seeds = np.array([1], dtype=np.uint64)
    threads = config["threads"]
    for agent, evaluator, plays_network in _plays(config):
        if plays_network and network is None:
            continue
        spec = study.agent_config(agent)
        weights = network if plays_network else None
        if spec.weight_rows > 1:  # the switching agent: a row per phase
            weights = [check_weights(evaluator)] * spec.weight_rows
        play_games(spec, seeds, evaluator, weights, threads=threads, max_moves=3)
    seconds = time.perf_counter() - start
    say(f"kernels ready in {kernel_cache()} ({seconds:.0f} s)")
    return seconds


def main(argv: list[str] | None = None) -> int:
    """Warm the kernel cache for CONFIG (default config/config.yaml)."""
    parser = argparse.ArgumentParser(prog="python -m g2048.study.warm", description=__doc__)
    parser.add_argument("config", type=Path, nargs="?", default=Path("config/config.yaml"))
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    cache = kernel_cache()
    empty = not (cache.is_dir() and any(cache.rglob("*.nbi")))
    if empty:
        print(
            f"compiling kernels into an empty cache ({cache}): a few minutes, once per "
            "version of the code",
            flush=True,
        )
    warm(config)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
