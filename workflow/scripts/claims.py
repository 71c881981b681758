"""Snakemake adapter: the seeds' claims beside this study's measurements."""

from pathlib import Path

import pandas as pd

from g2048.claims import claims_table
from g2048.stages import script_log
from g2048.tables import moves_gain

sm = snakemake  # noqa: F821
script_log(sm.log[0])
table = pd.read_csv(sm.input.benchmark)
games = {e["name"]: p for e, p in zip(sm.params.entries, sm.input.games, strict=True)}
extra = {}
if "switching-d2" in games and "balanced-d2" in games:
    gain = moves_gain(pd.read_csv(games["switching-d2"]), pd.read_csv(games["balanced-d2"]))
    extra[("switching-d2", "moves_gain_vs_balanced")] = gain
notes = {e["name"]: e["note"] for e in sm.params.entries if e.get("note")}
claims = claims_table(table, extra, notes)
Path(sm.output[0]).write_text(
    "# The seeds' claims and what this study measured\n\n" + claims.to_markdown(index=False) + "\n"
)
