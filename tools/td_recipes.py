"""Learning curves of the TD recipes, g2048 beside TDL2048+ at equal games: plain TD(0),
optimistic TD (OTD, every board first valued at 320 000), OTD+TC (the last 10% of the games
by TC at alpha 1.0), a 2-stage network (its second stage from the first 4096 on) and TD(0.5)
(lambda-returns over the whole game), on the four 6-tuple network (`4x6patt`), alpha 0.1,
backward updates.

    python tools/td_recipes.py --games 100000 --seeds 1 2 --tdl /path/to/TDL2048/2048 \
        --out docs/td/recipes.csv --figure docs/td/td_recipes.png

`--recipes` runs some of them, `--merge CSV` adds the curves of an earlier run to the output.

TDL2048+ (github.com/moporgic/TDL2048) is built separately with its own makefile and run with
its recipes as its README gives them, with `-tt backward`, the update order of
g2048.learning.td: `-n 4x6patt=320000/norm`, then `-a 1.0 -i` for the TC games; `-l 0.5`
without `-tt` (TD(lambda) is backward over the whole game in TDL2048+ without `-tt` or `-N`);
and `-n 4x6patt@2 -@ 0,4096`, whose second stage starts from zero where g2048 promotes the
first stage's weights, with two of its defaults turned off to make it the same recipe:
`-b 65536` stops the restarts (carousel shaping) its multistage mode makes, 20 times the time
per game, and `norm=32` splits alpha over the 32 weights a value reads, as g2048 does, not over both
stages' 64 (half the rate). The two programs draw different games, so their curves agree within
noise, not to the bit. Runs go --jobs at a time.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

from g2048.engine.rng import game_seeds
from g2048.learning.recipes import OTD_INIT, RECIPES, STAGE_TILE, TDConfig
from g2048.learning.td import train
from g2048.report.figures import save, td_recipes

NETWORK = "4x6patt"
ALPHA, INIT, STAGE = TDConfig.alpha, float(OTD_INIT), STAGE_TILE  # (TDL2048+'s options below)
LAMBDA = RECIPES["td-lambda"].changes["lambda"]
LABELS = {recipe.label: name for name, recipe in RECIPES.items()}  # as the CSV names them
BLOCK = re.compile(r"local:\s+avg=(\d+)")


def g2048_curve(recipe: str, games: int, seed: int) -> list[float]:
    """Mean score per block of 1000 games of one g2048 run."""
    config = RECIPES[LABELS[recipe]].config({"network": NETWORK, "games": games})
    _, curve = train(config, lambda at, n: game_seeds(seed, "td-recipes", n, at))
    return curve.mean_score.tolist()


def tdl_curve(tdl: str, recipe: str, games: int, seed: int) -> list[float]:
    """Mean score per block of 1000 games of one TDL2048+ run (its `local: avg=` lines)."""
    blocks = games // 1000
    with tempfile.TemporaryDirectory() as tmp:
        weights = str(Path(tmp) / "net.w")
        if recipe == "OTD+TC":
            first = blocks - blocks // 10
            runs = [
                ["-n", f"{NETWORK}={INIT:.0f}/norm", "-t", f"{first}x1000", "-a", str(ALPHA)]
                + ["-o", weights],
                ["-n", NETWORK, "-t", f"{blocks // 10}x1000", "-a", "1.0", "-i", weights],
            ]
        elif recipe == "2-stage":
            net = ["-n", f"{NETWORK}@2", "-@", f"0,{STAGE}", "-b", "65536"]  # no restarts
            rate = ["-a", str(ALPHA), "norm=32"]  # alpha over one stage's 32 weights, not 64
            runs = [[*net, "-t", f"{blocks}x1000", *rate]]
        elif recipe == "TD(0.5)":  # its backward lambda mode: no -tt below
            runs = [["-n", NETWORK, "-t", f"{blocks}x1000", "-a", str(ALPHA), "-l", str(LAMBDA)]]
        else:
            net = f"{NETWORK}={INIT:.0f}/norm" if recipe == "OTD" else NETWORK
            runs = [["-n", net, "-t", f"{blocks}x1000", "-a", str(ALPHA)]]
        out = ""
        for i, args in enumerate(runs):  # the second part (TC) draws from a seed of its own
            mode = [] if recipe == "TD(0.5)" else ["-tt", "backward"]
            options = [*mode, "-s", str(seed + 1000 * i)]
            out += subprocess.run(
                [tdl, *args, *options], capture_output=True, text=True, check=True
            ).stdout
    return [float(x) for x in BLOCK.findall(out)]


def run(task: tuple[str, str, int], games: int, tdl: str | None) -> pd.DataFrame:
    """One run's curve as rows of the CSV."""
    program, recipe, seed = task
    if program == "g2048":
        scores = g2048_curve(recipe, games, seed)
    else:
        scores = tdl_curve(tdl, recipe, games, seed)
    print(f"{program} {recipe} seed {seed}: last block {scores[-1]:.0f}", flush=True)
    blocks = [1000 * (i + 1) for i in range(len(scores))]
    return pd.DataFrame(
        {"program": program, "recipe": recipe, "seed": seed, "games": blocks,
         "mean_score": scores}
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100000, help="per run (default 100000)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--tdl", help="TDL2048+'s binary (leave out: g2048 only)")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--recipes", nargs="+", choices=list(LABELS), default=list(LABELS))
    parser.add_argument("--merge", type=Path, help="an earlier run's CSV, added to the output")
    parser.add_argument("--out", type=Path, required=True, help="the curves (CSV)")
    parser.add_argument("--figure", type=Path, help="draw them here (PNG)")
    args = parser.parse_args()
    if args.games % 10000:
        parser.error("--games must be a multiple of 10000 (blocks of 1000, 10% of them TC)")
    tasks = [("g2048", r, s) for s in args.seeds for r in args.recipes]
    if args.tdl:
        tasks += [("TDL2048+", r, s) for s in args.seeds for r in args.recipes]

    with ProcessPoolExecutor(args.jobs) as pool:
        runs = [pool.submit(run, task, args.games, args.tdl) for task in tasks]
        curves = pd.concat([r.result() for r in runs], ignore_index=True)
    if args.merge:
        earlier = pd.read_csv(args.merge)
        curves = pd.concat([earlier[~earlier.recipe.isin(args.recipes)], curves])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    curves.to_csv(args.out, index=False)
    last = curves[curves.games > args.games - 10000]
    summary = last.groupby(["recipe", "program", "seed"]).mean_score.mean().unstack("program")
    print("mean score over the last 10 blocks:\n" + summary.round(0).to_string())
    if args.figure:
        save(td_recipes(curves), args.figure.with_suffix(""))


if __name__ == "__main__":
    main()
