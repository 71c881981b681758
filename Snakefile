from snakemake.utils import min_version

from g2048.study.config import refuse_templates

min_version("9.0")

# A config file is code to Snakemake: a top-level `__use_yte__: true` makes it evaluate the
# file's values as Python (YTE templates) while reading it. It does so for --configfile files
# before this file runs, and drops the key from `config`, so `config` never shows it; the
# files themselves still do. Stop here, before any job and before `configfile:` below reads
# (and would evaluate) the default config.
refuse_templates([*workflow.overwrite_configfiles, "config/config.yaml"])


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
