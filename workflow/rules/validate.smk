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
    conda:
        ENV
    threads: config["threads"]
    resources:
        mem_mb=2000,
        runtime=120,
    params:
        baselines=config["validate"]["baselines"],
        games=config["validate"]["games"],
        name=lambda wildcards: wildcards.candidate,
        record=lambda wildcards: weight_set_record(wildcards.candidate),
        seed=lambda wildcards: weight_set_seed(wildcards.candidate),
        game=expectimax_game(config["validate"]["depth"]),
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/validate.py"


rule test:
    input:
        unpack(tuned_selection),
    output:
        games="results/test/{candidate}.csv",
        provenance="results/provenance/test/{candidate}.json",
    log:
        "logs/test/{candidate}.log",
    benchmark:
        "benchmarks/test/{candidate}.tsv"
    wildcard_constraints:
        candidate="|".join(TEST_SETS) or "(?!)",
    conda:
        ENV
    threads: config["threads"]
    resources:
        mem_mb=2000,
        runtime=120,
    params:
        baselines=config["validate"]["baselines"],
        games=config["validate"]["games"],
        name=lambda wildcards: wildcards.candidate,
        record=lambda wildcards: weight_set_record(wildcards.candidate),
        seed=lambda wildcards: weight_set_seed(wildcards.candidate),
        game=lambda wildcards: study.tuned_game_for(config, wildcards.candidate),
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/validate.py"


rule pick_tuned:
    input:
        selected=run_selections,
    output:
        tuned="results/select/tuned-{run}.json",
    log:
        "logs/select/tuned-{run}.log",
    benchmark:
        "benchmarks/select/tuned-{run}.tsv"
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
        "../scripts/pick_tuned.py"


rule transfer:
    input:
        unpack(transfer_weights),
    output:
        games="results/transfer/{weightset}/depth{depth}.csv",
        provenance="results/provenance/transfer/{weightset}/depth{depth}.json",
    log:
        "logs/transfer/{weightset}/depth{depth}.log",
    benchmark:
        "benchmarks/transfer/{weightset}/depth{depth}.tsv"
    wildcard_constraints:
        depth=r"\d+",
    conda:
        ENV
    threads: config["threads"]
    resources:
        mem_mb=2000,
        runtime=120,
    params:
        baselines=config["validate"]["baselines"],
        games=config["validate"]["games"],
        name=lambda wildcards: wildcards.weightset,
        record=lambda wildcards: weight_set_record(wildcards.weightset),
        seed=None,
        game=lambda wildcards: expectimax_game(int(wildcards.depth)),
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/validate.py"
