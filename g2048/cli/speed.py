"""Engine speed figures, measured in one run so that ratios are not spoiled by machine noise
(random playouts, the reference engine, expectimax, TD training), and the search profile of
`python -m g2048 profile`. Each kind of figure is a record; `BenchFigures` holds them all and
writes the flat JSON object of `python -m g2048 bench --json`."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from g2048.agents import STATS_SIZE, AgentConfig, choose_move
from g2048.agents.deepening import MAX_PLIES
from g2048.agents.expectimax import new_table
from g2048.cli.watch import positions
from g2048.engine import reference
from g2048.engine.board import random_games
from g2048.engine.parallel import max_threads, thread_count
from g2048.engine.rng import game_seeds, rng_state
from g2048.evaluators.ntuple import Network, lut_size, network_tuples
from g2048.learning.recipes import TDConfig
from g2048.learning.td import train
from g2048.play import agent_params, evaluator_rows, play_games
from g2048.settings import setting_schema, settings_of


@dataclass(frozen=True)
class EngineFigures:
    """Random playouts: the first call's time (compile or cache load), game moves per second on
    one thread and on all `threads`, and the plain-Python reference engine's."""

    first_call_s: float
    random_moves_per_s: float
    threads: int
    random_moves_per_s_all_threads: float
    reference_moves_per_s: float
    speedup_vs_reference: float


@dataclass(frozen=True)
class SearchFigure:
    """Expectimax at a fixed depth over whole fixed games (see search_figures)."""

    depth: int
    moves_per_s: float
    mean_score: float


@dataclass(frozen=True)
class BudgetFigure:
    """An agent under a time budget per move on fixed positions: how far its moves went over
    the budget, and its effort: the mean depth reached (expectimax) or the rollouts per move
    (montecarlo)."""

    agent: str
    budget_ms: float
    positions: int
    worst_over_ms: float
    p99_over_ms: float
    mean_depth: float | None = None
    rollouts_per_move: float | None = None

    @property
    def key(self) -> str:
        return f"{self.agent}_{self.budget_ms:g}ms"


@dataclass(frozen=True)
class NodeCostFigure:
    """A search's cost per node alone on this machine (1 thread, no other job of the study):
    microseconds per node over fixed positions under a node budget, the median, lowest and
    highest of interleaved passes. It places the study's node-budget rows on a time axis."""

    search: str
    evaluator: str
    budget_nodes: int
    us_per_node: float
    low: float
    high: float

    @property
    def key(self) -> str:
        return f"{self.search}_{self.evaluator}"


@dataclass(frozen=True)
class DeepeningFigure:
    """Deepening to `depth` plies against fixed `depth`-ply search on the same games: the time
    ratio - 1 (median, lowest, highest of interleaved pairs) and the node ratio - 1."""

    depth: int
    overhead: float
    low: float
    high: float
    node_overhead: float


@dataclass(frozen=True)
class PairedFigure:
    """A search option (parallel, star) on against off at one depth (see _paired_passes)."""

    option: str
    depth: int
    threads: int
    positions: int
    speedup: float
    low: float
    high: float
    node_ratio: float


@dataclass(frozen=True)
class TrainingFigures:
    """TD(0) training of network `network` over its first `games` games on one thread."""

    network: str
    games: int
    moves_per_s: float
    games_per_s: float


