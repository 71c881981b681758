rule benchmark_shard:
    input:
        unpack(entry_weights),
    output:
        games="results/benchmark/{entry}/shard{shard}.csv",
        provenance="results/provenance/benchmark/{entry}/shard{shard}.json",
    log:
        "logs/benchmark/{entry}/shard{shard}.log",
    benchmark:
        "benchmarks/benchmark/{entry}/shard{shard}.tsv"
    conda:
        ENV
    threads: shard_threads
    resources:
        mem_mb=2000,
        runtime=240,
    params:
        entry=lambda wildcards: study.entry(config, wildcards.entry),
        threads=config["threads"],
        record=entry_record,
        shards=config["benchmark"]["shards"],
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/benchmark_shard.py"


rule benchmark_entry:
    input:
        shards=expand("results/benchmark/{{entry}}/shard{shard}.csv", shard=SHARDS),
    output:
        games="results/benchmark/{entry}.csv",
    log:
        "logs/benchmark/{entry}.log",
    benchmark:
        "benchmarks/benchmark/{entry}.tsv"
    localrule: True
    conda:
        ENV
    resources:
        mem_mb=500,
        runtime=5,
    params:
        games=lambda wildcards: study.entry(config, wildcards.entry)["games"],
        shards=config["benchmark"]["shards"],
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/concat_games.py"
