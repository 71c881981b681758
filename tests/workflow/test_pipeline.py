"""End to end: the smoke study through `snakemake` in a subprocess, its outputs' content,
byte-identical results across core counts and after a run killed mid-job, and a bad config
rejected before any job with the key named."""

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import jinja2
import numpy as np
import pandas as pd
import pytest
import yaml
from PIL import Image
from workflow_runs import (
    ROOT,
    SNAKEMAKE,
    assert_same_results,
    smoke_study,
    snakemake,
    workdir,
)

from g2048 import file_sha256
from g2048.evaluators import ntuple
from g2048.report.claims import CLAIMS, QUESTIONS
from g2048.study import sample
from g2048.study.config import entry_shards, load_config, run_names, run_record
from g2048.study.records.integrity import verify
from g2048.study.records.provenance import environment
from g2048.study.results import read_json, read_tune, write_json

HASHES = "results/provenance/hashes"

pytestmark = pytest.mark.slow  # the smoke study end to end: `make test-fast` leaves it out


@pytest.fixture(scope="module")
def smoke() -> Path:
    return smoke_study()


def table(where: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(where / "results" / "tables" / f"{name}.csv")


def test_benchmark_table_has_every_entry_with_sane_values(smoke: Path) -> None:
    df = table(smoke, "benchmark")
    config_games = {"random": 8, "greedy": 8, "expectimax-d3": 4}
    assert len(df) == 24
    for name, games in config_games.items():
        assert df.set_index("name").loc[name, "games"] == games
    assert df.loc[df.timed, "name"].tolist() == ["expectimax-1ms", "mc-1ms", "ntuple-1ms"]
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
        "nsga2-s1", "nsga2-s2", "cem-s1", "cem-s2", "cmaes-s1", "cmaes-s2", "random-search-s1",
        "random-search-s2", "td-s1", "td-s2", "hand-classic4", "equal-nsga4", "nneonneo",
    ]  # fmt: skip
    assert (df.games == 6).all()
    # the reference is not compared with itself, so it is no member of the Holm family
    assert df.loc["hand-classic4", ["diff_vs_reference", "t_pvalue", "holm_pvalue"]].isna().all()
    others = df.drop(index="hand-classic4")
    assert others.holm_pvalue.notna().all() and (others.holm_pvalue >= others.t_pvalue).all()


def test_tuning_table_has_one_row_per_run_and_seed(smoke: Path) -> None:
    df = table(smoke, "tuning")
    assert list(zip(df.run, df.seed, strict=True)) == [
        ("nsga2", 1), ("nsga2", 2), ("cem", 1), ("cem", 2), ("cmaes", 1), ("cmaes", 2),
        ("random-search", 1), ("random-search", 2), ("td", 1), ("td", 2),
    ]  # fmt: skip
    assert (df.wall_seconds > 0).all() and (df.cpu_seconds > 0).all()
    # every weight run's seed played its rule's 2 candidates on 2 selection games each and was
    # picked by mean score there: its own objective in training and selection beside it, and
    # its score on the selection and the test games (cmaes: 6 x 2 x 2 training games)
    tuned = df[df.method != "td"]
    assert (tuned.warmup_seconds > 0).all()
    assert tuned[["fitness_train", "fitness_selection", "selection_score", "test_score"]].notna(
    ).all(axis=None)  # fmt: skip
    assert (tuned.fitness == tuned.method.map({"nsga2": "score"}).fillna("log2_max_tile")).all()
    cem8 = tuned[tuned.evaluator == "cem8"]  # compared with one another: equal budgets
    assert (cem8.train_games == 6 * 2 * 2).all() and (tuned.selection_games == 2 * 2).all()
    assert (tuned.games_played == tuned.train_games + tuned.selection_games).all()
    networks = df[df.method == "td"]
    assert (networks.evaluator == "ntuple").all()
    assert networks.weights.tolist() == ["results/tune/td/seed1.npz", "results/tune/td/seed2.npz"]