@dataclass(frozen=True)
class BenchFigures:
    """Every figure of one `python -m g2048 bench` run (the engine's alone with --engine-only)."""

    engine: EngineFigures
    search: tuple[SearchFigure, ...] = ()
    budgets: tuple[BudgetFigure, ...] = ()
    node_costs: tuple[NodeCostFigure, ...] = ()
    deepening: DeepeningFigure | None = None
    paired: tuple[PairedFigure, ...] = ()
    training: TrainingFigures | None = None

    def as_dict(self) -> dict[str, float]:
        """The figures as one flat JSON object, named as `bench --json` prints them."""
        out: dict[str, float] = dict(vars(self.engine))
        for s in self.search:
            out[f"expectimax_d{s.depth}_moves_per_s"] = s.moves_per_s
            out[f"expectimax_d{s.depth}_mean_score"] = s.mean_score
        if self.budgets:
            out["budget_positions"] = self.budgets[0].positions
        for b in self.budgets:
            out[f"{b.key}_worst_over_ms"] = b.worst_over_ms
            out[f"{b.key}_p99_over_ms"] = b.p99_over_ms
            if b.mean_depth is not None:
                out[f"{b.key}_mean_depth"] = b.mean_depth
            if b.rollouts_per_move is not None:
                out[f"{b.key}_rollouts_per_move"] = b.rollouts_per_move
        for c in self.node_costs:
            out[f"{c.key}_us_per_node"] = c.us_per_node
            out[f"{c.key}_us_per_node_low"] = c.low
            out[f"{c.key}_us_per_node_high"] = c.high
        if (d := self.deepening) is not None:
            out[f"deepening_overhead_d{d.depth}"] = d.overhead
            out[f"deepening_overhead_d{d.depth}_low"] = d.low
            out[f"deepening_overhead_d{d.depth}_high"] = d.high
            out[f"deepening_node_overhead_d{d.depth}"] = d.node_overhead
        for p in self.paired:
            out.setdefault(f"{p.option}_threads", p.threads)
            out.setdefault(f"{p.option}_positions", p.positions)
            key = f"{p.option}_d{p.depth}"
            out[f"{key}_speedup"] = p.speedup
            out[f"{key}_speedup_low"] = p.low
            out[f"{key}_speedup_high"] = p.high
            out[f"{key}_node_ratio"] = p.node_ratio
        if (t := self.training) is not None:
            out |= {"td_games": t.games, "td_moves_per_s": t.moves_per_s}
            out["td_games_per_s"] = t.games_per_s
        return out


def _moves_per_second(play_batch: Callable[[int], int], seconds: float) -> float:
    """Best rate of play_batch(start) -> moves over repeated batches within `seconds`.

    The best batch, as timeit takes the minimum, because other load only ever slows a batch.
    """
    best = 0.0
    start = 0
    t_end = time.perf_counter() + seconds
    while (t0 := time.perf_counter()) < t_end or best == 0.0:
        moves = play_batch(start)
        best = max(best, moves / (time.perf_counter() - t0))
        start += 1_000_000
    return best


def engine_figures(seconds: float = 1.0) -> EngineFigures:
    """First-call time and random-playout game moves per second of the engine and the reference."""
    t0 = time.perf_counter()
    random_games(np.zeros(1, dtype=np.uint64))
    first_call = time.perf_counter() - t0

    def numba_batch(threads: int, size: int) -> Callable[[int], int]:
        # Consecutive integers are fine as game seeds here: the generator mixes its seed.
        return lambda start: int(
            random_games(np.arange(start, start + size, dtype=np.uint64), threads)[2].sum()
        )

    def reference_batch(start: int) -> int:
        return sum(reference.ref_random_game(random.Random(start + i))[2] for i in range(5))

    single = _moves_per_second(numba_batch(1, 1000), seconds)
    threads = max_threads()
    parallel = _moves_per_second(numba_batch(threads, 1000 * threads), seconds)
    plain = _moves_per_second(reference_batch, seconds)
    return EngineFigures(
        first_call_s=first_call,
        random_moves_per_s=single,
        threads=threads,
        random_moves_per_s_all_threads=parallel,
        reference_moves_per_s=plain,
        speedup_vs_reference=single / plain,
    )


