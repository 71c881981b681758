rule provenance:
    input:
        tune=expand("results/provenance/tune/{r}/seed{s}.json", r=RUNS, s=SEEDS),
        progress=expand(
            "results/provenance/progress/{r}/seed{s}.json", r=WEIGHT_RUNS, s=SEEDS
        ),
        validate=expand(
            "results/provenance/validate/{candidate}.json", candidate=CANDIDATES
        ),
        test=expand("results/provenance/test/{candidate}.json", candidate=TEST_SETS),
        transfer=expand(
            "results/provenance/transfer/{w}/depth{d}.json",
            w=TRANSFER_SETS,
            d=TRANSFER_DEPTHS,
        ),
        benchmark=entry_shard_files(
            "results/provenance/benchmark/{entry}/shard{shard}.json"
        ),
    output:
        summary="results/provenance/summary.json",
    log:
        "logs/aggregate/provenance.log",
    benchmark:
        "benchmarks/aggregate/provenance.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=500,
        runtime=5,
    params:
        code=CODE,
    script:
        "../scripts/provenance.py"


rule table_benchmark:
    input:
        games=expand("results/benchmark/{entry}.csv", entry=ENTRIES),
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("table_benchmark"),
    log:
        "logs/aggregate/table_benchmark.log",
    benchmark:
        "benchmarks/aggregate/table_benchmark.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        entries=config["benchmark"]["entries"],
        study_seed=config["study_seed"],
        code=CODE,
    script:
        "../scripts/table_benchmark.py"


rule table_methods:
    input:
        games=expand("results/test/{candidate}.csv", candidate=TEST_SETS),
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("table_methods"),
    log:
        "logs/aggregate/table_methods.log",
    benchmark:
        "benchmarks/aggregate/table_methods.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        candidates=TEST_SETS,
        runs=replicates.tuned_runs(config),
        baselines=replicates.evaluator_baselines(config),
        target=config["tune"]["target_difference"],
        games=config["validate"]["games"],
        study_seed=config["study_seed"],
        code=CODE,
    script:
        "../scripts/table_methods.py"


rule table_validation:
    input:
        games=expand("results/validate/{candidate}.csv", candidate=CANDIDATES),
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("table_validation"),
    log:
        "logs/aggregate/table_validation.log",
    benchmark:
        "benchmarks/aggregate/table_validation.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        candidates=CANDIDATES,
        reference=config["validate"]["reference"],
        depth=config["validate"]["depth"],
        games=config["validate"]["games"],
        study_seed=config["study_seed"],
        code=CODE,
    script:
        "../scripts/table_validation.py"


rule table_transfer:
    input:
        games=expand(
            "results/transfer/{w}/depth{d}.csv", w=TRANSFER_SETS, d=TRANSFER_DEPTHS
        ),
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("table_transfer"),
    log:
        "logs/aggregate/table_transfer.log",
    benchmark:
        "benchmarks/aggregate/table_transfer.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        sets=[(w, d) for w in TRANSFER_SETS for d in TRANSFER_DEPTHS],
        reference=config["validate"]["reference"],
        games=config["validate"]["games"],
        study_seed=config["study_seed"],
        code=CODE,
    script:
        "../scripts/table_transfer.py"


rule table_comparisons:
    input:
        games=expand("results/benchmark/{entry}.csv", entry=ENTRIES),
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("table_comparisons"),
    log:
        "logs/aggregate/table_comparisons.log",
    benchmark:
        "benchmarks/aggregate/table_comparisons.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        entries=config["benchmark"]["entries"],
        pairs=study.network_pairs(config),
        budgets=budget_groups(config["benchmark"]["entries"]),
        study_seed=config["study_seed"],
        code=CODE,
    script:
        "../scripts/table_comparisons.py"


