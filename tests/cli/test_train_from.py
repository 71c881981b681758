"""`train --from` and networks of their own tuples (`--patterns`, `tune.td.network` by cells):
training goes on from a network file (one imported from TDL2048+ included) at that network's
strength, with the file's SHA-256 in the run's settings; bad files and patterns are refused
in one line."""

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from searches import played_boards, random_network

from g2048.agents import AgentConfig
from g2048.cli.main import main
from g2048.engine.board import encode
from g2048.engine.reference import ref_ntuple_value
from g2048.engine.rng import game_seeds
from g2048.evaluators import ntuple, tdl2048, value
from g2048.learning.recipes import TDConfig
from g2048.learning.td import stages_in_use, train
from g2048.play import play_games
from g2048.report.stats import summarize
from g2048.settings import SettingError, from_settings
from g2048.study import stages
from g2048.study.config import ConfigError, load_config, validate_config
from g2048.study.naming import tuning_purpose

ROOT = Path(__file__).resolve().parents[2]


def seeds(start: int, count: int) -> np.ndarray:
    return game_seeds(7, "from-test", count, start)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def first_block(path: Path) -> float:
    return float(pd.read_csv(path).mean_score.iloc[0])


def test_train_goes_on_from_an_imported_network_at_its_strength(
    tmp_path: Path,
    capsys,  # noqa: ANN001
) -> None:
    """A two-4-tuple network of 40 000 games (near its plateau, some 23 000 points; at 10 000
    games it still gains 5% a block), written as TDL2048+ writes it and imported: a run
    from it starts at its strength (the first block's mean inside the network's own 1-ply
    interval on the block's games), where a fresh run's first block is far below, and learns
    on from it; the run names the file's SHA-256."""
    trained, _ = train(TDConfig("lines4x2", 40_000), seeds)
    tdl2048.write_network(tmp_path / "tdl.w", trained)
    imported = tmp_path / "tdl.npz"
    args = ["import-network", str(tmp_path / "tdl.w"), "--network", "2x4patt", "--out"]
    assert main([*args, str(imported)]) == 0
    first_games = game_seeds(2048, tuning_purpose("td", 1), 1000)  # train's, by default
    strength = summarize(play_games(AgentConfig("greedy"), first_games, "ntuple", imported))
    out, curve = tmp_path / "on.npz", tmp_path / "on.csv"
    args = ["train", "--from", str(imported), "--games", "1000", "--out", str(out)]
    assert main([*args, "--curve", str(curve)]) == 0
    assert f"trained on from {imported} (sha256 {sha256(imported)})" in capsys.readouterr().out
    fresh = tmp_path / "fresh.csv"
    args = ["train", "--network", "2x4patt", "--games", "1000", "--curve", str(fresh)]
    assert main([*args, "--out", str(tmp_path / "fresh.npz")]) == 0
    assert strength["score_low"] <= first_block(curve) <= strength["score_high"]
    assert first_block(fresh) < strength["score_low"] / 2
    went_on = ntuple.load_network(out)
    assert went_on.name == "2x4patt" and went_on.tuples == trained.tuples
    assert not np.array_equal(went_on.lut, ntuple.load_network(imported).lut)


def test_the_runs_settings_name_the_files_sha256_which_it_must_have(tmp_path: Path) -> None:
    start = tmp_path / "start.npz"
    ntuple.save_network(start, random_network("lines4x2", 4))
    settings = {"network": "lines4x2", "games": 1000, "from": str(start)}
    settings["from_sha256"] = sha256(start)
    data, curve, network = stages.train(
        "td",
        from_settings(TDConfig, settings),
        1,
        2048,
        "x.npz",
        str(tmp_path / "ckpt"),
        1,
        lambda _: None,
    )
    assert data["settings"]["from"] == str(start)
    assert data["settings"]["from_sha256"] == sha256(start)
    assert curve.games.tolist() == [1000] and network.name == "lines4x2"
    with pytest.raises(
        ValueError, match=r"start.npz: its SHA-256 is .*, not 0000.* replaced since"
    ):
        stages.train(
            "td",
            from_settings(TDConfig, settings | {"from_sha256": "0" * 64}),
            1,
            2048,
            "x.npz",
            "c",
            1,
            lambda _: None,
        )
    with pytest.raises(SettingError, match="from .* needs from_sha256, the file's SHA-256"):
        TDConfig("lines4x2", 1000, from_=str(start))


def test_a_files_stages_keep_their_weights_unless_never_trained() -> None:
    net = ntuple.zero_network("lines4x2", (64, 2048))
    assert stages_in_use(net) == 0
    stride = ntuple.lut_size(net.tuples)
    net.lut[stride + 5] = 1.0
    assert stages_in_use(net) == 1
    net.lut[2 * stride] = -1.0
    assert stages_in_use(net) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--network", "wu6x4"], "holds lines4x2 (0,1,2,3;4,5,6,7) in 1 stage, not wu6x4"),
        (["--stages", "64"], "in 1 stage, not lines4x2 (0,1,2,3;4,5,6,7) in 2 stages (from 64)"),
        (["--recipe", "otd"], "argument --init: init 320000 with from: the weights start as"),
        (["--from-sha256", "ab" * 32], "its SHA-256 is"),
    ],
)
def test_from_refuses_a_file_of_another_network_in_one_line(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    args: list[str],
    message: str,
) -> None:
    start = tmp_path / "start.npz"
    ntuple.save_network(start, random_network("lines4x2", 5))
    with pytest.raises(SystemExit) as exit_info:
        main(
            [
                "train",
                "--from",
                str(start),
                "--games",
                "1000",
                "--out",
                str(tmp_path / "o.npz"),
                *args,
            ]
        )  # noqa: E501
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("g2048 train: error: ") and message in err
    assert not (tmp_path / "o.npz").exists()


