"""Snakemake adapter: one tuning run (NSGA-II, CEM or CMA-ES) for one seed."""

from g2048.study.progress import script_log
from g2048.study.provenance import write_record
from g2048.study.results import write_csv, write_json
from g2048.study.stages import tune

sm = snakemake  # noqa: F821
log = script_log(sm.log[0])
write_record(sm.output.provenance, sm.output.result)
log(f"tune {sm.wildcards.run} seed {sm.wildcards.seed}: {sm.params.settings}")
result, history = tune(
    sm.wildcards.run,
    dict(sm.params.settings),
    int(sm.wildcards.seed),
    sm.params.study_seed,
    sm.threads,
    log,
)
write_json(sm.output.result, result)
write_csv(sm.output.history, history)
log("done")
