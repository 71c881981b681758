"""Snakemake adapter: one shard of one benchmark entry's games."""

from g2048.results import read_json, write_csv
from g2048.stages import benchmark_seeds, play_weight_set, script_log
from g2048.study import shard_range

sm = snakemake  # noqa: F821
log = script_log(sm.log[0])
entry = sm.params.entry
weights = entry.get("weights")
if isinstance(weights, str):  # tuned:<method> or front:<method>
    tuned = read_json(sm.input.tuned)
    weights = tuned["switching"] if weights.startswith("front:") else tuned["weights"]
start, count = shard_range(entry["games"], sm.params.shards, int(sm.wildcards.shard))
log(f"{entry['name']} shard {sm.wildcards.shard}: games {start}..{start + count - 1}")
seeds = benchmark_seeds(sm.params.study_seed, start, count)
games = play_weight_set(
    entry["evaluator"], weights, entry["agent"], seeds, sm.threads, log, entry["name"],
    max_moves=entry["max_moves"],
)  # fmt: skip
write_csv(sm.output.games, games.assign(game=games.game + start))
