"""Command line: `python -m g2048 bench`."""

from __future__ import annotations

import argparse
import json
import sys

from g2048.bench import engine_figures


def _bench(args: argparse.Namespace) -> int:
    figures = engine_figures(seconds=args.seconds)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    rows = [
        ("first call (compile or cache load)", f"{figures['first_call_s']:.2f} s"),
        ("random playouts, 1 thread", f"{figures['random_moves_per_s'] / 1e6:.2f} M moves/s"),
        (
            f"random playouts, {figures['threads']} threads",
            f"{figures['random_moves_per_s_all_threads'] / 1e6:.2f} M moves/s",
        ),
        (
            "plain-Python reference engine",
            f"{figures['reference_moves_per_s'] / 1e3:.1f} k moves/s",
        ),
        ("numba engine / reference", f"{figures['speedup_vs_reference']:.0f}x"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>18}")
    return 0


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m g2048`."""
    parser = argparse.ArgumentParser(prog="g2048", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    bench = commands.add_parser("bench", help="measure engine speed")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--seconds", type=_positive_float, default=1.0, help="time per figure (default 1)"
    )
    bench.set_defaults(func=_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (argparse exits with 2 on bad arguments)."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