def time_search(
    depth: int,
    games: int = 2,
    max_moves: int = 600,
    repeat: int = 1,
    cutoff: float = 1e-4,
    table_bits: int = AgentConfig.table_bits,
    evaluator: str = "nneonneo",
) -> tuple[pd.DataFrame, float, float]:
    """Expectimax on fixed games (1 thread): (games played, best total game seconds over
    `repeat` runs, seconds of the first call that compiles or loads the code)."""
    agent = AgentConfig("expectimax", depth=depth, cutoff=cutoff, table_bits=table_bits)
    seeds = game_seeds(0, "bench-search", games)
    t0 = time.perf_counter()
    play_games(agent, seeds[:1], evaluator, max_moves=1)
    warm = time.perf_counter() - t0
    df = pd.DataFrame()
    best = float("inf")  # the best of the repeats: other load only slows a run
    for _ in range(repeat if games else 0):
        df = play_games(agent, seeds, evaluator, max_moves=max_moves)
        best = min(best, float(df.seconds.sum()))
    return df, best, warm


def search_figures(
    depths: tuple[int, ...] = (3, 5), games: int = 4, max_moves: int = 0
) -> tuple[SearchFigure, ...]:
    """Expectimax game moves per second (1 thread) with the nneonneo evaluator, cutoff 1e-4 and
    the transposition table, over whole fixed games (max_moves 0), per depth: a game's late
    positions, with more tiles, search slower than its opening."""
    figures = []
    for depth in depths:
        df, seconds, _ = time_search(depth, games, max_moves)
        figures.append(SearchFigure(depth, float(df.moves.sum() / seconds), float(df.score.mean())))
    return tuple(figures)


def fixed_positions(games: int = 2, every: int = 25) -> list[np.uint64]:
    """Every `every`-th position of fixed games of 3-ply expectimax (nneonneo, cutoff 1e-4)."""
    agent = AgentConfig("expectimax", depth=3, cutoff=1e-4)
    seeds = game_seeds(0, "bench-positions", games)
    return [
        np.uint64(p.board) for seed in seeds for p in list(positions(agent, int(seed)))[::every]
    ]


def budget_figures(budgets_ms: tuple[float, ...] = (1.0, 10.0, 100.0)) -> tuple[BudgetFigure, ...]:
    """Time budgets on fixed positions (nneonneo, cutoff 1e-4, 1 thread), for expectimax
    (iterative deepening) and Monte Carlo: per budget the worst and the 99th-percentile time of
    a move over the budget (the call from Python included), and the mean depth reached or the
    rollouts per move."""
    boards = fixed_positions()
    kind, w, tables = evaluator_rows(AgentConfig("expectimax"), "nneonneo")
    figures = []
    for name, budget in [(n, b) for n in ("expectimax", "montecarlo") for b in budgets_ms]:
        agent = AgentConfig(name, depth=MAX_PLIES, cutoff=1e-4, budget_ms=budget)
        params, stats = agent.params(), np.zeros(STATS_SIZE, dtype=np.int64)
        rng, table = rng_state(0), new_table(agent.table_bits)
        choose_move(agent.kind, params, kind, w, tables, boards[0], rng, table, 0, stats)
        stats[:] = 0
        over = []
        for i, b in enumerate(boards):
            t0 = time.perf_counter()
            choose_move(agent.kind, params, kind, w, tables, b, rng, table, i + 1, stats)
            over.append(1000 * (time.perf_counter() - t0) - budget)
        reached = stats[2:]
        effort = (
            {"mean_depth": float(reached @ np.arange(reached.size) / reached.sum())}
            if name == "expectimax"
            else {"rollouts_per_move": float(stats[0] / len(boards))}
        )
        worst, p99 = float(np.max(over)), float(np.percentile(over, 99))
        figures.append(BudgetFigure(name, budget, len(boards), worst, p99, **effort))
    return tuple(figures)


