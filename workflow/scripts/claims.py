"""Snakemake adapter: the seeds' claims beside this study's measurements."""

from pathlib import Path

import pandas as pd

from g2048.report.claims import claims_table, question_entries, switching_gains
from g2048.report.tables import html_page
from g2048.study.progress import script_log
from g2048.study.provenance import footer
from g2048.study.results import read_json
from g2048.study.stages import benchmark_games

sm = snakemake  # noqa: F821
script_log(sm.log[0])
table = pd.read_csv(sm.input.benchmark)
paths = {e["name"]: p for e, p in zip(sm.params.entries, sm.input.games, strict=True)}
pairs = [tuple(pair) for pair in sm.params.pairs]
sizes = {e["name"]: e["games"] for e in sm.params.entries}
asked = question_entries(sm.params.entries)
games = {
    name: benchmark_games(paths[name], sm.params.study_seed, sizes[name])
    for name in {name for pair in pairs for name in pair} | asked
}
claims = claims_table(table, sm.params.entries, switching_gains(pairs, games), games)
title = "The seeds' claims and what this study measured"
made_by = footer(read_json(sm.input.provenance))
Path(sm.output[0]).write_text(f"# {title}\n\n{claims.to_markdown(index=False)}\n\n{made_by}\n")
Path(sm.output[1]).write_text(html_page(claims, title, made_by))
