"""The checked readers of result files: a truncated, corrupt or foreign file fails naming itself,
the fault and the remedy, before anything uses it."""

import hashlib
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from g2048.agents import AgentConfig
from g2048.evaluators import ntuple
from g2048.play import play_games
from g2048.study.config import run_record, validate_config
from g2048.study.results import (
    ResultFileError,
    read_games,
    read_history,
    read_json,
    read_network,
    read_selection,
    read_tune,
    write_csv,
    write_json,
)
from g2048.study.stages import benchmark_games, benchmark_seeds, select, tuned_weights

SMOKE = Path(__file__).resolve().parents[2] / "config" / "smoke.yaml"

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
    path.write_bytes(b" \n")
    fails(lambda: read_selection(path), f"result file {path}: is empty;")
    path.write_bytes(b'{"run": "\xe9"}')
    fails(lambda: read_selection(path), "is not UTF-8 text (invalid continuation byte at byte 9)")
    # nested deeper than any result file (the parser would end in a RecursionError)
    path.write_text('{"a": ' * 100_000 + "1" + "}" * 100_000)
    fails(lambda: read_selection(path), "nested 100000 levels deep, more than the 32")
    path.write_text('{"run": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "seed": [[[[1]]]]}')
    assert read_json(path)["seed"] == [[[[1]]]]  # brackets inside strings do not nest


def test_a_selection_with_a_key_its_method_never_writes_is_refused(
    tmp_path: Path, nsga2_run: dict
) -> None:
    path = tmp_path / "seed1.json"
    selected = select(nsga2_run)
    write_json(path, selected | {"selection_values": [1.0]})
    read_selection(path)  # every key nsga2's select (and a pick) writes
    write_json(path, selected | {"weights_backup": [0.0] * 4})
    fails(lambda: read_selection(path), "holds the key(s) weights_backup, which no selection")
    cem = {"run": "cem", "method": "cem", "seed": 1, "evaluator": "cem8", "weights": [0.0] * 8}
    write_json(path, cem | {"switching": [[0.0] * 8] * 3})  # nsga2's, not cem's
    fails(
        lambda: read_selection(path), "holds the key(s) switching, which no selection of method cem"
    )


def test_selections_and_tuning_runs(tmp_path: Path, nsga2_run: dict) -> None:
    path = tmp_path / "tune.json"
    write_json(path, nsga2_run | {"rank": [0, 0, 0, 1], "ref_point": [0, 0, 0, 0]})
    assert read_tune(path)["method"] == "nsga2"
    write_json(path, nsga2_run)
    fails(lambda: read_tune(path), "lacks the key(s) rank, ref_point")
    write_json(path, select(nsga2_run) | {"evaluator": "nsga4"})
    assert np.asarray(read_selection(path)["switching"]).shape == (3, 4)
    write_json(path, select(nsga2_run) | {"switching": [[1, 2]]})
    fails(lambda: read_selection(path), "its 'switching' entry must hold 3 weight vectors")


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


@pytest.fixture(scope="module")
def smoke() -> dict:
    return validate_config(yaml.safe_load(SMOKE.read_text()))


CEM_WEIGHTS = [2.45, 0.80, 0.30, 0.58, 0.08, 0.86, -0.28, 2.45]


def cem_selection(**changes: object) -> dict:
    """A selection of the smoke study's cem run, seed 1, as the select stage writes it."""
    data = {"evaluator": "cem8", "fresh": 7.0, "method": "cem", "run": "cem", "seed": 1}
    return data | {"train": 7.0, "weights": list(CEM_WEIGHTS)} | changes


