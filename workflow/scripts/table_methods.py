"""Snakemake adapter: the tuning methods compared with their seeds as replicates."""

from g2048.report import figures
from g2048.report.replicates import TunedRun, method_pairs, method_table
from g2048.report.tables import holm_note, write_table
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json
from g2048.study.stages import validation_games

sm = snakemake  # noqa: F821
job_log(sm)
games = {
    c: validation_games(p, sm.params.study_seed, sm.params.games)
    for c, p in zip(sm.params.candidates, sm.input.games, strict=True)
}
runs = [TunedRun(**run) for run in sm.params.runs]
made_by = footer(read_json(sm.input.provenance))
methods = method_table(games, runs, sm.params.baselines, sm.params.target)
note = holm_note(
    methods,
    "each run against its evaluator's hand baseline: the second family",
    "paired t-tests' (over seeds)",
)
write_table(methods, sm.output.methods_csv, footer=f"{note}\n{made_by}")
pairs = method_pairs(games, runs, sm.params.target)
note = holm_note(
    pairs,
    "every two runs that tune the same evaluator: each tuner against its control, and the "
    "tuners against one another",
    "Welch t-tests' (over seeds)",
    by="family",
)
write_table(pairs, sm.output.method_pairs_csv, footer=f"{note}\n{made_by}")
figures.save(figures.tuning_differences(methods, pairs), sm.output.tuning_differences_png)
