"""`python -m g2048.study.run ARGS`: `snakemake ARGS` (its command line, e.g. --cores 2
--configfile config/smoke.yaml), which SIGINT (Ctrl-C) and SIGTERM stop from its first instant
in one line, never with a traceback, the directory unlocked (g2048.study.signals). `make run`
runs the study so. A --config entry may name a nested key with dots (`--config
validate.games=10`), which Snakemake itself refuses. Only the standard library is imported
before Snakemake starts (g2048.study.signals)."""

import json
import os
import sys

from g2048.study.signals import run_snakemake


def dotted_overrides(argv: list[str]) -> list[str]:
    """A snakemake command line with each --config (-C) entry of a dotted key, KEY.SUB=VALUE
    (which Snakemake refuses: its keys are identifiers), given as Snakemake takes a nested one,
    KEY={SUB: "VALUE"}; the Snakefile reads the value as a config file's (typed_overrides)."""

    def nested(entry: str) -> str:
        key, equals, value = entry.partition("=")
        if not equals or "." not in key:
            return entry
        *parents, leaf = key.split(".")
        inner = f"{{{leaf}: {json.dumps(value)}}}"
        for parent in reversed(parents[1:]):
            inner = f"{{{parent}: {inner}}}"
        return f"{parents[0]}={inner}"

    out, in_config = [], False
    for arg in argv:
        if arg.startswith("--config="):
            out.append("--config=" + nested(arg.removeprefix("--config=")))
            in_config = True
            continue
        if arg.startswith("-"):
            in_config = arg in ("--config", "-C")
        elif in_config:
            arg = nested(arg)
        out.append(arg)
    return out


if __name__ == "__main__":
    status = run_snakemake(dotted_overrides(sys.argv[1:]))
    if status:  # stopped by a signal: exit now, with its status. Python's own exit would turn
        # it into death by SIGINT (status -2) when the KeyboardInterrupt that stopped the run
        # crossed a frame CPython marks as unhandled (it keeps that mark once caught)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
