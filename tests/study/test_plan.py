"""The study planner (`python -m g2048 plan`): Snakemake's dry run read into jobs, their times
from benchmark files, and the list schedule, on small hand-checkable DAGs."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from g2048.cli.main import main
from g2048.study.jobrecords import DOCS_RECORDS, collect, write_records
from g2048.study.records import plan
from g2048.study.records.job_cost import Work
from g2048.study.records.plan import (
    Job,
    PlanError,
    dependencies,
    job_times,
    parse_dry_run,
    rates_from,
    schedule,
)

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE_DRY_RUN = plan.dry_run  # before the `study` fixture stands in for it

# What Snakemake 9 prints for `snakemake -n --forceall` (cut down): three jobs of a chain, a
# local rule, a job of two threads.
DRY_RUN = """\
Config file config/config.yaml is extended by additional config specified via the command line.
Building DAG of jobs...
Job stats:
job      count
-----  -------
all          1
make         2
merge        1
total        4


[Fri Dec  4 13:56:29 2026]
rule make:
    output: results/a.csv, results/provenance/a.json
    log: logs/a.log
    jobid: 2
    benchmark: benchmarks/make/a.tsv
    reason: Forced execution
    wildcards: name=a
    threads: 2
    resources: tmpdir=/tmp, runtime=240, mem_mb=2000, mem=2 GB, mem_mib=1908
[Fri Dec  4 13:56:29 2026]
rule make:
    output: results/b.csv, results/provenance/b.json
    log: logs/b.log
    jobid: 3
    benchmark: benchmarks/make/b.tsv
    reason: Forced execution
    wildcards: name=b
    resources: tmpdir=/tmp, runtime=240, mem_mb=2000, mem=2 GB, mem_mib=1908
[Fri Dec  4 13:56:29 2026]
localrule merge:
    input: results/a.csv, results/b.csv, benchmarks/make/a.tsv, config/extra.csv
    output: results/merged.csv
    log: logs/merge.log
    jobid: 1
    benchmark: benchmarks/merge.tsv
    reason: Forced execution
    resources: tmpdir=/tmp, runtime=5
[Fri Dec  4 13:56:29 2026]
rule all:
    input: results/merged.csv
    jobid: 0
    reason: Forced execution
    resources: tmpdir=/tmp
Job stats:
job      count
-----  -------
all          1
make         2
merge        1
total        4

Reasons:
    (check individual jobs above for details)
    forced:
        all, make, merge
