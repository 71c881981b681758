"""Agents: who picks the move. They reach numba as an integer kind and a float64 parameter
vector (see AgentConfig.params), plus evaluator rows (kind, weights[k, d], tables[k, n]);
only `switching` uses more than the first row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from g2048.agents.deepening import MAX_PLIES, search_values
from g2048.agents.montecarlo import montecarlo_values
from g2048.agents.rollout import POLICIES, RANDOM_POLICY
from g2048.agents.sources import RULES, SOURCE001, first_best, source_values
from g2048.engine.bitboard import empty_count, max_in_corner, random_legal_move
from g2048.engine.javarng import java_state
from g2048.engine.rng import next_u64
from g2048.settings import check_settings, object_schema, setting


@dataclass(frozen=True)
class Traits:
    """What an agent does, which settles which settings apply to it: it searches a tree
    (depth, cutoff, table_bits, budgets, parallel), values boards by rollouts (rollouts,
    rollout_policy, step_cap, budgets, parallel), prunes with a bound of its evaluator's values
    (star), takes `weight_rows` weight vectors, and plays a fixed depth (greedy's 1) or its
    `depth` setting (None)."""

    searches: bool = False
    rolls_out: bool = False
    prunes: bool = False
    weight_rows: int = 1
    fixed_depth: int | None = None


# The one table of agents: an agent's kind is its index here (numba reads the constants below
# as compile-time constants), its traits the value.
TRAITS = {
    "random": Traits(),
    "greedy": Traits(fixed_depth=1),
    "expectimax": Traits(searches=True, prunes=True),
    "montecarlo": Traits(rolls_out=True),
    "hybrid": Traits(searches=True, rolls_out=True),
    "switching": Traits(searches=True, prunes=True, weight_rows=3),
}
AGENTS = tuple(TRAITS)
RANDOM, GREEDY, EXPECTIMAX, MONTECARLO, HYBRID, SWITCHING = range(len(AGENTS))
# Indices into the parameter vector.
(
    DEPTH,
    CUTOFF,
    TABLE_BITS,
    ROLLOUTS,
    POLICY,
    STEP_CAP,
    EMPTY_THRESHOLD,
    BUDGET_MS,
    BUDGET_NODES,
    PARALLEL,
    UPPER,
    RULE,
) = range(12)
SOURCE_PLAYERS = ("expectimax", "montecarlo", "hybrid")  # the players source 004's rules have
AUTO = "auto"  # the adaptive depth (g2048.agents.deepening), DEPTH 0 in the parameter vector
STATS_SIZE = 2 + MAX_PLIES + 1  # choose_move's stats: nodes, table hits, moves per depth reached
# Rows of a switching agent's weights: the front's balanced point, then its extremes.
BALANCED, EMPTY_HEAVY, CORNER_HEAVY = range(3)


@dataclass(frozen=True)
class AgentConfig:
    """An agent and its settings; unused settings are ignored by agents that do not need them.
    Each setting's field is its one definition: description, default, type and bounds, from
    which __post_init__ checks a value and `agent_schema` writes the study config's schema.

    depth: search plies (expectimax, hybrid, switching; greedy is depth 1), "auto" for
    nneonneo's adaptive depth, or with a budget the deepest iteration. cutoff: prune chance
    nodes below this path probability (0 = off). table_bits: log2 slots of the transposition
    table (0 = off; the default 12, 160 KB, holds a decision's entries to about 7 plies in the
    CPU's L2 cache, which 2**16 slots did not: 1.4x and 1.3x faster at 5 and 7 plies for
    0.2% and 2% more nodes; raise it for searches deeper than 9 plies). rollouts, rollout_policy,
    step_cap (0 = to game end): Monte Carlo valuation
    (montecarlo, hybrid). empty_threshold: switching uses its empty-heavy weights at this many
    empty cells or fewer. budget_ms, budget_nodes (0 = none; at most one): the search per move
    deepens (expectimax, hybrid, switching) or adds rollouts (montecarlo) while the budget
    lasts, in milliseconds of wall-clock time or in nodes (rollouts for montecarlo).
    parallel: search each move on all the threads the games are given, one game at a time
    (g2048.agents.parallel; rollouts in parallel for montecarlo): the same moves as serial search,
    sooner; for a few deep games rather than many. star: Star1 pruning of chance nodes
    (expectimax, switching; Ballard 1983): the same moves from fewer nodes, given an upper bound
    of the evaluator's values (params). rules: search as the project does ("g2048") or as a
    source's program does (g2048.agents.sources: "source001", "source004"), to judge its claims
    on its own play.
    """

    name: str = setting(description="Which agent plays.", label="agent", enum=list(AGENTS))
    depth: int | str = setting(
        3,
        description="expectimax, hybrid, switching: search depth in plies (1 = move then "
        'evaluate, 2 = move + chance layer, 3 = M C M, ...); "auto" = nneonneo\'s adaptive '
        "depth (2 x max(3, distinct tiles - 2) + 1 plies); with a budget, the deepest iteration.",
        oneOf=[{"type": "integer", "minimum": 1, "maximum": MAX_PLIES}, {"const": AUTO}],
    )
    cutoff: float = setting(
        0.0,
        description="expectimax, hybrid, switching: prune chance nodes whose path probability "
        "is below this (0 = off).",
        type="number",
        minimum=0,
        exclusiveMaximum=1,
    )
    table_bits: int = setting(
        12,
        description="expectimax, hybrid, switching: log2 of the transposition table's slots "
        "(0 = no table; 40 bytes a slot, one table per game being played). The default holds a "
        "decision's entries to about 7 plies in the CPU's L2 cache; raise it for searches "
        "deeper than 9 plies.",
        type="integer",
        minimum=0,
        maximum=26,
    )
    rollouts: int = setting(
        100,
        description="montecarlo, hybrid: rollouts per move (montecarlo) or per leaf (hybrid; "
        "at most 1 000 000).",
        type="integer",
        minimum=1,
        maximum=1_000_000,
    )
    rollout_policy: str = setting(
        "random",
        description="montecarlo, hybrid: how rollouts play (random moves, source 004's biased "
        "softmax, or the agent's evaluator played greedily).",
        enum=list(POLICIES),
    )
    step_cap: int = setting(
        0,
        description="montecarlo, hybrid: moves per rollout at most (0 = play to the end; at "
        "most 1 000 000, beyond the longest possible game).",
        type="integer",
        minimum=0,
        maximum=1_000_000,
    )
    empty_threshold: int = setting(
        3,
        description="switching: use the empty-heavy weights at this many empty cells or fewer.",
        type="integer",
        minimum=0,
        maximum=16,
    )
    budget_ms: float = setting(
        0.0,
        description="expectimax, hybrid, switching: deepen (depths 1, 3, 5, ...) while this "
        "many milliseconds per move last; montecarlo: add rollouts while they last (0 = no "
        "budget; at most 60 000, a minute). Games then depend on the machine's speed: such rows "
        "are marked timed and left out of the determinism checks.",
        type="number",
        minimum=0,
        maximum=60_000,
    )
    budget_nodes: int = setting(
        0,
        description="As budget_ms, in search nodes per move (rollouts for montecarlo): "
        "reproducible byte for byte (0 = no budget; give budget_ms or budget_nodes, not both; "
        "at most 1 000 000 000).",
        type="integer",
        minimum=0,
        maximum=1_000_000_000,
    )
    parallel: bool = setting(
        False,
        description="expectimax, hybrid, switching, montecarlo: search each move on all the "
        "threads of the job, playing its games one at a time (the same moves as serial search, "
        "sooner: for a few deep games). The node counts of a parallel tree search depend on the "
        "threads' timing: they are left out of the determinism checks, and budget_nodes is "
        "refused with it.",
        type="boolean",
    )
    star: bool = setting(
        False,
        description="expectimax, switching: Star1 pruning of chance nodes (Ballard 1983) with a "
        "bound of the evaluator's values (known for nneonneo): a chance node that cannot beat "
        "what its parent already has is cut off. The same moves from fewer nodes.",
        type="boolean",
    )

    rules: str = setting(
        "g2048",
        description="expectimax (source001, source004), montecarlo and hybrid (source004): "
        "search by the project's rules or as the source's own program does (dead boards valued "
        "by the evaluator, its chance arithmetic, its order of moves, its playouts drawn from "
        "java.util.Random; g2048.agents.sources), to judge a source's claim on its own play. "
        "A source's rules use no table and refuse a cutoff, budget, parallel search, star or "
        "other rollout settings.",
        enum=list(RULES),
    )
    downgrade: int = setting(
        0,
        description="ntuple evaluator: tile-downgrading (Guei, Chen & Wu 2021; TDL2048+'s -h) "
        "from this tile on: a board whose largest tile reaches it is valued as if each tile "
        "above its highest missing tile were one rank lower, for tiles the network has hardly "
        "seen (0 = off; a power of 2 up to 32768).",
        type="integer",
        enum=[0, *(2**k for k in range(3, 16))],
    )

    def __post_init__(self) -> None:
        check_settings(self)  # each setting against its schema; the rules across settings:
        if self.budget_ms and self.budget_nodes:
            raise ValueError("give budget_ms or budget_nodes, not both")
        if self.budgeted and self.depth == AUTO:
            raise ValueError(
                "depth 'auto' is a fixed depth rule; with a budget, depth is the deepest iteration"
            )
        if self.budgeted and not self.deliberates:
            raise ValueError(f"agent {self.name!r} does not search: a budget does not apply")
        if self.parallel and not self.deliberates:
            raise ValueError(f"agent {self.name!r} does not search: parallel does not apply")
        if self.star and not self.traits.prunes:
            raise ValueError(
                f"star prunes with a bound of the evaluator's values: agent {self.name!r} "
                "has no such leaves"
            )
        if self.rules != RULES[0]:
            self._check_source_rules()
        if self.parallel and self.budget_nodes and self.searches:
            raise ValueError(
                "budget_nodes with parallel: a parallel tree search's node count depends on the "
                "threads' timing, so a node budget would not give reproducible games"
            )

    def _check_source_rules(self) -> None:
        """ValueError unless the source whose rules are asked for has this agent and every
        other setting is one its program has."""
        players = ("expectimax",) if self.rules == RULES[SOURCE001] else SOURCE_PLAYERS
        if self.name not in players:
            raise ValueError(
                f"rules {self.rules!r} are for the agents {', '.join(players)}, not {self.name!r}"
            )
        extras = {
            "depth": self.depth == AUTO,
            "cutoff": self.cutoff,
            "budget_ms": self.budget_ms,
            "budget_nodes": self.budget_nodes,
            "parallel": self.parallel,
            "star": self.star,
            "rollout_policy": self.rollout_policy != POLICIES[RANDOM_POLICY],
            "step_cap": self.step_cap,
        }
        found = [key for key, value in extras.items() if value]
        if found:
            raise ValueError(
                f"rules {self.rules!r} search as the source's program does, which has no "
                f"{', '.join(found)} of this kind: leave {' and '.join(found)} at the default"
            )

    @property
    def budgeted(self) -> bool:
        """True when a budget sets the search per move."""
        return bool(self.budget_ms or self.budget_nodes)

    @property
    def timed(self) -> bool:
        """True when the games depend on the machine's speed (a time budget): such results are
        reproducible only up to timing."""
        return bool(self.budget_ms)

    @property
    def kind(self) -> int:
        return AGENTS.index(self.name)

    @property
    def traits(self) -> Traits:
        return TRAITS[self.name]

    @property
    def weight_rows(self) -> int:
        """How many weight vectors the agent takes."""
        return self.traits.weight_rows

    @property
    def searches(self) -> bool:
        """True for the agents that search a tree (depth, cutoff and table_bits apply)."""
        return self.traits.searches

    @property
    def rolls_out(self) -> bool:
        """True for the agents that value boards by rollouts (rollouts, rollout_policy and
        step_cap apply)."""
        return self.traits.rolls_out

    @property
    def deliberates(self) -> bool:
        """True for the agents that spend work on a move (a tree or rollouts): budgets and
        parallel search apply."""
        return self.searches or self.rolls_out

    def params(self, threads: int = 1, upper: float = np.inf) -> np.ndarray:
        """The parameter vector numba reads (indices DEPTH, CUTOFF, ...); a parallel agent
        searches on `threads` threads (PARALLEL: 0 = serial, as on a single thread, which
        also keeps callers that run games concurrently from launching parallel loops at once);
        a star agent prunes with `upper`, a bound of its evaluator's values (UPPER: inf =
        none; see g2048.play.agent_params)."""
        fixed = self.traits.fixed_depth
        depth = fixed if fixed is not None else 0 if self.depth == AUTO else self.depth
        return np.array(
            [
                depth,
                self.cutoff,
                self.table_bits if self.searches else 0,
                self.rollouts,
                POLICIES.index(self.rollout_policy),
                self.step_cap,
                self.empty_threshold,
                self.budget_ms,
                self.budget_nodes,
                threads if self.parallel and threads > 1 else 0,
                upper if self.star else np.inf,
                RULES.index(self.rules),
            ],
            dtype=np.float64,
        )


def agent_schema() -> dict:
    """The JSON schema (draft 2020-12) of an agent mapping in a study config, written from
    AgentConfig's settings (g2048.study.config.load_schema puts it at $defs.agent)."""
    return object_schema(AgentConfig, "An agent and its settings (see g2048.agents.AgentConfig).")


