rule tune:
    output:
        result="results/tune/{run}/seed{seed}.json",
        history="results/tune/{run}/seed{seed}_history.csv",
        provenance="results/provenance/tune/{run}/seed{seed}.json",
    log:
        "logs/tune/{run}/seed{seed}.log",
    benchmark:
        "benchmarks/tune/{run}/seed{seed}.tsv"
    wildcard_constraints:
        run="|".join(WEIGHT_RUNS),
    threads: config["threads"]
    resources:
        mem_mb=2000,
        runtime=120,
    params:
        settings=lambda wildcards: study.run_settings(config, wildcards.run),
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
        result="results/tune/{run}/seed{seed}.json",
    output:
        selected="results/select/{run}/seed{seed}.json",
    log:
        "logs/select/{run}/seed{seed}.log",
    localrule: True
    resources:
        mem_mb=500,
        runtime=5,
    params:
        engine=ENGINE,
    script:
        "../scripts/select.py"
