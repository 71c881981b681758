"""Snakemake adapter: the validation table (paired against the reference weight set)."""

from g2048.report.tables import holm_note, validation_table, write_table
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json
from g2048.study.stages import validation_games

sm = snakemake  # noqa: F821
job_log(sm)
games = {
    c: validation_games(p, sm.params.study_seed, sm.params.games)
    for c, p in zip(sm.params.candidates, sm.input.games, strict=True)
}
table = validation_table(games, sm.params.reference)
note = holm_note(table, f"each weight set against {sm.params.reference}, depth {sm.params.depth}")
write_table(
    table,
    sm.output.validation_csv,
    footer=f"{note}\n{footer(read_json(sm.input.provenance))}",
)
