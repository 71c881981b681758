"""Result digests and provenance records: what `verify` compares, and what it reports."""

import hashlib
import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from g2048.cli.main import main
from g2048.evaluators.ntuple import Network, save_network
from g2048.report.tables import write_table
from g2048.study.records.integrity import (
    DigestFileError,
    docs_problems,
    file_rows,
    read_digests,
    result_digests,
    verify,
    write_digests,
)
from g2048.study.records.provenance import (
    STUDY_VARIABLE,
    environment,
    footer,
    hand_to_jobs,
    study_record,
    summarise,
    write_record,
)
from g2048.study.results import read_json, write_json


def make_results(root: Path, seconds: float = 1.0, score: int = 5) -> Path:
    results = root / "results"
    games = pd.DataFrame({"game": [0, 1], "score": [score, 7], "seconds": [seconds, 2.0]})
    (results / "benchmark").mkdir(parents=True)
    games.to_csv(results / "benchmark" / "greedy.csv", index=False)
    write_json(results / "select" / "tuned.json", {"weights": [0.5, 0.25], "seed": 1})
    write_record(results / "provenance" / "benchmark" / "greedy.json", "greedy")
    return results


def test_digests_leave_out_timing_columns_and_provenance(tmp_path: Path) -> None:
    a = result_digests(make_results(tmp_path / "a", seconds=1.0))
    b = result_digests(make_results(tmp_path / "b", seconds=9.0))
    assert a == b
    assert sorted(a) == ["results/benchmark/greedy.csv", "results/select/tuned.json"]
    assert len(a["results/benchmark/greedy.csv"]["rows"]) == 3  # header and two games


def test_digests_reduce_timed_rows_to_a_marker(tmp_path: Path) -> None:
    """Rows of games under a time budget differ between runs in every column: only their
    number counts; the other rows of the same file are compared as usual."""

    def digests(where: Path, timed_score: int, plain_score: int) -> dict:
        games = pd.DataFrame(
            {"score": [timed_score, plain_score], "timed": [True, False], "seconds": [1.0, 2.0]}
        )
        (where / "results").mkdir(parents=True)
        games.to_csv(where / "results" / "mixed.csv", index=False)
        return result_digests(where / "results")

    base = digests(tmp_path / "a", 100, 7)
    assert digests(tmp_path / "b", 999, 7) == base
    assert digests(tmp_path / "c", 100, 8) != base


def test_verify_names_the_first_differing_file_and_row(tmp_path: Path) -> None:
    write_digests(make_results(tmp_path / "a"), tmp_path / "digests.json")
    assert verify(tmp_path / "digests.json", tmp_path / "a" / "results") is None
    other = make_results(tmp_path / "b", score=6)
    difference = verify(tmp_path / "digests.json", other)
    assert (
        difference == "results/benchmark/greedy.csv: row 1 (0 = header) differs; here it reads: 0,6"
    )


def test_verify_reports_missing_files_unless_partial(tmp_path: Path) -> None:
    results = make_results(tmp_path)
    write_digests(results, tmp_path / "digests.json")
    (results / "select" / "tuned.json").unlink()
    assert verify(tmp_path / "digests.json", results) == "results/select/tuned.json: missing here"
    assert verify(tmp_path / "digests.json", results, partial=True) is None
    (results / "benchmark" / "greedy.csv").unlink()
    assert "no result file" in verify(tmp_path / "digests.json", results, partial=True)


