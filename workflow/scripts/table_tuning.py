"""Snakemake adapter: the tuning table (each seed's pick, its values in training, on the
selection games and on the test games, and its cost)."""

import pandas as pd

from g2048.report.tables import TUNING_COSTS, tuning_table, write_table
from g2048.study.naming import candidate_name
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json, read_selection, read_tune
from g2048.study.stages import validation_games

sm = snakemake  # noqa: F821
job_log(sm)
validation = pd.read_csv(sm.input.validation).set_index("name")["score_mean"]
tests = {
    name: validation_games(path, sm.params.study_seed, sm.params.games)["score"].mean()
    for name, path in zip(sm.params.tested, sm.input.tests, strict=True)
}
costs = {(c.run, c.seed): c for c in (pd.read_csv(p).iloc[0] for p in sm.input.costs)}
timings = iter(pd.read_csv(p, sep="\t").iloc[0] for p in sm.input.timings)
runs = []
for selected, tuned, (name, seed) in zip(
    sm.input.selected, sm.input.runs, sm.params.jobs, strict=True
):
    record = sm.params.records[name]
    run, result = read_selection(selected, record, seed), read_tune(tuned, record, seed)
    candidate = candidate_name(run["run"], run["seed"])
    cost = costs.get((name, seed))
    if cost is None:  # a network's training: its job's time, compilation included
        timing = next(timings)
        cost = {"wall_seconds": float(timing["s"]), "cpu_seconds": float(timing["cpu_time"])}
    runs.append(
        run
        | {
            key: result[key]
            for key in ("judged_by", "train_games", "selection_games", "games_played")
            if key in result
        }
        | {"test_score": tests.get(candidate), "validation_mean_score": validation[candidate]}
        | {k: float(cost[k]) for k in TUNING_COSTS if k in cost}
    )
table = tuning_table(runs)
write_table(table, sm.output.tuning_csv, footer=footer(read_json(sm.input.provenance)))
