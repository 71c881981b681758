"""Snakemake adapter: an entry's shards, concatenated in game order."""

from g2048.results import read_games, write_csv
from g2048.stages import script_log

sm = snakemake  # noqa: F821
script_log(sm.log[0])
write_csv(sm.output.games, read_games(list(sm.input.shards)))
