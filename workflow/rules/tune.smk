rule tune:
    output:
        result="results/tune/{run}/seed{seed}.json",
        history="results/tune/{run}/seed{seed}_history.csv",
        cost="results/tune/{run}/seed{seed}_cost.csv",
        provenance="results/provenance/tune/{run}/seed{seed}.json",
    log:
        "logs/tune/{run}/seed{seed}.log",
    benchmark:
        "benchmarks/tune/{run}/seed{seed}.tsv"
    wildcard_constraints:
        run="|".join(WEIGHT_RUNS),
    conda:
        ENV
    threads: config["threads"]
    resources:
        mem_mb=2000,
        runtime=120,
    params:
        settings=lambda wildcards: study.run_settings(config, wildcards.run),
        selection=study.selection_rule(config),
        study_seed=config["study_seed"],
        checkpoint=lambda wildcards: f"checkpoints/{wildcards.run}/seed{wildcards.seed}.npz",
        engine=ENGINE,
    script:
        "../scripts/tune.py"


# Held-out progress: monitoring, not part of the run's budget (config/README.md, tune.progress).
rule progress:
    input:
        result="results/tune/{run}/seed{seed}.json",
        history="results/tune/{run}/seed{seed}_history.csv",
    output:
        progress="results/tune/{run}/seed{seed}_progress.csv",
        provenance="results/provenance/progress/{run}/seed{seed}.json",
    log:
        "logs/progress/{run}/seed{seed}.log",
    benchmark:
        "benchmarks/progress/{run}/seed{seed}.tsv"
    wildcard_constraints:
        run="|".join(WEIGHT_RUNS),
    conda:
        ENV
    # a few hundred short games: mostly the job's start, so two jobs share two cores
    threads: 1
    resources:
        mem_mb=1000,
        runtime=60,
    params:
        record=lambda wildcards: study.run_record(config, wildcards.run),
        progress=config["tune"]["progress"],
        engine=ENGINE,
    script:
        "../scripts/progress.py"


rule train:
    output:
        result="results/tune/{run}/seed{seed}.json",
        history="results/tune/{run}/seed{seed}_history.csv",
        network="results/tune/{run}/seed{seed}.npz",
        provenance="results/provenance/tune/{run}/seed{seed}.json",
    log:
        "logs/tune/{run}/seed{seed}.log",
    benchmark:
        "benchmarks/tune/{run}/seed{seed}.tsv"
    wildcard_constraints:
        run="|".join(SECTION_RUNS),
    conda:
        ENV
    threads: lambda wildcards: study.train_threads(config, wildcards.run)
    resources:
        mem_mb=3000,
        runtime=240,
    params:
        settings=lambda wildcards: study.run_settings(config, wildcards.run),
        study_seed=config["study_seed"],
        checkpoint=lambda wildcards: f"checkpoints/{wildcards.run}/seed{wildcards.seed}.npz",
        engine=ENGINE,
    script:
        "../scripts/train.py"


rule select:
    input:
        result="results/tune/{run}/seed{seed}.json",
    output:
        selected="results/select/{run}/seed{seed}.json",
    log:
        "logs/select/{run}/seed{seed}.log",
    benchmark:
        "benchmarks/select/{run}/seed{seed}.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=500,
        runtime=5,
    params:
        record=lambda wildcards: study.run_record(config, wildcards.run),
        engine=ENGINE,
    script:
        "../scripts/select.py"
