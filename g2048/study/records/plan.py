"""What a study costs on N cores, predicted from its own records (`python -m g2048 plan`).

The study's jobs come from Snakemake itself: a dry run of every job (`snakemake -n --forceall`,
the config given), which prints each job's rule, wildcards, threads, input and output files,
benchmark file and resources, without running anything (`parse_dry_run`). Of Snakemake 9's other
views of the DAG, `--d3dag` and `--dag` name neither a job's threads nor its benchmark file
(nor, in --d3dag, its wildcards), and its Python API keeps the jobs in internals; the dry run's
listing is what users read, and `parse_dry_run` checks it against the run's own job count. A job
waits for the jobs that write its input files (`dependencies`). Its time is what its benchmark
file (the `s` column of the TSV Snakemake writes for every rule with a `benchmark:` directive)
recorded in the last run of that job, if that run was of the same settings: a second, plain dry
run (`snakemake -n`) names the jobs that the config would rerun and why, and the record of a job
rerun for its params, a missing output or a changed set of inputs is not this config's
(`record_holds`; a change of the package's code alone keeps it). A job without a record is given
the mean of the recorded jobs of its row (its rule and wildcards but the seed and the shard: the
same run, entry or weight set), else of its rule, and a rule without any recorded job is refused
(`job_times`): a config never run is planned from a sample of its jobs run first, or from
another config's run in the same folder (`rates_from`, `plan --rates-from`): a job whose games
(`job_cost`) differ from those of the job of its name there (`other_games`), without a record in
its row, then takes a job's start plus its games times the seconds per game that the other run's
jobs of the same settings recorded, a job that plays no games its rule's mean there, and a row
whose settings no recorded job played is refused by name. The jobs are then
list-scheduled on the cores (`schedule`): whenever cores are free, the ready jobs are started in
order of their longest remaining path (their own time plus the longest chain of jobs waiting on
them), each taking its `threads` cores, never more than N at once; a job asking for more than N
is capped at N with its recorded time kept (what Snakemake does with its threads; the time is
then a lower bound). With no bound on the cores (a cluster: every job its own allocation) the
wall time is the critical path's.

Everything here but `dry_run` and the readers of files (`read_seconds`, `workflow_source`,
`profile_threads`) is a pure function of its arguments.
"""

from __future__ import annotations

import csv
import heapq
import json
import re
import subprocess
import sys
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from g2048.study.records.job_cost import Work
from g2048.study.results import read_text

K = TypeVar("K", bound=Hashable)

_JOB = re.compile(r"^(local)?(rule|checkpoint) (\w+):$")
_KEY = re.compile(r"^ {4}(\w+): ?(.*)$")
_TOTAL = re.compile(r"^total\s+(\d+)$")
_REPLICATES = ("seed=", "shard=")


class PlanError(ValueError):
    """A plan that cannot be made: the message says why and names the rule or file."""


@dataclass(frozen=True)
class Job:
    """One job of the study as Snakemake's dry run describes it."""

    jobid: int
    rule: str
    wildcards: str = ""  # as Snakemake prints them: "run=td, seed=1"
    threads: int = 1
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    benchmark: str | None = None
    resources: Mapping[str, str] = field(default_factory=dict)
    reason: str = ""  # why Snakemake would run it
    log: str | None = None

    @property
    def name(self) -> str:
        return f"{self.rule} {self.wildcards}" if self.wildcards else self.rule

    @property
    def row(self) -> str:
        """The job's name without its seed and shard: jobs that play the same settings."""
        kept = [w for w in self.wildcards.split(", ") if w and not w.startswith(_REPLICATES)]
        return " ".join([self.rule, ", ".join(kept)]).strip()


def _files(text: str) -> tuple[str, ...]:
    return tuple(f for f in text.split(", ") if f)


