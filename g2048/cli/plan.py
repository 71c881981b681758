"""`python -m g2048 plan`: a study's wall time on N cores or a cluster, predicted from the job
times its last run recorded (g2048.study.records.plan schedules them)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from g2048.cli.options import add_command, bounded, exits_2_on, need
from g2048.study.config import ConfigError, load_config
from g2048.study.jobrecords import (
    DOCS_RECORDS,
    read_records,
    record_seconds,
    recorded_jobs,
    shared_rates,
)
from g2048.study.records import plan
from g2048.study.records.job_cost import Work, job_work, parse_wildcards
from g2048.study.sample import probed


def _works(configfile: Path, jobs: list[plan.Job]) -> dict[int, Work | None]:
    """Each job's games and their kind in the study of `configfile`."""
    config = load_config(configfile)
    return {job.jobid: job_work(config, job.rule, parse_wildcards(job.wildcards)) for job in jobs}


@exits_2_on(plan.PlanError, ConfigError)
def _plan(args: argparse.Namespace) -> int:
    for configfile in (args.configfile, args.rates_from):
        if configfile is not None:  # check-config's checks, before Snakemake reads (runs) it
            need(args, configfile, "config file")
            load_config(configfile)
    if not Path("Snakefile").is_file():
        args.parser.error("no Snakefile here: run plan in the study's folder")
    cluster = args.cores is None
    overhead = args.overhead if args.overhead is not None else (60.0 if cluster else 0.0)
    profile = args.profile if cluster else None
    jobs, records, other, from_docs = recorded_jobs(args.configfile, args.cores, profile)
    by_id = {job.jobid: job for job in jobs}
    threads = {job.jobid: job.threads for job in jobs}
    local: set[str] = set()
    if cluster:
        per_rule = plan.profile_threads(args.profile)
        threads = {job.jobid: per_rule.get(job.rule, job.threads) for job in jobs}
        local = plan.local_rules(plan.workflow_source())
    cores_of = {j: min(n, args.cores or n) for j, n in threads.items()}
    recorded, dropped, kept = record_seconds(jobs, records, cores_of)
    works, rates = None, None
    if args.rates_from is not None:
        works = _works(args.configfile, jobs)
        theirs, their_records, _, _ = recorded_jobs(args.rates_from, args.cores, profile)
        their_seconds, _, _ = record_seconds(
            theirs, their_records, {job.jobid: job.threads for job in theirs}
        )
        their_works = _works(args.rates_from, theirs)
        rates, dropped = shared_rates(jobs, recorded, works, theirs, their_seconds, their_works)
        other |= {by_id[jobid].name for jobid in dropped}
    extrapolated = probed(args.configfile, jobs, recorded)
    recorded |= {jobid: seconds for jobid, (seconds, _) in extrapolated.items()}
    times = plan.job_times(jobs, recorded, works, rates)
    seconds = {
        job.jobid: times.seconds[job.jobid] + (0.0 if job.rule in local else overhead)
        for job in jobs
    }
    schedule = plan.schedule(seconds, threads, plan.dependencies(jobs), args.cores)
    if cluster:
        where = f"on a SLURM cluster through {args.profile}"
        how = (
            f"every job on its own allocation, {overhead:g} s of queue and submission each "
            "(none for the local rules)"
        )
    else:
        where = f"on {args.cores} core{'s' if args.cores > 1 else ''}"
        how = f"{overhead:g} s of Snakemake's own time added to each job" if overhead else ""
    print(f"PREDICTED, not measured: the study of {args.configfile} {where},")
    source = "from the job times its last run recorded (benchmarks/)"
    if from_docs:
        _, note = read_records(DOCS_RECORDS, args.configfile)
        source += f",\nelse those of the run docs/ shows ({DOCS_RECORDS}: {note})"
    if args.rates_from is not None:
        source += f",\nelse from the seconds per game that a run of {args.rates_from} recorded"
    print(source + (f";\n{how}." if how else "."))
    recorded_count = len(jobs) - len(times.untimed)
    recorded_count -= sum(times.estimated.values()) + sum(times.scaled.values())
    recorded_count -= len(extrapolated)
    rows = [
        ("predicted wall time", f"{plan.duration(schedule.wall)} ({schedule.wall:.0f} s)"),
        ("jobs", f"{len(jobs)}, {recorded_count} of them with a recorded time"),
    ]
    if from_docs:
        rows.append(("from docs/", f"{len(from_docs)} job(s) timed by the run docs/ shows"))
    stale = sum(
        job.name in other and job.benchmark is not None and job.jobid not in from_docs
        for job in jobs
    )
    if stale:
        rows.append(
            ("not this config's", f"{stale} job(s) whose results are missing or of other settings")
        )
    if times.estimated:
        missing = ", ".join(f"{rule} {n}" for rule, n in sorted(times.estimated.items()))
        count = sum(times.estimated.values())
        rows.append(("no record", f"{count} job(s), given their row's or rule's mean: {missing}"))
    if times.scaled:
        named = ", ".join(f"{rule} {n}" for rule, n in sorted(times.scaled.items()))
        count = sum(times.scaled.values())
        rows.append(("from rates", f"{count} job(s), from {args.rates_from}'s run: {named}"))
    if extrapolated:
        rows.append(
            ("extrapolated", f"{len(extrapolated)} job(s), from a probe of their row's first moves")
        )
    if dropped:
        rows.append(
            (
                "compiling",
                f"{len(dropped)} record(s) include compiling the kernels into an empty cache "
                "(minutes): their row's or rule's mean instead",
            )
        )
    if kept:
        named = ", ".join(sorted({by_id[j].rule for j in kept}))
        rows.append(
            (
                "compiling, kept",
                f"{len(kept)} record(s) include compiling the kernels (no other of rule "
                f"{named}): an overestimate by minutes",
            )
        )
    timed = [j for j, r in records.items() if r.timed_games and r.at_once]
    if timed:
        at_once = sorted(
            {min(plan.games_at_once(cores_of[j]), records[j].timed_games) for j in timed}
        )
        recorded_at = sorted({records[j].at_once for j in timed})
        rows.append(
            (
                "timed shards",
                f"{len(timed)} job(s): {'/'.join(map(str, at_once))} games at once, each on a "
                f"core of its own (recorded: {'/'.join(map(str, recorded_at))} at once)",
            )
        )
    if times.untimed:
        rules = sorted({by_id[j].rule for j in times.untimed})
        rows.append(("untimed (0 s)", f"{len(times.untimed)} job(s) of rule {', '.join(rules)}"))
    # the jobs' own times on their threads (capped at the cores): queueing holds no core
    core_seconds = sum(
        times.seconds[j] * min(threads[j], args.cores or threads[j]) for j in times.seconds
    )
    busy = ""
    if not cluster and schedule.wall > 0:
        busy = f", the cores busy {core_seconds / (args.cores * schedule.wall):.0%}"
    rows.append(("total core-seconds", f"{core_seconds:.0f}{busy}"))
    if schedule.capped:
        rows.append(("capped", f"{len(schedule.capped)} job(s) asked for more than the cores"))
    crit = schedule.critical_path
    rows.append(
        (
            "critical path",
            f"{plan.duration(schedule.critical_seconds)} over {len(crit)} jobs (no number of "
            "cores runs the study faster)",
        )
    )
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    extra = f" (seconds: the job's own, then the {overhead:g} s added)" if overhead else ""
    print(f"  {'start':>9}  {'seconds':>9}  job on the critical path, predicted{extra}")
    for j in crit:
        added = seconds[j] - times.seconds[j]
        own = f"{times.seconds[j]:9.1f}" + (f" + {added:g}" if added else "")
        print(f"  {schedule.start[j]:9.1f}  {own:<{14 if overhead else 9}}  {by_id[j].name}")
    for line in sorted({line for _, line in extrapolated.values()}):
        print(f"note: {line}: an extrapolation, not a measurement")
    if cluster:
        over = plan.over_runtime(jobs, seconds, local)
        for line in over[:10]:
            print(f"refused: {line}", file=sys.stderr)
        if over:
            more = f" ({len(over) - 10} more above)" if len(over) > 10 else ""
            print(
                f"refused: {len(over)} job(s) predicted beyond their runtime resource{more}: "
                "SLURM would end them. Raise the rows' `runtime` (or benchmark `shards`: "
                "shorter jobs) in the config, or the rule's runtime in the profile",
                file=sys.stderr,
            )
            return 2
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """The subcommand plan, added to `commands`."""
    planner = add_command(
        commands,
        _plan,
        "plan",
        help="predict a study's wall time on N cores or a cluster from its last run's job times",
        description="Lists the study's jobs by a Snakemake dry run of the config (nothing is "
        "run), takes each job's time from the benchmark file its last run wrote "
        "(benchmarks/...tsv) if that run had this config's settings for it (a second, plain "
        "dry run tells), else the record of the run docs/ shows (docs/jobs.tsv, for the config "
        "file it was recorded with: a fresh clone), leaves out a record that includes compiling "
        "the kernels where another can stand in, rescales a timed shard to the games it plays "
        "at once on the cores planned, gives a job without a record its row's mean (the same "
        "rule and wildcards but seed and shard) or its rule's, refuses a rule without any, and "
        "list-schedules them, longest remaining path first, each job on its "
        "threads, never more than --cores at once (a job asking for more is capped, its time "
        "kept). Prints the predicted wall time, the jobs, the total core-seconds and the "
        "critical path; with --cluster it refuses a job predicted beyond its runtime "
        "resource, naming it. Job times are taken as recorded, on the threads that run gave them. "
        "Run it in the study's folder; for a config never run, give --rates-from the config "
        "of a study that ran there, or run a sample of its jobs first (a seed of each run, a "
        "shard of each benchmark row).",
    )
    where = planner.add_mutually_exclusive_group(required=True)
    where.add_argument("--cores", type=bounded(int, 1), help="plan for this many cores")
    where.add_argument(
        "--cluster",
        action="store_true",
        help="plan for a SLURM cluster through --profile: every job on its own allocation, so "
        "the critical path bounds the wall time",
    )
    planner.add_argument(
        "--configfile",
        type=Path,
        default=Path("config/config.yaml"),
        help="the study's config (default config/config.yaml)",
    )
    planner.add_argument(
        "--profile",
        type=Path,
        default=Path("profiles/slurm"),
        help="with --cluster: the workflow profile whose set-threads and runtime limits the "
        "jobs get (default profiles/slurm)",
    )
    planner.add_argument(
        "--rates-from",
        type=Path,
        metavar="CONFIG",
        help="time the jobs this config has no record of (nor their row) from a run of CONFIG "
        "in this folder: a job's start plus its games times the seconds per game that CONFIG's "
        "jobs of the same settings recorded (agent, evaluator, weights, tuning game, recipe; "
        "any names, seeds and numbers of games); a job that plays no games takes its rule's "
        "mean. Rows whose settings no record plays are refused by name",
    )
    planner.add_argument(
        "--overhead",
        type=bounded(float, 0),
        help="seconds added to every job: Snakemake's own time between jobs (default 0), or "
        "with --cluster the queue wait and submission of every job but the local rules "
        "(default 60)",
    )