def test_a_valid_selection_passes(tmp_path: Path, smoke: dict) -> None:
    path = tmp_path / "seed1.json"
    write_json(path, cem_selection())
    assert read_selection(path, run_record(smoke, "cem"), 1)["weights"] == CEM_WEIGHTS


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"weights": [True] * 8}, "its 'weights' entry holds true as its weight 0 (empty), not a"),
        ({"weights": [1e308] + CEM_WEIGHTS[1:]}, "holds 1e+308 as its weight 0 (empty), outside "
         "cem8's box [-5, 5]"),
        ({"weights": [str(w) for w in CEM_WEIGHTS]}, "holds \"2.45\" as its weight 0 (empty), "
         "not a number"),
        ({"weights": [1.0, 2.0, 3.0]}, "holds 3 weights; evaluator cem8 takes 8"),
        ({"weights": "0.5"}, "its 'weights' entry must be a list of 8 numbers"),
        ({"weights": [float("nan")] * 8}, "holds NaN as its weight 0 (empty), not a finite number"),
        ({"evaluator": "nsga4", "weights": [0.25] * 4}, "records evaluator \"nsga4\"; the "
         "config's run cem tunes cem8"),
        ({"seed": "x"}, "records seed \"x\", not an integer"),
        ({"seed": 2}, "records seed 2, not 1 (the seed of its path)"),
        ({"method": "cmaes"}, "records method \"cmaes\"; the config's run cem is cem"),
        ({"run": "cmaes"}, "records run \"cmaes\", not 'cem'"),
        ({"fresh": "7"}, "its 'fresh' entry holds \"7\", not a finite number"),
    ],
    ids=["bools", "1e308", "strings", "length", "not-a-list", "nan", "other-evaluator",
         "seed-x", "other-seed", "other-method", "other-run", "fresh"],
)  # fmt: skip
def test_a_selection_is_checked_against_its_evaluator_and_its_run(
    tmp_path: Path, smoke: dict, changes: dict, message: str
) -> None:
    """Every case of issue 28: a well-formed selection of the wrong types, values or
    provenance fails naming the file, the fault and the remedy."""
    path = tmp_path / "seed1.json"
    write_json(path, cem_selection(**changes))
    fails(lambda: read_selection(path, run_record(smoke, "cem"), 1), f"result file {path}: ")
    fails(lambda: read_selection(path, run_record(smoke, "cem"), 1), message)


def test_a_pick_holds_its_seeds_selection_and_nothing_else(tmp_path: Path, smoke: dict) -> None:
    """Weights pasted into a pick (well-formed, inside the box, its seed the best) are refused
    by the jobs that read it: they compare it with the selection file of the seed it picks."""
    record = run_record(smoke, "cem")
    seeds = [tmp_path / "seed1.json", tmp_path / "seed2.json"]
    write_json(seeds[0], cem_selection())
    write_json(seeds[1], cem_selection(seed=2, weights=[0.5] * 8))
    pick = tmp_path / "tuned-cem.json"
    write_json(pick, cem_selection(seed=2, weights=[0.5] * 8, selection_values=[1.0, 2.0]))
    files = [str(p) for p in seeds]
    assert tuned_weights(str(pick), record, seed_selections=files)[1].tolist() == [0.5] * 8
    write_json(pick, cem_selection(seed=2, selection_values=[1.0, 2.0]))  # seed 1's
    fails(
        lambda: tuned_weights(str(pick), record, seed_selections=files),
        f"picks seed 2, but its weights differ from that seed's selection file {seeds[1]}",
    )
    with pytest.raises(ValueError, match="give the selection files of seeds"):
        tuned_weights(str(pick), record)


def test_weights_at_the_edge_of_the_box_pass_and_beyond_fail(tmp_path: Path, smoke: dict) -> None:
    """The tuners' points lie in the box (CEM clips, CMA-ES maps into it): its edges pass, up to
    rounding; a step beyond fails."""
    path = tmp_path / "seed1.json"
    write_json(path, cem_selection(weights=[5.0, -5.0, *CEM_WEIGHTS[2:]]))
    read_selection(path, run_record(smoke, "cem"), 1)
    write_json(path, cem_selection(weights=[5.0 + 1e-12, *CEM_WEIGHTS[1:]]))
    read_selection(path, run_record(smoke, "cem"), 1)
    write_json(path, cem_selection(weights=[5.001, *CEM_WEIGHTS[1:]]))
    fails(lambda: read_selection(path, run_record(smoke, "cem"), 1), "outside cem8's box")


