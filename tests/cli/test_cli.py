"""`python -m g2048 play | watch`: summaries, CSV output, argument errors, and watch replaying
exactly the game that `play_games` plays from the same seed."""

import hashlib
import importlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from g2048.agents import AgentConfig
from g2048.cli.main import main
from g2048.cli.speed import (
    BenchFigures,
    BudgetFigure,
    DeepeningFigure,
    EngineFigures,
    NodeCostFigure,
    PairedFigure,
    SearchFigure,
    TrainingFigures,
    budget_figures,
    deepening_figure,
    node_cost_figures,
    star_figures,
)
from g2048.cli.watch import CLEAR, Position, render
from g2048.engine.rng import game_seeds
from g2048.evaluators import EVALUATORS, ntuple
from g2048.learning.recipes import TDConfig
from g2048.learning.td import train
from g2048.play import COLUMNS, play_games
from g2048.settings import from_settings
from g2048.study import stages
from g2048.study.config import ConfigError, load_config, validate_config
from g2048.study.records.integrity import file_sha256, record_outputs, record_path
from g2048.study.results import write_json
from g2048.study.stages import select

CORES = os.cpu_count() or 1
N_WEIGHTS = EVALUATORS["nneonneo"].default_weights.size
FINAL = re.compile(r"final score (\d+), max tile (\d+), moves (\d+)")


def _default_weights(n: int = 1) -> list:
    row = EVALUATORS["nneonneo"].default_weights.tolist()
    return row if n == 1 else [row] * n


