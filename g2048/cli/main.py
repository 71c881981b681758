"""Command line: `python -m g2048 bench | profile | check-config | digest | verify | plan |
train | import-network | export-network | play | watch | move`."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

import g2048
from g2048.cli import bench, networks, plan, play, records


class _Parser(argparse.ArgumentParser):
    """argparse's parser (its subcommands' too), whose errors are one line, not argparse's
    usage block of up to 15 lines and then the line: a usage error (the command line's, while
    it is parsed) ends with a pointer to --help; a command's own error about a value or a file
    is that line alone."""

    _parsing = 0  # parse_args and parse_known_args calls under way

    def parse_known_args(self, *args: Any, **kwargs: Any) -> tuple[argparse.Namespace, list]:
        """argparse's, with its errors told apart as usage errors."""
        self._parsing += 1
        try:
            return super().parse_known_args(*args, **kwargs)
        finally:
            self._parsing -= 1

    def parse_args(self, *args: Any, **kwargs: Any) -> argparse.Namespace:
        """argparse's (whose unknown-arguments error comes after parse_known_args)."""
        self._parsing += 1
        try:
            return super().parse_args(*args, **kwargs)
        finally:
            self._parsing -= 1

    def error(self, message: str) -> NoReturn:
        """Print `message` in one line to stderr and exit 2."""
        pointer = f" (see {self.prog} --help)" if self._parsing else ""
        self.exit(2, f"{self.prog}: error: {message}{pointer}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m g2048`."""
    parser = _Parser(prog="g2048", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {g2048.__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for module in (bench, records, plan, networks, play):
        module.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (argparse exits with 2 on bad arguments)."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
