"""Job records kept with docs/ (g2048.study.jobrecords) and the word a job says when it
compiles the kernels (g2048.study.records.logs.announce_compiling)."""

import io
from pathlib import Path

import pytest

from g2048.study import jobrecords
from g2048.study.jobrecords import JobRecord, read_records, write_records
from g2048.study.records import logs
from g2048.study.records.plan import Job


def test_a_log_says_what_plan_reads_back(tmp_path: Path) -> None:
    log = tmp_path / "shard0.log"
    log.write_text(
        "10:00:00 compiling kernels into an empty cache (/c)\n"
        f"10:00:01 {logs.timed_line('mc-1ms', 15, 7, [1, 2, 3, 4, 5, 6, 7])}\n"
    )
    assert jobrecords.read_log(log) == (True, 15, 7)
    assert jobrecords.read_log(tmp_path / "none.log") == (False, 0, 0)
    assert jobrecords.read_log(None) == (False, 0, 0)


def test_records_round_trip_for_their_config_alone(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("study_seed: 1\n")
    records = {"benchmarks/a.tsv": JobRecord(12.5, True, 15, 1), "benchmarks/b.tsv": JobRecord(3)}
    write_records(tmp_path / "jobs.tsv", config, records, "default study at abc")
    assert read_records(tmp_path / "jobs.tsv", config) == (records, "default study at abc")
    config.write_text("study_seed: 2\n")
    assert read_records(tmp_path / "jobs.tsv", config) == ({}, "")
    assert read_records(tmp_path / "none.tsv", config) == ({}, "")


def test_the_first_job_to_find_the_cache_empty_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    lines: list[str] = []
    console = io.StringIO()
    assert logs.announce_compiling(lines.append, console)
    assert logs.announce_compiling(lines.append, console)  # a second job at once: its log only
    assert len(lines) == 2 and all(line.startswith(logs.COMPILING) for line in lines)
    assert console.getvalue().count("compiling kernels into an empty cache") == 1
    assert "make warm" in console.getvalue()
    (tmp_path / "cache" / "play.play_game-1.py311.nbi").write_bytes(b"x")
    assert not logs.announce_compiling(lines.append, console)
    assert len(lines) == 2


def test_make_docs_writes_the_records_of_the_run_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    root = Path(__file__).resolve().parents[2]
    assert (
        "python -m g2048.study.jobrecords docs/jobs.tsv config/config.yaml"
        in (root / "Makefile").read_text()
    )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text("study_seed: 1\n")
    with pytest.raises(SystemExit):
        jobrecords.main(["jobs.tsv", "config.yaml"])  # no run here
    assert "no job records here" in capsys.readouterr().err
    (tmp_path / "benchmarks" / "tune").mkdir(parents=True)
    (tmp_path / "benchmarks" / "tune" / "a.tsv").write_text("s\th:m:s\n42.5\t0:00:42\n")
    assert jobrecords.main(["jobs.tsv", "config.yaml", "--note", "run x"]) == 0
    assert read_records(Path("jobs.tsv"), Path("config.yaml")) == (
        {"benchmarks/tune/a.tsv": JobRecord(42.5)},
        "run x",
    )


def test_a_samples_records_hold_until_a_run_rewrites_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """g2048.study.sample lists its jobs' benchmark files: they are this config's records
    (`sampled_jobs`) while unchanged, not once a run rewrites one; `collect` leaves the
    sample's own files (benchmarks/probe/) out of the job records."""
    monkeypatch.chdir(tmp_path)
    for name in ("a", "b"):
        (tmp_path / "benchmarks" / "x").mkdir(parents=True, exist_ok=True)
        (tmp_path / "benchmarks" / "x" / f"{name}.tsv").write_text("s\n2.0\n")
    jobrecords.write_sampled(["benchmarks/x/a.tsv", "benchmarks/x/b.tsv", "benchmarks/x/none.tsv"])
    jobs = [
        Job(1, "r", benchmark="benchmarks/x/a.tsv"),
        Job(2, "r", benchmark="benchmarks/x/b.tsv"),
    ]
    jobs.append(Job(3, "r", benchmark="benchmarks/x/c.tsv"))
    assert jobrecords.sampled_jobs(jobs) == {1, 2}
    (tmp_path / "benchmarks" / "x" / "b.tsv").write_text("s\n3.0\n")  # a later run's
    assert jobrecords.sampled_jobs(jobs) == {1}
    (tmp_path / "benchmarks" / "probe" / "mc-100ms.tsv").write_text("seconds_per_move\n0.1\n")
    assert sorted(jobrecords.collect()) == ["benchmarks/x/a.tsv", "benchmarks/x/b.tsv"]