def test_every_run_records_the_settings_its_config_file_gives(smoke: Path) -> None:
    """What ran is config/smoke.yaml as checked, alone (a --configfile replaces the default):
    every tuning result records its run's settings from that file with its defaults filled
    in, td's lambda (0.5, which the default study also sets) included."""
    config = load_config(smoke / "config" / "smoke.yaml")
    for run in run_names(config):
        for seed in config["tune"]["seeds"]:
            path = smoke / "results" / "tune" / run / f"seed{seed}.json"
            result = read_tune(path, run_record(config, run), seed)  # refuses other settings
            assert result["settings"] == run_record(config, run)["settings"]
    td = read_json(smoke / "results" / "tune" / "td" / "seed1.json")["settings"]
    assert td["lambda"] == config["tune"]["td"]["lambda"] == 0.5
    assert td["network"] == config["tune"]["td"]["network"] == "lines4x2"


def test_transfer_table_pairs_every_set_and_depth_with_the_reference(smoke: Path) -> None:
    df = table(smoke, "transfer")
    sets = ["tuned-nsga2", "tuned-cem", "tuned-cmaes", "tuned-random-search", "hand-classic4",
            "equal-nsga4", "nneonneo"]  # fmt: skip
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
    every = table(smoke, "comparisons")
    df = every[every.network.notna()].drop(columns="network").rename(
        columns={"first": "network", "second": "heuristic", "first_score": "network_score",
                 "second_score": "heuristic_score"}
    )  # fmt: skip
    # every two of the three 1 ms rows: two pairs not already a network's
    assert len(every) - len(df) == 2
    assert set(every.test) == {"paired t"}
    assert list(zip(df.network, df.heuristic, strict=True)) == [
        ("ntuple-d1", "greedy"), ("ntuple-d1", "nneonneo-d1"), ("ntuple-d2", "nneonneo-d2"),
        ("ntuple-1ms", "expectimax-1ms"),
    ]  # fmt: skip
    assert df.games.tolist() == [8, 8, 4, 2]
    assert df.timed.tolist() == [False, False, False, True]
    assert np.allclose(df["diff"], df.network_score - df.heuristic_score)
    assert ((df.diff_low <= df["diff"]) & (df["diff"] <= df.diff_high)).all()