rule table_tuning:
    input:
        selected=expand("results/select/{r}/seed{s}.json", r=RUNS, s=SEEDS),
        runs=expand("results/tune/{r}/seed{s}.json", r=RUNS, s=SEEDS),
        costs=expand("results/tune/{r}/seed{s}_cost.csv", r=WEIGHT_RUNS, s=SEEDS),
        timings=expand("benchmarks/tune/{r}/seed{s}.tsv", r=SECTION_RUNS, s=SEEDS),
        tests=expand("results/test/{c}.csv", c=study.tuned_candidates(config)),
        validation="results/tables/validation.csv",
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("table_tuning"),
    log:
        "logs/aggregate/table_tuning.log",
    benchmark:
        "benchmarks/aggregate/table_tuning.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        records=run_records(),
        jobs=[(r, s) for r in RUNS for s in SEEDS],
        tested=study.tuned_candidates(config),
        games=config["validate"]["games"],
        study_seed=config["study_seed"],
        code=CODE,
    script:
        "../scripts/table_tuning.py"


rule table_progress:
    input:
        progress=expand("results/tune/{r}/seed{s}_progress.csv", r=WEIGHT_RUNS, s=SEEDS),
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("table_progress"),
    log:
        "logs/aggregate/table_progress.log",
    benchmark:
        "benchmarks/aggregate/table_progress.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        jobs=[(r, s) for r in WEIGHT_RUNS for s in SEEDS],
        code=CODE,
    script:
        "../scripts/table_progress.py"


rule claims:
    input:
        benchmark="results/tables/benchmark.csv",
        methods="results/tables/methods.csv",
        method_pairs="results/tables/method_pairs.csv",
        # the sources' own programs' games (tests/oracles/play_sources.py, run by hand)
        source_games="workflow/resources/source_games.csv",
        provenance="results/provenance/summary.json",
        games=expand("results/benchmark/{entry}.csv", entry=ENTRIES),
    output:
        **rule_outputs("claims"),
    log:
        "logs/aggregate/claims.log",
    benchmark:
        "benchmarks/aggregate/claims.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        entries=config["benchmark"]["entries"],
        pairs=study.switching_pairs(config),
        margin=config["claims"]["margin"],
        study_seed=config["study_seed"],
        code=CODE,
    script:
        "../scripts/claims.py"


rule findings:
    input:
        tables=outputs.findings_tables(bool(TRANSFER_SETS)),
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("findings"),
    log:
        "logs/aggregate/findings.log",
    benchmark:
        "benchmarks/aggregate/findings.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        primary=config["tune"]["primary"],
        code=CODE,
    script:
        "../scripts/findings.py"


rule figure_tuning:
    input:
        runs=expand("results/tune/{r}/seed{s}.json", r=RUNS, s=SEEDS),
        histories=expand("results/tune/{r}/seed{s}_history.csv", r=RUNS, s=SEEDS),
        selected=expand("results/select/{r}/seed{s}.json", r=RUNS, s=SEEDS),
        progress=expand("results/tune/{r}/seed{s}_progress.csv", r=WEIGHT_RUNS, s=SEEDS),
    output:
        **rule_outputs("figure_tuning"),
    log:
        "logs/aggregate/figure_tuning.log",
    benchmark:
        "benchmarks/aggregate/figure_tuning.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        records=run_records(),
        jobs=[(r, s) for r in RUNS for s in SEEDS],
        progress_jobs=[(r, s) for r in WEIGHT_RUNS for s in SEEDS],
        code=CODE,
    script:
        "../scripts/figure_tuning.py"


rule figure_results:
    input:
        validation="results/tables/validation.csv",
        validation_games=expand(
            "results/validate/{candidate}.csv", candidate=CANDIDATES
        ),
        benchmark="results/tables/benchmark.csv",
        provenance="results/provenance/summary.json",
    output:
        **rule_outputs("figure_results"),
    log:
        "logs/aggregate/figure_results.log",
    benchmark:
        "benchmarks/aggregate/figure_results.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        candidates=CANDIDATES,
        games=config["validate"]["games"],
        entries=config["benchmark"]["entries"],
        study_seed=config["study_seed"],
        code=CODE,
    script:
        "../scripts/figure_results.py"