def test_from_reads_a_network_as_play_does(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    bad = random_network("lines4x2", 6)
    bad.lut[3] = np.nan
    ntuple.save_network(tmp_path / "nan.npz", bad)
    (tmp_path / "text.npz").write_text("no network")
    for name, message in (
        ("nan.npz", "holds 1 NaN or infinite weights"),
        ("text.npz", "is no network file (.npz, as train and import-network write)"),
    ):  # noqa: E501
        with pytest.raises(SystemExit):
            main(
                [
                    "train",
                    "--from",
                    str(tmp_path / name),
                    "--games",
                    "1000",
                    "--out",
                    str(tmp_path / "o.npz"),
                ]
            )  # noqa: E501
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert err.startswith("g2048 train: error: argument --from: ") and message in err


def test_patterns_train_the_network_of_their_cells(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """Patterns of lines4x2's cells train lines4x2's weights, named by the cells."""
    by_cells, by_name = tmp_path / "cells.npz", tmp_path / "name.npz"
    assert (
        main(["train", "--patterns", "0,1,2,3; 4,5,6,7", "--games", "1000", "--out", str(by_cells)])
        == 0
    )  # noqa: E501
    assert main(["train", "--network", "lines4x2", "--games", "1000", "--out", str(by_name)]) == 0
    cells, named = ntuple.load_network(by_cells), ntuple.load_network(by_name)
    assert cells.name == "0,1,2,3;4,5,6,7"
    np.testing.assert_array_equal(cells.lut, named.lut)
    with pytest.raises(SystemExit):
        main(["train", "--patterns", "0,1", "--network", "wu6x4", "--games", "9", "--out", "x"])
    assert "give --network or --patterns, not both" in capsys.readouterr().err


def test_a_network_of_new_tuples_values_and_trains_as_its_cells_say() -> None:
    name = "0,1,4,5;2,3,6,7;12,8,4"
    network = random_network(name, 7)
    luts = np.split(network.lut.astype(float), np.cumsum([16**4, 16**4]))
    for grid in played_boards(4, 60, seed=3):
        expected = ref_ntuple_value(grid, list(network.tuples), [t.tolist() for t in luts])
        assert value("ntuple", encode(grid), network, after=True) == pytest.approx(expected)
    trained, curve = train(TDConfig(name, 200, block=100), seeds)
    assert trained.name == name and curve.games.tolist() == [100, 200]
    assert curve.mean_score.iloc[-1] > 0 and np.any(trained.lut != 0)


@pytest.mark.parametrize(
    ("patterns", "message"),
    [
        ("0,1,16", "pattern 0,1,16: cell 16 is not one of the cells 0..15"),
        ("0,1,2;3,4,3", "pattern 3,4,3: cell 3 appears twice"),
        ("0,1;;2", "separated by commas, the tuples by semicolons"),
        ("0,1,2,3,4,5,6,7,8", "9 cells, at most 8"),
    ],
)
def test_bad_patterns_are_refused_in_one_line(
    tmp_path: Path,
    capsys,  # noqa: ANN001
    patterns: str,
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        ntuple.pattern_name(patterns)
    with pytest.raises(SettingError, match=message):
        TDConfig("".join(patterns.split()), 1000)
    with pytest.raises(SystemExit):
        main(["train", "--patterns", patterns, "--games", "1000", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("g2048 train: error: argument --patterns: ") and message in err


def test_the_configs_td_network_takes_tuples_by_their_cells() -> None:
    config = load_config(ROOT / "config" / "smoke.yaml")
    config["tune"]["td"]["network"] = "0,1,2,3;4,5,6,7,8"
    validate_config(config)
    config["tune"]["td"]["network"] = "0,1,2,3;4,5,6,7,7"
    with pytest.raises(ConfigError, match="config key tune.td.network: pattern 4,5,6,7,7: cell 7"):
        validate_config(config)


def test_a_network_of_its_own_tuples_goes_to_tdl2048_and_back(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    network = random_network("0,1,4,5;2,3,6,7;12,8,4", 8)
    ntuple.save_network(tmp_path / "own.npz", network)
    assert (
        main(["export-network", str(tmp_path / "own.npz"), "--out", str(tmp_path / "own.w")]) == 0
    )  # noqa: E501
    assert "-n '0145 2367 c84'" in capsys.readouterr().out
    args = ["import-network", str(tmp_path / "own.w"), "--out", str(tmp_path / "back.npz")]
    assert main([*args, "--network", "0,1,4,5; 2,3,6,7; 12,8,4"]) == 0
    back = ntuple.load_network(tmp_path / "back.npz")
    assert back.name == network.name
    np.testing.assert_array_equal(back.lut, network.lut)
    with pytest.raises(SystemExit):
        main([*args, "--force", "--network", "0,1,4,4"])
    assert "pattern 0,1,4,4: cell 4 appears twice; or one of wu6x4" in capsys.readouterr().err
