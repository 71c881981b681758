"""`python -m g2048 play`, `watch` and `move`: an agent, set up from the options they share,
plays games and summarizes them, shows one game in the terminal, or picks a move on a board."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

from g2048 import api
from g2048.agents import AGENTS, AUTO, AgentConfig
from g2048.cli.options import (
    AGENT_SETTINGS,
    add_command,
    at_least_0,
    bounded,
    check_out,
    out_options,
)
from g2048.cli.watch import CLEAR, positions, render
from g2048.cli.weights import read_network, read_weights
from g2048.engine.rng import game_seeds
from g2048.evaluators import EVALUATOR_NAMES
from g2048.play import evaluator_rows, play_games
from g2048.report.stats import THRESHOLDS, summarize
from g2048.settings import add_flags
from g2048.study.config import load_schema
from g2048.study.naming import NETWORK_EVALUATOR, PLAY_PURPOSE
from g2048.study.weights import rows_problem

# The study config's bounds on games (g2048/study/schema.yaml), which the CLI keeps too: `play`
# holds every game's row until the end, so it refuses more games up front instead of streaming.
_SIZES = load_schema()["$defs"]
MAX_GAMES = _SIZES["games"]["maximum"]


def _depth(text: str) -> int | str:
    """A --depth value: plies, or 'auto' (AgentConfig checks the range)."""
    if text == AUTO:
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer or {AUTO!r}: {text!r}") from None


def _agent_setup(args: argparse.Namespace) -> tuple[AgentConfig, object]:
    """The agent and its weights (None: the evaluator's defaults; a Network for ntuple) from
    the shared options, checked against the agent and the evaluator; a bad one ends in
    parser.error (exit 2)."""
    try:
        agent = AgentConfig(args.agent, **{f.name: getattr(args, f.name) for f in AGENT_SETTINGS})
        if args.evaluator == NETWORK_EVALUATOR:
            weights = read_network(args.weights)
        else:
            weights = None if args.weights is None else read_weights(args.weights, agent)
        evaluator_rows(agent, args.evaluator, weights)
        heuristic = weights is not None and args.evaluator != NETWORK_EVALUATOR
        if heuristic and (problem := rows_problem(args.evaluator, weights)) is not None:
            raise ValueError(f"--weights {args.weights}: {problem}")  # as a config's are
    except ValueError as exc:
        args.parser.error(str(exc))
    return agent, weights


def _describe(agent: AgentConfig, evaluator: str) -> str:
    """The agent, the settings it was given away from their defaults, and the evaluator."""
    changed = [
        f"{f.name}={getattr(agent, f.name)}"
        for f in AGENT_SETTINGS
        if getattr(agent, f.name) != f.default
    ]
    settings = f" ({', '.join(changed)})" if changed else ""
    return f"agent {agent.name}{settings}, evaluator {evaluator}"


def _format_ci(low: float, high: float) -> str:
    return "n/a" if math.isnan(low) else f"{low:.1f} to {high:.1f}"


def _show_progress(done: int, total: int) -> None:
    print(f"\r{done}/{total} games", end="\n" if done == total else "", file=sys.stderr, flush=True)


def _play(args: argparse.Namespace) -> int:
    agent, weights = _agent_setup(args)
    if args.out is not None:
        check_out(args)
    seeds = game_seeds(args.seed, args.purpose, args.games, start=args.start)
    progress = _show_progress if sys.stderr.isatty() else None
    try:
        df = play_games(
            agent, seeds, args.evaluator, weights, args.threads, args.max_moves, progress
        )
    except KeyboardInterrupt:
        print("\ninterrupted: no games written", file=sys.stderr)
        return 130
    if args.out is not None:
        df.assign(game=df.game + args.start).to_csv(args.out, index=False)
    s = summarize(df)
    print(_describe(agent, args.evaluator))
    first = f", from game {args.start}" if args.start else ""
    print(
        f"{s['games']} games of purpose {args.purpose!r} from study seed {args.seed}{first}, "
        f"{args.threads} thread(s)"
    )
    print(
        f"score      mean {s['score_mean']:.1f} "
        f"(95% CI {_format_ci(s['score_low'], s['score_high'])}), "
        f"median {s['score_median']:.0f}"
    )
    print(f"{'tile':<10}{'reached':>11}{'rate':>8}   95% CI")
    for t in THRESHOLDS:
        reached = f"{s[f'reached_{t}']}/{s['games']}"
        ci = f"{s[f'reach_{t}_low']:.1%} to {s[f'reach_{t}_high']:.1%}"
        print(f"{t:<10}{reached:>11}{s[f'reach_{t}']:>8.1%}   {ci}")
    print(f"moves      mean {s['moves_mean']:.1f}")
    print(f"speed      {s['moves_per_s']:,.0f} game moves/s per thread")
    return 0


def _watch(args: argparse.Namespace) -> int:
    agent, weights = _agent_setup(args)
    seed = game_seeds(args.seed, args.purpose, 1, start=args.game)[0]
    colour = sys.stdout.isatty()
    position = None
    try:
        for position in positions(agent, seed, args.evaluator, weights, args.max_moves):
            print(f"{CLEAR if colour else ''}{render(position, colour)}", flush=True)
            time.sleep(args.delay / 1000)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(f"final score {position.score}, max tile {position.max_tile}, moves {position.moves}")
    return 0


def _move(args: argparse.Namespace) -> int:
    agent, weights = _agent_setup(args)
    try:
        board = api.parse_board(args.board)
    except ValueError as exc:
        args.parser.error(f"argument --board: {exc}")
    try:
        player = api.Player(agent, args.evaluator, weights)
    except ValueError as exc:
        args.parser.error(str(exc))
    try:
        decision = player.decide(board, args.seed)
    except api.GameOverError as exc:
        print(f"g2048 move: {exc}", file=sys.stderr)
        return 1
    print(_describe(agent, args.evaluator))
    print(f"best move  {decision.move}")
    for direction, value in decision.values.items():
        print(f"{direction:<10} {value:.1f}" if value > -math.inf else f"{direction:<10} illegal")
    return 0


def _agent_options() -> argparse.ArgumentParser:
    """The options play, watch and move share: the agent, its settings, evaluator, weights."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--agent", required=True, choices=AGENTS)
    options.add_argument(
        "--evaluator",
        default="nneonneo",
        choices=EVALUATOR_NAMES,
        help="(default nneonneo; ntuple: a trained network, given by --weights)",
    )
    options.add_argument(
        "--weights",
        help="comma-separated numbers (--weights=-1,2,... when the first is negative) or a JSON "
        "file: a list of numbers (3 lists for switching) or a selection file of the pipeline, "
        "results/select/... (default: the evaluator's weights); for --evaluator ntuple a "
        "network file, results/tune/td/seed1.npz, or a td selection file",
    )
    add_flags(options, AgentConfig, omit=("name",), types={"depth": _depth})
    return options


