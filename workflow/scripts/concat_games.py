"""Snakemake adapter: an entry's shards, concatenated in game order."""

import pandas as pd

from g2048.study.records.integrity import job_log
from g2048.study.results import write_csv
from g2048.study.stages import benchmark_games

sm = snakemake  # noqa: F821
job_log(sm)
p = sm.params
shards = [
    benchmark_games(path, p.study_seed, p.games, p.shards, shard)
    for shard, path in enumerate(sm.input.shards)
]
write_csv(sm.output.games, pd.concat(shards, ignore_index=True))
