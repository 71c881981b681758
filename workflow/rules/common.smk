import g2048
from g2048.study import config as study
from g2048.study.naming import (
    METHODS,
    WEIGHT_TUNERS,
    candidate_name,
    parse_candidate,
    parse_weights,
)

# Fails before any job runs, with a message naming the key.
study.validate_config(config)

# Changing the package's code re-runs the jobs that depend on it: the jobs that compute results
# (play, select, merge) on a digest of all but the presentation layers (report, cli), the
# tables and figures on a digest of everything.
ENGINE = g2048.source_digest(exclude=("report", "cli"))
CODE = g2048.source_digest()
SEEDS = config["tune"]["seeds"]
CANDIDATES = study.validation_candidates(config)
ENTRIES = [e["name"] for e in config["benchmark"]["entries"]]
SHARDS = range(config["benchmark"]["shards"])


wildcard_constraints:
    method="|".join(METHODS),
    seed=r"\d+",
    shard=r"\d+",
    candidate="|".join(CANDIDATES),
    entry="|".join(ENTRIES),


def tuned_selection(wildcards):
    """The selection file a validation candidate needs (none for baselines)."""
    tuned = parse_candidate(wildcards.candidate)
    if tuned is None:
        return {}
    method, seed = tuned
    return {"selected": f"results/select/{method}/seed{seed}.json"}


def method_validation(wildcards):
    """A method's selections and their validation games, seed by seed."""
    return {
        "selected": expand(
            "results/select/{m}/seed{s}.json", m=wildcards.method, s=SEEDS
        ),
        "games": [
            f"results/validate/{candidate_name(wildcards.method, s)}.csv" for s in SEEDS
        ],
    }


def entry_weights(wildcards):
    """The tuned weights a benchmark entry needs, if it names any."""
    spec = parse_weights(study.entry(config, wildcards.entry).get("weights"))
    return {"tuned": f"results/select/tuned-{spec.method}.json"} if spec else {}


def final_outputs():
    """Everything `snakemake` builds by default: the tables and figures, and every raw result
    they come from, so that a deleted raw file is rebuilt (and the tables after it) instead of
    being skipped as an intermediate whose consumers are up to date."""
    tables = ["benchmark", "validation", "tuning", "learned"]
    raw = expand(
        "results/tune/{m}/seed{s}{suffix}",
        m=METHODS,
        s=SEEDS,
        suffix=[".json", "_history.csv"],
    )
    raw += expand("results/tune/td/seed{s}.npz", s=SEEDS)
    raw += expand("results/select/{m}/seed{s}.json", m=METHODS, s=SEEDS)
    raw += expand("results/select/tuned-{m}.json", m=METHODS)
    raw += expand("results/validate/{candidate}.csv", candidate=CANDIDATES)
    raw += expand(
        "results/benchmark/{entry}/shard{shard}.csv", entry=ENTRIES, shard=SHARDS
    )
    raw += expand("results/benchmark/{entry}.csv", entry=ENTRIES)
    return (
        raw
        + expand("results/tables/{t}.{ext}", t=tables, ext=["csv", "md", "tex", "html"])
        + ["results/tables/claims.md", "results/tables/claims.html"]
        + expand("results/figures/{f}.{ext}", f=FIGURES, ext=["png", "pdf"])
    )


FIGURES = [
    "pareto_fronts",
    "hypervolume",
    "cem_progress",
    "td_learning",
    "validation_scores",
    "benchmark_reach",
    "cost_strength",
]
