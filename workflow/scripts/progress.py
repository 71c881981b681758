"""Snakemake adapter: one weight-tuning run's incumbents, at evenly spaced steps, on the held-out
progress games (monitoring, not part of the run's budget)."""

from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import write_record
from g2048.study.results import read_tune, write_csv
from g2048.study.stages import held_out_progress

sm = snakemake  # noqa: F821
log = job_log(sm)
write_record(sm.output.provenance, sm.output.progress)
record, seed = sm.params.record, int(sm.wildcards.seed)
read_tune(sm.input.result, record, seed)  # the run the config names, or a ResultFileError
table = held_out_progress(
    sm.wildcards.run,
    record["settings"],
    seed,
    record["study_seed"],
    sm.input.history,
    sm.params.progress["points"],
    sm.params.progress["games"],
    sm.threads,
    log,
    record["selection"]["metric"],
)
write_csv(sm.output.progress, table)
log("done")
