"""Snakemake adapter: every comparison of two benchmark rows the findings make (the network
against the heuristics, the rows under each budget ranked), each pair tested once."""

from g2048.report.tables import comparison_table, holm_note, write_table
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json
from g2048.study.stages import benchmark_games

sm = snakemake  # noqa: F821
job_log(sm)
paths = {e["name"]: p for e, p in zip(sm.params.entries, sm.input.games, strict=True)}
sizes = {e["name"]: e["games"] for e in sm.params.entries}
pairs = [tuple(pair) for pair in sm.params.pairs]
named = {name for pair in pairs for name in pair}
named |= {name for names in sm.params.budgets.values() for name in names}
games = {name: benchmark_games(paths[name], sm.params.study_seed, sizes[name]) for name in named}
table = comparison_table(pairs, sm.params.budgets, games)
note = holm_note(
    table,
    "each network row against the heuristic row of the same agent, and each row under a budget "
    "against the next by mean score; a timed pair's p-value varies from run to run, so it is kept "
    "out of the reproducible rows' correction",
    test="tests'",
    by="timed",
)
write_table(
    table,
    sm.output.comparisons_csv,
    footer=f"{note}\n{footer(read_json(sm.input.provenance))}",
)
