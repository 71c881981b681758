"""Snakemake adapter: the tuning table (selected weights, training and fresh estimates,
validation score, cost)."""

import pandas as pd

from g2048.report.tables import tuning_table, write_table
from g2048.study.hashes import job_log
from g2048.study.naming import candidate_name
from g2048.study.provenance import footer
from g2048.study.results import read_json, read_selection, read_tune

sm = snakemake  # noqa: F821
job_log(sm)
validation = pd.read_csv(sm.input.validation).set_index("name")["score_mean"]
runs = []
for selected, tuned, (name, seed) in zip(
    sm.input.selected, sm.input.runs, sm.params.jobs, strict=True
):
    record = sm.params.records[name]
    run, result = read_selection(selected, record, seed), read_tune(tuned, record, seed)
    name = candidate_name(run["run"], run["seed"])
    runs.append(
        run
        | {
            key: result[key]
            for key in ("judged_by", "train_games", "selection_games", "games_played")
            if key in result
        }
        | {"validation_mean_score": validation[name]}
    )
timings = [pd.read_csv(p, sep="\t").iloc[0] for p in sm.input.timings]
table = tuning_table(
    runs, [float(t["s"]) for t in timings], [float(t["cpu_time"]) for t in timings]
)
write_table(table, sm.output.tuning_csv, footer=footer(read_json(sm.input.provenance)))
