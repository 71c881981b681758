rule validate:
    input:
        unpack(tuned_selection),
    output:
        games="results/validate/{candidate}.csv",
        provenance="results/provenance/validate/{candidate}.json",
    log:
        "logs/validate/{candidate}.log",
    benchmark:
        "benchmarks/validate/{candidate}.tsv"
    threads: config["threads"]
    resources:
        mem_mb=2000,
        runtime=120,
    params:
        baselines=config["validate"]["baselines"],
        games=config["validate"]["games"],
        depth=config["validate"]["depth"],
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/validate.py"


rule pick_tuned:
    input:
        unpack(method_validation),
    output:
        tuned="results/select/tuned-{method}.json",
    log:
        "logs/select/tuned-{method}.log",
    localrule: True
    resources:
        mem_mb=500,
        runtime=5,
    params:
        games=config["validate"]["games"],
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/pick_tuned.py"
