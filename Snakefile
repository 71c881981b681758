from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/tune.smk"
include: "workflow/rules/validate.smk"
include: "workflow/rules/benchmark.smk"
include: "workflow/rules/aggregate.smk"


# Seconds-long rules run in the Snakemake process itself, not as cluster jobs.
localrules:
    all,
    select,
    pick_tuned,
    benchmark_entry,
    table_benchmark,
    table_validation,
    table_tuning,
    claims,
    figure_tuning,
    figure_results,


rule all:
    default_target: True
    input:
        final_outputs(),