@njit(cache=True)
def switching_row(b: np.uint64, empty_threshold: int) -> int:
    """Source 000's rule: few empty cells -> empty-heavy weights; max tile off every corner ->
    corner-heavy weights; otherwise the balanced point."""
    if empty_count(b) <= empty_threshold:
        return EMPTY_HEAVY
    return BALANCED if max_in_corner(b) else CORNER_HEAVY


@njit(cache=True)
def root_values(kind, params, ev_kind, weights, tables, b, rng, tt, stamp, stats) -> tuple:  # noqa: ANN001
    """Each direction's value from board b (-inf: illegal) as a deliberating agent (not
    random) computes them; its draws come from rng (one word a decision), tt is its table."""
    rollouts = int(params[ROLLOUTS])
    mc = (0, int(params[POLICY]), int(params[STEP_CAP]), next_u64(rng))  # see rollout_state
    row = switching_row(b, int(params[EMPTY_THRESHOLD])) if kind == SWITCHING else 0
    ev = (ev_kind, weights[row], tables[row])
    budget_ms, budget_nodes = params[BUDGET_MS], int(params[BUDGET_NODES])
    split, rules = int(params[PARALLEL]), int(params[RULE])
    if rules:  # a source's program: its own search, its draws seeded by this decision's word
        depth = 1 if kind == MONTECARLO else int(params[DEPTH])
        rollouts = 0 if kind == EXPECTIMAX else rollouts
        return source_values(b, depth, rules, rollouts, ev, java_state(mc[3]))
    if kind == MONTECARLO:
        return montecarlo_values(b, rollouts, budget_ms, budget_nodes, mc, ev, stats, split)
    if kind == HYBRID:
        mc = (rollouts, mc[1], mc[2], mc[3])
    depth, cutoff = int(params[DEPTH]), params[CUTOFF]
    return search_values(
        b, depth, cutoff, budget_ms, budget_nodes, ev, mc, tt, stamp, stats, split, params[UPPER]
    )


@njit(cache=True)
def choose_move(kind, params, ev_kind, weights, tables, b, rng, tt, stamp, stats) -> int:  # noqa: ANN001
    """The agent's direction for board b, or -1 when no move is legal: the first best of
    root_values in its rules' order."""
    if kind == RANDOM:
        return random_legal_move(b, rng)[0]
    values = root_values(kind, params, ev_kind, weights, tables, b, rng, tt, stamp, stats)
    return first_best(values, int(params[RULE]))
