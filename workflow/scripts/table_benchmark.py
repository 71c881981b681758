"""Snakemake adapter: the benchmark table."""

from g2048.report.tables import benchmark_table, write_table
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json
from g2048.study.stages import benchmark_games

sm = snakemake  # noqa: F821
job_log(sm)
entries = sm.params.entries
games = {
    e["name"]: benchmark_games(p, sm.params.study_seed, e["games"])
    for e, p in zip(entries, sm.input.games, strict=True)
}
table = benchmark_table(games, entries)
write_table(table, sm.output.benchmark_csv, footer=footer(read_json(sm.input.provenance)))