This was a dry-run (flag -n). The order of jobs does not reflect the order of execution.
"""


def test_the_dry_run_reads_into_jobs() -> None:
    jobs = parse_dry_run(DRY_RUN)
    assert [job.jobid for job in jobs] == [0, 1, 2, 3]
    all_, merge, a, b = jobs
    assert (a.rule, a.wildcards, a.threads, a.benchmark) == (
        "make",
        "name=a",
        2,
        "benchmarks/make/a.tsv",
    )
    assert a.outputs == ("results/a.csv", "results/provenance/a.json")
    assert a.resources["runtime"] == "240" and a.name == "make name=a"
    assert (b.threads, merge.rule, merge.threads) == (1, "merge", 1)
    assert merge.inputs[-1] == "config/extra.csv"
    assert (all_.benchmark, all_.outputs, all_.name) == (None, (), "all")
    # the merge waits for both makes (one of them also through its benchmark file)
    assert dependencies(jobs) == {0: {1}, 1: {2, 3}, 2: set(), 3: set()}


def test_a_dry_run_that_lists_fewer_jobs_than_it_counts_is_refused() -> None:
    cut = DRY_RUN.replace("rule make:\n    output: results/b.csv", "rul make:\n    output: x", 1)
    with pytest.raises(PlanError, match="counts 4 jobs but lists 3"):
        parse_dry_run(cut)
    with pytest.raises(PlanError, match="no jobs"):
        parse_dry_run("Building DAG of jobs...\nNothing to be done.\n")


def test_benchmark_files_give_the_s_column(tmp_path: Path) -> None:
    path = tmp_path / "job.tsv"
    header = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
    path.write_text(header + "12.5\t0:00:12\t90.1\t500.2\t80\t81\t0\t1.2\t98.0\t12.3\n")
    assert plan.read_seconds(path) == 12.5
    path.write_text(header + "10\t-\t-\t-\t-\t-\t-\t-\t-\t-\n" + "14\t-\t-\t-\t-\t-\t-\t-\t-\t-\n")
    assert plan.read_seconds(path) == 12.0  # a repeated benchmark: the mean
    assert plan.read_seconds(tmp_path / "none.tsv") is None
    path.write_text("seconds\n3\n")
    with pytest.raises(PlanError, match=f"benchmark file {path} holds no wall times"):
        plan.read_seconds(path)
    path.write_bytes(b"s\th:m:s\n\xff\n")  # was a UnicodeDecodeError traceback
    with pytest.raises(PlanError, match=f"^benchmark file {path} is not UTF-8 text "):
        plan.read_seconds(path)


def test_a_job_without_a_record_gets_its_rules_mean() -> None:
    jobs = parse_dry_run(DRY_RUN)
    times = job_times(jobs, {2: 10.0, 3: None, 1: 1.5})
    assert times.seconds == {0: 0.0, 1: 1.5, 2: 10.0, 3: 10.0}
    assert times.estimated == {"make": 1} and times.untimed == [0]
    times = job_times(
        [*jobs, Job(4, "make", "name=c", benchmark="benchmarks/make/c.tsv")],
        {2: 10.0, 3: 20.0, 1: 1.0},
    )
    assert times.seconds[4] == 15.0 and times.estimated == {"make": 1}


def test_a_rule_without_any_record_is_refused_by_name() -> None:
    jobs = parse_dry_run(DRY_RUN)
    with pytest.raises(PlanError, match=r"no job of rule make \(2 jobs\) has a recorded time"):
        job_times(jobs, {1: 1.0})
    with pytest.raises(PlanError, match=r"rules make \(2 jobs\), merge \(1 jobs\)"):
        job_times(jobs, {})


def test_a_chain_runs_one_after_another_on_any_cores() -> None:
    seconds = {"a": 2.0, "b": 3.0, "c": 1.0}
    deps = {"a": set(), "b": {"a"}, "c": {"b"}}
    for cores in (1, 4, None):
        s = schedule(seconds, {}, deps, cores)
        assert s.wall == 6.0 and s.start == {"a": 0.0, "b": 2.0, "c": 5.0}
        assert s.critical_path == ["a", "b", "c"] and s.critical_seconds == 6.0
        assert s.core_seconds == 6.0 and s.capped == []


def test_a_fork_shares_the_cores_longest_branch_first() -> None:
    # a (1 s), then b (4 s), c (2 s) and d (2 s): on 2 cores b and c start at 1, d when c ends
    seconds = {"a": 1.0, "c": 2.0, "d": 2.0, "b": 4.0}
    deps = {"a": set(), "b": {"a"}, "c": {"a"}, "d": {"a"}}
    s = schedule(seconds, {}, deps, 2)
    assert s.start == {"a": 0.0, "b": 1.0, "c": 1.0, "d": 3.0} and s.wall == 5.0
    assert s.critical_path == ["a", "b"] and s.critical_seconds == 5.0
    assert schedule(seconds, {}, deps, 1).wall == 9.0
    assert schedule(seconds, {}, deps, None).wall == 5.0  # unbounded: the critical path


def test_the_longest_remaining_path_goes_first() -> None:
    # in the given order a and b would take both cores first and d would end at 8; c leads to
    # the 4-second d, so c starts first and the study ends at 6
    seconds = {"a": 3.0, "b": 3.0, "c": 1.0, "d": 4.0}
    deps = {"a": set(), "b": set(), "c": set(), "d": {"c"}}
    s = schedule(seconds, {}, deps, 2)
    assert s.start == {"c": 0.0, "a": 0.0, "d": 1.0, "b": 3.0} and s.wall == 6.0


def test_jobs_take_their_threads_and_a_wider_one_is_capped() -> None:
    seconds = {"wide": 2.0, "x": 1.0, "y": 1.0}
    deps = {"wide": set(), "x": set(), "y": set()}
    s = schedule(seconds, {"wide": 2}, deps, 2)  # wide holds both cores, then x and y together
    assert s.start == {"wide": 0.0, "x": 2.0, "y": 2.0} and s.wall == 3.0
    assert s.core_seconds == 6.0 and s.capped == []
    s = schedule(seconds, {"wide": 4}, deps, 2)  # capped at the 2 cores, its time kept
    assert s.capped == ["wide"] and s.wall == 3.0 and s.core_seconds == 6.0
    s = schedule(seconds, {"wide": 4}, deps, None)  # a cluster: no cap
    assert s.capped == [] and s.wall == 2.0 and s.core_seconds == 10.0


def test_never_more_cores_busy_than_given() -> None:
    seconds = {f"j{i}": float(1 + i % 3) for i in range(12)}
    threads = {f"j{i}": 1 + i % 2 for i in range(12)}
    deps = {f"j{i}": ({f"j{i - 4}"} if i >= 4 else set()) for i in range(12)}
    s = schedule(seconds, threads, deps, 3)
    for t in sorted(set(s.start.values())):
        busy = sum(threads[j] for j in seconds if s.start[j] <= t < s.finish[j])
        assert busy <= 3
    for j, before in deps.items():
        assert all(s.finish[b] <= s.start[j] for b in before)
    assert s.wall >= max(s.critical_seconds, s.core_seconds / 3)


def test_a_cycle_is_refused() -> None:
    with pytest.raises(PlanError, match="cycle"):
        schedule({"a": 1.0, "b": 1.0}, {}, {"a": {"b"}, "b": {"a"}}, 2)


def test_local_rules_are_read_off_the_workflow() -> None:
    source = (
        "rule a:\n    output:\n        'x'\n    localrule: True\n\n\n"
        "rule b:\n    output:\n        'y'\n\n\nLOCAL = 1\n    localrule: True\n"
        "checkpoint c:\n    localrule:   True\n"
    )
    assert plan.local_rules(source) == {"a", "c"}
    repo = plan.local_rules(plan.workflow_source(ROOT))
    assert {"all", "select", "findings"} <= repo and not repo & {"tune", "benchmark_shard"}


def test_the_durations_read_as_people_read_them() -> None:
    assert plan.duration(42.04) == "42.0 s"
    assert plan.duration(185) == "3 min 05 s"
    assert plan.duration(7620) == "2 h 07 min"


UP_TO_DATE = "Building DAG of jobs...\nNothing to be done (all requested files are present).\n"
CODE = "Params have changed since last execution: Union of exclusive params before and now "
CODE += "across all output: before: 'f8479e793455cae2' now: 'fb3d6e46879c118e'"


def _rerun(reason: str) -> str:
    """A plain dry run that would rerun make name=a for `reason`."""
    job = "rule make:\n    output: results/a.csv\n    jobid: 2\n    benchmark: "
    job += f"benchmarks/make/a.tsv\n    reason: {reason}\n    wildcards: name=a\n"
    return f"Building DAG of jobs...\n{job}Job stats:\njob      count\ntotal        1\n"


def test_a_record_holds_for_new_inputs_or_code_but_not_other_settings() -> None:
    assert plan.record_holds("")  # up to date
    assert plan.record_holds("Input files updated by another job: results/a.csv")
    assert plan.record_holds(f"Updated input files: x.csv; {CODE}; Code has changed since last")
    settings = CODE.replace("now: 'fb3d6e46879c118e'", "now: 50,{'games': 100}")
    assert not plan.record_holds(settings)
    assert not plan.record_holds(CODE.replace("'f8479e793455cae2'", "'f8479e7934',{'x': 1}"))
    assert not plan.record_holds("Missing output files: results/a.csv")
    assert not plan.record_holds("Set of input files has changed since last execution: a")
    assert not plan.record_holds(f"{CODE}; Missing output files: results/a.csv")


def test_a_job_gets_its_rows_mean_before_its_rules() -> None:
    jobs = [
        Job(1, "tune", "run=cem, seed=1", benchmark="b1"),
        Job(2, "tune", "run=cem, seed=2", benchmark="b2"),
        Job(3, "tune", "run=nsga2, seed=1", benchmark="b3"),
        Job(4, "tune", "run=td, seed=1", benchmark="b4"),
        Job(5, "shard", "entry=mc, shard=7", benchmark="b5"),
        Job(6, "shard", "entry=mc, shard=8", benchmark="b6"),
    ]
    assert [job.row for job in jobs[::2]] == ["tune run=cem", "tune run=nsga2", "shard entry=mc"]
    times = job_times(jobs, {1: 10.0, 3: 100.0, 5: 3.0})
    assert times.seconds == {1: 10.0, 2: 10.0, 3: 100.0, 4: 55.0, 5: 3.0, 6: 3.0}
    assert times.estimated == {"tune": 2, "shard": 1}


def test_another_configs_rates_time_a_row_by_its_games() -> None:
    """Their run: a selection (1 s: the shortest job without games, a job's start), a table
    (7 s), two shards of kind A (10 s for 4 games, 20 s for 6), one of kind B (2 s for 2).
    Ours: a row of A never recorded here plays 15 games: 1 + 15 x (9 + 19) / 10 s; a row of
    our own with a record keeps its row's mean; a table takes their rule's mean."""
    theirs = [
        Job(1, "shard", "entry=a, shard=0", benchmark="t1"),
        Job(2, "shard", "entry=a, shard=1", benchmark="t2"),
        Job(3, "shard", "entry=b, shard=0", benchmark="t3"),
        Job(4, "table", benchmark="t4"),
        Job(5, "shard", "entry=c, shard=0", benchmark="t5"),  # not recorded
        Job(6, "select", "run=x, seed=1", benchmark="t6"),
    ]
    their_works = {1: Work("A", 4), 2: Work("A", 6), 3: Work("B", 2), 5: Work("C", 1)}
    rates = rates_from(theirs, {1: 10.0, 2: 20.0, 3: 2.0, 4: 7.0, 6: 1.0}, their_works)
    assert rates.start == 1.0
    assert rates.per_unit == {"A": pytest.approx(2.8), "B": 0.5}
    assert rates.rule_mean == {"table": 7.0, "select": 1.0}
    ours = [
        Job(1, "shard", "entry=big-a, shard=0", benchmark="o1"),
        Job(2, "shard", "entry=b, shard=0", benchmark="o2"),
        Job(3, "shard", "entry=b, shard=1", benchmark="o3"),
        Job(4, "table", benchmark="o4"),
        Job(5, "all"),
    ]
    works = {1: Work("A", 15), 2: Work("B", 100), 3: Work("B", 100), 4: None, 5: None}
    times = job_times(ours, {2: 4.0}, works, rates)
    assert times.seconds == {1: pytest.approx(43.0), 2: 4.0, 3: 4.0, 4: 7.0, 5: 0.0}
    assert times.scaled == {"shard": 1, "table": 1}
    assert times.estimated == {"shard": 1}
    assert times.untimed == [5]


def test_this_configs_own_records_rate_the_other_jobs_of_their_kind() -> None:
    """The other run rates kind A; a sample here recorded one job of kind S (1 s to start, 2
    games in 9 s): another job of S, never recorded, takes its rate; A keeps the other's."""
    theirs = [Job(1, "shard", "entry=a, shard=0", benchmark="t1"), Job(2, "sel", benchmark="t2")]
    rates = rates_from(theirs, {1: 11.0, 2: 1.0}, {1: Work("A", 10)})
    ours = [
        Job(1, "shard", "entry=s, shard=0", benchmark="o1"),
        Job(2, "shard", "entry=t, shard=0", benchmark="o2"),
        Job(3, "sel", benchmark="o3"),
    ]
    works = {1: Work("S", 2), 2: Work("S", 6), 3: None}
    own = rates_from(ours, {1: 9.0, 3: 1.0}, works)
    both = rates.beside(own)
    assert both.per_unit == {"A": 1.0, "S": 4.0}
    assert job_times(ours, {1: 9.0}, works, both).seconds[2] == pytest.approx(1 + 6 * 4.0)
    with pytest.raises(PlanError):
        job_times(ours, {1: 9.0}, works, rates)  # the other's rates alone cannot time S


def test_a_record_of_other_games_is_not_this_configs() -> None:
    """Jobs of the same name: one plays the same games in both configs (its record holds), one
    more games, one another kind; a job the other study lacks; a rule without games."""
    theirs = [Job(1, "tune", "run=a"), Job(2, "tune", "run=b"), Job(3, "tune", "run=c")]
    ours = [*theirs, Job(4, "tune", "run=d"), Job(5, "table")]
    their_works = {1: Work("A", 10), 2: Work("B", 10), 3: Work("C", 10)}
    works = {1: Work("A", 10), 2: Work("B", 20), 3: Work("X", 10), 4: Work("A", 1), 5: None}
    assert plan.other_games(ours, works, theirs, their_works) == {2, 3, 4}


def _kind(threads: int, agent: str, depth: int = 0) -> str:
    agent_spec = {"name": agent, **({"depth": depth} if depth else {})}
    return "shard " + json.dumps({"threads": threads, "agent": agent_spec}, sort_keys=True)


def test_rows_without_a_rate_are_refused_by_name_with_the_settings_that_differ() -> None:
    """30 rows recorded there on 1 thread, planned here on 2, and one of an agent never
    recorded there: the first line names the difference, and the refusal is a few lines."""
    theirs = [Job(i, "shard", f"entry=e{i}", benchmark="t") for i in range(30)]
    their_works = {i: Work(_kind(1, "greedy", i), 1) for i in range(30)}
    rates = rates_from(theirs, dict.fromkeys(range(30), 2.0), their_works)
    ours = [Job(60 + k, "shard", f"entry=mc, shard={k}", benchmark="o") for k in (0, 1)]
    ours += [
        Job(2 * i + k, "shard", f"entry=e{i}, shard={k}", benchmark="o")
        for i in range(30)
        for k in (0, 1)
    ]
    works = {2 * i + k: Work(_kind(2, "greedy", i), 5) for i in range(30) for k in (0, 1)}
    works |= {60: Work(_kind(1, "montecarlo"), 5), 61: Work(_kind(1, "montecarlo"), 5)}
    with pytest.raises(PlanError) as refused:
        job_times(ours, {}, works, rates)
    lines = str(refused.value).splitlines()
    assert lines[0] == (
        "no recorded job here or in the other config's run plays the settings of 31 row(s) "
        "(62 jobs): threads 2 against 1 (30 rows); agent.name montecarlo against greedy (1 rows)"
    )
    assert lines[1] == "  shard entry=e0 (2 jobs): threads 2 against 1"
    assert lines[-2:] == [
        "  and 26 more rows",
        "Run one job of each first (a shard, a seed) with this config, or take the rates from "
        "a run of the same settings",
    ]
    assert len(lines) == 8
    assert plan.kind_difference(_kind(1, "greedy"), [_kind(1, "greedy"), "tune {}"]) == ""
    assert (
        plan.kind_difference("tune {}", [_kind(1, "greedy")])
        == "no job of rule tune recorded there"
    )


def test_rows_without_a_rate_keep_the_old_way_without_rates() -> None:
    ours = [
        Job(1, "shard", "entry=x, shard=0", benchmark="o1"),
        Job(2, "shard", "entry=x, shard=1", benchmark="o2"),
        Job(3, "shard", "entry=a, shard=0", benchmark="o3"),
    ]
    # without rates, the old way: the rule's mean of what is recorded here
    assert job_times(ours, {3: 8.0}).seconds == {1: 8.0, 2: 8.0, 3: 8.0}


def test_plan_leaves_out_the_records_of_other_settings(
    study: Path, capsys: pytest.CaptureFixture
) -> None:
    """make a's record (10 s) times it after a change of code, not of its params: then make
    has no record of this config, and is refused."""
    (study / "rerun.txt").write_text(_rerun(CODE))
    assert main(["plan", "--cores", "2"]) == 0
    assert "predicted wall time  22.0 s (22 s)" in capsys.readouterr().out
    (study / "rerun.txt").write_text(_rerun("Params have changed since last execution: 3,4"))
    assert main(["plan", "--cores", "2"]) == 2
    assert "no job of rule make (2 jobs) has a recorded time" in capsys.readouterr().err
    _record(study, "benchmarks/make/b.tsv", 4.0)  # make b is up to date: a takes its time
    assert main(["plan", "--cores", "2"]) == 0
    out = capsys.readouterr().out
    assert "not this config's    1 job(s) whose results are missing or of other settings" in out
    assert "predicted wall time  10.0 s (10 s)" in out  # a (make's mean, 4 s), b, merge


def _record(folder: Path, name: str, seconds: float) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"s\th:m:s\n{seconds}\t-\n")


