"""Snakemake adapter: one training run of a network (a method with a section of its own: td)
for one seed."""

from pathlib import Path

from g2048.evaluators.ntuple import save_network
from g2048.study.methods import get_method
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import write_record
from g2048.study.results import write_csv, write_json
from g2048.study.stages import train

sm = snakemake  # noqa: F821
log = job_log(sm)
write_record(sm.output.provenance, sm.output.result)
checkpoint = Path(sm.params.checkpoint)
checkpoint.parent.mkdir(parents=True, exist_ok=True)
log(f"train {sm.wildcards.run} seed {sm.wildcards.seed}: {sm.params.settings}")
result, curve, network = train(
    sm.wildcards.run,
    get_method(sm.wildcards.run).options(dict(sm.params.settings)),
    int(sm.wildcards.seed),
    sm.params.study_seed,
    sm.output.network,
    str(checkpoint),
    sm.threads,
    log,
)
save_network(sm.output.network, network)
write_csv(sm.output.history, curve)
write_json(sm.output.result, result)
checkpoint.unlink(missing_ok=True)
log("done")
