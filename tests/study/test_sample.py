"""Sampling a study never run here (g2048.study.sample, `make sample-paper`) and the paper
study's rows of the seeds' full-rollout hybrids (issue 51)."""

import subprocess
from pathlib import Path

import pytest
import yaml

from g2048.study import sample
from g2048.study.config import ConfigError, load_config, typed_overrides
from g2048.study.records import plan
from g2048.study.records.job_cost import Work
from g2048.study.records.plan import Job
from g2048.study.run import dotted_overrides

ROOT = Path(__file__).resolve().parents[2]


def test_a_sample_takes_one_job_of_each_kind_that_no_record_times() -> None:
    """Kinds A (rated by the other run) and B, C (not): B's second job has its inputs, C's
    none; the probed row is probed, not run."""
    config = load_config(ROOT / "config" / "paper.yaml")
    jobs = [
        Job(1, "benchmark_shard", "entry=random, shard=0", outputs=("a0",), benchmark="x"),
        Job(
            2,
            "benchmark_shard",
            "entry=greedy, shard=0",
            inputs=("in1",),
            outputs=("b0",),
            benchmark="x",
        ),
        Job(
            3,
            "benchmark_shard",
            "entry=greedy, shard=1",
            inputs=("in2",),
            outputs=("b1",),
            benchmark="x",
        ),
        Job(
            4, "transfer", "weightset=x, depth=5", inputs=("none",), outputs=("c0",), benchmark="x"
        ),
        Job(
            5, "transfer", "weightset=y, depth=5", inputs=("none",), outputs=("c1",), benchmark="x"
        ),
        Job(
            6,
            "benchmark_shard",
            "entry=hybrid-d4-r100-full, shard=0",
            outputs=("p0",),
            benchmark="x",
        ),
        Job(
            7,
            "benchmark_shard",
            "entry=hybrid-d4-r100-full, shard=1",
            outputs=("p1",),
            benchmark="x",
        ),
        Job(8, "benchmark_shard", "entry=mc-100, shard=0", outputs=("d0",), benchmark="x"),
    ]
    works = {1: Work("A", 1), 2: Work("B", 1), 3: Work("B", 1), 4: Work("C", 1), 5: Work("C", 1)}
    works |= {6: Work("P", 1), 7: Work("P", 1), 8: Work("D", 1)}
    rates = plan.Rates({"A": 1.0}, {})
    todo = sample.unrated(jobs, works, rates, {8: 30.0})
    assert [job.jobid for job in todo] == [2, 3, 4, 5, 6, 7]
    targets, probes = sample.choose(todo, works, config, lambda path: path == "in2")
    assert targets == ["b1", "c0"]
    assert probes == ["hybrid-d4-r100-full"]


def test_a_probe_records_its_time_per_move_and_the_game_it_extrapolates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config(ROOT / "config" / "smoke.yaml")
    entry = config["benchmark"]["entries"][1]  # greedy
    entry["probe_moves"] = 20
    (tmp_path / "results" / "benchmark").mkdir(parents=True)
    (tmp_path / "results" / "benchmark" / f"{entry['name']}.csv").write_text("moves\n100\n300\n")
    line = sample.probe(config, entry["name"], config)
    assert line.startswith(f"probe {entry['name']}: 20 moves in ")
    per_move, moves, game_moves, like = sample.read_probe(sample.probe_path(entry["name"]))
    assert (moves, game_moves, like) == (20, 200.0, entry["name"])
    assert 0 < per_move < 1


def test_plan_extrapolates_a_probed_row_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shard of a probed row without any record: its start, then its one game of 1800
    moves at 5 s a move: 9000 s, called an extrapolation."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "paper.yaml").write_text((ROOT / "config" / "paper.yaml").read_text())
    path = sample.probe_path("hybrid-d4-r100-full")
    path.parent.mkdir(parents=True)
    path.write_text("seconds_per_move\tmoves\tgame_moves\tlike\n5.0\t30\t1800.0\thybrid-d4-r100\n")
    jobs = [
        Job(1, "benchmark_shard", "entry=hybrid-d4-r100-full, shard=3", benchmark="x"),
        Job(2, "benchmark_shard", "entry=hybrid-d3-r50-full, shard=0", benchmark="x"),  # no probe
        Job(3, "table", benchmark="y"),
    ]
    out = sample.probed(Path("config/paper.yaml"), jobs, {3: 2.0})
    assert list(out) == [1]
    seconds, line = out[1]
    assert seconds == pytest.approx(2.0 + 9000.0)
    assert line == (
        "hybrid-d4-r100-full: EXTRAPOLATED from the first 30 moves of a game (5.000 s a move), "
        "its games taken as long as hybrid-d4-r100's (1800 moves)"
    )
    over = plan.over_runtime(
        [
            Job(
                1,
                "benchmark_shard",
                "entry=hybrid-d4-r100-full, shard=3",
                resources={"runtime": "120"},
            )
        ],
        {1: seconds},
        set(),
    )
    assert over == [
        "benchmark_shard entry=hybrid-d4-r100-full, shard=3 is predicted to take 2 h 30 min, "
        "over its runtime resource of 120 min"
    ]


