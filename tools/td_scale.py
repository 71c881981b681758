"""The paper study's learned recipe at the literature's scale, beside TDL2048+: TD(0.5) on the
four 6-tuple network (`4x6patt`), alpha 0.1, 10^6 games per seed (config/paper.yaml).

g2048's run is one command (it checkpoints and resumes by itself):

    python -m g2048 train --recipe td-lambda --network 4x6patt --games 1000000 --seed 1 \
        --out net-s1.npz --curve curve-s1.csv

TDL2048+'s, in chunks that survive a kill (each chunk starts from the last one's weights and
draws from seed + 1000 x its index; rerunning the command skips the finished chunks):

    python tools/td_scale.py tdl --tdl /path/to/TDL2048/2048 --games 1000000 --seed 1 --dir DIR

Then the two curves, block by block, as a CSV and the figure of tools/td_recipes.py:

    python tools/td_scale.py curves --g2048 curve-s1.csv --tdl-dir DIR --seed 1 \
        --out docs/td/td-lambda-1m.csv --figure docs/figures/td_lambda_1m.png
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pandas as pd
from td_recipes import ALPHA, BLOCK, LAMBDA, NETWORK

from g2048.report.figures import save, td_recipes

RECIPE = "TD(0.5)"


def run_tdl(tdl: str, games: int, chunk: int, seed: int, folder: Path) -> None:
    """TDL2048+'s TD(lambda) run as games // chunk chunks in `folder`: chunk i writes
    chunk{i}.log and chunk{i}.w, and chunk{i}.done once it has finished."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(games // chunk):
        if (folder / f"chunk{i}.done").exists():
            continue
        weights = ["-i", str(folder / f"chunk{i - 1}.w")] if i else []
        command = [tdl, "-n", NETWORK, "-t", f"{chunk // 1000}x1000", "-a", str(ALPHA)]
        command += ["-l", str(LAMBDA), "-s", str(seed + 1000 * i), *weights]
        command += ["-o", str(folder / f"chunk{i}.w")]
        with open(folder / f"chunk{i}.log", "w") as log:
            subprocess.run(command, stdout=log, check=True)
        (folder / f"chunk{i}.done").touch()
        print(f"chunk {i + 1}/{games // chunk} done", flush=True)
        if i >= 2:  # keep the last two networks
            (folder / f"chunk{i - 2}.w").unlink(missing_ok=True)


def tdl_blocks(folder: Path) -> list[float]:
    """The mean score of every block of 1000 games in the finished chunks, in order."""
    scores: list[float] = []
    i = 0
    while (folder / f"chunk{i}.done").exists():
        scores += [float(x) for x in BLOCK.findall((folder / f"chunk{i}.log").read_text())]
        i += 1
    return scores


def curves(g2048: Path, folder: Path, seed: int) -> pd.DataFrame:
    """Both programs' curves in tools/td_recipes.py's columns."""
    ours = pd.read_csv(g2048)[["games", "mean_score"]].assign(program="g2048")
    scores = tdl_blocks(folder)
    theirs = pd.DataFrame(
        {"games": [1000 * (k + 1) for k in range(len(scores))], "mean_score": scores}
    ).assign(program="TDL2048+")
    both = pd.concat([ours, theirs], ignore_index=True).assign(recipe=RECIPE, seed=seed)
    return both[["program", "recipe", "seed", "games", "mean_score"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    tdl = commands.add_parser("tdl", help="run TDL2048+ in resumable chunks")
    tdl.add_argument("--tdl", required=True, help="TDL2048+'s binary")
    tdl.add_argument("--games", type=int, default=1_000_000)
    tdl.add_argument("--chunk", type=int, default=50_000, help="games per chunk (default 50000)")
    tdl.add_argument("--seed", type=int, default=1)
    tdl.add_argument("--dir", type=Path, required=True, help="the chunks' logs and networks")
    both = commands.add_parser("curves", help="the two curves as a CSV and a figure")
    both.add_argument("--g2048", type=Path, required=True, help="train --curve's CSV")
    both.add_argument("--tdl-dir", type=Path, required=True, help="tdl's --dir")
    both.add_argument("--seed", type=int, default=1)
    both.add_argument("--out", type=Path, required=True, help="the curves (CSV)")
    both.add_argument("--figure", type=Path, help="draw them here (PNG)")
    args = parser.parse_args()
    if args.command == "tdl":
        if args.chunk % 1000 or args.games % args.chunk:
            parser.error("--chunk must be a multiple of 1000 that divides --games")
        run_tdl(args.tdl, args.games, args.chunk, args.seed, args.dir)
        return
    table = curves(args.g2048, args.tdl_dir, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    last = table.groupby("program").tail(10).groupby("program")
    print(last.agg(games=("games", "max"), last_10_blocks=("mean_score", "mean")).round(0))
    if args.figure:
        save(td_recipes(table), args.figure.with_suffix(""))


if __name__ == "__main__":
    main()
