"""Snakemake adapter: the source documents' claims beside this study's measurements."""

from pathlib import Path

import pandas as pd

from g2048.report.claims import (
    claims_page,
    claims_table,
    game_entries,
    game_measurements,
    rule,
    switching_gains,
)
from g2048.report.tables import html_page
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json
from g2048.study.stages import benchmark_games

sm = snakemake  # noqa: F821
job_log(sm)
table = pd.read_csv(sm.input.benchmark)
paths = {e["name"]: p for e, p in zip(sm.params.entries, sm.input.games, strict=True)}
pairs = [tuple(pair) for pair in sm.params.pairs]
sizes = {e["name"]: e["games"] for e in sm.params.entries}
asked = game_entries(sm.params.entries)
games = {
    name: benchmark_games(paths[name], sm.params.study_seed, sizes[name])
    for name in {name for pair in pairs for name in pair} | asked
}
extra = switching_gains(pairs, games) | game_measurements(sm.params.entries, games)
methods, method_pairs = pd.read_csv(sm.input.methods), pd.read_csv(sm.input.method_pairs)
source_games = pd.read_csv(sm.input.source_games)
margin = sm.params.margin
claims = claims_table(table, sm.params.entries, extra, methods, method_pairs, source_games, margin)
title = "The source documents' claims and what this study measured"
made_by = footer(read_json(sm.input.provenance))
Path(sm.output.claims_md).write_text(claims_page(claims, title, made_by, margin))
Path(sm.output.claims_html).write_text(html_page(claims, title, f"{rule(margin)}\n{made_by}"))
claims.to_csv(sm.output.claims_csv, index=False)
