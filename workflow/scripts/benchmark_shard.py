"""Snakemake adapter: one shard of one benchmark entry's games."""

from g2048.study.config import shard_range
from g2048.study.naming import parse_weights
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import write_record
from g2048.study.results import write_csv
from g2048.study.stages import benchmark_seeds, play_weight_set, tuned_weights

sm = snakemake  # noqa: F821
log = job_log(sm)
write_record(sm.output.provenance, sm.output.games)
entry = sm.params.entry
spec = parse_weights(entry.get("weights"))
weights = entry.get("weights")  # its own numbers, or None: the evaluator's defaults
if spec is not None:  # the run's pick: its vector, balanced point, switching rows or network
    _, weights = tuned_weights(
        sm.input.tuned,
        sm.params.record,
        entry=spec.entry,
        networks=sm.input.get("networks", []),
        runs=sm.input.get("runs", []),
        seed_selections=sm.input.get("seed_selections", []),
    )
start, count = shard_range(entry["games"], sm.params.shards, int(sm.wildcards.shard))
log(f"{entry['name']} shard {sm.wildcards.shard}: games {start}..{start + count - 1}")
seeds = benchmark_seeds(sm.params.study_seed, start, count)
games = play_weight_set(
    entry["evaluator"], weights, entry["agent"], seeds, min(sm.threads, sm.params.threads), log,
    entry["name"],
    max_moves=entry["max_moves"],
    cores=sm.threads,  # a timed row's games: one a core, on the cores the job holds
)  # fmt: skip
write_csv(sm.output.games, games.assign(game=games.game + start))