@pytest.fixture
def study(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A study folder whose dry run is DRY_RUN, with records of make a (10 s) and merge."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text(
        "rule all:\n    localrule: True\n\n\nrule merge:\n    localrule: True\n"
    )
    (tmp_path / "config").mkdir()
    shutil.copy(ROOT / "config" / "smoke.yaml", tmp_path / "config" / "config.yaml")
    profile = tmp_path / "profiles" / "slurm"
    profile.mkdir(parents=True)
    (profile / "config.yaml").write_text("set-threads:\n  make: 4\n")
    _record(tmp_path, "benchmarks/make/a.tsv", 10.0)
    _record(tmp_path, "benchmarks/merge.tsv", 2.0)

    def dry_run(
        configfile: Path, cores: int | None, profile: Path | None = None, force: bool = True
    ) -> str:
        assert configfile == Path("config/config.yaml")
        assert (cores, profile) in ((None, Path("profiles/slurm")), (2, None), (4, None))
        return DRY_RUN if force else (tmp_path / "rerun.txt").read_text()

    (tmp_path / "rerun.txt").write_text(UP_TO_DATE)

    monkeypatch.setattr(plan, "dry_run", dry_run)
    return tmp_path


def test_plan_prints_the_prediction_on_cores(study: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["plan", "--cores", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PREDICTED, not measured: the study of config/config.yaml on 2 cores,\n")
    # make a (2 threads) and make b (no record: 10 s, the rule's mean) cannot run together on
    # 2 cores: 10 + 10 + 2 s
    assert "predicted wall time  22.0 s (22 s)" in out
    assert "jobs                 4, 2 of them with a recorded time" in out
    assert "no record            1 job(s), given their row's or rule's mean: make 1" in out
    assert "untimed (0 s)        1 job(s) of rule all" in out
    assert "total core-seconds   32, the cores busy 73%" in out
    assert "critical path        12.0 s over 3 jobs" in out
    lines = out.splitlines()
    assert lines[-3:] == [
        "        0.0       10.0  make name=a",
        "       20.0        2.0  merge",
        "       22.0        0.0  all",
    ]
    assert main(["plan", "--cores", "4", "--overhead", "1"]) == 0
    assert "predicted wall time  15.0 s" in capsys.readouterr().out  # 11 + 3 + 1 s


def test_plan_on_a_cluster(study: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["plan", "--cluster", "--overhead", "30"]) == 0
    captured = capsys.readouterr()
    # both makes at once (30 s queued each; merge and all are local rules, not queued): the
    # critical path, 40 + 2 s
    assert "on a SLURM cluster through profiles/slurm,\n" in captured.out
    assert "predicted wall time  42.0 s (42 s)" in captured.out
    assert "every job on its own allocation, 30 s of queue and submission each" in captured.out
    # 2 x 10 s x 4 threads (the profile's) + 2 s: the queueing holds no core
    assert "total core-seconds   82\n" in captured.out
    assert captured.out.splitlines()[-3:] == [
        "        0.0       10.0 + 30  make name=a",
        "       40.0        2.0       merge",
        "       42.0        0.0       all",
    ]
    assert captured.err == ""
    assert main(["plan", "--cluster", "--overhead", "20000"]) == 2
    captured = capsys.readouterr()
    assert "predicted wall time" in captured.out  # the prediction, then the refusal
    assert captured.err.splitlines() == [
        *(
            f"refused: make name={n} is predicted to take 5 h 34 min, over its runtime "
            "resource of 240 min"
            for n in "ab"
        ),
        "refused: 2 job(s) predicted beyond their runtime resource: SLURM would end them. "
        "Raise the rows' `runtime` (or benchmark `shards`: shorter jobs) in the config, or the "
        "rule's runtime in the profile",
    ]


def test_plan_refuses_a_study_never_run(study: Path, capsys: pytest.CaptureFixture) -> None:
    shutil.rmtree(study / "benchmarks")
    assert main(["plan", "--cores", "2"]) == 2
    assert (
        "no job of rules make (2 jobs), merge (1 jobs) has a recorded time"
        in capsys.readouterr().err
    )


def test_plan_needs_cores_or_cluster(study: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main(["plan"])
    with pytest.raises(SystemExit):
        main(["plan", "--cores", "2", "--cluster"])
    with pytest.raises(SystemExit):
        main(["plan", "--cores", "2", "--configfile", "config/none.yaml"])
    assert "no config file 'config/none.yaml'" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--configfile", "--rates-from"])
def test_plan_checks_a_config_as_check_config_does_before_snakemake_reads_it(
    study: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """A config whose templates (`__use_yte__`) would run as Snakemake reads it is refused,
    in one line, before any dry run: nothing of it runs (issue 54)."""
    monkeypatch.setattr(plan, "dry_run", SNAKEMAKE_DRY_RUN)  # Snakemake's own, not the stub
    (study / "Snakefile").write_text("rule all:\n    localrule: True\n")
    template = 'study_seed: ?__import__("os").system("touch PWNED") + 2048\n'
    (study / "yte.yaml").write_text("__use_yte__: true\n" + template)
    (study / "bad.yaml").write_bytes(b"study_seed: \xff\n")
    given = {"--configfile": [], "--rates-from": ["--configfile", "config/config.yaml"]}
    for name, message in (("yte.yaml", "config key __use_yte__: turns the file's values into "
                           "Python templates"), ("bad.yaml", "not UTF-8 text")):  # fmt: skip
        assert main(["plan", "--cores", "2", *given[option], option, name]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"{name}: ") and message in err, err
        assert "Traceback" not in err
    assert not (study / "PWNED").exists()


@pytest.mark.slow
def test_snakemakes_own_dry_run_of_the_smoke_study_reads_whole(tmp_path: Path) -> None:
    """The format the parser reads is Snakemake's of the pinned version: every job of the smoke
    study, each compute job with its benchmark file."""
    for name in ("Snakefile", "config", "workflow", "profiles"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, tmp_path / name)
    command = [sys.executable, "-m", "snakemake", "-n", "--forceall", "--cores", "2"]
    command += ["--configfile", "config/smoke.yaml"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True)
    jobs = parse_dry_run(done.stdout + "\n" + done.stderr)
    rules = {job.rule for job in jobs}
    assert {"tune", "train", "validate", "transfer", "benchmark_shard", "findings"} <= rules
    assert all(job.benchmark is not None for job in jobs if job.rule != "all")
    deps = dependencies(jobs)
    # every job but `all` feeds another; the tuning table waits for the tuning runs' records
    assert set().union(*deps.values()) == {job.jobid for job in jobs} - {0}
    (table,) = [job for job in jobs if job.rule == "table_tuning"]
    rules_before = {job.rule for job in jobs if job.jobid in deps[table.jobid]}
    assert {"tune", "train"} <= rules_before
    assert max(job.threads for job in jobs) == 2  # the timed shards take every core


def test_the_dry_run_command(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess:
        seen.append(command)
        failed = "--cores" not in command
        return subprocess.CompletedProcess(command, int(failed), "listing\n", "a\nb\nc\nd\ne\nf\n")

    monkeypatch.setattr(subprocess, "run", run)
    assert plan.dry_run(Path("config/smoke.yaml"), 16) == "listing\n\na\nb\nc\nd\ne\nf\n"
    assert seen[0][1:] == [
        "-m", "snakemake", "-n", "--forceall", "--configfile", "config/smoke.yaml", "--cores", "16",
    ]  # fmt: skip
    with pytest.raises(PlanError, match="^Snakemake's dry run failed: b / c / d / e / f$"):
        plan.dry_run(Path("c.yaml"), None, Path("profiles/slurm"))
    assert seen[1][-2:] == ["--workflow-profile", "profiles/slurm"]
    plan.dry_run(Path("c.yaml"), 2, force=False)
    assert seen[2][1:5] == ["-m", "snakemake", "-n", "--configfile"]  # not --forceall


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"set-threads: {tune: 2\xff}\n", "is not UTF-8 text (invalid start byte at byte 21)"),
        (b"set-threads: [tune=2\n", "is not valid YAML at line 2"),
        (b"- a list\n", "holds a list, not a mapping"),
        (b"set-threads: {tune: two}\n", "set-threads must map rules to whole numbers"),
        (b"set-threads: [tune]\n", "set-threads must map rules to whole numbers"),
    ],
)
def test_a_bad_profile_is_refused_in_one_line_naming_it(
    tmp_path: Path, content: bytes, message: str
) -> None:
    (tmp_path / "config.yaml").write_bytes(content)
    with pytest.raises(plan.PlanError) as caught:
        plan.profile_threads(tmp_path)
    text = str(caught.value)
    assert f"{tmp_path / 'config.yaml'}" in text and message in text and "\n" not in text
    (tmp_path / "config.yaml").write_bytes(b"")  # an empty profile sets no threads
    assert plan.profile_threads(tmp_path) == {}
    (tmp_path / "config.yaml").write_bytes(b"set-threads: [tune=2, train=1]\n")
    assert plan.profile_threads(tmp_path) == {"tune": 2, "train": 1}


def test_a_timed_shard_on_more_cores_plays_more_games_at_once() -> None:
    """15 games one at a time in 155 s (5 s of start): 10 s a game. On 16 cores, 15 at once:
    one round; on 8 cores, 7 at once: three rounds."""
    assert plan.games_at_once(2) == 1 and plan.games_at_once(16) == 15
    assert plan.timed_seconds(155.0, 5.0, 15, 1, 15) == pytest.approx(15.0)
    assert plan.timed_seconds(155.0, 5.0, 15, 1, 7) == pytest.approx(35.0)
    assert plan.timed_seconds(15.0, 5.0, 15, 15, 1) == pytest.approx(155.0)


def test_records_of_jobs_that_compiled_are_left_out_where_others_stand_in() -> None:
    jobs = [
        Job(1, "tune", "run=a, seed=1", benchmark="b"),
        Job(2, "tune", "run=a, seed=2", benchmark="b"),
        Job(3, "table", benchmark="b"),
    ]
    recorded, dropped, kept = plan.discount_compiling(jobs, {1: 300.0, 2: 20.0, 3: 250.0}, {1, 3})
    assert recorded == {1: None, 2: 20.0, 3: 250.0}
    assert (dropped, kept) == ([1], [3])
    assert job_times(jobs, recorded).seconds == {1: 20.0, 2: 20.0, 3: 250.0}


def test_plan_on_a_fresh_clone_takes_the_records_of_the_run_docs_shows(
    study: Path, capsys: pytest.CaptureFixture
) -> None:
    """No benchmarks/ (a fresh clone): docs/jobs.tsv, written by `make docs` from a run of
    this config file, times the jobs; a record that compiled the kernels is left out for its
    row's mean; docs/jobs.tsv of another config file is not used."""
    (study / "logs" / "make").mkdir(parents=True)  # the workflow's logs/<where>.log
    (study / "logs" / "make" / "b.log").write_text(
        "12:00:00 compiling kernels into an empty cache (x)\n"
    )
    _record(study, "benchmarks/make/b.tsv", 300.0)
    records = collect(study)
    assert records["benchmarks/make/b.tsv"].compiling
    assert not records["benchmarks/make/a.tsv"].compiling
    write_records(study / DOCS_RECORDS, Path("config/config.yaml"), records, "run at abc1234")
    shutil.rmtree(study / "benchmarks")
    assert main(["plan", "--cores", "2"]) == 0
    out = capsys.readouterr().out
    assert "else those of the run docs/ shows (docs/jobs.tsv: run at abc1234)" in out
    assert "from docs/           3 job(s) timed by the run docs/ shows" in out
    assert (
        "compiling            1 record(s) include compiling the kernels into an empty cache" in out
    )
    assert "predicted wall time  22.0 s (22 s)" in out  # make b: make a's 10 s, as before
    assert "not this config's" not in out
    with (study / "config" / "config.yaml").open("a") as config:
        config.write("# edited\n")
    assert main(["plan", "--cores", "2"]) == 2
    assert "no job of rules make (2 jobs), merge (1 jobs)" in capsys.readouterr().err


def test_plan_rescales_a_timed_shard_to_the_games_it_plays_at_once(
    study: Path, capsys: pytest.CaptureFixture
) -> None:
    """make a's log: 4 timed games played 4 at once in 10 s (2 s of start: merge, the shortest
    record). On 2 cores it holds 2 and plays one at a time: 2 + 4 x 8 s."""
    (study / "logs").mkdir()
    (study / "logs" / "a.log").write_text(
        "12:00:00 x: 4 timed games, 4 at once, each on a CPU of its own [1, 2, 3, 4]\n"
    )
    assert main(["plan", "--cores", "2"]) == 0
    out = capsys.readouterr().out
    assert (
        "timed shards         1 job(s): 1 games at once, each on a core of its own (recorded: 4"
        in out
    )
    # a 34 s, b its row's mean 34 s, merge 2 s
    assert "predicted wall time  1 min 10 s (70 s)" in out
