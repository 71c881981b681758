"""Hash records of what each job wrote, and the check that every snakemake command starts with:
a file replaced keeping its old modification time is refused, naming it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from g2048.study.records.integrity import (
    HashRecordError,
    check_results,
    file_sha256,
    record_outputs,
    record_path,
)
from g2048.study.results import REBUILD, ResultFileError, read_json

ROOT = Path(__file__).resolve().parents[2]

# A job's script as workflow/scripts/ write them, with a stand-in for Snakemake's object: the
# log first, then its outputs; argv[1] = "fail" fails it after writing the first.
SCRIPT = """
import sys
from types import SimpleNamespace
from g2048.study.records.integrity import job_log

sm = SimpleNamespace(
    rule="merge", log=["logs/merge/a.log"], output=["results/a.csv", "results/b.csv"]
)
log = job_log(sm)
open("results/a.csv", "w").write("a\\n")
if sys.argv[1] == "fail":
    raise ValueError("the job failed")
open("results/b.csv", "w").write("b\\n")
"""


def run_job(where: Path, how: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, how], cwd=where, env=env, capture_output=True, text=True
    )


@pytest.fixture
def study(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with results/ and logs/ to run jobs in, the current directory."""
    (tmp_path / "results").mkdir()
    (tmp_path / "logs" / "merge").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_job_records_its_outputs_when_it_ends_and_none_when_it_fails(study: Path) -> None:
    record = study / "results" / "provenance" / "hashes" / "merge" / "a.json"
    assert record_path("logs/merge/a.log") == record.relative_to(study)
    assert run_job(study, "ok").returncode == 0
    data = read_json(record)
    assert data["rule"] == "merge"
    assert data["outputs"] == {
        f"results/{name}.csv": file_sha256(study / "results" / f"{name}.csv") for name in "ab"
    }
    assert check_results()[0] == 2
    failed = run_job(study, "fail")  # the record of the run before is gone at the job's start
    assert failed.returncode != 0 and "the job failed" in (study / "logs/merge/a.log").read_text()
    assert not record.exists()


def test_an_untouched_tree_passes_and_a_replaced_file_is_refused_naming_it(study: Path) -> None:
    table, network = study / "results" / "t.csv", study / "results" / "n.npz"
    table.write_text("x,y\n1,2\n")
    network.write_bytes(b"\x00" * 3_000_000)
    record_outputs("results/provenance/hashes/job.json", "job", ["results/t.csv"])
    record_outputs("results/provenance/hashes/net.json", "net", ["results/n.npz"])
    assert check_results() == (2, 3_000_008, pytest.approx(0, abs=1))
    # replaced by other bytes of the same size, with its old modification time (touch -r)
    times = table.stat()
    table.write_text("x,y\n1,3\n")
    os.utime(table, ns=(times.st_atime_ns, times.st_mtime_ns))
    with pytest.raises(ResultFileError) as refused:
        check_results()
    message = str(refused.value)
    assert message.startswith("result file results/t.csv: its SHA-256 is ")
    assert "as the job that wrote it recorded in results/provenance/hashes/job.json" in message
    assert message.endswith(REBUILD)
    assert "\n" not in message
    table.unlink()  # deleted to be rebuilt: not checked
    assert check_results()[0] == 1


def test_a_damaged_hash_record_is_refused_naming_it(study: Path) -> None:
    record = study / "results" / "provenance" / "hashes" / "merge" / "a.json"
    record.parent.mkdir(parents=True)
    for text in ("garbage", '{"outputs": {"results/a.csv": "abc"}}', "[" * 100 + "]" * 100):
        record.write_text(text)
        with pytest.raises(HashRecordError, match=r"^hash record results/provenance/hashes/"
                           r"merge/a.json: .*; delete it .*logs/merge/a.log"):  # fmt: skip
            check_results()
    assert check_results(study / "nowhere") == (0, 0, pytest.approx(0, abs=1))
