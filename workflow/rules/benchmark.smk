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
        runtime=shard_runtime,
    params:
        entry=lambda wildcards: study.entry(config, wildcards.entry),
        threads=config["threads"],
        record=entry_record,
        shards=lambda wildcards: study.entry_shards(config, wildcards.entry),
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/benchmark_shard.py"


rule benchmark_entry:
    input:
        shards=lambda wildcards: expand(
            "results/benchmark/{entry}/shard{shard}.csv",
            entry=wildcards.entry,
            shard=SHARDS[wildcards.entry],
        ),
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
        shards=lambda wildcards: study.entry_shards(config, wildcards.entry),
        study_seed=config["study_seed"],
        engine=ENGINE,
    script:
        "../scripts/concat_games.py"
