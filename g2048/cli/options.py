"""What the commands' parsers and handlers share: the subcommand helper, number types,
--out and its checks, errors that exit 2, and the agent's settings as flags."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from g2048.agents import AgentConfig

Command = Callable[[argparse.Namespace], int]


def exits_2_on(*errors: type[Exception]) -> Callable[[Command], Command]:
    """A command that prints any of `errors` (a one-line message) to stderr and exits 2."""

    def wrap(command: Command) -> Command:
        @functools.wraps(command)
        def run(args: argparse.Namespace) -> int:
            try:
                return command(args)
            except errors as exc:
                print(exc, file=sys.stderr)
                return 2

        return run

    return wrap


def need(args: argparse.Namespace, path: Path, what: str, folder: bool = False) -> None:
    """Stop with the parser's error unless the file (`folder`: the directory) `path`, the
    command's `what`, exists."""
    if not (path.is_dir() if folder else path.is_file()):
        args.parser.error(f"no {what} {str(path)!r}")


def bounded(
    kind: type, low: float, high: float | None = None, note: str = ""
) -> Callable[[str], float]:
    """An argparse type: a number of `kind` (int or float) in low..high (high None: no bound)."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            noun = "an integer" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"not {noun}: {text!r}") from None
        if not (value >= low and (high is None or value <= high)):
            bound = f">= {low}" if high is None else f"in {low}..{high}"
            raise argparse.ArgumentTypeError(f"must be {bound}{note}, got {text}")
        return value

    return parse


def at_least_0(
    parser: argparse.ArgumentParser, flag: str, default: float, text: str = "", note: str = ""
) -> None:
    """An option of a number >= 0 (of `default`'s type) whose help, `text`, ends with its
    default: "(default <default><note>)"."""
    help_text = f"{text} (default {default:g}{note})".lstrip()
    parser.add_argument(flag, type=bounded(type(default), 0), default=default, help=help_text)


AGENT_SETTINGS = [f for f in dataclasses.fields(AgentConfig) if f.name != "name"]


def out_problem(
    path: Path, force: bool, results: tuple[Path, ...] = (Path("results"),)
) -> str | None:
    """Why --out may not be `path`, or None: a path under a study's `results` folders (the
    pipeline's files, which a rerun would not notice replaced), or an existing file without
    --force."""
    target = path.resolve()
    for folder in results:
        if target == folder.resolve() or folder.resolve() in target.parents:
            return f"{str(path)!r} is under {folder}/, a study's results: write it elsewhere"
    if path.exists() and not path.is_dir() and not force:
        return f"{str(path)!r} exists: give --force to replace it"
    return None


def writable(path: Path) -> str | None:
    """Why `path` cannot take the output file, or None: proven by opening it for appending (and
    removing it again if that created it), before any work is done."""
    if path.is_dir():
        return f"{str(path)!r} is a directory"
    existed = path.exists()
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        return f"cannot write {str(path)!r}: {exc.strerror or exc}"
    if not existed:
        path.unlink()
    return None


def check_out(args: argparse.Namespace) -> None:
    """Stop with the parser's error where --out may not or cannot be written (out_problem,
    writable), before any work."""
    if problem := out_problem(args.out, args.force) or writable(args.out):
        args.parser.error(f"--out: {problem}")


def add_command(
    commands: argparse._SubParsersAction, func: Command, name: str, **options: Any
) -> argparse.ArgumentParser:
    """The subcommand `name` (its help, description, parents: `options`), which runs `func`
    with its own parser as args.parser (for the command's errors)."""
    parser = commands.add_parser(name, **options)
    parser.set_defaults(func=func, parser=parser)
    return parser


def out_options(parser: argparse.ArgumentParser, text: str, required: bool = True) -> None:
    """--out, the file a command writes (`text`: its help; checked by `check_out`), and
    --force, to replace an existing one."""
    parser.add_argument("--out", type=Path, required=required, help=text)
    parser.add_argument("--force", action="store_true", help="replace an existing --out file")
