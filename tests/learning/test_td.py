"""TD(0) training of n-tuple networks: determinism, learning, checkpoints that survive a kill."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from g2048.agents import AgentConfig
from g2048.cli.bench import training_figures
from g2048.engine.rng import game_seeds
from g2048.evaluators import ntuple
from g2048.learning.td import CURVE_COLUMNS, train
from g2048.play import play_games

ROOT = Path(__file__).resolve().parents[2]


def seeds(start: int, count: int) -> np.ndarray:
    return game_seeds(7, "td-test", count, start)


def outcome(curve) -> np.ndarray:  # noqa: ANN001
    return curve.drop(columns="moves_per_s").to_numpy()


def test_training_is_a_pure_function_of_settings_and_seeds() -> None:
    a, curve_a = train("lines4x2", 300, seeds, block=100)
    b, curve_b = train("lines4x2", 300, seeds, block=100)
    np.testing.assert_array_equal(a.lut, b.lut)
    np.testing.assert_array_equal(outcome(curve_a), outcome(curve_b))
    assert list(curve_a.columns) == list(CURVE_COLUMNS)
    assert curve_a.games.tolist() == [100, 200, 300]
    c, _ = train("lines4x2", 300, seeds, block=100, alpha=0.05)
    assert not np.array_equal(a.lut, c.lut)


@pytest.mark.parametrize("coherence", [False, True])
def test_a_small_network_learns_to_beat_its_untrained_self(coherence: bool) -> None:
    trained, curve = train("lines4x2", 2000, seeds, block=500, coherence=coherence)
    assert curve.mean_score.iloc[-1] > curve.mean_score.iloc[0]
    test = game_seeds(7, "td-test-play", 200)
    greedy = AgentConfig("greedy")
    after = play_games(greedy, test, "ntuple", trained).score.to_numpy()
    before = play_games(greedy, test, "ntuple", ntuple.zero_network("lines4x2")).score
    diff = after - before.to_numpy()
    # paired on the same spawns: the mean gain is many standard errors above zero
    assert diff.mean() > 4 * diff.std(ddof=1) / np.sqrt(diff.size)


RUN = """
import sys
from g2048.engine.rng import game_seeds
from g2048.learning.td import train
train("lines4x2", 3000, lambda s, c: game_seeds(7, "td-test", c, s), block=100,
      checkpoint=sys.argv[1], checkpoint_every=100, key={"seed": 1})
"""


def test_a_killed_run_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", RUN, str(checkpoint)], env=env)
    try:
        deadline = time.monotonic() + 300
        while not checkpoint.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert checkpoint.exists(), "no checkpoint was written"
        time.sleep(0.3)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    resumed_at = []
    got, curve = train(
        "lines4x2",
        3000,
        seeds,
        block=100,
        checkpoint=checkpoint,
        checkpoint_every=100,
        key={"seed": 1},
        resumed=resumed_at.append,
    )
    assert len(resumed_at) == 1 and 0 < resumed_at[0] < 3000
    want, want_curve = train("lines4x2", 3000, seeds, block=100)
    np.testing.assert_array_equal(got.lut, want.lut)
    np.testing.assert_array_equal(outcome(curve), outcome(want_curve))


def test_a_checkpoint_of_other_settings_is_never_resumed(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    train("lines4x2", 200, seeds, block=100, checkpoint=checkpoint, checkpoint_every=100)
    assert checkpoint.exists()
    resumed_at = []
    for settings in ({"alpha": 0.05}, {"key": {"seed": 2}}, {"coherence": True}):
        train(
            "lines4x2",
            200,
            seeds,
            block=100,
            checkpoint=checkpoint,
            checkpoint_every=100,
            resumed=resumed_at.append,
            **settings,
        )
        assert resumed_at == [], settings
        train("lines4x2", 200, seeds, block=100, checkpoint=checkpoint, checkpoint_every=100)
    train(
        "lines4x2",
        300,
        seeds,
        block=100,
        checkpoint=checkpoint,
        checkpoint_every=100,
        resumed=resumed_at.append,
    )
    assert resumed_at == [200]  # a longer run of the same settings goes on from it


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="multiple of block"):
        train("lines4x2", 100, seeds, block=100, checkpoint_every=150)
    with pytest.raises(ValueError, match="alpha"):
        train("lines4x2", 100, seeds, alpha=0.0)
    with pytest.raises(ValueError, match="unknown network"):
        train("lines9", 100, seeds)


def test_the_training_benchmark_reports_moves_and_games_per_second() -> None:
    figures = training_figures(games=300, network="lines4x2")
    assert (figures.network, figures.games) == ("lines4x2", 300)
    assert figures.moves_per_s > 50 * figures.games_per_s > 0  # games of 50+ moves
