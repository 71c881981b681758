"""Snakemake adapter: the distinct environments that the run's game jobs were played in."""

from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import summarise
from g2048.study.results import write_json

sm = snakemake  # noqa: F821
log = job_log(sm)
summary = summarise(list(sm.input))
write_json(sm.output.summary, summary)
log(f"{len(summary['environments'])} environment(s) made the {len(sm.input)} game jobs")