def parse_dry_run(text: str, empty: bool = False) -> list[Job]:
    """The jobs that `snakemake -n` (with `--forceall`: every job) printed, in its order. A job
    is a `rule NAME:` line (or `localrule`, `checkpoint`) followed by indented `key: value`
    lines; threads not printed are 1. The job count is checked against the run's `total` line,
    so that a change of Snakemake's output format fails here rather than planning part of the
    study. No job is refused unless `empty` (a plain dry run of a study that is up to date)."""
    jobs: list[Job] = []
    rule, keys = None, {}

    def close() -> None:
        if rule is None:
            return
        if "jobid" not in keys:
            raise PlanError(f"Snakemake's dry run printed rule {rule} without a jobid")
        resources = {}
        for item in _files(keys.get("resources", "")):
            name, _, value = item.partition("=")
            resources[name] = value
        jobs.append(
            Job(
                jobid=int(keys["jobid"]),
                rule=rule,
                wildcards=keys.get("wildcards", ""),
                threads=int(keys.get("threads", 1)),
                inputs=_files(keys.get("input", "")),
                outputs=_files(keys.get("output", "")),
                benchmark=keys.get("benchmark") or None,
                resources=resources,
                reason=keys.get("reason", ""),
                log=(_files(keys.get("log", "")) or (None,))[0],
            )
        )

    total = None
    for line in text.splitlines():
        if m := _JOB.match(line):
            close()
            rule, keys = m.group(3), {}
        elif rule is not None and (m := _KEY.match(line)):
            keys[m.group(1)] = m.group(2).strip()
        elif rule is not None and not line.startswith("    "):
            close()
            rule, keys = None, {}
            if m := _TOTAL.match(line.strip()):
                total = int(m.group(1))
        elif m := _TOTAL.match(line.strip()):
            total = int(m.group(1))
    close()
    if not jobs and not empty:
        raise PlanError("Snakemake's dry run listed no jobs")
    unique = {job.jobid: job for job in jobs}
    if total is not None and len(unique) != total:
        raise PlanError(
            f"Snakemake's dry run counts {total} jobs but lists {len(unique)}: has its output "
            "format changed?"
        )
    return sorted(unique.values(), key=lambda job: job.jobid)


def dependencies(jobs: Sequence[Job]) -> dict[int, set[int]]:
    """Each job's jobid -> the jobids of the jobs that write its input files, outputs or
    benchmark files (a table of job times reads the latter; files that no job writes are the
    study's own inputs)."""
    writer = {path: job.jobid for job in jobs for path in job.outputs}
    writer |= {job.benchmark: job.jobid for job in jobs if job.benchmark is not None}
    return {
        job.jobid: {writer[path] for path in job.inputs if path in writer} - {job.jobid}
        for job in jobs
    }


# Snakemake's reasons (joined by "; ") under which the last run's record still times the job:
# its inputs were rewritten, or its code changed. A params change holds only when every param
# that differs is a source digest (the workflow's ENGINE and CODE: the package's code changed).
_HOLDING = ("Updated input files", "Input files updated by another job", "Code has changed")
_DIGESTS = r"'[0-9a-f]{16}'(?:,'[0-9a-f]{16}')*"
_CODE_ONLY = re.compile(
    r"Params have changed since last execution: .*before: " + _DIGESTS + r" now: " + _DIGESTS
)


def record_holds(reason: str) -> bool:
    """Whether a job that a plain dry run lists for `reason` keeps its last record as this
    config's time: not when its params (other than the code's digest), its set of inputs or
    its outputs differ, whatever else the reason says."""
    parts = [part.strip() for part in reason.split("; ") if part.strip()]
    return all(part.startswith(_HOLDING) or _CODE_ONLY.fullmatch(part) for part in parts)


