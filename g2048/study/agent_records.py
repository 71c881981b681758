"""An agent as the study records it, for the report layer, which never imports the players: a
config's agent mapping (as every result and provenance record holds it) read into plain data,
every setting with its default filled in and what the agent does (searches a tree, rolls out,
spends a budget), so that a table or figure reads the recorded settings, not the agents' code."""

from __future__ import annotations

from g2048.agents import AGENTS, AUTO, EXPECTIMAX, GREEDY, MONTECARLO, RANDOM, AgentConfig
from g2048.agents.rollout import POLICIES, RANDOM_POLICY
from g2048.agents.sources import RULES
from g2048.settings import settings_mapping

# The agent that plays without an evaluator, and the one whose budget sets its rollouts.
RANDOM_AGENT = AGENTS[RANDOM]
MONTECARLO_AGENT = AGENTS[MONTECARLO]
DEFAULT_RULES = RULES[0]  # g2048's own search; the others are the sources' programs'


def recorded_agent(agent: dict) -> dict[str, object]:
    """The agent mapping `agent` (a config's, checked) as plain data: every setting (defaults
    filled in), and `searches`, `rolls_out`, `budgeted` (a budget sets its effort), `timed` (a
    time budget: its games depend on the machine's speed), `adaptive` (depth auto),
    `source_rules` (it searches as a source's program does), `rollouts_by_budget` (Monte Carlo
    under a budget: its rollouts are what the budget sets), `random_rollouts` (the default
    rollout policy) and `search` (the search family of its line: expectimax for greedy)."""
    a = AgentConfig(**agent)
    return settings_mapping(a) | {
        "searches": a.searches,
        "rolls_out": a.rolls_out,
        "budgeted": a.budgeted,
        "timed": a.timed,
        "adaptive": a.searches and a.depth == AUTO,
        "source_rules": a.rules != DEFAULT_RULES,
        "rollouts_by_budget": a.budgeted and a.kind == MONTECARLO,
        "random_rollouts": a.rollout_policy == POLICIES[RANDOM_POLICY],
        "search": AGENTS[EXPECTIMAX] if a.kind == GREEDY else a.name,
    }
