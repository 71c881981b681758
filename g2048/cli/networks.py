"""`python -m g2048 train`, `import-network` and `export-network`: n-tuple networks trained by
self-play, and read from or written in TDL2048+'s weight-file format."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from g2048.cli.options import (
    add_command,
    at_least_0,
    bounded,
    check_out,
    out_options,
    writable,
)
from g2048.cli.weights import recorded_network
from g2048.evaluators import tdl2048
from g2048.evaluators.ntuple import NETWORKS, load_network, pattern_name, save_network
from g2048.learning.recipes import RECIPES, TDConfig, td_schema
from g2048.settings import SettingError, add_flags
from g2048.study import stages
from g2048.study.config import value_problem
from g2048.study.records.integrity import file_sha256
from g2048.study.records.logs import ReportedError
from g2048.study.results import write_csv

# train's flags: TDConfig's settings (g2048/learning/recipes.py), as the config's tune.td has
# them, and the command's own (recipes.TRAIN_ONLY: --from, --from-sha256)
_TD_SCHEMA = td_schema("", train=True)


def _network_name(text: str) -> str:
    """A --network value: a named network, or tuples by their cells (ntuple.pattern_name)."""
    if text in NETWORKS:
        return text
    try:
        return pattern_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; or one of {', '.join(NETWORKS)}") from None


def _train(args: argparse.Namespace) -> int:
    given = {k: v for k, v in vars(args).items() if k in _TD_SCHEMA["properties"]}
    for key, value in given.items():  # in check-config's words
        if problem := value_problem(_TD_SCHEMA["properties"][key], value):
            args.parser.error(
                f"argument --{key.replace('_', '-')}: {problem} (as in a study config)"
            )
    _train_network(args, given)
    try:  # the recipe's settings, then the flags given, and the rules across them
        config = RECIPES[args.recipe].config(given)
    except SettingError as exc:
        args.parser.error(f"argument --{exc.key.replace('_', '-')}: {exc}")
    check_out(args)  # a killed run wrote no --out yet: its checkpoint resumes without --force
    if args.curve is not None and (problem := writable(args.curve)):
        args.parser.error(f"{args.curve}: {problem}")
    checkpoint = args.out.with_name(args.out.name + ".ckpt")
    try:
        data, curve, network = stages.train(
            "td", config, args.seed, args.study_seed, str(args.out), str(checkpoint),
            args.threads, lambda line: print(line, flush=True),
        )  # fmt: skip
    except ReportedError as exc:  # diverged, or a damaged checkpoint: nothing written
        print(f"g2048 train: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        args.parser.error(str(exc))
    except KeyboardInterrupt:
        print(f"\ninterrupted: the same command resumes from {checkpoint}", file=sys.stderr)
        return 130
    save_network(args.out, network)
    if args.curve is not None:
        write_csv(args.curve, curve)
    checkpoint.unlink(missing_ok=True)
    last = curve.iloc[-1]
    print(
        f"wrote {args.out} (the file's SHA-256 {file_sha256(args.out)[:16]}..., its weight "
        f"array's {data['network_sha256'][:16]}..., which a study records): over the last "
        f"block, mean score {last.mean_score:.0f}, 2048 in {last.reach_2048:.1%}"
    )
    if config.from_:
        print(f"trained on from {config.from_} (sha256 {config.from_sha256})")
    return 0


def _train_network(args: argparse.Namespace, given: dict) -> None:
    """The network of `train` into `given`: --network, --patterns (by its cells), or with
    --from the file's network, stages and SHA-256 unless given (the file checked as play reads
    a network; whether it holds the network given, train checks); else parser.error."""
    if args.patterns is not None:
        if "network" in given:
            args.parser.error("give --network or --patterns, not both")
        try:
            given["network"] = pattern_name(args.patterns)
        except ValueError as exc:
            args.parser.error(f"argument --patterns: {exc}")
    if given.get("from"):
        try:
            loaded = recorded_network(given["from"])
        except ValueError as exc:
            args.parser.error(f"argument --from: {exc}")
        given.setdefault("network", loaded.name)
        given.setdefault("stages", list(loaded.stages))
        given.setdefault("from_sha256", file_sha256(given["from"]))
    elif "network" not in given:
        args.parser.error(
            "the following arguments are required: --network (or --patterns, or --from)"
        )


def _import_network(args: argparse.Namespace) -> int:
    check_out(args)
    try:
        loaded = tdl2048.read_network(args.file, args.network, tuple(args.stages))
    except ValueError as exc:
        args.parser.error(str(exc))
    save_network(args.out, loaded)
    print(f"wrote {args.out}: {tdl2048.describe(loaded)} from TDL2048+'s {args.file}")
    return 0


def _export_network(args: argparse.Namespace) -> int:
    check_out(args)
    try:
        loaded = load_network(args.file)
    except ValueError as exc:
        args.parser.error(str(exc))
    tdl2048.write_network(args.out, loaded)
    print(
        f"wrote {args.out}: {tdl2048.describe(loaded)} in TDL2048+'s format; it reads it with "
        f"{tdl2048.tdl_command(loaded)} -i {args.out}"
    )
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """The subcommands train, import-network and export-network, added to `commands`."""
    train = add_command(
        commands,
        _train,
        "train",
        help="train an n-tuple network by self-play: TD(0), TD(lambda), optimistic TD, TC, "
        "multistage (--recipe)",
        description="The pipeline's td tuning run outside the pipeline: the same games (seeded "
        "from --study-seed and the run's name td-s<seed>), the same network for the same "
        "settings. The state is saved to OUT.ckpt every --checkpoint-every games; after a kill "
        "or Ctrl-C the same command resumes from it. --from FILE goes on from a network "
        "file's weights (TDL2048+'s -i; checked as play reads a network), its network and "
        "stages taken from the file unless given (then they must be the file's) and its "
        "SHA-256 printed and kept in the run's settings; --patterns trains tuples of their "
        "own. At the end it prints the SHA-256 of the file written and that of its weight "
        "array (what a study records of a network).",
    )
    train.add_argument(
        "--recipe",
        choices=list(RECIPES),
        default="td",
        help="TDL2048+'s named recipes, whose settings the flags given override: "
        + "; ".join(f"{name}: {r.description}" for name, r in RECIPES.items()).replace("%", "%%")
        + " (default td)",
    )
    add_flags(train, TDConfig, given_only=True, supplied=("network",))
    train.add_argument(
        "--patterns",
        metavar="CELLS",
        help="the network's own tuples instead of --network: each tuple's cells (0..15, row by "
        "row) separated by commas, the tuples by semicolons, '0,1,2,3,4,5;4,5,6,7,8,9' (the "
        "network is named so in its file and the run's settings)",
    )
    at_least_0(train, "--seed", 1, "run seed")
    at_least_0(train, "--study-seed", 2048)
    train.add_argument(
        "--threads",
        type=bounded(int, 1, os.cpu_count() or 1, " (the machine's cores)"),
        default=1,
        help="threads that play a round's games (with --batch > 1) or every game (with "
        "--lock-free); default 1",
    )
    out_options(
        train, "the network file (.npz); not under results/, and an existing one only with --force"
    )
    train.add_argument("--curve", type=Path, help="write the learning curve here (CSV)")
    importer = add_command(
        commands,
        _import_network,
        "import-network",
        help="read a network from TDL2048+'s weight file (FILE.w)",
        description="Reads the weight file TDL2048+ (moporgic/TDL2048) writes with -o FILE.w "
        "into a network file (.npz) for --evaluator ntuple. The file's tables must be those "
        "of --network (TDL2048+ names 4x6patt to 8x6patt alike); a file that is not, or is "
        "truncated, is refused in one line naming what differs.",
    )
    importer.add_argument("file", type=Path, help="TDL2048+'s weight file")
    importer.add_argument(
        "--network",
        type=_network_name,
        required=True,
        help=f"the network the file holds: {', '.join(NETWORKS)}, or tuples by their cells "
        "(train --patterns)",
    )
    importer.add_argument(
        "--stages",
        type=bounded(int, 4, 32768),
        nargs="+",
        default=[],
        metavar="TILE",
        help="a multistage file's tile thresholds, which the file does not hold (TDL2048+'s "
        "-@ 0,16384 is --stages 16384; default: one stage)",
    )
    out_options(importer, "the network file (.npz)")
    exporter = add_command(
        commands,
        _export_network,
        "export-network",
        help="write a network in TDL2048+'s weight-file format (FILE.w)",
        description="Writes a network file (.npz, of train or import-network) as TDL2048+ "
        "writes its weights, for its -i FILE.w; prints the -n (and -@) options that read it. "
        "A file import-network read is written back byte for byte.",
    )
    exporter.add_argument("file", type=Path, help="the network file (.npz)")
    out_options(exporter, "TDL2048+'s weight file (name it .w)")
