"""Snakemake adapter: one tuning run (NSGA-II, CEM, CMA-ES or random search) for one seed, its
seed's candidates picked by the study's selection rule, and its cost after a warm-up; a killed
run resumes from its checkpoint."""

from pathlib import Path

from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import write_record
from g2048.study.results import write_csv, write_json
from g2048.study.stages import tune

sm = snakemake  # noqa: F821
log = job_log(sm)
write_record(sm.output.provenance, sm.output.result)
checkpoint = Path(sm.params.checkpoint)
checkpoint.parent.mkdir(parents=True, exist_ok=True)
log(f"tune {sm.wildcards.run} seed {sm.wildcards.seed}: {sm.params.settings}")
result, history, cost = tune(
    sm.wildcards.run,
    dict(sm.params.settings),
    int(sm.wildcards.seed),
    sm.params.study_seed,
    sm.threads,
    log,
    dict(sm.params.selection),
    str(checkpoint),
)
write_json(sm.output.result, result)
write_csv(sm.output.history, history)
write_csv(sm.output.cost, cost)
checkpoint.unlink(missing_ok=True)
log("done")
