"""Snakemake adapter: the depth-transfer validation's table and figure (every picked weight set
and baseline at each depth, paired against the reference, Holm-corrected)."""

from g2048.report import figures
from g2048.report.tables import holm_note, leader_table, transfer_table, write_table
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json
from g2048.study.stages import validation_games

sm = snakemake  # noqa: F821
job_log(sm)
games = {
    (name, depth): validation_games(p, sm.params.study_seed, sm.params.games)
    for (name, depth), p in zip(sm.params.sets, sm.input.games, strict=True)
}
table = transfer_table(games, sm.params.reference)
note = holm_note(table, f"each weight set against {sm.params.reference} at the same depth")
write_table(
    table,
    sm.output.transfer_csv,
    footer=f"{note}\n{footer(read_json(sm.input.provenance))}",
)
depths = sorted({depth for _, depth in games})
by_depth = {f"depth {d}": {n: df for (n, e), df in games.items() if e == d} for d in depths}
leaders = leader_table(by_depth)
note = holm_note(leaders, "at each depth the strongest weight set against the runner-up")
write_table(
    leaders,
    sm.output.transfer_leaders_csv,
    footer=f"{note}\n{footer(read_json(sm.input.provenance))}",
)
groups = figures.transfer_groups(sm.config)  # a panel per evaluator: tuned beside its baseline
figures.save(figures.depth_transfer(table, groups), sm.output.depth_transfer_png)