def test_a_probed_timed_row_plays_its_games_side_by_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shard of a timed row (paper's mc-100ms: 50 games in 5 shards) on 8 cores plays 7
    games at once: its 10 games in 2 rounds of 2000 moves at 0.1 s, 1 at once on 2 cores."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "paper.yaml").write_text((ROOT / "config" / "paper.yaml").read_text())
    path = sample.probe_path("mc-100ms")
    path.parent.mkdir(parents=True)
    path.write_text("seconds_per_move\tmoves\tgame_moves\tlike\n0.1\t30\t2000.0\tmc-1ms\n")
    wide = Job(1, "benchmark_shard", "entry=mc-100ms, shard=0", threads=8, benchmark="x")
    narrow = Job(2, "benchmark_shard", "entry=mc-100ms, shard=1", threads=2, benchmark="x")
    out = sample.probed(Path("config/paper.yaml"), [wide, narrow, Job(3, "t", benchmark="y")],
                        {3: 2.0})  # fmt: skip
    assert out[1][0] == pytest.approx(2.0 + 2 * 200.0) and out[1][1].endswith(", 7 at once")
    assert out[2][0] == pytest.approx(2.0 + 10 * 200.0) and "at once" not in out[2][1]


def test_the_paper_studys_full_rollout_hybrids() -> None:
    """Its 1000-game hybrid rows take the default study's rollout cap, naming the seeds'
    settings in their source; the seeds' exact settings have rows of 10 games, one a job,
    probed over 30 moves, with a runtime of their own."""
    paper = {
        e["name"]: e for e in load_config(ROOT / "config" / "paper.yaml")["benchmark"]["entries"]
    }
    default = {
        e["name"]: e for e in load_config(ROOT / "config" / "config.yaml")["benchmark"]["entries"]
    }
    for name in ("hybrid-d3-r50", "hybrid-d4-r100"):
        assert paper[name]["games"] == 1000
        assert paper[name]["agent"]["step_cap"] == default[name]["agent"]["step_cap"]
        assert (
            "to the game's end" in paper[name]["source"] and f"{name}-full" in paper[name]["source"]
        )
        full = paper[f"{name}-full"]
        assert (full["games"], full["shards"], full["probe_moves"]) == (10, 10, 30)
        assert full["agent"]["step_cap"] == 0 and full["runtime"] > 0  # to the end
        assert full["agent"]["rollouts"] == paper[name]["agent"]["rollouts"]


def test_the_sampled_jobs_command_keeps_its_targets() -> None:
    """Snakemake reads the command's targets as targets, not as values of --rerun-triggers;
    the jobs run forced, with the other config's tune section as their config's."""
    from snakemake.cli import get_argument_parser, parse_config

    targets = ["results/transfer/cem-prior/depth5.csv", "results/benchmark/ntuple-d5/shard0.csv"]
    tune = load_config(ROOT / "config" / "config.yaml")["tune"]
    command = sample.sample_command(targets, 2, Path("config/paper.yaml"), tune)
    assert command[1:3] == ["-m", "g2048.study.run"]
    args = get_argument_parser().parse_args(dotted_overrides(command[3:]))
    assert args.targets == targets and {t.name for t in args.rerun_triggers} == {"MTIME"}
    assert args.configfile == [Path("config/paper.yaml")] and args.cores == 2 and args.force
    assert typed_overrides(parse_config(args.config)) == {"tune": tune}


def test_make_sample_paper_dry_run_lists_its_steps() -> None:
    steps = subprocess.run(
        ["make", "-n", "sample-paper"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    order = ["check-config", "g2048.study.warm", "g2048.study.run", "g2048.study.sample"]
    order += ["plan --configfile config/paper.yaml --rates-from config/config.yaml --cores 16"]
    positions = [steps.find(step) for step in order]
    assert -1 not in positions and positions == sorted(positions), steps
    assert "--cores 64" in steps and "--cluster" in steps
    dry = subprocess.run(
        ["make", "-n", "sample-paper", "SAMPLE_DRY=1"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    assert "--dry-run" in dry and "g2048.study.run" not in dry and "plan" not in dry


def test_the_slurm_profile_leaves_a_rows_runtime_to_its_config() -> None:
    profile = yaml.safe_load((ROOT / "profiles" / "slurm" / "config.yaml").read_text())
    assert "benchmark_shard" not in (profile.get("set-resources") or {})


def test_a_probe_refuses_tuned_weights_the_other_config_does_not_tune() -> None:
    """A row's own weights are played as they are; a pick of a run that the other config
    does not tune is refused by name (its pick would be the probe's weights)."""
    config = load_config(ROOT / "config" / "smoke.yaml")
    assert sample.picked_weights(config, {"name": "x", "weights": [1.0, 2.0]}) == [1.0, 2.0]
    assert sample.picked_weights(config, {"name": "x"}) is None
    with pytest.raises(ConfigError, match="tuned:nope"):
        sample.picked_weights(config, {"name": "x", "weights": "tuned:nope"})
