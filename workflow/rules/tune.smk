rule tune:
    output:
        result="results/tune/{method}/seed{seed}.json",
        history="results/tune/{method}/seed{seed}_history.csv",
        provenance="results/provenance/tune/{method}/seed{seed}.json",
    log:
        "logs/tune/{method}/seed{seed}.log",
    benchmark:
        "benchmarks/tune/{method}/seed{seed}.tsv"
    wildcard_constraints:
        method="|".join(WEIGHT_TUNERS),
    threads: config["threads"]
    resources:
        mem_mb=2000,
        runtime=120,
    params:
        settings=lambda wildcards: config["tune"][wildcards.method],
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/tune.py"


rule train_td:
    output:
        result="results/tune/td/seed{seed}.json",
        history="results/tune/td/seed{seed}_history.csv",
        network="results/tune/td/seed{seed}.npz",
        provenance="results/provenance/tune/td/seed{seed}.json",
    log:
        "logs/tune/td/seed{seed}.log",
    benchmark:
        "benchmarks/tune/td/seed{seed}.tsv"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=240,
    params:
        settings=config["tune"]["td"],
        study_seed=config["study_seed"],
        checkpoint="checkpoints/td/seed{seed}.npz",
        engine=ENGINE,
    script:
        "../scripts/train_td.py"


rule select:
    input:
        result="results/tune/{method}/seed{seed}.json",
    output:
        selected="results/select/{method}/seed{seed}.json",
    log:
        "logs/select/{method}/seed{seed}.log",
    localrule: True
    resources:
        mem_mb=500,
        runtime=5,
    params:
        engine=ENGINE,
    script:
        "../scripts/select.py"