def test_play_prints_the_summary_and_writes_the_csv(capsys, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "games.csv"
    args = ["play", "--agent", "greedy", "--games", "4", "--seed", "5", "--out", str(out)]
    assert main(args) == 0
    text = capsys.readouterr().out
    df = pd.read_csv(out)
    assert list(df.columns) == list(COLUMNS)
    assert df["game"].tolist() == [0, 1, 2, 3]
    assert df["seed"].astype("uint64").tolist() == game_seeds(5, "play", 4).tolist()
    expected = play_games(AgentConfig("greedy"), game_seeds(5, "play", 4))
    assert df["score"].tolist() == expected["score"].tolist()
    assert f"mean {expected['score'].mean():.1f} (95% CI " in text
    assert f"median {expected['score'].median():.0f}" in text
    for tile in (2048, 4096, 8192, 16384, 32768):
        reached = int((expected["max_tile"] >= tile).sum())
        assert re.search(rf"^{tile}\s+{reached}/4\s", text, re.MULTILINE), text
    assert f"moves      mean {expected['moves'].mean():.1f}" in text
    assert "game moves/s" in text


@pytest.mark.slow
def test_play_as_a_subprocess(tmp_path: Path) -> None:
    """A fresh process (which may load the compiled engine from numba's disk cache) plays the
    same games as this one."""
    out = tmp_path / "games.csv"
    result = subprocess.run(
        [sys.executable, "-m", "g2048", "play", "--agent", "random", "--games", "3"]
        + ["--threads", str(min(2, CORES)), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=1800,  # a cold numba cache compiles the engine first
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "3 games of purpose 'play' from study seed 0" in result.stdout
    assert re.search(r"score\s+mean [\d.]+ \(95% CI -?[\d.]+ to [\d.]+\)", result.stdout)
    assert re.search(r"^2048\s+0/3\s", result.stdout, re.MULTILINE)  # random play stays below
    expected = play_games(AgentConfig("random"), game_seeds(0, "play", 3))
    assert pd.read_csv(out)["score"].tolist() == expected["score"].tolist()


def test_play_shows_progress_on_a_terminal(capsys, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["play", "--agent", "random", "--games", "3"]) == 0
    assert capsys.readouterr().err == "\r1/3 games\r2/3 games\r3/3 games\n"


def test_play_reads_weights_from_numbers_and_json(tmp_path: Path) -> None:
    weights = [w * (0.5 + 0.1 * i) for i, w in enumerate(_default_weights())]  # in the box
    seeds = game_seeds(0, "play", 2)
    expected = play_games(AgentConfig("greedy"), seeds, weights=weights)["score"].tolist()
    assert expected != play_games(AgentConfig("greedy"), seeds)["score"].tolist()
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(weights))
    keyed = tmp_path / "keyed.json"
    keyed.write_text(json.dumps({"weights": weights}))
    out = tmp_path / "games.csv"
    for source in (",".join(map(str, weights)), str(listed), str(keyed)):
        assert (
            main(
                [
                    "play",
                    "--agent",
                    "greedy",
                    "--games",
                    "2",
                    "--weights",
                    source,
                    "--out",
                    str(out),
                    "--force",
                ]
            )
            == 0
        )
        assert pd.read_csv(out)["score"].tolist() == expected


def test_switching_takes_three_vectors_from_json(tmp_path: Path) -> None:
    rows = _default_weights(3)
    rows[2] = [w / 2 for w in rows[2]]  # another row, inside the box: a different agent
    agent = AgentConfig("switching", depth=1)
    expected = play_games(agent, game_seeds(0, "play", 1), weights=rows)["score"].tolist()
    listed = tmp_path / "rows.json"
    listed.write_text(json.dumps(rows))
    out = tmp_path / "games.csv"
    base = ["play", "--agent", "switching", "--depth", "1", "--games", "1", "--out", str(out)]
    assert main([*base, "--weights", str(listed)]) == 0
    assert pd.read_csv(out)["score"].tolist() == expected


def test_play_and_watch_take_a_selection_file_the_pipeline_wrote(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    nsga2_run: dict,
) -> None:
    tuned = nsga2_run
    selection = select(tuned)
    path = tmp_path / "seed1.json"
    write_json(path, selection)
    out = tmp_path / "games.csv"
    seeds = game_seeds(0, "play", 2)
    for agent, rows in [
        (AgentConfig("switching", depth=1), selection["switching"]),
        (AgentConfig("greedy"), selection["weights"]),
    ]:
        expected = play_games(agent, seeds, "nsga4", rows)["score"].tolist()
        args = ["play", "--agent", agent.name, "--evaluator", "nsga4", "--games", "2"]
        args += ["--depth", "1", "--weights", str(path), "--out", str(out), "--force"]
        assert main(args) == 0
        assert pd.read_csv(out)["score"].tolist() == expected
    watch = ["watch", "--agent", "switching", "--evaluator", "nsga4", "--depth", "1"]
    assert main([*watch, "--weights", str(path), "--delay", "0"]) == 0
    assert "final score" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "clever"], "invalid choice: 'clever'"),
        (["--agent", "greedy", "--evaluator", "nosuch"], "invalid choice: 'nosuch'"),
        (["--agent", "greedy", "--weights", "1,2"], f"takes {N_WEIGHTS} weights"),
        (["--agent", "greedy", "--weights", "1,x"], "got '1,x'"),
        (["--agent", "greedy", "--games", "-3"], "argument --games: must be in 1..1000000"),
        (["--agent", "expectimax", "--depth", "0"], "depth must be in 1..27 or 'auto', got 0"),
        (["--agent", "greedy", "--threads", str(CORES + 1)], f"cores), got {CORES + 1}"),
        (["--agent", "greedy", "--weights", "missing.json"], "cannot read weights file missing"),
        (["--agent", "switching", "--weights", "1,2,3"], "give --weights a JSON file"),
        (["--agent", "greedy", "--out", "/no/such/dir/x.csv"], "No such file or directory"),
        (["--agent", "greedy", "--out", "/tmp"], "--out: '/tmp' is a directory"),
        (
            ["--agent", "greedy", "--force", "--out", "/proc/version"],
            "--out: cannot write '/proc/version'",
        ),
        (["--agent", "greedy", "--games", "1000000000000"], "refused, not streamed"),
        (["--agent", "montecarlo", "--rollouts", "1000000000"], "rollouts must be in 1..1000000"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(capsys, args: list[str], message: str) -> None:  # noqa: ANN001
    with pytest.raises(SystemExit) as exit_info:
        main(["play", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    [line] = err.splitlines()  # one line, no usage block before it
    assert line.startswith("g2048 play: error: ")


@pytest.mark.parametrize(
    ("agent", "evaluator", "weights", "message"),
    [
        (
            "greedy",
            "cem8",
            "6,0,0,0,0,0,0,0",
            "holds 6 as its weight 0 (empty), outside cem8's box",
        ),
        ("expectimax", "cem8", ",".join(["1e308"] * 8), "holds 1e+308 as its weight 0 (empty)"),
        ("greedy", "nneonneo", "list.json", "holds -1 as its weight 1 (empty), outside nneonneo"),
        ("switching", "nneonneo", "rows.json", "row 2 holds 99 as its weight 4 (sum_penalty)"),
        ("greedy", "cem8", "select.json", "holds -5.5 as its weight 7"),
    ],
)
def test_play_and_watch_refuse_weights_outside_the_evaluators_box(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    agent: str,
    evaluator: str,
    weights: str,
    message: str,
) -> None:
    """As a config's weights are (study.weights.weights_problem): numbers, a list, the
    switching agent's rows and a selection file alike."""
    (tmp_path / "list.json").write_text(json.dumps([1, -1, 1, 1, 1]))
    (tmp_path / "rows.json").write_text(json.dumps([[1] * 5, [1] * 5, [1, 1, 1, 1, 99]]))
    selection = {"run": "cem", "method": "cem", "seed": 1, "evaluator": "cem8"}
    write_json(tmp_path / "select.json", selection | {"weights": [0] * 7 + [-5.5]})
    if weights.endswith(".json"):
        weights = str(tmp_path / weights)
    for command in ("play", "watch"):
        args = [command, "--agent", agent, "--depth", "2", "--evaluator", evaluator]
        with pytest.raises(SystemExit) as exit_info:
            main([*args, "--weights", weights])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert f"error: --weights {weights}: {message}" in err, err
        assert "(the box its tuners search and its values are tested in)\n" in err


@pytest.mark.parametrize(
    ("agent", "content", "message"),
    [
        ("greedy", "[1, 2", "is not valid JSON"),
        ("switching", '{"weights": [1, 2, 3, 4]}', "has no 'switching' entry (keys: weights)"),
        ("greedy", "[[1, 2], [3]]", "must hold a list of numbers, got [[1, 2], [3]]"),
        ("greedy", '{"weights": {"a": 1}}', "'weights' entry must hold a list of numbers"),
        ("switching", '{"switching": "x"}', "'switching' entry must hold 3 lists of numbers"),
    ],
)
def test_bad_weights_files_exit_2(
    capsys, tmp_path: Path, agent: str, content: str, message: str
) -> None:  # noqa: ANN001, E501
    path = tmp_path / "w.json"
    path.write_text(content)
    with pytest.raises(SystemExit) as exit_info:
        main(["watch", "--agent", agent, "--weights", str(path)])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "agent",
    [AgentConfig("greedy"), AgentConfig("expectimax", depth=2), AgentConfig("random")],
)
def test_watch_replays_the_game_play_games_plays(capsys, agent: AgentConfig) -> None:  # noqa: ANN001
    seed, game = 7, 2
    expected = play_games(agent, game_seeds(seed, "play", game + 1), threads=1).iloc[game]
    args = ["watch", "--agent", agent.name, "--depth", str(agent.depth), "--seed", str(seed)]
    assert main([*args, "--game", str(game), "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out  # captured stdout is no terminal: plain text
    final = FINAL.search(out)
    assert final is not None, out[-500:]
    assert [int(v) for v in final.groups()] == [
        expected["score"],
        expected["max_tile"],
        expected["moves"],
    ]
    headers = re.findall(r"^score (\d+)  moves (\d+)  last move (\w+|-)$", out, re.MULTILINE)
    assert len(headers) == expected["moves"] + 1  # the start, then one board per move
    assert headers[0] == ("0", "0", "-")
    assert headers[-1][:2] == (str(expected["score"]), str(expected["moves"]))


def test_render_plain_and_in_colour() -> None:
    # rows: 2 4 8 16 / 32 64 128 256 / 512 1024 2048 4096 / 8192 . . .
    board = sum(rank << (4 * i) for i, rank in enumerate(range(1, 14)))
    position = Position(board, score=1234, moves=56, last_move=2)
    plain = render(position, colour=False).splitlines()
    assert plain[0] == "score 1234  moves 56  last move left"
    assert plain[1].split() == ["2", "4", "8", "16"]
    assert plain[4].split() == ["8192", ".", ".", "."]
    coloured = render(position, colour=True)
    assert "\x1b[48;5;" in coloured and coloured.count("\x1b[0m") == 17  # 4 x 3 + 5 borders
    styles = re.findall(r"(\x1b\[48;5;\d+m\x1b\[1;38;5;\d+m)\s*(\d+)\s", coloured)
    tiles = dict((int(value), style) for style, value in styles)
    assert len(tiles) == 13 and len(set(tiles.values())) == 12  # 4096 and 8192 share a colour
    assert tiles[4096] == tiles[8192]


def test_watch_on_a_terminal_redraws_in_colour(capsys, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["watch", "--agent", "greedy", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    expected = play_games(AgentConfig("greedy"), game_seeds(0, "play", 1)).iloc[0]
    assert out.count(CLEAR) == expected["moves"] + 1
    assert "\x1b[48;5;" in out
    assert out.endswith(
        f"final score {expected['score']}, max tile {expected['max_tile']}, "
        f"moves {expected['moves']}\n"
    )


def test_version(capsys) -> None:  # noqa: ANN001
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert re.fullmatch(r"g2048 \d+\.\d+\.\d+\n", capsys.readouterr().out)


def test_help_says_what_each_agent_option_means_and_who_uses_it(capsys) -> None:  # noqa: ANN001
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--depth DEPTH expectimax, hybrid, switching: search depth in plies" in text
    assert "--step-cap STEP_CAP montecarlo, hybrid: moves per rollout at most" in text
    assert "--max-moves MAX_MOVES stop each game after this many moves" in text


def test_max_moves_caps_every_game(tmp_path: Path) -> None:
    out = tmp_path / "games.csv"
    assert (
        main(["play", "--agent", "greedy", "--games", "3", "--max-moves", "7", "--out", str(out)])
        == 0
    )
    assert (pd.read_csv(out)["moves"] == 7).all()


def test_any_game_of_a_study_can_be_replayed_by_purpose(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """Games 1 and 2 of a benchmark row with study seed 2048 are those the pipeline plays."""
    from g2048.study.stages import benchmark_seeds

    agent = AgentConfig("expectimax", depth=2)
    expected = play_games(agent, benchmark_seeds(2048, 1, 2), "ovolve")
    out = tmp_path / "games.csv"
    args = ["--agent", "expectimax", "--depth", "2", "--evaluator", "ovolve", "--seed", "2048"]
    args += ["--purpose", "benchmark"]
    assert main(["play", *args, "--games", "2", "--start", "1", "--out", str(out)]) == 0
    played = pd.read_csv(out)
    assert played["game"].tolist() == [1, 2]
    assert played["score"].tolist() == expected["score"].tolist()
    capsys.readouterr()
    assert main(["watch", *args, "--game", "2", "--delay", "0"]) == 0
    final = capsys.readouterr().out.strip().splitlines()[-1]
    assert final.startswith(f"final score {expected['score'].iloc[1]}, ")


@pytest.mark.slow
def test_ctrl_c_stops_play_at_once_and_writes_nothing(tmp_path: Path) -> None:
    """SIGINT during a long run: the queued games are dropped and the running one stops within
    a move, the process exits 130 with one line and no traceback, long before the run would
    have ended, and --out stays absent."""
    out = tmp_path / "games.csv"
    command = [sys.executable, "-m", "g2048", "play", "--agent", "expectimax", "--depth", "5"]
    # compile (or load) first, so that the signal below finds the games running, however long
    # a cold compile takes on the machine
    warm = subprocess.run([*command, "--games", "1", "--max-moves", "1"], capture_output=True)
    assert warm.returncode == 0, warm.stderr
    command += ["--games", "20000", "--out", str(out)]
    proc = subprocess.Popen(
        command,
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        # as from a terminal: a shell's background job (`make test &`) ignores SIGINT, and so
        # would this child, which then never sees the Ctrl-C below
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        time.sleep(15)  # loaded from the cache (seconds, more on a busy machine), playing
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)  # one game: a minute or more; the run: hours
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert stderr.strip() == "interrupted: no games written"
    assert not out.exists()


def test_check_config_names_the_file_line_and_key(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    bad = tmp_path / "bad.yaml"
    bad.write_text("study_seed: [1\nthreads: 1\n")
    assert main(["check-config", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"{bad}:2:8: not valid YAML: ")
    smoke = Path(__file__).resolve().parents[2] / "config" / "smoke.yaml"
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(smoke.read_text().replace("games: 6", "games: -6"))
    assert main(["check-config", str(smoke), str(wrong)]) == 2
    out = capsys.readouterr()
    assert f"{smoke}: a valid study config" in out.out
    assert f"{wrong}: invalid configuration" in out.err and "config key validate.games" in out.err


def test_play_refuses_a_huge_games_count_up_front(tmp_path: Path) -> None:
    """`play --games 10**12` would hold a trillion rows: it says so and plays nothing, at once
    (before any seed is derived or game played), where it used to grow its memory silently."""
    out = tmp_path / "games.csv"
    run = subprocess.run(
        [sys.executable, "-m", "g2048", "play", "--agent", "random", "--games", "1000000000000",
         "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 2
    assert "--games: must be in 1..1000000 (play keeps every game's row until the end" in run.stderr
    assert "more is refused, not streamed" in run.stderr and not out.exists()


def test_check_config_answers_a_yaml_bomb_in_one_line(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    lines = ["a0: &a0 [" + ", ".join(["lol"] * 10) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    start = time.perf_counter()
    assert main(["check-config", str(bomb)]) == 2
    assert time.perf_counter() - start < 10
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "an alias bomb?" in err and err.startswith(f"{bomb}: ")


def test_play_and_watch_take_a_network_file_or_its_selection(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    rng = np.random.default_rng(1)
    lut = rng.normal(0, 50, ntuple.lut_size(ntuple.NETWORKS["lines4x2"])).astype(np.float32)
    network = ntuple.Network("lines4x2", lut)
    path = tmp_path / "net.npz"
    ntuple.save_network(path, network)
    selection = tmp_path / "td.json"
    write_json(selection, {"method": "td", "seed": 1, "evaluator": "ntuple", "weights": str(path)})
    out = tmp_path / "games.csv"
    expected = play_games(AgentConfig("greedy"), game_seeds(3, "play", 3), "ntuple", network)
    for weights in (path, selection):
        args = ["play", "--agent", "greedy", "--evaluator", "ntuple", "--weights", str(weights)]
        assert main([*args, "--games", "3", "--seed", "3", "--out", str(out), "--force"]) == 0
        assert pd.read_csv(out)["score"].tolist() == expected["score"].tolist()
    capsys.readouterr()
    watch = ["watch", "--agent", "greedy", "--evaluator", "ntuple", "--weights", str(path)]
    assert main([*watch, "--seed", "3", "--game", "2", "--delay", "0"]) == 0
    final = FINAL.search(capsys.readouterr().out)
    assert final is not None
    game = expected.iloc[2]
    assert [int(v) for v in final.groups()] == [game["score"], game["max_tile"], game["moves"]]


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([], "needs --weights: a network file"),
        (["--weights", "missing.npz"], "error: missing.npz: no such file\n"),
        (["--weights", "1,2,3"], "error: 1,2,3: no such file\n"),
    ],
)
def test_the_network_evaluator_refuses_what_is_not_a_network(
    capsys,  # noqa: ANN001
    weights: list[str],
    message: str,
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--agent", "greedy", "--evaluator", "ntuple", *weights])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_train_reports_an_unreadable_checkpoint_before_starting_over(
    tmp_path: Path,
    capsys,  # noqa: ANN001
) -> None:
    out = tmp_path / "net.npz"
    (tmp_path / "net.npz.ckpt").write_bytes(b"")
    args = ["train", "--network", "lines4x2", "--games", "1000", "--checkpoint-every", "1000"]
    assert main([*args, "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"checkpoint {out}.ckpt unreadable (empty): starting from game 0"
    assert out.exists()


def test_train_writes_the_network_and_curve_the_pipeline_would(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    out, curve = tmp_path / "net.npz", tmp_path / "curve.csv"
    args = ["train", "--network", "lines4x2", "--games", "1500", "--seed", "2"]
    args += ["--study-seed", "5", "--checkpoint-every", "1000"]
    assert main([*args, "--out", str(out), "--curve", str(curve)]) == 0
    want, want_curve = train(
        TDConfig("lines4x2", 1500, checkpoint_every=1000),
        lambda at, n: game_seeds(5, "td-s2", n, at),
    )
    np.testing.assert_array_equal(ntuple.load_network(out).lut, want.lut)
    got = pd.read_csv(curve)
    assert got.games.tolist() == [1000, 1500]
    np.testing.assert_allclose(got.mean_score, want_curve.mean_score)
    assert not out.with_name("net.npz.ckpt").exists()
    assert "wrote" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([*args[:-2], "--checkpoint-every", "1500", "--out", str(tmp_path / "other.npz")])


def test_train_takes_the_optimistic_tc_schedule(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    out = tmp_path / "net.npz"
    args = ["train", "--network", "lines4x2", "--games", "2000", "--checkpoint-every", "1000"]
    otd = ["--init", "3000", "--tc-games", "1000", "--tc-alpha", "0.5"]
    assert main([*args, *otd, "--out", str(out)]) == 0
    want, _ = train(
        TDConfig("lines4x2", 2000, checkpoint_every=1000, init=3000.0, tc_games=1000, tc_alpha=0.5),
        lambda at, n: game_seeds(2048, "td-s1", n, at),
    )
    np.testing.assert_array_equal(ntuple.load_network(out).lut, want.lut)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--tc-games", "1000", "--coherence", "--out", str(out)])
    assert (
        exit_info.value.code == 2
        and "argument --tc-games: tc_games needs" in capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--lock-free", "--batch", "40", "--out", str(out)])
    assert exit_info.value.code == 2 and "argument --lock-free: " in capsys.readouterr().err


def test_train_takes_td_lambda(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    out = tmp_path / "net.npz"
    args = ["train", "--network", "lines4x2", "--games", "1000", "--checkpoint-every", "1000"]
    assert main([*args, "--lambda", "0.5", "--out", str(out)]) == 0
    want, _ = train(
        TDConfig("lines4x2", 1000, checkpoint_every=1000, lambda_=0.5),
        lambda at, n: game_seeds(2048, "td-s1", n, at),
    )
    np.testing.assert_array_equal(ntuple.load_network(out).lut, want.lut)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--lambda", "2", "--out", str(out)])
    assert exit_info.value.code == 2 and "--lambda" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--alpha", "2", "2.0 is greater than the maximum of 1"),
        ("--alpha", "0", "0.0 is less than or equal to the minimum of 0"),
        ("--tc-alpha", "1.5", "1.5 is greater than the maximum of 1"),
        ("--alpha", "nan", "nan is not a finite number (NaN and infinity are refused)"),
        ("--tc-alpha", "inf", "inf is not a finite number (NaN and infinity are refused)"),
    ],
)
def test_train_refuses_what_the_config_refuses_in_its_words(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    option: str,
    value: str,
    message: str,
) -> None:
    """alpha and tc_alpha in (0, 1], TDConfig's bounds (a larger step overshoots and the
    weights turn NaN): train says what check-config says of tune.td's key."""
    key = option[2:].replace("-", "_")
    config = load_config(Path(__file__).resolve().parents[2] / "config" / "smoke.yaml")
    config["tune"]["td"][key] = float(value)
    with pytest.raises(ConfigError, match=re.escape(f"tune.td.{key}: {message}")):
        validate_config(config)
    args = ["train", "--network", "lines4x2", "--games", "1000", option, value]
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--out", str(tmp_path / "net.npz")])
    assert exit_info.value.code == 2
    assert f"argument {option}: {message}" in capsys.readouterr().err
    assert not (tmp_path / "net.npz").exists()


def test_train_refuses_to_replace_a_network_but_resumes_its_checkpoint(
    tmp_path: Path,
    capsys,  # noqa: ANN001
) -> None:
    """An existing --out is replaced only with --force (play's, import-network's rule), in
    one line; a killed run's checkpoint (no --out written yet) resumes without it."""
    out = tmp_path / "net.npz"
    out.write_bytes(b"a network")
    args = ["train", "--network", "lines4x2", "--games", "2000", "--checkpoint-every", "1000"]
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--out", str(out)])
    assert exit_info.value.code == 2 and out.read_bytes() == b"a network"
    assert capsys.readouterr().err == (
        f"g2048 train: error: --out: {str(out)!r} exists: give --force to replace it\n"
    )
    assert main([*args, "--out", str(out), "--force"]) == 0
    replaced = out.read_bytes()
    assert replaced != b"a network"
    out.unlink()
    settings = {"network": "lines4x2", "games": 1000, "alpha": 0.1, "checkpoint_every": 1000}
    checkpoint = str(out) + ".ckpt"
    stages.train(
        "td", from_settings(TDConfig, settings), 1, 2048, str(out), checkpoint, 1, lambda line: None
    )
    capsys.readouterr()
    assert main([*args, "--out", str(out)]) == 0
    assert "resum" in capsys.readouterr().out and out.read_bytes() == replaced


def test_train_prints_the_files_sha256_as_the_files(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """The SHA-256 printed as the file's is the file's; the weight array's (what a study
    records as network_sha256) is labelled so."""
    out = tmp_path / "net.npz"
    args = ["train", "--network", "lines4x2", "--games", "1000", "--checkpoint-every", "1000"]
    assert main([*args, "--out", str(out)]) == 0
    weights = hashlib.sha256(np.ascontiguousarray(ntuple.load_network(out).lut).tobytes())
    assert (
        f"wrote {out} (the file's SHA-256 {hashlib.sha256(out.read_bytes()).hexdigest()[:16]}"
        f"..., its weight array's {weights.hexdigest()[:16]}..., which a study records): "
    ) in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "prog"),
    [
        (["nonsense"], "g2048"),
        (["train", "--games", "10"], "g2048 train"),
        (["play", "--games", "0"], "g2048 play"),
        (["check-config"], "g2048 check-config"),
        (["import-network", "w.w"], "g2048 import-network"),
    ],
)
def test_a_usage_error_is_one_line_pointing_to_help(capsys, args: list[str], prog: str) -> None:  # noqa: ANN001
    """argparse printed its usage block (up to 15 lines) before the line that matters; a
    command's own error about a value it was given is that line alone."""
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"{prog}: error: ") and line.endswith(f" (see {prog} --help)")
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--agent", "greedy", "--weights", "missing.json"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == (
        "g2048 play: error: cannot read weights file missing.json: No such file or directory\n"
    )


def test_the_commands_help_says_what_they_do_now(capsys) -> None:  # noqa: ANN001
    """train is no longer TD(0) alone, bench no longer the engine alone."""
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    train = re.search(r" train (train .*?) import-network ", text)[1]
    assert all(m in train for m in ("TD(0)", "TD(lambda)", "optimistic TD", "TC", "multistage"))
    bench = re.search(r" bench (measure .*?) profile ", text)[1]
    assert "searches" in bench and "training" in bench


def test_train_refuses_to_resume_a_checkpoint_holding_nan(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """The checkpoint the pipeline's or the CLI's run left (here by the same method call),
    with a NaN edited in: one line naming it, exit 1, no network written."""
    out = tmp_path / "net.npz"
    checkpoint = tmp_path / "net.npz.ckpt"
    settings = {"network": "lines4x2", "games": 1000, "alpha": 0.1, "checkpoint_every": 1000}
    stages.train(
        "td",
        from_settings(TDConfig, settings),
        1,
        2048,
        str(out),
        str(checkpoint),
        1,
        lambda line: None,
    )
    with np.load(checkpoint) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["table"].view(np.float32)[3] = np.inf
    with open(checkpoint, "wb") as f:
        np.savez(f, **arrays)
    args = ["train", "--network", "lines4x2", "--games", "2000", "--checkpoint-every", "1000"]
    assert main([*args, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"g2048 train: checkpoint {checkpoint}: its weights hold 1 NaN or infinite values (the "
        "first at entry 3), not resumed: delete it to train from the start\n"
    )
    assert not out.exists()


def test_play_refuses_a_network_holding_nan(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    lut = np.zeros(ntuple.lut_size(ntuple.NETWORKS["lines4x2"]), dtype=np.float32)
    lut[[5, 9]] = np.nan
    path = tmp_path / "nan.npz"
    ntuple.save_network(path, ntuple.Network("lines4x2", lut))
    selection = tmp_path / "td.json"
    write_json(selection, {"method": "td", "seed": 1, "evaluator": "ntuple", "weights": str(path)})
    for weights in (path, selection):
        for command in ("play", "watch"):
            args = [command, "--agent", "greedy", "--evaluator", "ntuple"]
            with pytest.raises(SystemExit) as exit_info:
                main([*args, "--weights", str(weights)])
            assert exit_info.value.code == 2
            err = capsys.readouterr().err
            assert f"error: {path}: holds 2 NaN or infinite weights (the first at entry 5): " in err
            assert "Traceback" not in err


def test_play_answers_a_deeply_nested_weights_file_in_one_line(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """100 000 levels of JSON (Python's parser would end in a RecursionError traceback)."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for evaluator in ("nneonneo", "ntuple"):
        with pytest.raises(SystemExit) as exit_info:
            main(["play", "--agent", "greedy", "--evaluator", evaluator, "--weights", str(deep)])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        [last] = err.splitlines()  # one line, no usage block
        assert last.startswith("g2048 play: error: ") and str(deep) in last
        assert "nested 100000 levels deep, more than the 32" in last and "Traceback" not in err


def test_play_refuses_to_overwrite_a_file_or_to_write_under_results(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "games.csv"
    out.write_text("mine")
    args = ["play", "--agent", "random", "--games", "2", "--out", str(out)]
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2 and out.read_text() == "mine"
    assert f"error: --out: {str(out)!r} exists: give --force to replace it" in (
        capsys.readouterr().err
    )
    assert main([*args, "--force"]) == 0 and len(pd.read_csv(out)) == 2
    (tmp_path / "results" / "benchmark").mkdir(parents=True)
    for inside in ("results/benchmark/greedy.csv", "results/new.csv", "./results/../results/x"):
        with pytest.raises(SystemExit) as exit_info:
            main(["play", "--agent", "random", "--games", "2", "--force", "--out", inside])
        assert exit_info.value.code == 2
        assert "is under results/, a study's results: write it elsewhere" in (
            capsys.readouterr().err
        )
    assert not any((tmp_path / "results").rglob("*.csv"))


def test_play_refuses_a_selection_with_an_unknown_key(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    selection = tmp_path / "cem.json"
    weights = EVALUATORS["cem8"].default_weights.tolist()
    data = {"run": "cem", "method": "cem", "seed": 1, "evaluator": "cem8", "weights": weights}
    write_json(selection, data | {"note": "pasted"})
    args = ["play", "--agent", "greedy", "--evaluator", "cem8", "--weights", str(selection)]
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    assert (
        f"selection file {selection}: holds the key(s) note, which no selection of method "
        "'cem' holds"
    ) in capsys.readouterr().err
    write_json(selection, data)
    assert main([*args, "--games", "1"]) == 0
    write_json(selection, {"method": "td", "evaluator": "ntuple", "weights": "x.npz", "a": 1})
    with pytest.raises(SystemExit):
        main(["play", "--agent", "greedy", "--evaluator", "ntuple", "--weights", str(selection)])
    assert "holds the key(s) a, which no selection of method 'td' holds" in (
        capsys.readouterr().err
    )
    selection.write_text("[1, 2]")
    with pytest.raises(SystemExit):
        main(["play", "--agent", "greedy", "--evaluator", "ntuple", "--weights", str(selection)])
    assert f"selection file {selection} holds a list, not a JSON object" in (
        capsys.readouterr().err
    )


def test_play_checks_a_network_and_a_pick_against_what_their_run_recorded(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As the pipeline leaves them: a network beside its run's result, which recorded its
    SHA-256, and a run's pick beside its seeds' selections; one replaced is refused."""
    monkeypatch.chdir(tmp_path)
    tune, select_dir = tmp_path / "results" / "tune" / "td", tmp_path / "results" / "select"
    tune.mkdir(parents=True)
    (select_dir / "cem").mkdir(parents=True)
    size = ntuple.lut_size(ntuple.NETWORKS["lines4x2"])
    lut = np.random.default_rng(2).normal(0, 9, size).astype(np.float32)
    ntuple.save_network(tune / "seed1.npz", ntuple.Network("lines4x2", lut))
    digest = hashlib.sha256(lut.tobytes()).hexdigest()
    write_json(tune / "seed1.json", {"run": "td", "network_sha256": digest})
    pick = select_dir / "tuned-td.json"
    write_json(pick, {"run": "td", "method": "td", "seed": 1, "evaluator": "ntuple",
                      "weights": "results/tune/td/seed1.npz"})  # fmt: skip
    net = ["play", "--agent", "greedy", "--evaluator", "ntuple", "--games", "1", "--weights"]
    for weights in ("results/tune/td/seed1.npz", str(pick)):
        assert main([*net, weights]) == 0
    ntuple.save_network(tune / "seed1.npz", ntuple.Network("lines4x2", lut * 2))  # replaced
    watch = ["watch", "--agent", "greedy", "--evaluator", "ntuple", "--weights"]
    for args in ([*net, "results/tune/td/seed1.npz"], [*net, str(pick)], [*watch, str(pick)]):
        with pytest.raises(SystemExit):
            main(args)
        err = capsys.readouterr().err
        assert "error: results/tune/td/seed1.npz: its weights' SHA-256 is " in err
        assert "as its training run recorded in results/tune/td/seed1.json: replaced" in err
    weights = EVALUATORS["cem8"].default_weights.tolist()
    seed = {"run": "cem", "method": "cem", "seed": 2, "evaluator": "cem8", "weights": weights}
    write_json(select_dir / "cem" / "seed2.json", seed)
    write_json(select_dir / "tuned-cem.json", seed | {"selection_values": [1.0, 2.0]})
    cem = ["play", "--agent", "greedy", "--evaluator", "cem8", "--games", "1", "--weights"]
    assert main([*cem, "results/select/tuned-cem.json"]) == 0
    pasted = seed | {"weights": [0.5] * 8, "selection_values": [1.0, 2.0]}
    write_json(select_dir / "tuned-cem.json", pasted)
    with pytest.raises(SystemExit):
        main([*cem, "results/select/tuned-cem.json"])
    assert (
        "picks seed 2, but its weights differ from that seed's selection file "
        "results/select/cem/seed2.json: edited or replaced since?"
    ) in capsys.readouterr().err


def test_an_empty_or_non_utf8_weights_file_is_refused_in_one_line_naming_it(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A weights file, a td selection and the seed's selection beside a run's pick (which was
    refused without its name) alike (issue 54)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results" / "select" / "cem").mkdir(parents=True)
    weights = EVALUATORS["cem8"].default_weights.tolist()
    pick = {"run": "cem", "method": "cem", "seed": 2, "evaluator": "cem8", "weights": weights}
    write_json(tmp_path / "results/select/tuned-cem.json", pick | {"selection_values": [1, 2]})
    seed = "results/select/cem/seed2.json"
    cases = {  # file: (evaluator, --weights, the file's name in the message)
        "w.json": ("cem8", "w.json", "weights file w.json"),
        "td.json": ("ntuple", "td.json", "selection file td.json"),
        seed: ("cem8", "results/select/tuned-cem.json", f"selection file {seed}"),
    }
    for content, problem in ((b"", "is empty"), (b"[1,\xff]", "is not UTF-8 text (invalid")):
        for file, (evaluator, given, named) in cases.items():
            (tmp_path / file).write_bytes(content)
            args = ["play", "--agent", "greedy", "--evaluator", evaluator, "--weights", given]
            with pytest.raises(SystemExit) as exit_info:
                main(args)
            assert exit_info.value.code == 2
            err = capsys.readouterr().err
            assert f"error: {named} {problem}" in err, err
            assert "Traceback" not in err


def test_play_checks_a_seeds_selection_against_its_hash_record_and_its_seed(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """results/select/cmaes/seed1.json replaced by seed 2's file: refused by its hash record
    as a snakemake command refuses it, and without a record by the seed it records (issue 54)."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "results" / "select" / "cmaes"
    folder.mkdir(parents=True)
    weights = EVALUATORS["nneonneo"].default_weights.tolist()
    seed = {"run": "cmaes", "method": "cmaes", "evaluator": "nneonneo", "weights": weights}
    for k in (1, 2):
        write_json(folder / f"seed{k}.json", seed | {"seed": k})
    path = "results/select/cmaes/seed1.json"
    record = record_path("logs/select/cmaes/seed1.log")
    record_outputs(record, "select", [path])
    args = ["play", "--agent", "greedy", "--games", "1", "--weights", path]
    assert main(args) == 0
    capsys.readouterr()
    stamp = os.stat(path).st_mtime_ns
    (folder / "seed1.json").write_bytes((folder / "seed2.json").read_bytes())
    os.utime(path, ns=(stamp, stamp))  # its modification time kept
    for problem in (
        f"its SHA-256 is {file_sha256(path)[:16]}..., not ",
        "records seed 2, not 1 (the seed of its path)",
    ):
        for command in (args, ["watch", "--agent", "greedy", "--weights", path]):
            with pytest.raises(SystemExit) as exit_info:
                main(command)
            assert exit_info.value.code == 2
            err = capsys.readouterr().err
            assert f"error: {'result' if 'SHA' in problem else 'selection'} file {path}: " in err
            assert problem in err, err
        record.unlink(missing_ok=True)  # no record: its seed tells
    record_outputs(record, "select", [path])
    Path(path).unlink()  # a file its record names, deleted: its reader says so
    with pytest.raises(SystemExit):
        main(args)
    assert f"error: cannot read weights file {path}: No such file or directory\n" in (
        capsys.readouterr().err
    )


def test_bench_prints_every_figure_it_measures(monkeypatch, capsys) -> None:  # noqa: ANN001
    """The bench table's layout and its JSON keys, on stand-in figures (the measurements take
    minutes and are not asserted: speed is measured, not tested)."""
    cli = importlib.import_module("g2048.cli.bench")  # the module of bench, not g2048.cli.main
    engine = EngineFigures(0.1, 2e7, 2, 3e7, 2e4, 1000.0)
    budgets = tuple(
        BudgetFigure(name, 10.0, 143, 0.12, 0.05, **{effort: 8.3})
        for name, effort in (("expectimax", "mean_depth"), ("montecarlo", "rollouts_per_move"))
    )
    parallel = PairedFigure("parallel", 7, 2, 143, 1.8, 1.7, 1.9, 1.02)
    star = PairedFigure("star", 5, 2, 143, 1.3, 1.25, 1.4, 0.8)
    monkeypatch.setattr(cli, "engine_figures", lambda seconds: engine)
    monkeypatch.setattr(cli, "search_figures", lambda: (SearchFigure(3, 5e5, 9000.0),))
    monkeypatch.setattr(cli, "budget_figures", lambda: budgets)
    costs = (NodeCostFigure("montecarlo", "nneonneo", 400, 3.9, 3.85, 4.1),)
    monkeypatch.setattr(cli, "node_cost_figures", lambda: costs)
    monkeypatch.setattr(
        cli, "deepening_figure", lambda: DeepeningFigure(5, 0.07, -0.03, 0.2, 0.055)
    )
    monkeypatch.setattr(cli, "split_figures", lambda: (parallel,))
    monkeypatch.setattr(cli, "star_figures", lambda: (star,))
    monkeypatch.setattr(cli, "training_figures", lambda: TrainingFigures("wu6x4", 2000, 1e5, 50.0))
    assert main(["bench"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"expectimax under 10ms/move, 143 positions\s+depth 8.3, worst \+0.12 ms", out)
    assert re.search(
        r"montecarlo under 10ms/move, 143 positions\s+8 rollouts, worst \+0.12 ms", out
    )
    assert re.search(r"fixed 5 plies: time \(range\), nodes\s+\+7.0% \(-3%..\+20%\), \+5.5%", out)
    assert re.search(
        r"montecarlo on nneonneo, 400 nodes/move, 1 thread: cost \(range\)\s+3.900 us/node "
        r"\(3.850..4.100\)",
        out,
    )
    assert re.search(r"expectimax depth 3, .*\s+500.0 k moves/s", out)
    assert re.search(r"parallel on/off, depth 7, 2 threads: .*\s+1.80x \(1.70..1.90\), \+2.0%", out)
    assert re.search(r"star on/off, depth 5: .*\s+1.30x \(1.25..1.40\), -20.0%", out)
    assert re.search(r"TD\(0\) training, wu6x4, first 2000 games, 1 thread\s+100.0 k moves/s", out)
    assert main(["bench", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert list(figures)[:8] == [
        "first_call_s", "random_moves_per_s", "threads", "random_moves_per_s_all_threads",
        "reference_moves_per_s", "speedup_vs_reference", "expectimax_d3_moves_per_s",
        "expectimax_d3_mean_score",
    ]  # fmt: skip
    assert figures["budget_positions"] == 143 and figures["expectimax_10ms_mean_depth"] == 8.3
    assert figures["montecarlo_10ms_rollouts_per_move"] == 8.3
    assert "expectimax_10ms_rollouts_per_move" not in figures
    assert figures["montecarlo_nneonneo_us_per_node"] == 3.9
    assert figures["montecarlo_nneonneo_us_per_node_high"] == 4.1
    assert figures["deepening_overhead_d5_low"] == -0.03
    assert figures["deepening_node_overhead_d5"] == 0.055
    assert figures["parallel_threads"] == 2 and figures["star_positions"] == 143
    assert figures["parallel_d7_speedup_high"] == 1.9 and figures["star_d5_node_ratio"] == 0.8
    assert figures["td_games"] == 2000 and figures["td_games_per_s"] == 50.0


def test_bench_measures_its_records_on_small_settings() -> None:
    """The measuring functions themselves, on settings small enough for a test."""
    budget = budget_figures((1.0,))[0]
    assert budget.agent == "expectimax" and budget.positions > 50 and budget.mean_depth >= 1
    # deepening without a budget that stops it: the same final depth, more nodes (the
    # shallower passes), a valid agent (a node budget of 1 << 62 was refused by its bounds)
    deepening = deepening_figure(depth=2)
    assert deepening.depth == 2 and deepening.node_overhead > 0
    assert deepening.low <= deepening.overhead <= deepening.high
    (paired,) = star_figures(depths=(2,), pairs=1)
    assert (paired.option, paired.depth, paired.positions) == ("star", 2, budget.positions)
    assert paired.low <= paired.speedup <= paired.high and 0 < paired.node_ratio <= 1
    agents = (("nneonneo", AgentConfig("expectimax", depth=27, cutoff=1e-4, budget_nodes=300)),)
    agents += (("ntuple", AgentConfig("montecarlo", budget_nodes=8)),)
    searched, rolled = node_cost_figures(passes=2, agents=agents)
    assert (searched.search, searched.evaluator, searched.budget_nodes) == (
        "expectimax",
        "nneonneo",
        300,
    )
    assert (rolled.search, rolled.evaluator) == ("montecarlo", "ntuple")
    for cost in (searched, rolled):
        assert 0 < cost.low <= cost.us_per_node <= cost.high
    assert rolled.us_per_node > searched.us_per_node  # a rollout is a game's worth of moves
    keys = BenchFigures(engine=EngineFigures(1, 1, 1, 1, 1, 1), paired=(paired,)).as_dict()
    assert list(keys)[6:] == [
        "star_threads", "star_positions", "star_d2_speedup", "star_d2_speedup_low",
        "star_d2_speedup_high", "star_d2_node_ratio",
    ]  # fmt: skip


def test_networks_go_to_tdl2048s_format_and_back(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    rng = np.random.default_rng(4)
    size = ntuple.lut_size(ntuple.NETWORKS["2x4patt"])
    network = ntuple.Network("2x4patt", rng.normal(0, 50, 2 * size).astype(np.float32), (2048,))
    ntuple.save_network(tmp_path / "net.npz", network)
    tdl = tmp_path / "net.w"
    assert main(["export-network", str(tmp_path / "net.npz"), "--out", str(tdl)]) == 0
    assert "-n 2x4patt@2 -@ 0,2048 -i" in capsys.readouterr().out
    back = tmp_path / "back.npz"
    args = ["import-network", str(tdl), "--network", "2x4patt", "--stages", "2048"]
    assert main([*args, "--out", str(back)]) == 0
    assert (back).read_bytes() == (tmp_path / "net.npz").read_bytes()
    for command in (args, ["export-network", str(back)]):
        target = back if command is args else tdl
        with pytest.raises(SystemExit) as exit_info:
            main([*command, "--out", str(target)])
        assert exit_info.value.code == 2
        assert f"--out: {str(target)!r} exists: give --force" in capsys.readouterr().err
        assert main([*command, "--out", str(target), "--force"]) == 0


def test_a_file_that_is_no_network_is_refused_in_one_line_naming_it(
    tmp_path: Path,
    capsys,  # noqa: ANN001
) -> None:
    """An empty file, a TDL2048+ weight file (which needs import-network) and other bytes, by
    play, watch and export-network alike: one line naming the file, no numpy advice; a network
    given to a heuristic says which evaluator plays it (issue 52)."""
    tdl, net = tmp_path / "small.w", tmp_path / "net.npz"
    ntuple.save_network(net, ntuple.zero_network("2x4patt"))
    assert main(["export-network", str(net), "--out", str(tdl)]) == 0
    empty, text = tmp_path / "e.npz", tmp_path / "t.npz"
    empty.write_bytes(b"")
    text.write_text("weights")
    expected = {
        empty: "is empty (0 bytes), not a network file",
        tdl: "is no network file (.npz) but by its first bytes TDL2048+'s weight file: read "
        f"it with `python -m g2048 import-network {tdl} --network NAME --out NET.npz`",
        text: "is no network file (.npz, as train and import-network write)",
    }
    capsys.readouterr()
    for path, message in expected.items():
        ntuple_weights = ["--evaluator", "ntuple", "--weights", str(path)]
        for args in (
            ["play", "--agent", "greedy", *ntuple_weights],
            ["watch", "--agent", "greedy", *ntuple_weights],
            ["export-network", str(path), "--out", str(tmp_path / "x.w")],
        ):
            with pytest.raises(SystemExit) as exit_info:
                main(args)
            assert exit_info.value.code == 2
            err = capsys.readouterr().err
            assert err.endswith(f"error: {path}: {message}\n"), err
            assert "pickle" not in err
    for path, first in ((tdl, "import it (import-network), then play it"), (net, "play it")):
        with pytest.raises(SystemExit):  # given to a heuristic
            main(["play", "--agent", "greedy", "--weights", str(path)])
        err = capsys.readouterr().err
        assert err.endswith(
            f"error: weights file {path} holds a network ({'TDL2048+' if path == tdl else 'npz'}"
            f"), not heuristic weights: {first} with --evaluator ntuple\n"
        ), err


def test_import_network_refuses_a_bad_file_in_one_line(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    tdl = tmp_path / "net.w"
    ntuple.save_network(tmp_path / "net.npz", ntuple.zero_network("2x4patt"))
    assert main(["export-network", str(tmp_path / "net.npz"), "--out", str(tdl)]) == 0
    tdl.write_bytes(tdl.read_bytes()[:-100])
    out = tmp_path / "x.npz"
    with pytest.raises(SystemExit) as exit_info:
        main(["import-network", str(tdl), "--network", "2x4patt", "--out", str(out)])
    assert exit_info.value.code == 2 and not out.exists()
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"g2048 import-network: error: {tdl}: truncated: ends after {tdl.stat().st_size} bytes, "
        "inside weight table 2 of 2 (sign 4567): its 65536 weights need 98 bytes more"
    )
