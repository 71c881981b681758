from pathlib import Path

import g2048
from g2048 import study

PRESENTATION = (
    "tables.py",
    "figures.py",
    "claims.py",
    "stats.py",
    "cli.py",
    "watch.py",
    "bench.py",
)

# Fails before any job runs, with a message naming the key.
study.validate_config(
    config, study.load_schema(Path(workflow.basedir) / "config/schema.yaml")
)

# Changing the package's code re-runs the jobs that depend on it: the jobs that compute results
# (play, select, merge) on a digest of all but the presentation modules, the tables and figures
# on a digest of everything.
ENGINE = g2048.source_digest(exclude=PRESENTATION)
CODE = g2048.source_digest()
SEEDS = config["tune"]["seeds"]
CANDIDATES = study.validation_candidates(config)
ENTRIES = [e["name"] for e in config["benchmark"]["entries"]]
SHARDS = range(config["benchmark"]["shards"])


wildcard_constraints:
    method="nsga2|cem",
    seed=r"\d+",
    shard=r"\d+",
    candidate="|".join(CANDIDATES),
    entry="|".join(ENTRIES),


def tuned_selection(wildcards):
    """The selection file a validation candidate needs (none for baselines)."""
    method, _, seed = wildcards.candidate.partition("-s")
    if method in study.METHODS and seed.isdigit():
        return {"selected": f"results/select/{method}/seed{seed}.json"}
    return {}


def method_validation(wildcards):
    """A method's selections and their validation games, seed by seed."""
    return {
        "selected": expand(
            "results/select/{m}/seed{s}.json", m=wildcards.method, s=SEEDS
        ),
        "games": expand("results/validate/{m}-s{s}.csv", m=wildcards.method, s=SEEDS),
    }


def entry_weights(wildcards):
    """The tuned weights a benchmark entry needs, if it names any."""
    method = study.weights_source(study.entry(config, wildcards.entry).get("weights"))
    return {"tuned": f"results/select/tuned-{method}.json"} if method else {}


def final_outputs():
    """Everything `snakemake` builds by default."""
    tables = ["benchmark", "validation", "tuning"]
    return (
        expand("results/tables/{t}.{ext}", t=tables, ext=["csv", "md", "tex"])
        + ["results/tables/claims.md"]
        + expand("results/figures/{f}.{ext}", f=FIGURES, ext=["png", "pdf"])
    )


FIGURES = [
    "pareto_fronts",
    "hypervolume",
    "cem_progress",
    "validation_scores",
    "benchmark_reach",
    "cost_strength",
]