# The default study's node-budget rows, a middle budget of each (search, evaluator) line; the
# network is a random wu6x4: its cost is its tables' lookups, whatever their values.
NODE_COST_AGENTS = (
    ("nneonneo", AgentConfig("expectimax", depth=MAX_PLIES, cutoff=1e-4, budget_nodes=20000)),
    ("nneonneo", AgentConfig("montecarlo", budget_nodes=400)),
    ("nneonneo", AgentConfig("hybrid", depth=MAX_PLIES, cutoff=1e-4, rollouts=10, step_cap=10,
                             budget_nodes=120)),
    ("ntuple", AgentConfig("expectimax", depth=MAX_PLIES, cutoff=1e-4, budget_nodes=500)),
)  # fmt: skip


def node_cost_figures(
    passes: int = 3,
    agents: tuple[tuple[str, AgentConfig], ...] = NODE_COST_AGENTS,
    network: str = "wu6x4",
) -> tuple[NodeCostFigure, ...]:
    """Each (evaluator, agent)'s microseconds per node on the fixed positions of budget_figures
    (1 thread), from `passes` interleaved passes over every agent: the machine's load changes
    between passes, so each agent's median and range come from the same moments. The ntuple
    evaluator plays a random `network`."""
    boards = fixed_positions()
    searches = []
    for evaluator, agent in agents:
        weights = None
        if evaluator == "ntuple":
            size = lut_size(network_tuples(network))
            lut = np.random.default_rng(0).normal(0.0, 100.0, size).astype(np.float32)
            weights = Network(network, lut)
        kind, w, tables = evaluator_rows(agent, evaluator, weights)
        searches.append((agent, kind, w, tables, agent_params(agent, evaluator, tables)))
    costs: list[list[float]] = [[] for _ in searches]
    for i in range(passes + 1):  # the first pass compiles or loads the code: not counted
        for (agent, kind, w, tables, params), cost in zip(searches, costs, strict=True):
            stats, table = np.zeros(STATS_SIZE, dtype=np.int64), new_table(agent.table_bits)
            state = rng_state(0)
            t0 = time.perf_counter()
            for stamp, b in enumerate(boards, 1):
                choose_move(agent.kind, params, kind, w, tables, b, state, table, stamp, stats)
            if i:
                cost.append(1e6 * (time.perf_counter() - t0) / stats[0])
    return tuple(
        NodeCostFigure(
            agent.name, evaluator, agent.budget_nodes, float(np.median(c)), min(c), max(c)
        )
        for (evaluator, agent), c in zip(agents, costs, strict=True)
    )


def deepening_figure(depth: int = 5) -> DeepeningFigure:
    """The overhead of deepening at a fixed final depth: to `depth` plies without a budget
    that stops it against fixed `depth`-ply search (nneonneo, cutoff 1e-4, 1 thread), the same
    games, in time (median, lowest and highest of five interleaved pairs) and nodes."""
    fixed = AgentConfig("expectimax", depth=depth, cutoff=1e-4)
    # the largest node budget a setting takes: more than any search to `depth` visits per move
    field = next(f for f in settings_of(AgentConfig) if f.name == "budget_nodes")
    unreached = setting_schema(field)["maximum"]
    deepening = AgentConfig("expectimax", depth=depth, cutoff=1e-4, budget_nodes=unreached)
    seeds = game_seeds(0, "bench-deepening", 12)
    ratios, nodes = [], {}
    for _ in range(5):  # interleaved pairs: the machine's load changes between them
        seconds = {}
        for agent in (fixed, deepening):
            df = play_games(agent, seeds)
            seconds[agent], nodes[agent] = float(df.seconds.sum()), int(df.nodes.sum())
        ratios.append(seconds[deepening] / seconds[fixed])
    return DeepeningFigure(
        depth=depth,
        overhead=float(np.median(ratios)) - 1,
        low=min(ratios) - 1,
        high=max(ratios) - 1,
        node_overhead=nodes[deepening] / nodes[fixed] - 1,
    )


