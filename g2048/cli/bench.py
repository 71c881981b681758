"""`python -m g2048 bench` and `profile`: the speed figures of speed.py, as a table or JSON,
and expectimax's profile on fixed games."""

from __future__ import annotations

import argparse
import dataclasses
import json

from g2048.agents import AgentConfig
from g2048.cli.options import AGENT_SETTINGS, add_command, at_least_0, bounded
from g2048.cli.speed import (
    BenchFigures,
    budget_figures,
    deepening_figure,
    engine_figures,
    node_cost_figures,
    search_figures,
    search_profile,
    split_figures,
    star_figures,
    training_figures,
)
from g2048.evaluators import EVALUATORS
from g2048.settings import setting_schema
from g2048.study.config import fixed_depth_schema


def _bench(args: argparse.Namespace) -> int:
    figures = BenchFigures(engine_figures(seconds=args.seconds))
    if not args.engine_only:
        figures = dataclasses.replace(
            figures,
            search=search_figures(),
            budgets=budget_figures(),
            node_costs=node_cost_figures(),
            deepening=deepening_figure(),
            paired=split_figures() + star_figures(),
            training=training_figures(),
        )
    if args.json:
        print(json.dumps(figures.as_dict(), indent=2))
        return 0
    engine = figures.engine
    rows = [
        ("first call (compile or cache load)", f"{engine.first_call_s:.2f} s"),
        ("random playouts, 1 thread", f"{engine.random_moves_per_s / 1e6:.2f} M moves/s"),
        (
            f"random playouts, {engine.threads} threads",
            f"{engine.random_moves_per_s_all_threads / 1e6:.2f} M moves/s",
        ),
        ("plain-Python reference engine", f"{engine.reference_moves_per_s / 1e3:.1f} k moves/s"),
        ("numba engine / reference", f"{engine.speedup_vs_reference:.0f}x"),
    ]
    rows += [
        (
            f"expectimax depth {s.depth}, nneonneo, cutoff 1e-4, table on, 1 thread",
            f"{s.moves_per_s / 1e3:.1f} k moves/s",
        )
        for s in figures.search
    ]
    for b in figures.budgets:
        effort = (
            f"depth {b.mean_depth:.1f}"
            if b.mean_depth is not None
            else f"{b.rollouts_per_move:.0f} rollouts"
        )
        rows.append(
            (
                f"{b.agent} under {b.budget_ms:g}ms/move, {b.positions} positions",
                f"{effort}, worst {b.worst_over_ms:+.2f} ms",
            )
        )
    for c in figures.node_costs:
        rows.append(
            (
                f"{c.search} on {c.evaluator}, {c.budget_nodes} nodes/move, 1 thread: cost (range)",
                f"{c.us_per_node:.3f} us/node ({c.low:.3f}..{c.high:.3f})",
            )
        )
    if (d := figures.deepening) is not None:
        rows.append(
            (
                f"deepening to {d.depth} plies over fixed {d.depth} plies: time (range), nodes",
                f"{d.overhead:+.1%} ({d.low:+.0%}..{d.high:+.0%}), {d.node_overhead:+.1%}",
            )
        )
    for p in figures.paired:
        threads = f", {p.threads} threads" if p.option == "parallel" else ""
        rows.append(
            (
                f"{p.option} on/off, depth {p.depth}{threads}: speed-up (range), nodes",
                f"{p.speedup:.2f}x ({p.low:.2f}..{p.high:.2f}), {p.node_ratio - 1:+.1%}",
            )
        )
    if (t := figures.training) is not None:
        rows.append(
            (
                f"TD(0) training, {t.network}, first {t.games} games, 1 thread",
                f"{t.moves_per_s / 1e3:.1f} k moves/s",
            )
        )
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>18}")
    return 0


def _profile(args: argparse.Namespace) -> int:
    for depth in args.depth:
        settings = {"max_moves": args.max_moves, "cutoff": args.cutoff}
        settings |= {"table_bits": args.table_bits, "evaluator": args.evaluator}
        print(search_profile(depth, args.games, args.repeat, **settings), flush=True)
    return 0


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def register(commands: argparse._SubParsersAction) -> None:
    """The subcommands bench and profile, added to `commands`."""
    bench = add_command(
        commands,
        _bench,
        "bench",
        help="measure the speed of the engine, the searches and TD training",
        description="Random playouts (the engine), then, unless --engine-only, expectimax's "
        "speed by depth, its budgets, node costs, iterative deepening, parallel search and "
        "Star1 against plain search, and TD training rates.",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--seconds", type=_positive_float, default=1.0, help="time per figure (default 1)"
    )
    bench.add_argument("--engine-only", action="store_true", help="the engine's figures alone")
    profile = add_command(
        commands,
        _profile,
        "profile",
        help="expectimax speed and a result digest on fixed games",
        description="Plays the same games (nneonneo evaluator, cutoff 1e-4, "
        f"2**{AgentConfig.table_bits}-slot table "
        "unless told) once to compile or load, then --repeat times; prints the best rate, the "
        "nodes searched and a digest of every result column but `seconds`: an optimisation must "
        "leave the digest unchanged. Under `valgrind --tool=callgrind` instruction counts are "
        "deterministic; the search's own share is the difference from a run with --games 0, "
        "which only compiles or loads.",
    )
    depths = fixed_depth_schema()
    profile.add_argument(
        "--depth",
        type=bounded(int, depths["minimum"], depths["maximum"]),
        nargs="+",
        default=[3, 5],
        help=f"search depths in plies (default 3 5; at most {depths['maximum']}, the study's "
        "deepest fixed search)",
    )
    at_least_0(profile, "--games", 2)
    profile.add_argument("--max-moves", type=bounded(int, 1), default=600, help="(default 600)")
    profile.add_argument("--cutoff", type=bounded(float, 0, 0.999), default=1e-4)
    bits = setting_schema(next(f for f in AGENT_SETTINGS if f.name == "table_bits"))
    profile.add_argument(
        "--table-bits",
        type=bounded(int, bits["minimum"], bits["maximum"]),
        default=AgentConfig.table_bits,
    )
    profile.add_argument("--evaluator", default="nneonneo", choices=sorted(EVALUATORS))
    profile.add_argument("--repeat", type=bounded(int, 1), default=1, help="(default 1)")
