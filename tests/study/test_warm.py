"""`make warm`: the kernels of a study compiled in a step of their own (g2048.study.warm)."""

from pathlib import Path

from g2048.study import warm
from g2048.study.config import load_config

ROOT = Path(__file__).resolve().parents[2]


def test_warm_plays_every_agent_and_evaluator_of_the_study_once() -> None:
    config = load_config(ROOT / "config" / "smoke.yaml")
    plays = warm._plays(config)
    assert len({str(p) for p in plays}) == len(plays)
    for entry in config["benchmark"]["entries"]:
        assert (entry["agent"], entry["evaluator"], entry["evaluator"] == "ntuple") in plays
    for run in config["tune"]["runs"]:
        assert (run["agent"], run["evaluator"], False) in plays


def test_warm_compiles_or_loads_the_smoke_studys_kernels() -> None:
    said: list[str] = []
    seconds = warm.warm(load_config(ROOT / "config" / "smoke.yaml"), said.append)
    assert seconds > 0
    assert said == [f"kernels ready in {warm.kernel_cache()} ({seconds:.0f} s)"]


def test_warm_refuses_a_bad_config_as_check_config_does(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    bad = tmp_path / "bad.yaml"
    bad.write_text("study_seed: -1\n")
    assert warm.main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}: invalid configuration") and "study_seed" in err
    assert "Traceback" not in err
