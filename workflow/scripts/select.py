"""Snakemake adapter: the weights a tuning run offers for validation."""

from g2048.study.records.integrity import job_log
from g2048.study.results import read_tune, write_json
from g2048.study.stages import select

sm = snakemake  # noqa: F821
log = job_log(sm)
selected = select(read_tune(sm.input.result, sm.params.record, int(sm.wildcards.seed)))
write_json(sm.output.selected, selected)
log(f"selected {selected['weights']}")
