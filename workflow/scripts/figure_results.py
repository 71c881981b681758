"""Snakemake adapter: validation scores, benchmark reach rates and cost against strength (page
wide and one column wide)."""

import pandas as pd

from g2048.report import figures
from g2048.study.records.integrity import job_log
from g2048.study.results import read_json
from g2048.study.stages import validation_games

sm = snakemake  # noqa: F821
job_log(sm)
validation = pd.read_csv(sm.input.validation)
games = {
    c: validation_games(p, sm.params.study_seed, sm.params.games)
    for c, p in zip(sm.params.candidates, sm.input.validation_games, strict=True)
}
figures.save(figures.validation_scores(games, validation), sm.output.validation_scores_png)
benchmark = pd.read_csv(sm.input.benchmark)
figures.save(figures.benchmark_reach(benchmark), sm.output.benchmark_reach_png)
cpu = figures.measured_on(read_json(sm.input.provenance))
for width, output in (
    (figures.PAGE, sm.output.cost_strength_png),
    (figures.COLUMN, sm.output.cost_strength_column_png),
):
    fig = figures.cost_strength(benchmark, sm.params.entries, width=width, cpu=cpu)
    figures.save(fig, output)
