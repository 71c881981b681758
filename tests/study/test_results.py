"""The checked readers of result files: a truncated, corrupt or foreign file fails naming itself,
the fault and the remedy, before anything uses it."""

import json
from pathlib import Path

import numpy as np
import pytest

from g2048.agents import AgentConfig
from g2048.play import play_games
from g2048.study.results import (
    ResultFileError,
    read_games,
    read_history,
    read_json,
    read_selection,
    read_tune,
    write_csv,
    write_json,
)
from g2048.study.stages import benchmark_games, benchmark_seeds, select

REMEDY = "delete it and run the same snakemake command again"


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Shard 1 of a benchmark entry of 8 games (games 4..7) with study seed 5."""
    path = tmp_path_factory.mktemp("games") / "shard1.csv"
    games = play_games(AgentConfig("greedy"), benchmark_seeds(5, 4, 4), "ovolve")
    write_csv(path, games.assign(game=games.game + 4))
    return path


def fails(call, message: str) -> None:  # noqa: ANN001
    with pytest.raises(ResultFileError) as info:
        call()
    assert message in str(info.value) and REMEDY in str(info.value), str(info.value)


def test_games_in_order_with_their_seeds(shard: Path) -> None:
    df = benchmark_games(str(shard), 5, 8, shards=2, shard=1)
    assert df["game"].tolist() == [4, 5, 6, 7]
    fails(lambda: benchmark_games(str(shard), 6, 8, shards=2, shard=1), "other seeds")
    fails(lambda: read_games(shard, benchmark_seeds(5, 4, 4), start=0), "games 0..3")
    fails(lambda: read_games(shard, benchmark_seeds(5, 4, 5), start=4), "holds 4 games, not 5")


def test_a_truncated_games_file_is_refused(shard: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.csv"
    data = shard.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    fails(lambda: read_games(cut, benchmark_seeds(5, 4, 4), start=4), str(cut))
    (tmp_path / "empty.csv").write_text("")
    fails(lambda: read_games(tmp_path / "empty.csv", benchmark_seeds(5, 4, 4)), "cannot be read")


def test_corrupt_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "seed1.json"
    path.write_text("garbage{")
    fails(lambda: read_selection(path), "is not valid JSON")
    path.write_text("{}")
    fails(lambda: read_selection(path), "lacks the key(s) run, method, seed, evaluator, weights")
    path.write_text("[1, 2]")
    fails(lambda: read_json(path), "holds a list, not a JSON object")
    fails(lambda: read_json(tmp_path / "none.json"), "cannot be read")


def test_selections_and_tuning_runs(tmp_path: Path, nsga2_run: dict) -> None:
    path = tmp_path / "tune.json"
    write_json(path, nsga2_run | {"rank": [0, 0, 0, 1], "ref_point": [0, 0, 0, 0]})
    assert read_tune(path)["method"] == "nsga2"
    write_json(path, nsga2_run)
    fails(lambda: read_tune(path), "lacks the key(s) rank, ref_point")
    write_json(path, select(nsga2_run) | {"evaluator": "nsga4"})
    assert np.asarray(read_selection(path)["switching"]).shape == (3, 4)
    write_json(path, select(nsga2_run) | {"switching": [[1, 2]]})
    fails(lambda: read_selection(path), "wrong shape")


def test_histories_need_their_columns(tmp_path: Path) -> None:
    path = tmp_path / "history.csv"
    path.write_text("iteration,evaluations,best_f\n0,30,1.5\n")
    fails(lambda: read_history(path, "cem"), "lacks the column(s) elite_mean_f, mean_f")


def test_json_results_are_canonical(tmp_path) -> None:  # noqa: ANN001
    data = {"b": np.array([1.5, 2.0]), "a": np.int64(3)}
    write_json(tmp_path / "x.json", data)
    text = (tmp_path / "x.json").read_text()
    assert json.loads(text) == {"a": 3, "b": [1.5, 2.0]}
    assert text.index('"a"') < text.index('"b"')
    assert read_json(tmp_path / "x.json")["a"] == 3
