"""TD self-play of an n-tuple network (source 004's next step; Szubert & Jaskowski 2014): the
method configured as `tune.td`, whose one run is named td and whose weight sets are network
files of the `ntuple` evaluator."""

from __future__ import annotations

import hashlib
import time

import pandas as pd

from g2048 import source_digest
from g2048.engine.rng import game_seeds
from g2048.evaluators import ntuple
from g2048.learning.recipes import TRAIN_ONLY, TDConfig
from g2048.learning.td import train
from g2048.learning.trainer import CURVE_COLUMNS, TrainingError
from g2048.settings import settings_mapping
from g2048.study.methods.base import Method, RunSeed
from g2048.study.naming import TIMING_COLUMNS, tuning_purpose
from g2048.study.records.logs import ReportedError, timing


class TD(Method):
    name = "td"
    label = "TD"
    description = (
        "Afterstate TD(0) or TD(lambda) self-play of an n-tuple network (source 004's next "
        "step; Szubert & Jaskowski 2014), one single-threaded job per seed."
    )
    settings_class = TDConfig  # every setting of TDConfig, their one definition
    omitted = TRAIN_ONLY  # the train command's own
    result_keys = ("network", "network_sha256", "games", "train")
    selection_keys = ("train",)
    history_columns = tuple(c for c in CURVE_COLUMNS if c not in TIMING_COLUMNS)
    figure = "learning"
    own_section = True
    trains_network = True

    def evaluator(self, settings: dict) -> str:
        return ntuple.NAME

    def select(self, tuned: dict) -> dict:
        """The run's network file, with its mean score over the last block of training games
        (`train`)."""
        return {"evaluator": ntuple.NAME, "weights": tuned["network"], "train": tuned["train"]}

    def selection_value(self, selected: dict) -> float:
        """A network is picked among the seeds by its last block of training games (mean
        score): self-play games, never the test games that report it."""
        return float(selected["train"])

    def train(
        self, job: RunSeed, network_path: str, checkpoint: str
    ) -> tuple[dict, pd.DataFrame, ntuple.Network]:
        """One training run (`job`: its settings a TDConfig, games seeded from its study seed
        and the run's name): (result for JSON, naming the network's file `network_path` and the
        digest of its weights; learning curve; network), a round of `batch` games on the job's
        threads. Resumes from `checkpoint` when it holds this run's state (same settings,
        seeds and numba code). The result records the settings as a config has them (the
        train command's own only where given)."""
        config, seed, study_seed, log = job.settings, job.seed, job.study_seed, job.log
        settings = {k: v for k, v in settings_mapping(config).items() if k in self.keys or v != ""}
        purpose = tuning_purpose(self.name, seed)
        start = time.perf_counter()
        first = 0  # games done before this process started (a resumed run)

        def resumed(done: int) -> None:
            nonlocal first
            first = done
            log(f"resumed from {checkpoint} after {done} games")

        def progress(done: int, total: int, row: dict) -> None:
            log(
                f"{done}/{total} games: mean score {row['mean_score']:.0f}, 2048 in "
                f"{row['reach_2048']:.1%}, {row['moves_per_s']:.0f} moves/s, "
                + timing(done - first, total - first, start)
            )

        try:
            network, curve = train(
                config,
                lambda at, count: game_seeds(study_seed, purpose, count, at),
                checkpoint=checkpoint,
                # a checkpoint of other code is never resumed either
                key={
                    "study_seed": study_seed,
                    "purpose": purpose,
                    "code": source_digest(numba_only=True),
                },
                progress=progress,
                resumed=resumed,
                threads=job.threads,
                note=log,  # an unreadable checkpoint, before training starts over
            )
        except TrainingError as exc:  # diverged, or a damaged checkpoint: one line says it
            raise ReportedError(str(exc)) from None
        data = {
            "run": self.name,
            "method": self.name,
            "seed": seed,
            "study_seed": study_seed,
            "settings": settings,
            "network": network_path,
            "network_sha256": hashlib.sha256(network.lut.tobytes()).hexdigest(),
            "games": config.games,
            "games_played": config.games,
            "train": float(curve["mean_score"].iloc[-1]),
            "reproducible": not config.lock_free,
        }
        return data, curve, network


METHOD = TD()
