"""Snakemake adapter: one shard of one benchmark entry's games."""

from g2048.study.config import shard_range
from g2048.study.progress import script_log
from g2048.study.provenance import write_record
from g2048.study.results import read_selection, write_csv
from g2048.study.stages import benchmark_seeds, entry_weights, play_weight_set

sm = snakemake  # noqa: F821
log = script_log(sm.log[0])
write_record(sm.output.provenance, sm.output.games)
entry = sm.params.entry
weights = entry_weights(
    entry, read_selection(sm.input.tuned) if hasattr(sm.input, "tuned") else None
)
start, count = shard_range(entry["games"], sm.params.shards, int(sm.wildcards.shard))
log(f"{entry['name']} shard {sm.wildcards.shard}: games {start}..{start + count - 1}")
seeds = benchmark_seeds(sm.params.study_seed, start, count)
games = play_weight_set(
    entry["evaluator"], weights, entry["agent"], seeds, sm.threads, log, entry["name"],
    max_moves=entry["max_moves"],
)  # fmt: skip
write_csv(sm.output.games, games.assign(game=games.game + start))