def test_claims_table_lists_every_claim_with_a_verdict(smoke: Path) -> None:
    text = (smoke / "results" / "tables" / "claims.md").read_text()
    rows = [" ".join(line.split()) for line in text.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == len(CLAIMS) + len(QUESTIONS)
    assert "How to read the verdicts." in text
    verdicts = ("| held |", "| higher than claimed |", "| lower than claimed |",
                "| inconclusive: ", "| not comparable |", "| too few games: ")  # fmt: skip
    assert all(sum(v in r for v in verdicts) == 1 for r in rows[: len(CLAIMS)])
    answers = (" higher |", " lower |", " no clear difference (mdd ", "| not comparable |")
    assert all(sum(a in r for a in answers) == 1 for r in rows[len(CLAIMS) :])
    answered = [r for r in rows[len(CLAIMS) :] if "| not comparable |" not in r]
    assert answered and len(answered) < len(QUESTIONS)  # smoke has both kinds


def test_every_weight_run_has_its_held_out_progress_and_a_verdict(smoke: Path) -> None:
    """The smoke config's tune.progress: 3 points of 4 games; cem, cmaes and random search
    have 2 steps (both measured), nsga2 4 (steps 1, 2, 3). Every run is judged by the rule,
    and the findings page prints each run's verdict."""
    steps = {"nsga2": [1, 2, 3], "cem": [0, 1], "cmaes": [0, 1], "random-search": [0, 1]}
    for run, expected in steps.items():
        for seed in (1, 2):
            df = pd.read_csv(smoke / "results" / "tune" / run / f"seed{seed}_progress.csv")
            assert df.step.tolist() == expected and (df.progress_games == 4).all()
            assert (df.training_games == (df.evaluations * 2)).all()
            assert df.gain.iloc[1:].notna().all() and df.filter(like="incumbent_").shape[1] > 0
    progress = table(smoke, "progress")
    assert progress.run.tolist() == list(steps)
    assert set(progress.verdict) <= {"still improving", "flattened"}
    page = (smoke / "results" / "findings.md").read_text()
    assert "## Convergence of the tuning runs" in page
    assert all(f"`{run}` " in page.split("## Convergence")[1] for run in steps)


def test_findings_are_written_from_the_runs_tables(smoke: Path) -> None:
    page = (smoke / "results" / "findings.md").read_text()
    assert page.index("## The answers") < page.index("## Search: strength for its cost")
    assert "**The best search for its cost.**" in page
    tables = smoke / "results" / "tables"
    bench = pd.read_csv(tables / "benchmark.csv")
    untimed = bench[~bench.timed]
    for algorithm, rows in untimed.groupby("algorithm"):
        best = rows.loc[rows.score_mean.idxmax()]
        lead = (
            f"The highest mean of the {len(rows)} {algorithm} rows (not tested against the "
            "others, whose costs differ)"
        )
        if len(rows) == 1:
            lead = f"The only {algorithm} row"
        assert f"{lead} of fixed cost: `{best['name']}`" in page
        assert f"scores {best.score_mean:,.0f} [" in page
    methods = pd.read_csv(tables / "methods.csv")
    assert all(f"(`{run}`, " in page for run in methods.run)
    assert all(f"the seeds' own means {s})" in page for s in methods.seed_scores)
    claims = pd.read_csv(tables / "claims.csv")
    assert f"{(claims.verdict == 'held').sum()} held" in page


def test_results_match_the_committed_smoke_digests(smoke: Path) -> None:
    """What CI checks on a fresh machine: the smoke study comes out as committed (`make
    digests` rewrites the file after a change that changes results on purpose)."""
    difference = verify(ROOT / "docs" / "digests" / "smoke.json", smoke / "results")
    assert difference is None, difference


def test_every_game_job_records_its_environment(smoke: Path) -> None:
    provenance = smoke / "results" / "provenance"
    records = sorted(p for p in provenance.rglob("*.json") if not p.is_relative_to(smoke / HASHES))
    summary = read_json(smoke / "results" / "provenance" / "summary.json")
    assert len(summary["environments"]) == 1
    jobs = summary["environments"][0]["jobs"]
    # tune, progress, validate, test, transfer, benchmark shards (a timed row's one)
    assert len(jobs) == len(records) - 1 == 10 + 8 + 13 + 9 + 7 * 2 + 21 * 2 + 3
    assert summary["environments"][0]["environment"]["cpu"] == environment()["cpu"]
    # numpy on its AVX2 paths in every job, whatever this CPU has (workflow/rules/common.smk)
    assert "X86_V4" not in summary["environments"][0]["environment"]["numpy_simd"]
    for name in ("benchmark", "validation", "tuning", "progress", "comparisons"):
        text = (smoke / "results" / "tables" / f"{name}.md").read_text()
        assert text.rstrip().endswith(f"on {environment()['cpu']} ({len(jobs)} jobs).")


def test_every_result_file_is_recorded_by_the_job_that_wrote_it(smoke: Path) -> None:
    """Every job records the SHA-256 of each of its outputs (g2048.study.records.integrity):
    every file under results/ but the records themselves is in one record, with its bytes'
    SHA-256."""
    recorded = {}
    for record in (smoke / HASHES).rglob("*.json"):
        recorded.update(read_json(record)["outputs"])
    files = {
        p.relative_to(smoke).as_posix()
        for p in (smoke / "results").rglob("*")
        if p.is_file() and not p.is_relative_to(smoke / HASHES)
    }
    assert files == set(recorded)
    assert all(file_sha256(smoke / name) == digest for name, digest in recorded.items())


def _records_of(where: Path, victim: str) -> Path:
    """The hash record that names results/`victim`."""
    records = (where / HASHES).rglob("*.json")
    return next(p for p in records if f"results/{victim}" in read_json(p)["outputs"])


def _replace_keeping_time(path: Path, data: bytes) -> None:
    """`path` replaced by `data` with its old modification time (as `touch -r` and `mv` do)."""
    times = path.stat()
    other = path.with_name(path.name + ".new")
    other.write_bytes(data)
    os.utime(other, ns=(times.st_atime_ns, times.st_mtime_ns))
    other.replace(path)


def test_a_file_replaced_keeping_its_old_time_is_refused_before_any_job(
    smoke: Path, tmp_path: Path
) -> None:
    """Snakemake goes by modification times: a result file replaced keeping its old one reran
    nothing. Every snakemake command first compares each recorded result file with the SHA-256
    its job recorded: an untouched tree passes, a replaced file (a network that jobs read, a
    table that none reads) stops the run before any job, in one line naming it; deleted, as the
    line says, it is rebuilt byte for byte."""
    where = tmp_path / "replaced-in-time"
    shutil.copytree(smoke, where, symlinks=True)
    untouched = snakemake(where, "--cores", "2")
    assert untouched.returncode == 0, untouched.stderr[-3000:]
    assert "Nothing to be done" in untouched.stdout + untouched.stderr
    results = where / "results"
    table = results / "tables" / "validation.csv"
    for victim, data in (
        ("tune/td/seed1.npz", (results / "tune" / "td" / "seed2.npz").read_bytes()),
        ("tables/validation.csv", table.read_bytes().replace(b"cem", b"cma", 1)),
    ):
        original = (results / victim).read_bytes()
        _replace_keeping_time(results / victim, data)
        for args in (("-n",), ("--cores", "2")):
            run = snakemake(where, *args)
            assert run.returncode != 0
            lines = [line for line in run.stderr.splitlines() if "result file" in line]
            now, was = file_sha256(results / victim), file_sha256(smoke / "results" / victim)
            record = _records_of(where, victim).relative_to(where)
            assert lines == [
                f"result file results/{victim}: its SHA-256 is {now[:16]}..., not {was[:16]}"
                f"... as the job that wrote it recorded in {record}: it was changed or replaced "
                "after its job wrote it (Snakemake, which goes by modification times, would "
                "rerun nothing for a file replaced keeping its old time); delete it and run the "
                "same snakemake command again: it is rebuilt, with everything made from it"
            ], run.stderr[-3000:]
            assert "Traceback" not in run.stderr and "Job stats" not in run.stdout
        _replace_keeping_time(results / victim, original)
    table.unlink()
    rerun = snakemake(where, "--cores", "2")
    assert rerun.returncode == 0, rerun.stderr[-4000:]
    assert_same_results(smoke, where)


def test_figures_are_valid_images(smoke: Path) -> None:
    figures = sorted((smoke / "results" / "figures").glob("*.png"))
    assert len(figures) == 10
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
    tables = ("benchmark", "validation", "tuning", "progress", "comparisons", "transfer")
    outputs += [f"{t}.html" for t in tables] + ["claims.html"]
    assert all(name in html for name in outputs)
    config = SimpleNamespace(config=load_config(smoke / "config" / "smoke.yaml"))
    for caption in captions:  # each caption's first sentence, rendered with the config
        text = jinja2.Template(caption.read_text()).render(snakemake=config)
        first = " ".join(text.split()).split(". ")[0].split("`")[0]  # up to rst markup
        assert first[:60] in html, caption.name
    assert "TD(0.5) learning of the n-tuple network" in html  # the config's lambda


def _plan_from_smoke_rates(smoke: Path, config: dict, where: Path) -> subprocess.CompletedProcess:
    where.write_text(yaml.safe_dump(config, sort_keys=False))
    command = [sys.executable, "-m", "g2048", "plan", "--cores", "2", "--configfile", str(where)]
    command += ["--rates-from", "config/smoke.yaml"]
    return subprocess.run(command, cwd=smoke, capture_output=True, text=True)


def test_plan_times_a_config_never_run_from_the_smoke_runs_rates(
    smoke: Path, tmp_path: Path
) -> None:
    """The smoke study with twice the benchmark games, never run: its shards are timed from
    the smoke run's seconds per game of the same settings; a row of settings that no job
    played is refused by name."""
    config = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())
    for entry in config["benchmark"]["entries"]:
        entry["games"] *= 2
    run = _plan_from_smoke_rates(smoke, config, tmp_path / "bigger.yaml")
    assert run.returncode == 0, run.stderr
    shards = sum(entry_shards(config, e["name"]) for e in config["benchmark"]["entries"])
    assert "from the seconds per game that a run of config/smoke.yaml recorded" in run.stdout
    assert f"from config/smoke.yaml's run: benchmark_shard {shards}" in run.stdout
    deeper = {"name": "deeper", "agent": {"name": "expectimax", "depth": 4}, "evaluator": "ovolve"}
    config["benchmark"]["entries"].append({**deeper, "games": 2})
    run = _plan_from_smoke_rates(smoke, config, tmp_path / "deeper.yaml")
    assert run.returncode == 2
    first, *rest = run.stderr.splitlines()  # the setting that differs, in the first line
    assert first.endswith(
        "plays the settings of 1 row(s) (2 jobs): agent.depth 4 against 3 (1 rows)"
    )
    assert "  benchmark_shard entry=deeper (2 jobs): agent.depth 4 against 3" in rest
    assert len(rest) == 2


