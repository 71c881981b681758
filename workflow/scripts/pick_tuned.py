"""Snakemake adapter: of one method's tuning seeds, the weights that validated best."""

import pandas as pd

from g2048.study.progress import script_log
from g2048.study.results import read_json, write_json
from g2048.study.stages import pick_tuned

sm = snakemake  # noqa: F821
log = script_log(sm.log[0])
tuned = pick_tuned(
    [read_json(p) for p in sm.input.selected], [pd.read_csv(p) for p in sm.input.games]
)
write_json(sm.output.tuned, tuned)
log(f"picked seed {tuned['seed']}: {tuned['weights']}")
