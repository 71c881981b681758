"""Snakemake adapter: of one run's tuning seeds, the selection worth most on the run's selection
games (never on validation's or the benchmark's test games)."""

from g2048.study.records.integrity import job_log
from g2048.study.results import read_selection, write_json
from g2048.study.stages import pick_tuned

sm = snakemake  # noqa: F821
log = job_log(sm)
record = sm.params.record
selected = [
    read_selection(p, record, seed)
    for p, seed in zip(sm.input.selected, record["seeds"], strict=True)
]
tuned = pick_tuned(selected)
write_json(sm.output.tuned, tuned)
log(f"picked seed {tuned['seed']}: {tuned['weights']}")