def test_a_pick_is_one_of_the_runs_seeds_and_its_best(tmp_path: Path, smoke: dict) -> None:
    path = tmp_path / "tuned-cem.json"
    record = run_record(smoke, "cem")
    write_json(path, cem_selection(seed=2, selection_values=[4816.0, 11866.7]))
    assert read_selection(path, record, pick=True)["seed"] == 2
    write_json(path, cem_selection(seed=1, selection_values=[4816.0, 11866.7]))
    fails(lambda: read_selection(path, record, pick=True), "make seed 2 the best")
    write_json(path, cem_selection(seed=3, selection_values=[1.0, 2.0]))
    fails(lambda: read_selection(path, record, pick=True), "not one of the config's tune.seeds")
    write_json(path, cem_selection(seed=2, selection_values=[1.0]))
    fails(lambda: read_selection(path, record, pick=True), "must hold 2, one per seed")
    write_json(path, cem_selection(seed=2))
    fails(lambda: read_selection(path, record, pick=True), "'selection_values' entry holds")


def test_a_tuning_run_is_checked_against_the_config(
    tmp_path: Path, smoke: dict, nsga2_run: dict
) -> None:
    """A tuning run's file records the config's settings; its numbers are finite, and what it
    offers for selection is valid, else it (not the selection made from it) is named."""
    record = run_record(smoke, "nsga2")
    run = nsga2_run | {"rank": [0, 0, 0, 1], "ref_point": [0, 0, 0, 0], "study_seed": 2048}
    run |= {"settings": record["settings"], "selection": record["selection"]}
    path = tmp_path / "seed1.json"
    write_json(path, run)
    assert read_tune(path, record, 1)["run"] == "nsga2"
    write_json(path, run | {"selection": record["selection"] | {"games": 3}})
    fails(lambda: read_tune(path, record, 1), 'records the selection rule {"candidates": 2, '
          '"games": 3, "metric": "score"}; the config\'s is')  # fmt: skip
    write_json(path, run | {"settings": record["settings"] | {"games": 3}})
    fails(lambda: read_tune(path, record, 1), "settings other than the config's for run nsga2 "
          "(games: 3 here, 2 in the config)")  # fmt: skip
    write_json(path, run | {"study_seed": 7})
    fails(lambda: read_tune(path, record, 1), "records study_seed 7; the config's is 2048")
    write_json(path, run | {"X": [[True] * 4, *run["X"][1:]]})
    fails(lambda: read_tune(path, record, 1), "its 'X' entry holds true at [0][0]")
    write_json(path, run | {"F": [[float("nan")] * 4, *run["F"][1:]]})
    fails(lambda: read_tune(path, record, 1), "its 'F' entry holds NaN at [0][0]")
    write_json(path, run | {"X": [[2.0, 0, 0, 0], *run["X"][1:]]})
    fails(lambda: read_tune(path, record, 1), "outside nsga4's box [0, 1]")
    write_json(path, run | {"front": [0, 9]})
    fails(lambda: read_tune(path, record, 1), "offers no weights to select")
    games = {"train_games": 48, "selection_games": 16, "games_played": 64}
    write_json(path, run | games)
    assert read_tune(path, record, 1)["games_played"] == 64
    write_json(path, run | games | {"selection_games": -1})
    fails(lambda: read_tune(path, record, 1), "records selection_games -1, not a count")
    write_json(path, run | games | {"games_played": 65})
    fails(lambda: read_tune(path, record, 1), "other than its train_games and selection_games")


def network_file(path: Path, name: str = "lines4x2", lut: np.ndarray | None = None) -> str:
    """A lines4x2 network (random weights) saved as the train rule saves it; its SHA-256."""
    if lut is None:
        size = ntuple.lut_size(ntuple.NETWORKS[name])
        lut = np.random.default_rng(3).normal(0, 9, size).astype(np.float32)
    ntuple.save_network(path, ntuple.Network(name, lut))
    return hashlib.sha256(lut.tobytes()).hexdigest()


