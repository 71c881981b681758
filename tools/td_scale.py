"""The paper study's learned recipe at the literature's scale, beside TDL2048+: TD(0.5) on the
four 6-tuple network (`4x6patt`), alpha 0.1, 10^6 games per seed (config/paper.yaml).

g2048's run is one command (it checkpoints and resumes by itself):

    python -m g2048 train --recipe td-lambda --network 4x6patt --games 1000000 --seed 1 \
        --out net-s1.npz --curve curve-s1.csv

TDL2048+'s, in chunks that survive a kill (each chunk starts from the last one's weights and
draws from seed + 1000 x its index; rerunning the command skips the finished chunks):

    python tools/td_scale.py tdl --tdl /path/to/TDL2048/2048 --games 1000000 --seed 1 --dir DIR

Then the curves, block by block, as a CSV and a figure (each curve as SEED=PATH; the figure
draws every curve per 10 000 games and its gap from TDL2048+'s first seed):

    python tools/td_scale.py curves --g2048 1=curve-s1.csv 2=curve-s2.csv --tdl-dir 1=DIR \
        --out docs/td/td-lambda-1m.csv --figure docs/td/td_lambda_1m.png
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pandas as pd
from td_recipes import ALPHA, BLOCK, LAMBDA, NETWORK

from g2048.report.figures import save, td_agreement

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


def curves(g2048: dict[int, Path], tdl: dict[int, Path]) -> pd.DataFrame:
    """Both programs' curves, seed by seed, in tools/td_recipes.py's columns."""
    frames = [
        pd.read_csv(path)[["games", "mean_score"]].assign(program="g2048", seed=seed)
        for seed, path in g2048.items()
    ]
    for seed, folder in tdl.items():
        scores = tdl_blocks(folder)
        games = [1000 * (k + 1) for k in range(len(scores))]
        frames.append(
            pd.DataFrame({"games": games, "mean_score": scores}).assign(
                program="TDL2048+", seed=seed
            )
        )
    both = pd.concat(frames, ignore_index=True).assign(recipe=RECIPE)
    return both[["program", "recipe", "seed", "games", "mean_score"]]


def seeded(text: str) -> tuple[int, Path]:
    """A SEED=PATH argument."""
    seed, _, path = text.partition("=")
    if not seed.isdigit() or not path:
        raise argparse.ArgumentTypeError(f"expected SEED=PATH, got {text!r}")
    return int(seed), Path(path)


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
    both.add_argument(
        "--g2048", type=seeded, nargs="+", required=True, help="SEED=CSV of train --curve"
    )
    both.add_argument("--tdl-dir", type=seeded, nargs="+", required=True, help="SEED=tdl's --dir")
    both.add_argument("--out", type=Path, required=True, help="the curves (CSV)")
    both.add_argument("--figure", type=Path, help="draw them here (PNG)")
    args = parser.parse_args()
    if args.command == "tdl":
        if args.chunk % 1000 or args.games % args.chunk:
            parser.error("--chunk must be a multiple of 1000 that divides --games")
        run_tdl(args.tdl, args.games, args.chunk, args.seed, args.dir)
        return
    table = curves(dict(args.g2048), dict(args.tdl_dir))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    last = table.groupby(["program", "seed"]).tail(10).groupby(["program", "seed"])
    print(last.agg(games=("games", "max"), last_10_blocks=("mean_score", "mean")).round(0))
    if args.figure:
        save(td_agreement(table), args.figure.with_suffix(""))


if __name__ == "__main__":
    main()
