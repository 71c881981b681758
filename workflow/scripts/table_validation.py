"""Snakemake adapter: the validation table (paired against the reference weight set)."""

import pandas as pd

from g2048.report.tables import validation_table, write_table
from g2048.study.progress import script_log
from g2048.study.provenance import footer
from g2048.study.results import read_json

sm = snakemake  # noqa: F821
script_log(sm.log[0])
games = {c: pd.read_csv(p) for c, p in zip(sm.params.candidates, sm.input.games, strict=True)}
table = validation_table(games, sm.params.reference)
write_table(table, sm.output[0].removesuffix(".csv"), footer=footer(read_json(sm.input.provenance)))
