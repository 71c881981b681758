"""Snakemake adapter: the learned network against the heuristics, paired on common seeds."""

from g2048.report.tables import holm_note, learned_table, write_table
from g2048.study.hashes import job_log
from g2048.study.provenance import footer
from g2048.study.results import read_json
from g2048.study.stages import benchmark_games

sm = snakemake  # noqa: F821
job_log(sm)
paths = {e["name"]: p for e, p in zip(sm.params.entries, sm.input.games, strict=True)}
sizes = {e["name"]: e["games"] for e in sm.params.entries}
games = {
    name: benchmark_games(paths[name], sm.params.study_seed, sizes[name])
    for pair in sm.params.pairs
    for name in pair
}
table = learned_table([tuple(pair) for pair in sm.params.pairs], games)
note = holm_note(
    table,
    "each network row against the heuristic row of the same agent; a timed pair's p-value varies "
    "from run to run, so it is kept out of the reproducible rows' correction",
    by="timed",
)
write_table(
    table,
    sm.output[0].removesuffix(".csv"),
    footer=f"{note}\n{footer(read_json(sm.input.provenance))}",
)
