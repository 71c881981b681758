"""The job records of a run, kept with docs/ (`make docs` writes docs/jobs.tsv), so that `plan`
predicts the study that docs/ shows on a fresh clone, before any run of its own.

A job's record is its benchmark file's wall time (benchmarks/<where>.tsv, Snakemake's) and what
its log (logs/<where>.log: every rule's log and benchmark file share <where>) says of it:
whether it compiled the kernels into an empty cache (`logs.COMPILING`: minutes that a run with
a warm cache does not spend), and for a timed shard its games and how many it played at once
(`logs.TIMED`: on more cores it plays more at once). The table names the config it was
recorded with by the SHA-256 of the config file; `plan` uses it for that config alone.

    python -m g2048.study.jobrecords OUT CONFIG [--note TEXT]
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from g2048 import file_sha256
from g2048.study.records import plan
from g2048.study.records.job_cost import Work
from g2048.study.records.logs import COMPILING, TIMED
from g2048.study.records.plan import Job, PlanError, read_seconds

DOCS_RECORDS = Path("docs/jobs.tsv")
PROBES = Path("benchmarks/probe")  # a sample's records (g2048.study.sample), not a job's
SAMPLED = PROBES / "sampled.txt"
_COLUMNS = ("benchmark", "seconds", "compiling", "timed_games", "at_once")


@dataclass(frozen=True)
class JobRecord:
    """One job's recorded wall time, whether it includes compiling the kernels into an empty
    cache, and for a timed shard its timed games and how many it played at once (0: none)."""

    seconds: float
    compiling: bool = False
    timed_games: int = 0
    at_once: int = 0


def read_log(path: str | Path | None) -> tuple[bool, int, int]:
    """What a job's log says of it: (compiled the kernels, timed games, played at once); no
    log, or nothing said: (False, 0, 0)."""
    if path is None:
        return False, 0, 0
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return False, 0, 0
    timed = TIMED.search(text)
    games, at_once = (int(timed.group(1)), int(timed.group(2))) if timed else (0, 0)
    return COMPILING in text, games, at_once


def job_record(benchmark: str | Path, log: str | Path | None) -> JobRecord | None:
    """The record of the job with this benchmark file and log; None without a benchmark file."""
    seconds = read_seconds(Path(benchmark))
    if seconds is None:
        return None
    return JobRecord(seconds, *read_log(log))


def collect(root: Path = Path(".")) -> dict[str, JobRecord]:
    """Every job record of the run in `root`: benchmarks/**/*.tsv, keyed by their path there
    (as the dry run names them), with their logs' notes."""
    out = {}
    for path in sorted((root / "benchmarks").rglob("*.tsv")):
        if path.is_relative_to(root / PROBES):
            continue
        where = path.relative_to(root / "benchmarks").with_suffix(".log")
        record = job_record(path, root / "logs" / where)
        if record is not None:
            out[path.relative_to(root).as_posix()] = record
    return out


def write_records(out: Path, configfile: Path, records: dict[str, JobRecord], note: str) -> None:
    """Write `records` to `out` (a TSV), headed by the config's file and SHA-256 and `note`."""
    lines = [f"# {note}", f"# config {configfile} sha256 {file_sha256(configfile)}"]
    lines.append("\t".join(_COLUMNS))
    for name, r in sorted(records.items()):
        lines.append(f"{name}\t{r.seconds:.3f}\t{int(r.compiling)}\t{r.timed_games}\t{r.at_once}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")


def read_records(path: Path, configfile: Path) -> tuple[dict[str, JobRecord], str]:
    """The records of `path` and its note, if they were recorded with the config file
    `configfile` as it is now (its SHA-256); else, or without the file, ({}, "")."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return {}, ""
    comments = [line[2:] for line in text.splitlines() if line.startswith("# ")]
    digest = next((c.split()[-1] for c in comments if c.startswith("config ")), None)
    if digest is None or not configfile.is_file() or digest != file_sha256(configfile):
        return {}, ""
    rows = csv.DictReader(
        (ln for ln in text.splitlines() if not ln.startswith("#")), delimiter="\t"
    )
    try:
        records = {
            row["benchmark"]: JobRecord(
                float(row["seconds"]),
                row["compiling"] == "1",
                int(row["timed_games"]),
                int(row["at_once"]),
            )
            for row in rows
        }
    except (KeyError, TypeError, ValueError):
        raise PlanError(f"{path} is not a table of job records: rerun `make docs`") from None
    return records, comments[0] if comments else ""


def write_sampled(benchmarks: list[str]) -> None:
    """Note the benchmark files of jobs that a sample ran with the other config's `tune`
    section (g2048.study.sample), each with its SHA-256: their params differ from this
    config's, but not their work."""
    SAMPLED.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{path}\t{file_sha256(path)}\n" for path in benchmarks if Path(path).is_file()]
    SAMPLED.write_text("".join(lines))


