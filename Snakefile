from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


# Rules marked `localrule: True` take seconds: on a cluster they run in the Snakemake process
# instead of waiting in the queue.
include: "workflow/rules/common.smk"
include: "workflow/rules/tune.smk"
include: "workflow/rules/validate.smk"
include: "workflow/rules/benchmark.smk"
include: "workflow/rules/aggregate.smk"


rule all:
    default_target: True
    input:
        final_outputs(),
    localrule: True
