"""End to end: the smoke study through `snakemake` in a subprocess, its outputs' content,
byte-identical results across core counts and after a run killed mid-job, and a bad config
rejected before any job with the key named."""

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from workflow_runs import (
    ROOT,
    SNAKEMAKE,
    assert_same_results,
    smoke_study,
    snakemake,
    workdir,
)

from g2048.report.claims import CLAIMS, QUESTIONS
from g2048.study.digests import verify
from g2048.study.provenance import environment
from g2048.study.results import read_json

VALIDATION = "results/tables/validation.csv"


@pytest.fixture(scope="module")
def smoke() -> Path:
    return smoke_study()


def table(where: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(where / "results" / "tables" / f"{name}.csv")


def test_benchmark_table_has_every_entry_with_sane_values(smoke: Path) -> None:
    df = table(smoke, "benchmark")
    config_games = {"random": 8, "greedy": 8, "expectimax-d3": 4}
    assert len(df) == 18
    for name, games in config_games.items():
        assert df.set_index("name").loc[name, "games"] == games
    assert df.loc[df.timed, "name"].tolist() == ["expectimax-1ms", "mc-1ms"]
    depth = df.set_index("name").depth_mean
    assert depth["expectimax-d3"] == 3 and depth["greedy"] == 1 and np.isnan(depth["mc-100"])
    assert depth["expectimax-2k-nodes"] > 1 and depth["nneonneo-auto"] >= 7
    assert (df.score_low <= df.score_mean).all() and (df.score_mean <= df.score_high).all()
    rates = df.filter(regex=r"^reach_\d+(_low|_high)?$")
    assert ((rates >= 0) & (rates <= 1)).all().all()
    assert (df.ms_per_move > 0).all()


def test_benchmark_orders_random_greedy_expectimax(smoke: Path) -> None:
    score = table(smoke, "benchmark").set_index("name").score_mean
    assert score["random"] < score["greedy"] < score["expectimax-d3"]


def test_validation_compares_every_weight_set_with_the_reference(smoke: Path) -> None:
    df = table(smoke, "validation").set_index("name")
    assert list(df.index) == [
        "nsga2-s1", "nsga2-s2", "cem-s1", "cem-s2", "cmaes-s1", "cmaes-s2", "td-s1", "td-s2",
        "hand-classic4", "equal-nsga4", "nneonneo",
    ]  # fmt: skip
    assert (df.games == 6).all()
    assert df.loc["hand-classic4", "diff_vs_reference"] == 0
    assert df.loc["hand-classic4", "t_pvalue"] == 1


def test_tuning_table_has_one_row_per_run_and_seed(smoke: Path) -> None:
    df = table(smoke, "tuning")
    assert list(zip(df.run, df.seed, strict=True)) == [
        ("nsga2", 1), ("nsga2", 2), ("cem", 1), ("cem", 2), ("cmaes", 1), ("cmaes", 2),
        ("td", 1), ("td", 2),
    ]  # fmt: skip
    assert (df.wall_seconds > 0).all()
    # every weight run re-evaluated its final candidates: training and fresh estimates side
    # by side, and the games that cost (cmaes: 6 x 2 x 2 training, then 2 + 2 per candidate)
    tuned = df[df.method != "td"]
    assert tuned.train.notna().all() and tuned.fresh.notna().all()
    assert (tuned.judged_by == tuned.method.map({"nsga2": "score"}).fillna("log2_max_tile")).all()
    cmaes = tuned[tuned.method == "cmaes"]
    assert (cmaes.games_played == 6 * 2 * 2 + (1 + 3) * (2 + 2)).all()
    networks = df[df.method == "td"]
    assert (networks.evaluator == "ntuple").all()
    assert networks.weights.tolist() == ["results/tune/td/seed1.npz", "results/tune/td/seed2.npz"]


def test_transfer_table_pairs_every_set_and_depth_with_the_reference(smoke: Path) -> None:
    df = table(smoke, "transfer")
    sets = ["tuned-nsga2", "tuned-cem", "tuned-cmaes", "hand-classic4", "equal-nsga4", "nneonneo"]
    assert list(zip(df.name, df.depth, strict=True)) == [(s, d) for s in sets for d in (1, 2)]
    assert (df.games == 6).all()
    reference = df.name == "hand-classic4"
    assert df.loc[reference, "holm_pvalue"].isna().all()
    compared = df[~reference]
    assert (compared.holm_pvalue >= compared.t_pvalue).all() and (compared.holm_pvalue <= 1).all()
    # at the validation's depth the transfer replays the validation games of the same weights
    validation = table(smoke, "validation").set_index("name").score_mean
    at_two = df[df.depth == 2].set_index("name").score_mean
    assert at_two["nneonneo"] == validation["nneonneo"]


def test_the_learned_network_is_paired_with_each_heuristic_of_its_agent(smoke: Path) -> None:
    df = table(smoke, "learned")
    assert list(zip(df.network, df.heuristic, strict=True)) == [
        ("ntuple-d1", "greedy"), ("ntuple-d1", "nneonneo-d1"), ("ntuple-d2", "nneonneo-d2"),
    ]  # fmt: skip
    assert df.games.tolist() == [8, 8, 4]
    assert np.allclose(df["diff"], df.network_score - df.heuristic_score)
    assert ((df.diff_low <= df["diff"]) & (df["diff"] <= df.diff_high)).all()


def test_claims_table_lists_every_claim_with_a_verdict(smoke: Path) -> None:
    text = (smoke / "results" / "tables" / "claims.md").read_text()
    rows = [" ".join(line.split()) for line in text.splitlines()[4:] if line.startswith("| ")]
    assert len(rows) == len(CLAIMS) + len(QUESTIONS)
    verdicts = ("| held |", "| did not hold |", "| not comparable |")
    assert all(sum(v in r for v in verdicts) == 1 for r in rows[: len(CLAIMS)])
    answers = ("higher |", "lower |", "no clear difference |", "| not comparable |")
    assert all(sum(a in r for a in answers) == 1 for r in rows[len(CLAIMS) :])
    assert any("cmaes-d2 " in r and "not comparable" not in r for r in rows)  # smoke has both


def test_results_match_the_committed_smoke_digests(smoke: Path) -> None:
    """What CI checks on a fresh machine: the smoke study comes out as committed (`make
    digests` rewrites the file after a change that changes results on purpose)."""
    difference = verify(ROOT / "docs" / "digests" / "smoke.json", smoke / "results")
    assert difference is None, difference


def test_every_game_job_records_its_environment(smoke: Path) -> None:
    records = sorted((smoke / "results" / "provenance").rglob("*.json"))
    summary = read_json(smoke / "results" / "provenance" / "summary.json")
    assert len(summary["environments"]) == 1
    jobs = summary["environments"][0]["jobs"]
    # tune, validate, transfer, benchmark shards
    assert len(jobs) == len(records) - 1 == 8 + 11 + 6 * 2 + 18 * 2
    assert summary["environments"][0]["environment"]["cpu"] == environment()["cpu"]
    # numpy on its AVX2 paths in every job, whatever this CPU has (workflow/rules/common.smk)
    assert "X86_V4" not in summary["environments"][0]["environment"]["numpy_simd"]
    for name in ("benchmark", "validation", "tuning", "learned"):
        text = (smoke / "results" / "tables" / f"{name}.md").read_text()
        assert text.rstrip().endswith(f"on {environment()['cpu']} ({len(jobs)} jobs).")


def test_figures_are_valid_images(smoke: Path) -> None:
    figures = sorted((smoke / "results" / "figures").glob("*.png"))
    assert len(figures) == 8
    for path in figures:
        with Image.open(path) as image:
            image.verify()
        assert (path.with_suffix(".pdf")).read_bytes().startswith(b"%PDF")


def test_the_report_holds_every_figure_and_table_with_its_caption(smoke: Path) -> None:
    run = snakemake(smoke, "--report", "report.html")
    assert run.returncode == 0, run.stderr[-4000:]
    html = (smoke / "report.html").read_text()
    captions = sorted((ROOT / "workflow" / "report").glob("*.rst"))
    outputs = [f"{p.stem}.png" for p in (smoke / "results" / "figures").glob("*.png")]
    tables = ("benchmark", "validation", "tuning", "learned", "transfer")
    outputs += [f"{t}.{ext}" for t in tables for ext in ("md", "html")]
    outputs += ["claims.md", "claims.html"]
    assert all(name in html for name in outputs)
    for caption in captions:  # each caption's first sentence, as it reaches the page
        first = " ".join(caption.read_text().split()).split(". ")[0]
        assert first[:60] in html, caption.name


def test_one_core_after_a_kill_gives_identical_results(smoke: Path, tmp_path: Path) -> None:
    """Run the validation table's jobs (tuning, selection, validation) on 1 core, SIGKILL the run
    mid-job, unlock, rerun: the same results as on 2 cores."""
    where = workdir(tmp_path / "killed")
    proc = subprocess.Popen(
        [SNAKEMAKE, "--configfile", "config/smoke.yaml", "--cores", "1", VALIDATION],
        cwd=where,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.time() + 600
    while not list((where / "results").glob("validate/*.csv")) and time.time() < deadline:
        time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert list((where / "results").glob("validate/*.csv")), "the run never got to validation"
    assert snakemake(where, "--unlock").returncode == 0
    rerun = snakemake(where, "--cores", "1", VALIDATION)
    assert rerun.returncode == 0, rerun.stderr[-4000:]
    assert (where / VALIDATION).exists()
    assert_same_results(smoke, where, partial=True)


def test_deleted_raw_results_are_rebuilt_identically(smoke: Path, tmp_path: Path) -> None:
    """Raw results are targets too: after deleting an entry's benchmark games and a tuning
    history of a finished run, plain `snakemake` rebuilds them (and what follows from them) byte
    for byte."""
    where = tmp_path / "deleted"
    shutil.copytree(smoke, where, symlinks=True)
    shutil.rmtree(where / "results" / "benchmark" / "expectimax-d3")
    (where / "results" / "benchmark" / "greedy.csv").unlink()
    (where / "results" / "tune" / "cem" / "seed2_history.csv").unlink()
    rerun = snakemake(where, "--cores", "2")
    assert rerun.returncode == 0, rerun.stderr[-4000:]
    assert "Nothing to be done" not in rerun.stdout + rerun.stderr
    assert_same_results(smoke, where)


def _cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize(
    ("victim", "damage", "fault"),
    [
        ("benchmark/greedy/shard0.csv", _cut_in_half, "truncated?"),
        ("benchmark/expectimax-d3.csv", _cut_in_half, "truncated?"),
        ("validate/cem-s1.csv", _cut_in_half, "truncated?"),
        ("select/nsga2/seed1.json", lambda p: p.write_text("garbage"), "is not valid JSON"),
        ("select/nsga2/seed1.json", lambda p: p.write_text("{}"), "lacks the key(s) run"),
    ],
    ids=["shard", "merged", "validate", "garbage-json", "empty-json"],
)
def test_a_damaged_result_file_stops_its_consumers_naming_it(
    smoke: Path,
    tmp_path: Path,
    victim: str,
    damage,
    fault: str,  # noqa: ANN001
) -> None:
    where = tmp_path / "damaged"
    shutil.copytree(smoke, where, symlinks=True)
    tables = {p: p.read_bytes() for p in (where / "results" / "tables").glob("*.csv")}
    damage(where / "results" / victim)
    run = snakemake(where, "--cores", "2")
    assert run.returncode != 0
    assert f"result file results/{victim}: " in run.stderr, run.stderr[-3000:]
    assert fault in run.stderr
    assert "delete it and run the same snakemake command again" in run.stderr
    for path, data in tables.items():  # no table from bad data: as it was, or removed with
        assert not path.exists() or path.read_bytes() == data  # the job that failed on it


def test_an_invalid_config_fails_before_any_job_naming_the_key(tmp_path: Path) -> None:
    where = workdir(tmp_path / "bad")
    config = (where / "config" / "smoke.yaml").read_text()
    (where / "config" / "smoke.yaml").write_text(config.replace("games: 6", "games: -6"))
    run = snakemake(where, "--cores", "1")
    assert run.returncode != 0
    assert "config key validate.games" in run.stderr + run.stdout
    assert not (where / "results").exists()
