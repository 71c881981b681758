"""Snakemake adapter: of one method's tuning seeds, the weights that validated best."""

from g2048.study.progress import script_log
from g2048.study.results import read_selection, write_json
from g2048.study.stages import pick_tuned, validation_games

sm = snakemake  # noqa: F821
log = script_log(sm.log[0])
record = sm.params.record
games = [validation_games(p, sm.params.study_seed, sm.params.games) for p in sm.input.games]
selected = [
    read_selection(p, record, seed)
    for p, seed in zip(sm.input.selected, record["seeds"], strict=True)
]
tuned = pick_tuned(selected, games)
write_json(sm.output.tuned, tuned)
log(f"picked seed {tuned['seed']}: {tuned['weights']}")
