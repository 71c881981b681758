"""`python -m g2048 check-config`, `digest` and `verify`: a study's files checked, its configs
before a run and its results (by their digests) after one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from g2048.cli.options import add_command, exits_2_on, need, out_options, out_problem
from g2048.study.config import ConfigError, load_config
from g2048.study.records.integrity import DigestFileError, verify, write_digests


@exits_2_on(DigestFileError)
def _digest(args: argparse.Namespace) -> int:
    need(args, args.results, "results folder", folder=True)
    if problem := out_problem(args.out, args.force, (args.results, Path("results"))):
        args.parser.error(f"--out: {problem}")
    count = write_digests(args.results, args.out, note=args.note, docs=args.docs)
    shown = f" and of the files under {', '.join(map(str, args.docs))}" if args.docs else ""
    print(f"wrote the digests of {count} result files under {args.results}{shown} to {args.out}")
    return 0


@exits_2_on(DigestFileError)
def _verify(args: argparse.Namespace) -> int:
    need(args, args.digests, "digest file")
    need(args, args.results, "results folder", folder=True)
    difference = verify(args.digests, args.results, partial=args.partial)
    if difference is not None:
        print(f"results differ from {args.digests}: {difference}", file=sys.stderr)
        return 1
    print(f"every result file under {args.results} matches {args.digests}")
    return 0


@exits_2_on(ConfigError)
def _check_config(args: argparse.Namespace) -> int:
    for path in args.configs:
        load_config(path)
        print(f"{path}: a valid study config")
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """The subcommands check-config, digest and verify, added to `commands`."""
    check_config = add_command(
        commands,
        _check_config,
        "check-config",
        help="check study config files, naming the file, line and key of a fault",
        description="What Snakemake checks before any job, with the file name and, for a YAML "
        "syntax error, the line and column (Snakemake's own message names neither). `make run` "
        "runs it first.",
    )
    check_config.add_argument("configs", nargs="+", type=Path, help="YAML study configs")
    digest = add_command(
        commands,
        _digest,
        "digest",
        help="write the digests of a study's result files",
        description="Digests of every CSV (timing columns left out) and JSON file under the "
        "results folder, row by row, for `verify` on another machine.",
    )
    digest.add_argument("--results", type=Path, default=Path("results"), help="(default results)")
    out_options(
        digest,
        "the digest file to write (not under a results folder; an existing one only with --force)",
    )
    digest.add_argument("--note", default="", help="what run the digests are of")
    digest.add_argument(
        "--docs",
        nargs="+",
        type=Path,
        default=[],
        metavar="FOLDER",
        help="also the SHA-256 of every file under these folders (the run's tables and figures "
        "copied to docs/, which a test checks against the file)",
    )
    check = add_command(
        commands,
        _verify,
        "verify",
        help="compare a study's result files with a digest file",
        description="Exit 0 when every result file matches the digest file, else 1 naming the "
        "first differing file and row.",
    )
    check.add_argument("digests", type=Path, help="a digest file written by `digest`")
    check.add_argument("--results", type=Path, default=Path("results"), help="(default results)")
    check.add_argument(
        "--partial",
        action="store_true",
        help="compare only the files present (a rerun of some of the jobs)",
    )
