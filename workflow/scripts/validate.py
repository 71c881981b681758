"""Snakemake adapter: one weight set plays the test games with one agent: expectimax at the
validation's depth or at one of the depth-transfer validation's, or the game its run was tuned
in (the test stage)."""

from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import write_record
from g2048.study.results import write_csv
from g2048.study.stages import play_weight_set, tuned_weights, validation_seeds

sm = snakemake  # noqa: F821
log = job_log(sm)
write_record(sm.output.provenance, sm.output.games)
name = sm.params.name
if sm.params.record is not None:  # a tuning run's weights (a seed's or its pick), not a baseline
    evaluator, weights = tuned_weights(
        sm.input.selected,
        sm.params.record,
        seed=sm.params.seed,
        networks=sm.input.get("networks", []),
        runs=sm.input.get("runs", []),
        seed_selections=sm.input.get("seed_selections", []),
    )
else:
    base = next(b for b in sm.params.baselines if b["name"] == name)
    evaluator, weights = base["evaluator"], base.get("weights")
agent, max_moves = sm.params.game["agent"], sm.params.game["max_moves"]
seeds = validation_seeds(sm.params.study_seed, sm.params.games)
log(f"play {name}: {evaluator} {weights}, {agent}, max_moves {max_moves}")
games = play_weight_set(evaluator, weights, agent, seeds, sm.threads, log, name, max_moves)
write_csv(sm.output.games, games)
