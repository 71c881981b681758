"""Snakemake adapter: of one run's tuning seeds, the selection worth most on the run's selection
games (never on validation's or the benchmark's test games)."""

from g2048.study.progress import script_log
from g2048.study.results import read_selection, write_json
from g2048.study.stages import pick_tuned

sm = snakemake  # noqa: F821
log = script_log(sm.log[0])
record = sm.params.record
selected = [
    read_selection(p, record, seed)
    for p, seed in zip(sm.input.selected, record["seeds"], strict=True)
]
tuned = pick_tuned(selected)
write_json(sm.output.tuned, tuned)
log(f"picked seed {tuned['seed']}: {tuned['weights']}")