def sampled() -> set[str]:
    """The benchmark files of sampled jobs (`write_sampled`) that no run has rewritten since."""
    try:
        rows = [line.split("\t") for line in SAMPLED.read_text().splitlines()]
    except FileNotFoundError:
        return set()
    return {
        r[0] for r in rows if len(r) == 2 and Path(r[0]).is_file() and file_sha256(r[0]) == r[1]
    }


def sampled_jobs(jobs: list[Job]) -> set[int]:
    """The jobids of `jobs` whose records a sample made for this config (`sampled`): not the
    other config's records that `plan.other_games` drops."""
    taken = sampled()
    return {job.jobid for job in jobs if job.benchmark in taken}


def shared_rates(
    jobs: list[Job],
    recorded: dict[int, float | None],
    works: Mapping[int, Work | None],
    theirs: list[Job],
    their_seconds: Mapping[int, float | None],
    their_works: Mapping[int, Work | None],
) -> tuple[plan.Rates, set[int]]:
    """The rates that time `jobs` from another config's run (`theirs`): its rates, and this
    config's own where it has a kind (a sample's, `plan.Rates.beside`). First drops from
    `recorded` the records that run left of other games (`plan.other_games`), but not a
    sample's (`sampled_jobs`); returns the rates and the jobids dropped."""
    dropped = plan.other_games(jobs, works, theirs, their_works) - sampled_jobs(jobs)
    for jobid in dropped:
        recorded.pop(jobid, None)
    rates = plan.rates_from(theirs, their_seconds, their_works)
    return rates.beside(plan.rates_from(jobs, recorded, works)), dropped


def recorded_jobs(
    configfile: Path, cores: int | None, profile: Path | None
) -> tuple[list[Job], dict[int, JobRecord], set[str], set[int]]:
    """The jobs of the study of `configfile` (a dry run), the records of their last run where
    it had this config's settings (or was sampled for it: `sampled`), else those of the run
    docs/ shows (docs/jobs.tsv, if of this config file), the names of the jobs whose last run
    had other settings, and the jobs timed from docs/."""
    jobs = plan.parse_dry_run(plan.dry_run(configfile, cores, profile))
    rerun = plan.parse_dry_run(plan.dry_run(configfile, cores, profile, force=False), empty=True)
    taken = sampled()
    other = {
        job.name
        for job in rerun
        if not plan.record_holds(job.reason) and job.benchmark not in taken
    }
    docs, _ = read_records(DOCS_RECORDS, configfile)
    records: dict[int, JobRecord] = {}
    from_docs: set[int] = set()
    for job in jobs:
        if not job.benchmark:
            continue
        record = None if job.name in other else job_record(job.benchmark, job.log)
        if record is None and job.benchmark in docs:
            record = docs[job.benchmark]
            from_docs.add(job.jobid)
        if record is not None:
            records[job.jobid] = record
    return jobs, records, other, from_docs


def record_seconds(
    jobs: list[Job], records: dict[int, JobRecord], threads: dict[int, int]
) -> tuple[dict[int, float | None], list[int], list[int]]:
    """The jobs' recorded times as planned: a timed shard's for the games it plays at once on
    its `threads` (`plan.timed_seconds`), and without the records that include compiling the
    kernels where others can stand in (`plan.discount_compiling`)."""
    start = min((r.seconds for r in records.values()), default=0.0)
    seconds: dict[int, float | None] = {}
    for jobid, r in records.items():
        seconds[jobid] = r.seconds
        if r.timed_games and r.at_once:
            at_once = plan.games_at_once(threads[jobid])
            seconds[jobid] = plan.timed_seconds(r.seconds, start, r.timed_games, r.at_once, at_once)
    compiling = {jobid for jobid, r in records.items() if r.compiling}
    return plan.discount_compiling(jobs, seconds, compiling)


def main(argv: list[str] | None = None) -> int:
    """Write the job records of the run in this folder to OUT, for CONFIG."""
    parser = argparse.ArgumentParser(prog="python -m g2048.study.jobrecords", description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("config", type=Path)
    parser.add_argument("--note", default="job records")
    args = parser.parse_args(argv)
    records = collect()
    if not records:
        parser.error("no job records here (benchmarks/): run the study first")
    write_records(args.out, args.config, records, args.note)
    compiled = sum(r.compiling for r in records.values())
    print(f"wrote {len(records)} job records to {args.out} ({compiled} compiled the kernels)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
