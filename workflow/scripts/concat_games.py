"""Snakemake adapter: an entry's shards, concatenated in game order."""

from g2048.study.progress import script_log
from g2048.study.results import read_games, write_csv

sm = snakemake  # noqa: F821
script_log(sm.log[0])
write_csv(sm.output.games, read_games(list(sm.input.shards)))