def test_a_network_is_of_the_configs_kind_finite_and_as_trained(tmp_path: Path) -> None:
    path = tmp_path / "seed1.npz"
    digest = network_file(path)
    network = read_network(path, "lines4x2", digest, "seed1.json")
    assert network.name == "lines4x2" and network.lut.dtype == np.float32
    fails(lambda: read_network(path, "lines4x2", "0" * 64, "run.json"),
          "its weights' SHA-256 is " + digest[:16] + "..., not 0000000000000000... as its "
          "training run recorded in run.json")  # fmt: skip
    lut = np.full(ntuple.lut_size(ntuple.NETWORKS["lines4x2"]), np.nan, dtype=np.float32)
    network_file(path, lut=lut)
    fails(lambda: read_network(path, "lines4x2", digest), "holds 131072 NaN or infinite weights")
    with zipfile.ZipFile(path, "w") as archive:  # another kind: refused before its table is read
        with archive.open("name.npy", "w") as f:
            np.lib.format.write_array(f, np.array("wu6x4"))
        with archive.open("lut.npy", "w") as f:
            np.lib.format.write_array(f, np.zeros(3, np.float32))
    fails(lambda: read_network(path, "lines4x2", digest),
          "holds a 'wu6x4' network; the config's tune.td.network is 'lines4x2'")  # fmt: skip
    network_file(path, name="lines4x2", lut=np.zeros(131072, np.float32))
    fails(lambda: read_network(path, "sj4x2+6x2"), "holds a 'lines4x2' network")
    np.savez(path, name=np.array("lines4x2"), lut=np.zeros(10, np.float32))
    fails(lambda: read_network(path, "lines4x2"), "has 131072 float32 weights")
    path.write_text("garbage")
    fails(lambda: read_network(path, "lines4x2"), "is no network file (.npz")
    path.write_bytes(b"")
    fails(lambda: read_network(path, "lines4x2"), "is empty (0 bytes), not a network file")


def test_a_network_is_played_only_as_its_run_recorded_it(tmp_path: Path, smoke: dict) -> None:
    """tuned_weights, as validate and benchmark jobs read a network: its selection, its file and
    its run's result file, which records its SHA-256."""
    record = run_record(smoke, "td")
    where = tmp_path / "results" / "tune" / "td"
    where.mkdir(parents=True)
    digest = network_file(where / "seed1.npz")
    run = {"run": "td", "method": "td", "seed": 1, "study_seed": 2048, "train": 1000.0}
    run |= {"settings": record["settings"], "games": 300, "games_played": 300}
    run |= {"network": "results/tune/td/seed1.npz", "network_sha256": digest}
    write_json(where / "seed1.json", run)
    selection = tmp_path / "select.json"
    write_json(selection, {"run": "td", "method": "td", "seed": 1, "evaluator": "ntuple",
                           "weights": "results/tune/td/seed1.npz"})  # fmt: skip
    files = {"networks": [str(where / "seed1.npz")], "runs": [str(where / "seed1.json")]}
    evaluator, network = tuned_weights(str(selection), record, seed=1, **files)
    assert evaluator == "ntuple" and network.name == "lines4x2"
    network_file(where / "seed1.npz", lut=np.zeros(131072, np.float32))  # replaced
    with pytest.raises(ResultFileError, match="seed1.npz: its weights' SHA-256"):
        tuned_weights(str(selection), record, seed=1, **files)
    write_json(selection, {"run": "td", "method": "td", "seed": 1, "evaluator": "ntuple",
                           "weights": "results/tune/td/seed2.npz"})  # fmt: skip
    with pytest.raises(ResultFileError, match="names the network file"):
        tuned_weights(str(selection), record, seed=1, **files)
    write_json(where / "seed1.json", run | {"network_sha256": "xyz"})
    with pytest.raises(ResultFileError, match='records network_sha256 "xyz", not a SHA-256'):
        read_tune(where / "seed1.json", record, 1)


def test_games_columns_hold_numbers(shard: Path, tmp_path: Path) -> None:
    text = shard.read_text().splitlines()
    header, first = text[0].split(","), text[1].split(",")
    first[header.index("score")] = "lots"
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join([text[0], ",".join(first), *text[2:]]) + "\n")
    fails(lambda: read_games(bad, benchmark_seeds(5, 4, 4), start=4),
          "column score holds 'lots' in row 0, not a number")  # fmt: skip