def test_one_core_after_a_kill_gives_identical_results(smoke: Path, tmp_path: Path) -> None:
    """Run two validations' jobs on 1 core (a weight run's tuning, selection and validation; a
    network's training, selection and validation), SIGKILL the run once the first validation is
    written (the other's jobs not all done), unlock, rerun: the same results as on 2 cores."""
    where = workdir(tmp_path / "killed")
    targets = [f"results/validate/{name}.csv" for name in ("cem-s1", "td-s2")]
    proc = subprocess.Popen(
        [SNAKEMAKE, "--configfile", "config/smoke.yaml", "--cores", "1", *targets],
        cwd=where,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.time() + 600
    while not list((where / "results").glob("validate/*.csv")) and time.time() < deadline:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    written = [p.name for p in (where / "results").glob("validate/*.csv")]
    assert len(written) == 1, f"the run was killed at {written}, not between the validations"
    assert snakemake(where, "--unlock").returncode == 0
    rerun = snakemake(where, "--cores", "1", *targets)
    assert rerun.returncode == 0, rerun.stderr[-4000:]
    assert all((where / target).exists() for target in targets)
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


def _edit_json(**changes: object) -> Callable[[Path], None]:
    """A damage that rewrites a result JSON with `changes` (a callable value maps the old)."""

    def damage(path: Path) -> None:
        data = read_json(path)
        for key, value in changes.items():
            data[key] = value(data[key]) if callable(value) else value
        write_json(path, data)

    return damage


def _demote_the_pick(values: list[float]) -> list[float]:
    """Selection values under which the picked seed (the first best) is no longer the best:
    its value made the lowest (reversing them would keep a tie a tie)."""
    best = int(np.argmax(values))
    return [x - 1e9 if i == best else x for i, x in enumerate(values)]


def _paste_weights(other: str) -> Callable[[Path], None]:
    """A damage that pastes the weights of the selection file `other` (in the same folder)
    into a selection: cem's into cmaes's pick, same evaluator, inside the box."""

    def damage(path: Path) -> None:
        data = read_json(path)
        data["weights"] = read_json(path.parent / other)["weights"]
        write_json(path, data)

    return damage


def _network(name: str, value: float) -> Callable[[Path], None]:
    """A damage that replaces a network file by a network `name` with every weight `value`."""

    def damage(path: Path) -> None:
        size = ntuple.lut_size(ntuple.NETWORKS[name])
        ntuple.save_network(path, ntuple.Network(name, np.full(size, value, np.float32)))

    return damage


# Well-formed but wrong selections of a run that tunes cem8 (issue 28), one on each seed's
# selection of the three such runs, with what the job that reads one says of it.
CEM8 = [
    (f"select/{run}/seed{seed}.json", damage, fault.format(run=run))
    for (run, seed), (damage, fault) in zip(
        [(r, s) for r in ("cem", "cmaes", "random-search") for s in (1, 2)],
        [
            (_edit_json(weights=[True] * 8), "holds true as its weight 0 (empty), not a number"),
            (_edit_json(weights=lambda w: [1e308, *w[1:]]),
             "holds 1e+308 as its weight 0 (empty), outside cem8's box [-5, 5]"),
            (_edit_json(evaluator="nsga4", weights=[0.25] * 4),
             'records evaluator "nsga4"; the config\'s run {run} tunes cem8'),
            (_edit_json(weights=lambda w: [str(x) for x in w]), "not a number"),
            (_edit_json(weights=[1.0, 2.0, 3.0]), "holds 3 weights; evaluator cem8 takes 8"),
            (_edit_json(seed="x"), 'records seed "x", not an integer'),
        ],
        strict=True,
    )
]  # fmt: skip

# Damaged result files, in groups whose files have disjoint consumers: each group is damaged
# in one copy of the smoke study and run once, every consumer failing on its own file.
DAMAGES = {
    "jobs-read": [
        ("benchmark/greedy/shard0.csv", _cut_in_half, "truncated?"),
        ("select/nsga2/seed1.json", lambda p: p.write_text("garbage"), "is not valid JSON"),
        ("select/nsga2/seed2.json", lambda p: p.write_text("{}"), "lacks the key(s) run"),
        *CEM8,
        ("tune/td/seed1.npz", _network("lines4x2", np.nan), "NaN or infinite weights"),
        ("tune/td/seed2.npz", _network("wu6x4", 0.0),
         "holds a 'wu6x4' network; the config's tune.td.network is 'lines4x2'"),
    ],
    "tables-read": [
        ("benchmark/expectimax-d3.csv", _cut_in_half, "truncated?"),
        ("validate/cem-s1.csv", _cut_in_half, "truncated?"),
    ],
    "picks-and-runs": [
        ("select/nsga2/seed1.json", lambda p: p.write_text("[" * 100_000 + "]" * 100_000),
         "nested 100000 levels deep, more than the 32"),
        ("select/tuned-cem.json", _edit_json(selection_values=_demote_the_pick), "the best"),
        ("select/tuned-cmaes.json", _paste_weights("tuned-cem.json"),
         "differ from that seed's selection file results/select/cmaes/seed"),
        ("tune/random-search/seed1.json", _edit_json(settings=lambda s: s | {"games": 99}),
         "records settings other than the config's for run random-search (games: 99 here, 2 "
         "in the config)"),
    ],
}  # fmt: skip


@pytest.mark.parametrize("group", DAMAGES)
def test_damaged_result_files_stop_their_consumers_naming_them(
    smoke: Path, tmp_path: Path, group: str
) -> None:
    """Each damage is refused before any job by the check of recorded hashes, naming the file;
    and by the jobs that read the file where no record names it (made before records were
    kept, or its record deleted): each job that fails ends on one line naming its file and
    what is wrong with it, and no table is made from bad data."""
    where = tmp_path / "damaged"
    shutil.copytree(smoke, where, symlinks=True)
    tables = {p: p.read_bytes() for p in (where / "results" / "tables").glob("*.csv")}
    victims = [victim for victim, _, _ in DAMAGES[group]]
    assert len(set(victims)) == len(victims)
    for victim, damage, _ in DAMAGES[group]:
        damage(where / "results" / victim)
    dry = snakemake(where, "-n")
    assert dry.returncode != 0
    refused = [v for v in victims if f"result file results/{v}: its SHA-256 is " in dry.stderr]
    assert len(refused) == 1, dry.stderr[-3000:]  # the check stops at the first it finds
    assert "Traceback" not in dry.stderr and "Job stats" not in dry.stdout
    for victim in victims:
        _records_of(where, victim).unlink()
    run = snakemake(where, "--cores", "2", "--keep-going")
    assert run.returncode != 0
    lines = run.stderr.splitlines()  # a job's last line: "error: result file results/...: ..."
    for victim, _, fault in DAMAGES[group]:
        said = [line for line in lines if f"error: result file results/{victim}: " in line]
        assert any(fault in line for line in said), (victim, fault, run.stderr[-3000:])
        assert all("delete it and run the same snakemake command again" in s for s in said)
    assert "Traceback" not in run.stderr  # each job ends on the one line that says it all
    for path, data in tables.items():  # no table from bad data: as it was, or removed with
        assert not path.exists() or path.read_bytes() == data  # the job that failed on it


def test_a_replaced_network_reruns_its_consumers_and_its_rebuild_restores_them(
    smoke: Path, tmp_path: Path
) -> None:
    """A network is an input of every job that plays it: replacing it (here by the other seed's
    network, well-formed and of the right kind) reruns them, and they stop naming it, as their
    run recorded another SHA-256; deleting it, as the message says, retrains it and restores
    every result byte for byte (the network's bytes included: digests cover it)."""
    where = tmp_path / "replaced"
    shutil.copytree(smoke, where, symlinks=True)
    network = where / "results" / "tune" / "td" / "seed1.npz"
    shutil.copy(where / "results" / "tune" / "td" / "seed2.npz", network)
    dry = snakemake(where, "--cores", "2", "-n")  # refused by its recorded hash, as above
    assert "result file results/tune/td/seed1.npz: its SHA-256 is " in dry.stderr
    _records_of(where, "tune/td/seed1.npz").unlink()  # the jobs that read it check it too
    dry = snakemake(where, "--cores", "2", "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert "validate/td-s1.csv" in dry.stdout and "benchmark/ntuple-d1/shard0.csv" in dry.stdout
    run = snakemake(where, "--cores", "2")
    assert run.returncode != 0
    assert "result file results/tune/td/seed1.npz: its weights' SHA-256 is " in run.stderr
    assert "as its training run recorded in results/tune/td/seed1.json" in run.stderr
    network.unlink()
    rerun = snakemake(where, "--cores", "2")
    assert rerun.returncode == 0, rerun.stderr[-4000:]
    assert_same_results(smoke, where)


def test_a_config_that_is_a_template_stops_the_run_naming_it(tmp_path: Path) -> None:
    """Snakemake evaluates a config file's YTE templates when its top level sets __use_yte__:
    those of a --configfile before the Snakefile runs (its first lines then stop the run: the
    key is gone from `config`, but not from the file), those of the default config/config.yaml
    not at all (the check comes before the Snakefile's `configfile:`)."""
    where = workdir(tmp_path / "templated")
    smoke_config = (where / "config" / "smoke.yaml").read_text()
    marker = "?__import__('pathlib').Path('evaluated').touch() or 2048"
    (where / "config" / "templated.yaml").write_text(
        "__use_yte__: true\n" + smoke_config.replace("study_seed: 2048", f"study_seed: {marker}")
    )
    run = subprocess.run(
        [SNAKEMAKE, "-n", "--configfile", "config/templated.yaml"],
        cwd=where, capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode != 0
    assert "config/templated.yaml: sets __use_yte__" in run.stdout + run.stderr
    assert (where / "evaluated").exists()  # Snakemake ran it before the workflow could refuse
    assert not (where / "results").exists() and not (where / "logs").exists()
    (where / "evaluated").unlink()
    default = where / "config" / "config.yaml"
    default.write_text("__use_yte__: true\n" + default.read_text().replace(
        "study_seed: 2048", f"study_seed: {marker}"))  # fmt: skip
    run = subprocess.run([SNAKEMAKE, "-n"], cwd=where, capture_output=True, text=True)
    assert run.returncode != 0
    assert "config/config.yaml: sets __use_yte__" in run.stdout + run.stderr
    assert not (where / "evaluated").exists()  # refused before Snakemake read it
    # why the guard reads the files: `config` never shows the key (YTE drops it, true or false)
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "Snakefile").write_text('print("CONFIG", sorted(config), config["a"])\n')
    for flag, value in (("true", "2"), ("false", "?1 + 1")):
        (probe / "c.yaml").write_text(f"__use_yte__: {flag}\na: ?1 + 1\n")
        run = subprocess.run(
            [SNAKEMAKE, "-n", "--configfile", "c.yaml"], cwd=probe, capture_output=True, text=True
        )
        assert f"CONFIG ['a'] {value}" in run.stdout + run.stderr


def test_a_partial_config_is_refused_as_check_config_refuses_it(tmp_path: Path) -> None:
    """A --configfile replaces config/config.yaml (no merge): a config with only study_seed
    and threads is refused before any job, in check-config's words and without a traceback;
    so is a --config override of the file's values."""
    where = workdir(tmp_path / "partial")
    (where / "partial.yaml").write_text("study_seed: 7\nthreads: 1\n")
    check = subprocess.run(
        [sys.executable, "-m", "g2048", "check-config", "partial.yaml"],
        cwd=where, capture_output=True, text=True,
    )  # fmt: skip
    assert check.returncode == 2 and "'tune' is a required property" in check.stderr
    run = subprocess.run(
        [SNAKEMAKE, "-n", "--configfile", "partial.yaml"], cwd=where, capture_output=True, text=True
    )
    assert run.returncode != 0
    assert check.stderr in run.stderr
    assert "Traceback" not in run.stderr and 'File "' not in run.stderr
    assert "Job stats" not in run.stdout  # nothing planned
    run = subprocess.run(
        [SNAKEMAKE, "-n", "--configfile", "config/smoke.yaml", "--config", "validate={games: 0}"],
        cwd=where, capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode != 0
    refusal = (
        "config/smoke.yaml with --config validate.games=0: config key validate.games: 0 is less "
        "than the minimum of 1\n"
    )
    assert run.stderr.endswith(refusal), run.stderr[-2000:]
    assert "Traceback" not in run.stderr and "Job stats" not in run.stdout
    assert not (where / "results").exists()


def test_a_config_override_runs_and_is_recorded_in_provenance(tmp_path: Path) -> None:
    """`--config validate.games=2` (through g2048.study.run; Snakemake's own form is
    `validate={games: 2}`) is applied: the job plays 2 games and its provenance record names the
    file, its SHA-256 and the override."""
    where = workdir(tmp_path / "override")
    target = "results/validate/hand-classic4.csv"
    run = subprocess.run(
        [sys.executable, "-m", "g2048.study.run", target, "--cores", "1",
         "--configfile", "config/smoke.yaml", "--config", "validate.games=2"],
        cwd=where, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert len(pd.read_csv(where / target)) == 2  # the file says 6
    record = read_json(where / "results/provenance/validate/hand-classic4.json")
    assert record["study"] == {
        "config_file": "config/smoke.yaml",
        "config_sha256": file_sha256(where / "config/smoke.yaml"),
        "config_overrides": {"validate.games": 2},
    }


def test_an_invalid_config_fails_before_any_job_naming_the_key(tmp_path: Path) -> None:
    where = workdir(tmp_path / "bad")
    config = (where / "config" / "smoke.yaml").read_text()
    (where / "config" / "smoke.yaml").write_text(config.replace("games: 6", "games: -6"))
    run = snakemake(where, "--cores", "1")
    assert run.returncode != 0
    assert "config key validate.games" in run.stderr + run.stdout
    assert not (where / "results").exists()


def test_a_probe_of_a_tuned_row_plays_the_other_runs_pick(
    smoke: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make sample-paper` probes rows that play tuned weights (the paper's ntuple-10ms): the
    pick the other config's run made, checked as its benchmark job checks it. Here the smoke
    run's ntuple-d1 (its td network) and cem-d2 (its cem pick), 5 moves each; a network whose
    file no longer has the SHA-256 its training recorded is refused."""
    (tmp_path / "results").symlink_to(smoke / "results")
    monkeypatch.chdir(tmp_path)
    config = load_config(smoke / "config" / "smoke.yaml")
    for name in ("ntuple-d1", "cem-d2"):
        next(e for e in config["benchmark"]["entries"] if e["name"] == name)["probe_moves"] = 5
        assert sample.probe(config, name, config).startswith(f"probe {name}: 5 moves in ")
    assert isinstance(
        sample.picked_weights(config, sample.study.entry(config, "ntuple-d1")), ntuple.Network
    )
    network = read_json(smoke / "results" / "select" / "tuned-td.json")["weights"]
    assert len(sample.picked_weights(config, sample.study.entry(config, "cem-d2"))) == 8
    (tmp_path / "copy").mkdir()
    for part in ("select", "tune"):
        shutil.copytree(smoke / "results" / part, tmp_path / "copy" / "results" / part)
    monkeypatch.chdir(tmp_path / "copy")
    with np.load(network) as z:  # a weight of the picked network changed
        arrays = {key: z[key].copy() for key in z.files}
    changed = next(k for k, a in arrays.items() if a.dtype.kind == "f" and a.size)
    arrays[changed].flat[0] += 1.0
    np.savez(network, **arrays)
    with pytest.raises(Exception, match="sha256|SHA-256"):
        sample.picked_weights(config, sample.study.entry(config, "ntuple-d1"))