def read_seconds(path: Path) -> float | None:
    """The wall time a Snakemake benchmark file records (its `s` column; the mean of its rows
    when the rule repeats), or None when there is no such file."""
    try:
        text = read_text(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PlanError(f"cannot read benchmark file {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # empty, or not UTF-8
        raise PlanError(f"benchmark file {path} {exc}: delete it, or rerun its job") from None
    rows = list(csv.DictReader(text.splitlines(), delimiter="\t"))
    try:
        seconds = [float(row["s"]) for row in rows]
    except (KeyError, TypeError, ValueError):
        seconds = []
    if not seconds or not all(s >= 0 for s in seconds):
        raise PlanError(
            f"benchmark file {path} holds no wall times (a header with a column `s`, then a "
            "row of seconds): delete it, or rerun its job"
        )
    return sum(seconds) / len(seconds)


def _count(counts: dict[str, int], rule: str) -> None:
    counts[rule] = counts.get(rule, 0) + 1


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


@dataclass(frozen=True)
class Rates:
    """What a run of another config recorded (`rates_from`): the seconds per game of each kind
    of work (`job_cost.Work.kind`) beyond a job's start, the start (the shortest recorded job
    that plays no games: the script's Python and imports), and each rule's mean time, for the
    rules that play no games."""

    per_unit: dict[str, float]
    rule_mean: dict[str, float]
    start: float = 0.0

    def seconds(self, work: Work) -> float:
        """The predicted time of a job of `work` (its kind must have a rate)."""
        return self.start + work.units * self.per_unit[work.kind]

    def beside(self, own: Rates) -> Rates:
        """These rates and, for the kinds and rules it has, `own`: those of this config's own
        recorded jobs (a sample's, `g2048.study.sample`), which time the other jobs of their
        kinds."""
        return Rates(self.per_unit | own.per_unit, self.rule_mean | own.rule_mean, self.start)


def rates_from(
    jobs: Sequence[Job], recorded: Mapping[int, float | None], works: Mapping[int, Work | None]
) -> Rates:
    """The rates of the recorded jobs among `jobs` (`recorded` as in `job_times`; `works`: each
    job's games and kind, None for a rule that plays none): per kind, the recorded seconds of
    its jobs beyond their start over their games; per rule without games, its jobs' mean."""
    by_rule: dict[str, list[float]] = {}
    played: list[tuple[Work, float]] = []
    for job in jobs:
        value = recorded.get(job.jobid)
        if job.benchmark is None or value is None:
            continue
        work = works.get(job.jobid)
        if work is None:
            by_rule.setdefault(job.rule, []).append(value)
        elif work.units > 0:
            played.append((work, value))
    start = min((min(values) for values in by_rule.values()), default=0.0)
    seconds: dict[str, float] = {}
    units: dict[str, int] = {}
    for work, value in played:
        seconds[work.kind] = seconds.get(work.kind, 0.0) + max(value - start, 0.0)
        units[work.kind] = units.get(work.kind, 0) + work.units
    per_unit = {kind: seconds[kind] / units[kind] for kind in seconds}
    return Rates(per_unit, {rule: _mean(v) for rule, v in by_rule.items()}, start)


def other_games(
    jobs: Sequence[Job],
    works: Mapping[int, Work | None],
    theirs: Sequence[Job],
    their_works: Mapping[int, Work | None],
) -> set[int]:
    """The jobids of `jobs` that play games (`works`) other than the job of the same name in
    another config's study (`theirs`, `their_works`) does, or that it lacks: a record left in
    the folder by that study's run does not time them. (Snakemake's dry run names a changed
    param only for a job that nothing else makes rerun, so its reasons cannot tell.)"""
    their = {job.name: their_works.get(job.jobid) for job in theirs}
    return {
        job.jobid
        for job in jobs
        if works.get(job.jobid) is not None and their.get(job.name) != works[job.jobid]
    }


def games_at_once(threads: int) -> int:
    """How many timed games a job of `threads` cores plays at once (`play.pinned_cores`): one
    on each core but one, left to the workflow's own process; at least one."""
    return max(1, threads - 1)


def timed_seconds(
    seconds: float, start: float, games: int, at_once: int, planned_at_once: int
) -> float:
    """A timed shard's time when it plays `planned_at_once` of its `games` at once, from a
    record of `seconds` playing `at_once` at once: its start, then its rounds of games (a
    round: as long as a game), as many as it now plays."""
    recorded, planned = -(-games // max(1, at_once)), -(-games // max(1, planned_at_once))
    return start + max(seconds - start, 0.0) * planned / recorded


def discount_compiling(
    jobs: Sequence[Job], recorded: Mapping[int, float | None], compiling: set[int]
) -> tuple[dict[int, float | None], list[int], list[int]]:
    """Records (`recorded`) without those of the jobs that compiled the kernels into an empty
    cache (`compiling`: minutes that a run with a warm cache does not spend), where their row
    or rule has another record to give them (`job_times`); the records, the jobs whose record
    was dropped, and those whose record was kept (none other of their rule: an overestimate)."""
    clean = [
        job for job in jobs if recorded.get(job.jobid) is not None and job.jobid not in compiling
    ]
    rows, rules = {job.row for job in clean}, {job.rule for job in clean}
    out, dropped, kept = dict(recorded), [], []
    for job in jobs:
        if job.jobid in compiling and recorded.get(job.jobid) is not None:
            if job.row in rows or job.rule in rules:
                out[job.jobid] = None
                dropped.append(job.jobid)
            else:
                kept.append(job.jobid)
    return out, dropped, kept


@dataclass(frozen=True)
class JobTimes:
    """Every job's time in seconds, with what was not recorded: `estimated` maps a rule to how
    many of its jobs had no record (given the mean of their row's or rule's recorded jobs),
    `scaled` to how many were timed from another config's rates, `untimed` lists the jobs of
    rules that write no benchmark file (taken as 0 s)."""

    seconds: dict[int, float]
    estimated: dict[str, int]
    untimed: list[int]
    scaled: dict[str, int] = field(default_factory=dict)


def job_times(
    jobs: Sequence[Job],
    recorded: Mapping[int, float | None],
    works: Mapping[int, Work | None] | None = None,
    rates: Rates | None = None,
) -> JobTimes:
    """Each job's time: its record (`recorded[jobid]`, None or absent: none); else the mean of
    its row's recorded jobs (`Job.row`); else, with `rates` (another config's, `rates_from`)
    and the jobs' `works`, a job's start and its games times the seconds per game of its
    kind, or for a rule that plays no games its rule's mean here or in `rates`; without them,
    the mean of its rule's recorded jobs. 0 for a job whose rule has no `benchmark:` file.
    Raises PlanError naming every row with games but no rate of its kind, or else every rule
    with a benchmark file but no time."""
    by_rule: dict[str, list[float]] = {}
    by_row: dict[str, list[float]] = {}
    for job in jobs:
        if job.benchmark is not None and recorded.get(job.jobid) is not None:
            by_rule.setdefault(job.rule, []).append(recorded[job.jobid])
            by_row.setdefault(job.row, []).append(recorded[job.jobid])
    seconds: dict[int, float] = {}
    estimated: dict[str, int] = {}
    scaled: dict[str, int] = {}
    untimed: list[int] = []
    no_rate: dict[str, tuple[int, str]] = {}
    unknown: dict[str, int] = {}
    for job in jobs:
        work = None if works is None else works.get(job.jobid)
        if job.benchmark is None:
            seconds[job.jobid] = 0.0
            untimed.append(job.jobid)
        elif (value := recorded.get(job.jobid)) is not None:
            seconds[job.jobid] = value
        elif job.row in by_row:
            seconds[job.jobid] = _mean(by_row[job.row])
            _count(estimated, job.rule)
        elif rates is not None and work is not None:
            if work.kind in rates.per_unit:
                seconds[job.jobid] = rates.seconds(work)
                _count(scaled, job.rule)
            else:
                no_rate[job.row] = (no_rate.get(job.row, (0, ""))[0] + 1, work.kind)
        elif job.rule in by_rule:
            seconds[job.jobid] = _mean(by_rule[job.rule])
            _count(estimated, job.rule)
        elif rates is not None and job.rule in rates.rule_mean:
            seconds[job.jobid] = rates.rule_mean[job.rule]
            _count(scaled, job.rule)
        else:
            _count(unknown, job.rule)
    if no_rate:
        raise PlanError(_unrated(no_rate, list(rates.per_unit) if rates else []))
    if unknown:
        named = ", ".join(f"{rule} ({n} jobs)" for rule, n in sorted(unknown.items()))
        rules = "rule" if len(unknown) == 1 else "rules"
        raise PlanError(
            f"no job of {rules} {named} has a recorded time (its benchmark file from a run "
            "of this config): run the study, or those jobs, once first"
        )
    return JobTimes(seconds, estimated, untimed, scaled)


def _flat(settings: object, prefix: str = "") -> dict[str, object]:
    if isinstance(settings, dict):
        out: dict[str, object] = {}
        for key, value in settings.items():
            out |= _flat(value, f"{prefix}{key}.")
        return out
    return {prefix[:-1]: settings}


def _settings(kind: str) -> tuple[str, dict[str, object]]:
    rule, _, text = kind.partition(" ")
    try:
        return rule, _flat(json.loads(text))
    except ValueError:
        return rule, {"settings": text}


def _shown(value: object) -> str:
    return "unset" if value is None else json.dumps(value, separators=(",", ":")).strip('"')


def kind_difference(kind: str, rated: Sequence[str]) -> str:
    """How the settings of a kind of work (`study.work.Work.kind`) differ from the nearest
    kind of the same rule among `rated` (the fewest settings apart), e.g. "threads 2 against
    1" (ours against theirs; at most three settings named, then how many more)."""
    rule, ours = _settings(kind)
    best: list[str] | None = None
    for other in rated:
        their_rule, theirs = _settings(other)
        if their_rule != rule:
            continue
        keys = sorted(set(ours) | set(theirs))
        diff = [
            f"{key} {_shown(ours.get(key))} against {_shown(theirs.get(key))}"
            for key in keys
            if ours.get(key) != theirs.get(key)
        ]
        if best is None or len(diff) < len(best):
            best = diff
    if best is None:
        return f"no job of rule {rule} recorded there"
    more = f", and {len(best) - 3} more settings" if len(best) > 3 else ""
    return ", ".join(best[:3]) + more


def _unrated(no_rate: Mapping[str, tuple[int, str]], rated: Sequence[str], shown: int = 5) -> str:
    """The refusal of rows that no recorded job's rate times: a first line naming how many
    and the settings that differ most often, then a few rows, each with its difference."""
    diffs = {row: kind_difference(kind, rated) for row, (_, kind) in no_rate.items()}
    common: dict[str, int] = {}
    for diff in diffs.values():
        common[diff] = common.get(diff, 0) + 1
    ranked = sorted(common.items(), key=lambda item: (-item[1], item[0]))
    summary = "; ".join(f"{diff} ({n} rows)" for diff, n in ranked[:2])
    jobs = sum(n for n, _ in no_rate.values())
    lines = [
        f"no recorded job here or in the other config's run plays the settings of {len(no_rate)}"
        f" row(s) ({jobs} jobs): {summary}"
    ]
    rows = sorted(no_rate, key=lambda row: (-common[diffs[row]], row))
    lines += [f"  {row} ({no_rate[row][0]} jobs): {diffs[row]}" for row in rows[:shown]]
    if len(rows) > shown:
        lines.append(f"  and {len(rows) - shown} more rows")
    lines.append(
        "Run one job of each first (a shard, a seed) with this config, or take the rates "
        "from a run of the same settings"
    )
    return "\n".join(lines)


@dataclass(frozen=True)
class Schedule:
    """A list schedule: each job's start and finish in seconds, the wall time, the critical
    path (the longest chain of dependent jobs, first job first: a lower bound on the wall time
    on any number of cores) with its length, the total core-seconds, and the jobs whose
    threads were capped at the cores."""

    start: dict
    finish: dict
    wall: float
    critical_path: list
    critical_seconds: float
    core_seconds: float
    capped: list


def _topological(deps: Mapping[K, set[K]], order: Mapping[K, int]) -> list[K]:
    waiting = {job: len(before) for job, before in deps.items()}
    after: dict[K, list[K]] = {job: [] for job in deps}
    for job, before in deps.items():
        for b in before:
            after[b].append(job)
    ready = sorted((job for job, n in waiting.items() if n == 0), key=order.__getitem__)
    out: list[K] = []
    while ready:
        job = ready.pop(0)
        out.append(job)
        for a in after[job]:
            waiting[a] -= 1
            if waiting[a] == 0:
                ready.append(a)
    if len(out) != len(deps):
        raise PlanError("the jobs' dependencies form a cycle")
    return out


def schedule(
    seconds: Mapping[K, float],
    threads: Mapping[K, int],
    deps: Mapping[K, set[K]],
    cores: int | None,
) -> Schedule:
    """List-schedule jobs (`seconds`, `threads` and `deps`: job -> the jobs it waits for, all
    keyed alike; a job's order in `seconds` breaks ties) on `cores` cores, None: unbounded.
    Whenever a job finishes (and at the start), the ready jobs are scanned in order of their
    longest remaining path, and each is started if its threads fit in the free cores. A job
    with more threads than `cores` takes all of them (capped, listed in `capped`)."""
    if cores is not None and cores < 1:
        raise ValueError(f"cores must be >= 1, got {cores}")
    missing = {b for before in deps.values() for b in before} - set(seconds)
    if set(deps) != set(seconds) or missing:
        raise ValueError("seconds and deps must name the same jobs")
    order = {job: i for i, job in enumerate(seconds)}
    topo = _topological(deps, order)
    after: dict[K, list[K]] = {job: [] for job in seconds}
    for job, before in deps.items():
        for b in before:
            after[b].append(job)
    # longest remaining path: the job's time plus the longest chain after it
    remaining: dict[K, float] = {}
    for job in reversed(topo):
        remaining[job] = seconds[job] + max((remaining[a] for a in after[job]), default=0.0)
    width = {job: max(1, threads.get(job, 1)) for job in seconds}
    capped = []
    if cores is not None:
        capped = [job for job in seconds if width[job] > cores]
        width = {job: min(w, cores) for job, w in width.items()}

    def priority(job: K) -> tuple[float, int]:
        return (-remaining[job], order[job])

    waiting = {job: len(deps[job]) for job in seconds}
    ready = sorted((job for job, n in waiting.items() if n == 0), key=priority)
    running: list[tuple[float, int, K]] = []
    start: dict[K, float] = {}
    finish: dict[K, float] = {}
    free = cores
    now = 0.0
    while ready or running:
        still = []
        for job in ready:
            if free is None or width[job] <= free:
                start[job] = now
                heapq.heappush(running, (now + seconds[job], order[job], job))
                if free is not None:
                    free -= width[job]
            else:
                still.append(job)
        ready = still
        now = running[0][0]
        while running and running[0][0] == now:
            _, _, job = heapq.heappop(running)
            finish[job] = now
            if free is not None:
                free += width[job]
            for a in after[job]:
                waiting[a] -= 1
                if waiting[a] == 0:
                    ready.append(a)
        ready.sort(key=priority)
    # the critical path: from the job with the longest remaining path, follow the successor
    # with the longest remaining path
    path: list[K] = []
    if topo:
        job = min((j for j in seconds if not deps[j]), key=priority)
        path.append(job)
        while after[job]:
            job = min(after[job], key=priority)
            path.append(job)
    return Schedule(
        start=start,
        finish=finish,
        wall=max(finish.values(), default=0.0),
        critical_path=path,
        critical_seconds=sum(seconds[job] for job in path),
        core_seconds=sum(seconds[job] * width[job] for job in seconds),
        capped=capped,
    )


def over_runtime(jobs: Sequence[Job], seconds: Mapping[int, float], local: set[str]) -> list[str]:
    """The jobs (but the local rules') whose predicted `seconds` exceed their runtime resource
    (minutes), each named with both: what a cluster would end."""
    out = []
    for job in jobs:
        limit = job.resources.get("runtime", "")
        if limit.isdigit() and seconds[job.jobid] > 60 * int(limit) and job.rule not in local:
            out.append(
                f"{job.name} is predicted to take {duration(seconds[job.jobid])}, over its "
                f"runtime resource of {limit} min"
            )
    return out


def dry_run(
    configfile: Path, cores: int | None, profile: Path | None = None, force: bool = True
) -> str:
    """What `snakemake -n --forceall` (`force` False: `snakemake -n`, the jobs the config would
    rerun, with their reasons) prints for the study of `configfile` in the current folder, on
    `cores` cores and through the workflow profile `profile` (None: Snakemake's default,
    profiles/default): nothing is run."""
    command = [sys.executable, "-m", "snakemake", "-n", *(["--forceall"] if force else [])]
    command += ["--configfile", str(configfile)]
    if profile is not None:
        command += ["--workflow-profile", str(profile)]
    if cores is not None:
        command += ["--cores", str(cores)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise PlanError("Snakemake's dry run failed: " + " / ".join(tail))
    return done.stdout + "\n" + done.stderr


_RULE = re.compile(r"^(?:rule|checkpoint) (\w+):")


def local_rules(source: str) -> set[str]:
    """The rules that a workflow source (the Snakefile and its included files, concatenated)
    marks `localrule: True`: on a cluster they run in Snakemake's own process, not queued."""
    out, rule = set(), None
    for line in source.splitlines():
        if m := _RULE.match(line):
            rule = m.group(1)
        elif line and not line[0].isspace():
            rule = None
        elif rule is not None and line.strip().replace(" ", "") == "localrule:True":
            out.add(rule)
    return out


def workflow_source(root: Path = Path(".")) -> str:
    """The Snakefile and every rule file under workflow/rules, concatenated."""
    files = [root / "Snakefile", *sorted((root / "workflow" / "rules").glob("*.smk"))]
    return "\n".join(path.read_text() for path in files if path.is_file())


def duration(seconds: float) -> str:
    """Seconds as a person reads them: '42.0 s', '3 min 05 s', '2 h 07 min'."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        minutes, secs = divmod(round(seconds), 60)
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"{hours} h {minutes:02d} min"


def profile_threads(profile: Path) -> dict[str, int]:
    """The threads per job a Snakemake profile sets rule by rule (its `set-threads`); PlanError
    in one line naming the profile's file when it cannot be read, is not UTF-8 YAML of a
    mapping, or sets threads other than whole numbers (an empty file sets none)."""
    import yaml

    path = profile / "config.yaml"
    try:
        text = path.read_bytes().decode()
        settings = yaml.safe_load(text) or {}
    except OSError as exc:
        raise PlanError(f"cannot read profile {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        problem = f"is not UTF-8 text ({exc.reason} at byte {exc.start})"
        raise PlanError(f"profile {path} {problem}") from None
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" at line {where.line + 1}" if where is not None else ""
        raise PlanError(f"profile {path} is not valid YAML{line}") from None
    if not isinstance(settings, dict):
        raise PlanError(f"profile {path} holds a {type(settings).__name__}, not a mapping")
    threads = settings.get("set-threads") or {}
    try:
        if isinstance(threads, list):  # the command line's form: ["rule=2", ...]
            threads = dict(str(item).split("=", 1) for item in threads)
        return {str(rule): int(n) for rule, n in dict(threads).items()}
    except (TypeError, ValueError):
        raise PlanError(
            f"profile {path}: set-threads must map rules to whole numbers, got {threads!r}"
        ) from None