def test_the_cli_writes_and_verifies_digests(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    results = make_results(tmp_path)
    out = tmp_path / "d.json"
    assert main(["digest", "--results", str(results), "--out", str(out), "--note", "x"]) == 0
    assert json.loads(out.read_text())["note"] == "x"
    assert main(["verify", str(out), "--results", str(results)]) == 0
    pd.DataFrame({"game": [0], "score": [1]}).to_csv(results / "extra.csv", index=False)
    assert main(["verify", str(out), "--results", str(results)]) == 1
    assert "results/extra.csv: not in the digest file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["verify", str(tmp_path / "none.json"), "--results", str(results)])
    figures = tmp_path / "figures"
    figures.mkdir()
    (figures / "a.png").write_bytes(b"png")
    args = ["digest", "--results", str(results), "--out", str(out), "--force"]
    assert main([*args, "--docs", str(figures)]) == 0
    listed = json.loads(out.read_text())["docs"]
    assert listed == {(figures / "a.png").as_posix(): hashlib.sha256(b"png").hexdigest()}
    assert docs_problems(out, [figures]) == []


def test_provenance_names_the_environment_and_groups_jobs(tmp_path: Path) -> None:
    env = environment()
    assert {"g2048_source", "lock", "python", "numpy", "numba", "llvmlite", "cpu"} <= env.keys()
    paths = []
    for job in ("a", "b"):
        paths.append(tmp_path / f"{job}.json")
        write_record(paths[-1], job)
    summary = summarise(paths)
    assert len(summary["environments"]) == 1
    assert summary["environments"][0]["jobs"] == ["a", "b"]
    line = footer(summary)
    assert f"numba {env['numba']}" in line and "(2 jobs)" in line
    assert summary["studies"] == []  # written outside a workflow: no study record


def test_jobs_record_the_study_the_workflow_hands_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workflow hands its jobs the config file, its SHA-256 and the --config overrides;
    each record holds them, and the summary groups the jobs by study apart from their
    environment."""
    config = tmp_path / "c.yaml"
    config.write_text("threads: 1\n")
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path, games in zip(paths, (10, 20), strict=True):
        study = study_record(config, {"validate.games": games})
        monkeypatch.setenv(STUDY_VARIABLE, "")  # restored after the test
        hand_to_jobs(study)
        write_record(path, path.stem)
        assert read_json(path)["study"] == study
    assert study["config_sha256"] == hashlib.sha256(b"threads: 1\n").hexdigest()
    summary = summarise(paths)
    assert len(summary["environments"]) == 1
    assert [s["study"]["config_overrides"] for s in summary["studies"]] == [
        {"validate.games": 10}, {"validate.games": 20},
    ]  # fmt: skip
    assert [s["jobs"] for s in summary["studies"]] == [["a"], ["b"]]


def test_tables_carry_the_footer(tmp_path: Path) -> None:
    write_table(pd.DataFrame({"x": [1.5]}), tmp_path / "t", footer="Made by me.")
    assert (tmp_path / "t.md").read_text().endswith("\nMade by me.\n")
    assert (tmp_path / "t.tex").read_text().endswith("% Made by me.\n")
    assert list(pd.read_csv(tmp_path / "t.csv").columns) == ["x"]


def test_digests_leave_out_the_node_counts_of_parallel_rows(tmp_path: Path) -> None:
    """A parallel search's node counts depend on the threads' timing; its scores do not."""

    def digests(where: Path, nodes: list[int], scores: list[int]) -> dict:
        games = pd.DataFrame({"score": scores, "nodes": nodes, "parallel": [True, False]})
        (where / "results").mkdir(parents=True)
        games.to_csv(where / "results" / "mixed.csv", index=False)
        return result_digests(where / "results")

    base = digests(tmp_path / "a", [10, 20], [5, 6])
    assert digests(tmp_path / "b", [11, 20], [5, 6]) == base
    assert digests(tmp_path / "c", [10, 21], [5, 6]) != base
    assert digests(tmp_path / "d", [10, 20], [4, 6]) != base


def lines_network(value: float = 1.0) -> Network:
    return Network("lines4x2", np.full(131072, value, dtype=np.float32))


def test_networks_and_other_binary_results_are_digested_by_their_bytes(tmp_path: Path) -> None:
    """A network's .npz counts, member by member by its uncompressed bytes (the same network
    compressed otherwise digests alike); renderings of tables and figures do not count."""
    results = make_results(tmp_path / "a")
    (results / "tune" / "td").mkdir(parents=True)
    save_network(results / "tune" / "td" / "seed1.npz", lines_network())
    (results / "tables").mkdir()
    (results / "tables" / "t.md").write_text("| x |\n\nMade on this machine.\n")
    (results / "figures").mkdir()
    (results / "figures" / "f.png").write_bytes(b"\x89PNG...")
    (results / "notes.bin").write_bytes(b"\x00\x01")
    digests = result_digests(results)
    assert sorted(digests) == [
        "results/benchmark/greedy.csv", "results/notes.bin", "results/select/tuned.json",
        "results/tune/td/seed1.npz",
    ]  # fmt: skip
    rows = file_rows(results / "tune" / "td" / "seed1.npz")
    assert [row.split(":")[0] for row in rows] == ["name.npy", "lut.npy"]
    assert rows[1].startswith("lut.npy: 524416 bytes, sha256 ")
    network = results / "tune" / "td" / "seed1.npz"
    with zipfile.ZipFile(network) as old:  # the same members, stored uncompressed
        members = {name: old.read(name) for name in old.namelist()}
    with zipfile.ZipFile(network, "w", compression=zipfile.ZIP_STORED) as new:
        for name, data in members.items():
            new.writestr(name, data)
    assert result_digests(results) == digests
    save_network(network, lines_network(2.0))  # other weights
    changed = result_digests(results)
    assert changed["results/tune/td/seed1.npz"] != digests["results/tune/td/seed1.npz"]
    network.write_bytes(b"not a zip")  # a damaged archive: digested by its bytes, no error
    assert result_digests(results)["results/tune/td/seed1.npz"]["rows"]


def test_verify_names_a_replaced_network(tmp_path: Path) -> None:
    results = make_results(tmp_path)
    (results / "tune" / "td").mkdir(parents=True)
    save_network(results / "tune" / "td" / "seed1.npz", lines_network())
    write_digests(results, tmp_path / "d.json")
    save_network(results / "tune" / "td" / "seed1.npz", lines_network(float("nan")))
    difference = verify(tmp_path / "d.json", results)
    assert difference.startswith("results/tune/td/seed1.npz: row 1 (0 = header) differs; here it")
    assert "lut.npy: 524416 bytes, sha256 " in difference


def test_a_csv_that_is_not_text_is_a_difference_not_a_crash(tmp_path: Path) -> None:
    results = make_results(tmp_path)
    write_digests(results, tmp_path / "d.json")
    (results / "benchmark" / "greedy.csv").write_bytes(b"\xff\xfe\x00garbage")
    assert verify(tmp_path / "d.json", results).startswith("results/benchmark/greedy.csv: row 0")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{garbage", "is not valid JSON"),
        ('{"files": 5}', "its 'files' entry must map each result file to its digest and rows, "
         "got int"),
        ("[1, 2]", "is not a JSON object with a 'files' entry"),
        ('{"files": {"results/x.csv": {"digest": 3}}}', "its entry for results/x.csv is not"),
        ("[" * 100_000 + "]" * 100_000, "is not valid JSON (nested 100000 levels deep"),
        ('{"files": {"results/x.csv": {"digest": "0123456789abcdef", "rows": ["ab", "cd"]}}}',
         "its entry for results/x.csv gives the digest 0123456789abcdef, not that of its rows"),
    ],
    ids=["garbage", "files-5", "list", "entry", "deep", "file-digest"],
)  # fmt: skip
def test_verify_names_a_bad_digest_file_and_its_own_remedy(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    text: str,
    problem: str,
) -> None:
    """A digest file is the user's (committed, or written by `digest`): its fault is named
    with the remedy for it, not the one for result files, and without a traceback."""
    results = make_results(tmp_path)
    bad = tmp_path / "digests.json"
    bad.write_text(text)
    with pytest.raises(DigestFileError, match=re.escape(problem)):
        read_digests(bad)
    assert main(["verify", str(bad), "--results", str(results)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"digest file {bad}: {problem}")
    assert "python -m g2048 digest" in err and "snakemake" not in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_digest_refuses_to_overwrite_a_file_or_to_write_under_results(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results = make_results(tmp_path)
    out = tmp_path / "d.json"
    out.write_text("mine")
    args = ["digest", "--results", str(results), "--out", str(out)]
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2 and out.read_text() == "mine"
    assert f"error: --out: {str(out)!r} exists: give --force to replace it" in (
        capsys.readouterr().err
    )
    assert main([*args, "--force"]) == 0 and read_digests(out)
    for inside in (results / "d.json", results / "benchmark" / "d.json"):
        with pytest.raises(SystemExit):
            main(["digest", "--results", str(results), "--out", str(inside), "--force"])
        assert f"is under {results}/, a study's results" in capsys.readouterr().err
        assert not inside.exists()
    (tmp_path / "elsewhere" / "results").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "elsewhere")  # and under ./results, whichever it digests
    with pytest.raises(SystemExit):
        main(["digest", "--results", str(results), "--out", "results/d.json"])
    assert "is under results/, a study's results" in capsys.readouterr().err


def test_digest_names_an_out_file_it_cannot_write(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    results = make_results(tmp_path)
    (tmp_path / "taken").write_text("a file, not a folder")
    out = tmp_path / "taken" / "d.json"
    assert main(["digest", "--results", str(results), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"digest file {out}: cannot be written") and err.count("\n") == 1
