"""Snakemake adapter: the weight-tuning runs' held-out progress, one row per run, with the runs
still improving at their last step named."""

from g2048.report.convergence import progress_table
from g2048.report.tables import write_table
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json, read_progress

sm = snakemake  # noqa: F821
job_log(sm)
frames = [
    read_progress(path, run, seed)
    for path, (run, seed) in zip(sm.input.progress, sm.params.jobs, strict=True)
]
table = progress_table(frames)
write_table(table, sm.output.progress_csv, footer=footer(read_json(sm.input.provenance)))