def _game_options() -> argparse.ArgumentParser:
    """The options play and watch share beyond the agent's: the games' cap, seed, purpose."""
    options = argparse.ArgumentParser(add_help=False)
    at_least_0(
        options, "--max-moves", 0, "stop each game after this many moves", ": play to the end"
    )
    at_least_0(options, "--seed", 0, "study seed of the games")
    options.add_argument(
        "--purpose",
        default=PLAY_PURPOSE,
        help="whose games: 'play' (default), or a study's 'benchmark', 'validate', or a tuning "
        "run's e.g. 'nsga2-s1' / 'cem-s1-iter3'; with --seed set to the study's study_seed, "
        "game k is the study's game k",
    )
    return options


def register(commands: argparse._SubParsersAction) -> None:
    """The subcommands play, watch and move, added to `commands`."""
    agent_options = [_agent_options(), _game_options()]
    play = add_command(
        commands, _play, "play", parents=agent_options, help="play games and summarize them"
    )
    play.add_argument(
        "--games",
        type=bounded(
            int,
            1,
            MAX_GAMES,
            " (play keeps every game's row until the end: more is refused, "
            "not streamed; play more in runs of --start and --games)",
        ),
        default=10,
        help=f"(default 10; at most {MAX_GAMES}: every game's row is kept until the end, so "
        "more are refused up front, not streamed; split a bigger run with --start)",
    )
    at_least_0(play, "--start", 0, "index of the first game")
    play.add_argument(
        "--threads",
        type=bounded(int, 1, os.cpu_count() or 1, " (the machine's cores)"),
        default=1,
        help="(default 1)",
    )
    out_options(
        play,
        "write one CSV row per game here (checked before the first game; after Ctrl-C "
        "nothing is written); not under results/, and an existing file only with --force",
        required=False,
    )
    watch = add_command(
        commands, _watch, "watch", parents=agent_options, help="watch one game in the terminal"
    )
    at_least_0(watch, "--game", 0, "which game of --purpose (and --seed) to replay")
    at_least_0(watch, "--delay", 100.0, "ms after each move")
    mover = add_command(
        commands,
        _move,
        "move",
        parents=agent_options[:1],
        help="the agent's move on one board, and each move's value",
        description="Prints the move the agent plays on the board (as it would in a game) and "
        "the value its search gives each move (illegal: no value), then exits 0; exit 1 when "
        "no move is legal (the game is over). The Python API does the same: "
        "g2048.decide(board, AgentConfig(...)).",
    )
    mover.add_argument(
        "--board",
        required=True,
        help="16 tile values row by row (0 = empty), separated by commas or spaces, rows "
        "optionally separated by '/': --board 2,4,8,16/0,2,0,4/0,0,2,0/0,0,0,0",
    )
    at_least_0(mover, "--seed", 0, "seed of the agent's own random draws (rollouts)")
