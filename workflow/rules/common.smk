import sys

import g2048
from g2048.report import replicates
from g2048.report.tables import budget_groups
from g2048.study import config as study
from g2048.study import outputs
from g2048.study.records import provenance
from g2048.study.records.integrity import check_results
from g2048.study.naming import (
    candidate_name,
    network_file,
    parse_candidate,
    parse_weights,
    transfer_name,
)
from g2048.study.records.logs import ReportedError
from g2048.study.signals import stop_run_on_signals
from snakemake.logging import logger
from snakemake_interface_executor_plugins.settings import DeploymentMethod

# Every job computes alike on every x86-64 CPU (numpy on its AVX2 paths, OpenBLAS on the kernels
# of every AVX2 CPU): the jobs are subprocesses of this process, here or on a cluster node.
provenance.use_portable_numerics()

# Every rule's software: workflow/envs/g2048.yaml, the packages of requirements.lock (made from
# it by `make lock`), which `--sdm conda` installs for the jobs (a path relative to the rules'
# files). Jobs in it find the package in this checkout.
ENV = "../envs/g2048.yaml"
if DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method:
    provenance.add_to_python_path(workflow.basedir)

# SIGINT (Ctrl-C) and SIGTERM (kill, timeout, a cluster's time limit) stop a run at once, its
# jobs included, without a traceback, and the same command resumes it (g2048.study.signals).
# A job starts ignoring SIGINT, which would otherwise print a traceback wherever its start-up
# (Snakemake's preamble, the imports) is, until script_log installs its handler; `exec` makes
# the job's Python the process this one signals, not a shell around it (every rule here is a
# `script:` rule: one command).
shell.prefix("set -euo pipefail; trap '' INT; exec ")


onstart:
    stop_run_on_signals(logger)


# What runs is what the Snakefile checked (its file and --config overrides, defaults filled in),
# and every job records it in its provenance (the file, its SHA-256, the overrides).
try:
    study.use_checked(config, CONFIG_FILE, CHECKED_CONFIG, OVERRIDES)
except study.ConfigError as exc:
    sys.exit(str(exc))
provenance.hand_to_jobs(
    provenance.study_record(
        CONFIG_FILE, study.flat_overrides(study.typed_overrides(OVERRIDES))
    )
)

# Every result file a job recorded is the file it wrote (g2048.study.records.integrity): checked by every
# snakemake command before anything runs, but in the job processes a cluster starts (which
# parse this file too, while other jobs write).
if not (workflow.remote_exec or workflow.subprocess_exec):
    try:
        check_results()
    except ReportedError as exc:
        sys.exit(str(exc))

# Changing the package's code re-runs the jobs that depend on it: the jobs that compute results
# (play, select, merge) on a digest of all but the presentation layers (report, cli), the
# tables and figures on a digest of everything.
ENGINE = g2048.source_digest(exclude=("report", "cli"))
CODE = g2048.source_digest()
SEEDS = config["tune"]["seeds"]
WEIGHT_RUNS = study.weight_runs(config)
RUNS = study.run_names(config)
SECTION_RUNS = [run for run in RUNS if run not in WEIGHT_RUNS]  # td: a network each
NETWORK_RUNS = [run for run in RUNS if study.run_method(config, run).trains_network]
CANDIDATES = study.validation_candidates(config)
TEST_SETS = study.tuned_game_sets(config)
TRANSFER_SETS = study.transfer_sets(config)
TRANSFER_DEPTHS = config["validate"]["transfer_depths"]
ENTRIES = [e["name"] for e in config["benchmark"]["entries"]]
SHARDS = {e: range(study.entry_shards(config, e)) for e in ENTRIES}  # per entry


wildcard_constraints:
    run="|".join(RUNS),
    seed=r"\d+",
    shard=r"\d+",
    candidate="|".join(CANDIDATES),
    weightset="|".join(TRANSFER_SETS) or "(?!)",
    entry="|".join(ENTRIES),


def network_inputs(run, seeds):
    """A network run's files that a job playing its networks reads, seed by seed: each network,
    and the run's result that recorded the network's SHA-256 (none for a weight run)."""
    if run not in NETWORK_RUNS:
        return {}
    return {
        "networks": [network_file(run, s) for s in seeds],
        "runs": [f"results/tune/{run}/seed{s}.json" for s in seeds],
    }


def seed_selections(run):
    """The selection file of every seed of a run, which a job reading the run's pick compares
    the pick with (it must hold its seed's selection, not weights from elsewhere)."""
    return {"seed_selections": [f"results/select/{run}/seed{s}.json" for s in SEEDS]}


def tuned_selection(wildcards):
    """The files a validation candidate needs (none for baselines): its selection, and for a
    network its file and its run's result."""
    tuned = parse_candidate(wildcards.candidate, RUNS)
    if tuned is None:
        return {}
    run, seed = tuned
    selected = {"selected": f"results/select/{run}/seed{seed}.json"}
    return selected | network_inputs(run, [seed])


