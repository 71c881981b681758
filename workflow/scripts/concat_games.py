"""Snakemake adapter: an entry's shards, concatenated in game order."""

from g2048.results import read_games, write_csv

sm = snakemake  # noqa: F821
write_csv(sm.output.games, read_games(list(sm.input.shards)))
