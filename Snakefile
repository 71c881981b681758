import sys

from snakemake.utils import min_version

from g2048.study.config import ConfigError, study_config

min_version("9.0")

# A study is one config file, checked here as `python -m g2048 check-config` checks it (same
# messages, one stop without a traceback): the --configfile given replaces config/config.yaml
# instead of merging with it. A config file is code to Snakemake: a top-level
# `__use_yte__: true` makes it evaluate the file's values as Python (YTE templates) while
# reading it. It does so for a --configfile before this file runs, and drops the key from
# `config`; the file itself still shows it. The check refuses it here, before any job and
# before `configfile:` below reads (and would evaluate) the default config. The --config
# overrides (`--config 'validate={games: 10}'`, or `validate.games=10` through
# `python -m g2048.study.run`) apply to that file as Snakemake applies them, and the result is
# checked by the same schema: a bad value stops the run in one line naming the key.
OVERRIDES = dict(workflow.config_settings.config)
try:
    CONFIG_FILE, CHECKED_CONFIG = study_config(
        workflow.overwrite_configfiles, "config/config.yaml", OVERRIDES
    )
except ConfigError as exc:
    sys.exit(str(exc))

if not workflow.overwrite_configfiles:

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