def _paired_passes(option: str, depths: tuple[int, ...], pairs: int) -> tuple[PairedFigure, ...]:
    """Expectimax (nneonneo, cutoff 1e-4, table 2**20) with `option` on against off, on the fixed
    positions of budget_figures, all numba's threads available: per depth the speed-up of a pass
    over the positions (median, lowest and highest of interleaved pairs) and the nodes' ratio."""
    boards = fixed_positions()
    kind, w, tables = evaluator_rows(AgentConfig("expectimax"), "nneonneo")
    threads = max_threads()
    figures = []
    stamp = 0

    def search_pass(agent: AgentConfig) -> tuple[float, int]:
        nonlocal stamp
        params = agent_params(agent, "nneonneo", tables, threads)
        stats, rng, table = np.zeros(STATS_SIZE, dtype=np.int64), rng_state(0), new_table(20)
        t0 = time.perf_counter()
        with thread_count(threads):
            for b in boards:
                stamp += 1  # a fresh stamp per search: nothing carries over between passes
                choose_move(agent.kind, params, kind, w, tables, b, rng, table, stamp, stats)
        return time.perf_counter() - t0, int(stats[0])

    for depth in depths:
        off = AgentConfig("expectimax", depth=depth, cutoff=1e-4, table_bits=20)
        on = AgentConfig(**{**off.__dict__, option: True})
        search_pass(off), search_pass(on)  # compile or load; fill the tables' pages
        ratios = []
        for _ in range(pairs):  # interleaved: the machine's load changes between pairs
            (off_s, off_nodes), (on_s, on_nodes) = search_pass(off), search_pass(on)
            ratios.append(off_s / on_s)
        figures.append(
            PairedFigure(
                option=option,
                depth=depth,
                threads=threads,
                positions=len(boards),
                speedup=float(np.median(ratios)),
                low=min(ratios),
                high=max(ratios),
                node_ratio=on_nodes / off_nodes,
            )
        )
    return tuple(figures)


def split_figures(depths: tuple[int, ...] = (7, 9), pairs: int = 7) -> tuple[PairedFigure, ...]:
    """Parallel search within a move against serial search (see _paired_passes)."""
    return _paired_passes("parallel", depths, pairs)


def star_figures(depths: tuple[int, ...] = (5, 7), pairs: int = 7) -> tuple[PairedFigure, ...]:
    """Star1 pruning against plain search (see _paired_passes; serial search)."""
    return _paired_passes("star", depths, pairs)


def training_figures(games: int = 2000, network: str = "wu6x4") -> TrainingFigures:
    """TD(0) training from zero weights on one thread: game moves (with their updates) and
    games per second over the first `games` games, after compiling."""
    _, curve = train(TDConfig(network, games), lambda at, n: game_seeds(0, "bench-td", n, at))
    moves = curve.mean_moves * np.diff(curve.games, prepend=0)
    seconds = float((moves / curve.moves_per_s).sum())
    return TrainingFigures(network, games, float(moves.sum()) / seconds, games / seconds)


def search_profile(depth: int, games: int, repeat: int = 1, **settings: object) -> str:
    """One line for `python -m g2048 profile`: expectimax moves/s and nodes/s on fixed games
    (the best of `repeat` runs) and a digest of every result column but `seconds`, which an
    optimisation must leave unchanged. `settings` go to `time_search`."""
    df, seconds, warm = time_search(depth, games, repeat=repeat, **settings)
    if games == 0:
        return f"depth {depth}: compile/load {warm:.1f} s"
    digest = hashlib.sha256(df.drop(columns="seconds").to_csv().encode()).hexdigest()[:12]
    return (
        f"depth {depth}: {df.moves.sum() / seconds:,.0f} moves/s, "
        f"{df.nodes.sum() / seconds / 1e6:.1f} M nodes/s ({df.moves.sum()} moves, "
        f"{df.nodes.sum()} nodes), digest {digest} (compile/load {warm:.1f} s)"
    )