def expectimax_game(depth):
    """The validation's game: expectimax at `depth` plies, played to the end."""
    return {"agent": {"name": "expectimax", "depth": depth}, "max_moves": 0}


def weight_set_record(name):
    """What the config says of the run behind a weight set (study.run_record): a tuned
    candidate <run>-s<seed> or a run's pick tuned-<run>; None for a baseline."""
    run = study.weight_set_run(config, name)
    return None if run is None else study.run_record(config, run)


def weight_set_seed(name):
    """The tuning seed of a tuned candidate <run>-s<seed> (None: a pick or a baseline)."""
    tuned = parse_candidate(name, RUNS)
    return None if tuned is None else tuned[1]


def run_selections(wildcards):
    """A run's selections, seed by seed."""
    return expand("results/select/{r}/seed{s}.json", r=wildcards.run, s=SEEDS)


def transfer_weights(wildcards):
    """The pick a depth-transfer weight set needs (none for baselines)."""
    for run in WEIGHT_RUNS:
        if wildcards.weightset == transfer_name(run):
            pick = {"selected": f"results/select/tuned-{run}.json"}
            return pick | seed_selections(run)
    return {}


def entry_weights(wildcards):
    """The tuned weights a benchmark entry needs, if it names any: the run's pick, and for a
    network every seed's network and run result (which seed the pick names is known only once
    it is made)."""
    spec = parse_weights(study.entry(config, wildcards.entry).get("weights"))
    if spec is None:
        return {}
    pick = {"tuned": f"results/select/tuned-{spec.run}.json"}
    return pick | seed_selections(spec.run) | network_inputs(spec.run, SEEDS)


def shard_threads(wildcards):
    """The threads of a benchmark shard: the config's; a shard that plays under a time budget
    claims every core of a local run, so that nothing runs beside its timed games, and plays
    them each on a core of its own, as many at once as cores less one left to the workflow's
    own process (stages.play_weight_set: 2 cores play one at a time, 16 cores 15). The SLURM
    profile sets its own (`set-threads`)."""
    agent = study.agent_config(study.entry(config, wildcards.entry)["agent"])
    return max(workflow.cores, config["threads"]) if agent.timed else config["threads"]


def entry_shard_files(pattern):
    """`pattern` filled in for every shard of every benchmark entry (each its own shards)."""
    return [pattern.format(entry=e, shard=k) for e in ENTRIES for k in SHARDS[e]]


def shard_runtime(wildcards):
    """The runtime resource (minutes) of a benchmark shard: its entry's, else 240."""
    return study.entry_runtime(config, wildcards.entry)


def entry_record(wildcards):
    """What the config says of the run whose weights a benchmark entry plays (None: none)."""
    spec = parse_weights(study.entry(config, wildcards.entry).get("weights"))
    return None if spec is None else study.run_record(config, spec.run)


def run_records():
    """What the config says of every tuning run, by name (study.run_record)."""
    return {run: study.run_record(config, run) for run in RUNS}


def final_outputs():
    """Everything `snakemake` builds by default: the tables and figures, and every raw result
    they come from, so that a deleted raw file is rebuilt (and the tables after it) instead of
    being skipped as an intermediate whose consumers are up to date."""
    raw = expand(
        "results/tune/{r}/seed{s}{suffix}",
        r=RUNS,
        s=SEEDS,
        suffix=[".json", "_history.csv"],
    )
    raw += expand("results/tune/{r}/seed{s}.npz", r=SECTION_RUNS, s=SEEDS)
    raw += expand("results/tune/{r}/seed{s}_progress.csv", r=WEIGHT_RUNS, s=SEEDS)
    raw += expand("results/select/{r}/seed{s}.json", r=RUNS, s=SEEDS)
    raw += expand("results/select/tuned-{r}.json", r=RUNS)
    raw += expand("results/validate/{candidate}.csv", candidate=CANDIDATES)
    raw += expand("results/test/{candidate}.csv", candidate=TEST_SETS)
    raw += expand(
        "results/transfer/{w}/depth{d}.csv", w=TRANSFER_SETS, d=TRANSFER_DEPTHS
    )
    raw += entry_shard_files("results/benchmark/{entry}/shard{shard}.csv")
    raw += expand("results/benchmark/{entry}.csv", entry=ENTRIES)
    made = outputs.study_outputs(bool(TRANSFER_SETS))
    return raw + [path for output in made for path in output.files().values()]


def reported(output, path):
    """`path`, a file of `output`, as the report shows it: with its caption,
    workflow/report/<name>.rst, under its category and subcategory."""
    caption = f"../report/{output.name}.rst"
    return report(
        path, caption=caption, category=output.category, subcategory=output.subcategory
    )


def rule_outputs(rule):
    """The named outputs of an aggregate rule, as g2048.study.outputs declares them (the report
    shows one file of each, its `shown` format: `reported`)."""
    return {
        key: reported(o, path) if path.endswith(f".{o.shown}") else path
        for o in outputs.made_by(rule)
        for key, path in o.files().items()
    }
