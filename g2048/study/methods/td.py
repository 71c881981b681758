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
from g2048.learning.td import CURVE_COLUMNS, TrainingError, train
from g2048.study.methods.base import Key, Log, Method
from g2048.study.naming import TIMING_COLUMNS, tuning_purpose
from g2048.study.progress import ReportedError, timing


class TD(Method):
    name = "td"
    label = "TD"
    description = (
        "Afterstate TD(0) or TD(lambda) self-play of an n-tuple network (source 004's next "
        "step; Szubert & Jaskowski 2014), one single-threaded job per seed."
    )
    keys = {
        "network": Key(
            {
                "description": (
                    "The tuples: wu6x4 (four 6-tuples, Wu et al. 2014), sj4x2+6x2 (two straight "
                    "4-tuples and two 2x3 rectangles, Szubert & Jaskowski 2014), lines4x2 "
                    "(two straight 4-tuples, small and quick), or a TDL2048+ pattern by its "
                    "name: 4x6patt (the tuples of wu6x4), 5x6patt, 6x6patt, 7x6patt, 8x6patt, "
                    "4x5patt, 2x4patt."
                ),
                "enum": list(ntuple.NETWORKS),
            },
            required=True,
        ),
        "games": Key(
            {
                "description": "Training games (self-play, one learning curve row per 1000).",
                "$ref": "#/$defs/training_games",
            },
            required=True,
        ),
        "alpha": Key(
            {
                "description": (
                    "Learning rate, divided over the weights a value reads (at most 1: a "
                    "larger step overshoots every update)."
                ),
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": 1,
            },
            required=True,
        ),
        "coherence": Key(
            {
                "description": "Temporal-coherence learning rates per weight (Jaskowski 2018).",
                "type": "boolean",
            },
            default=False,
        ),
        "lock_free": Key(
            {
                "description": (
                    "Play and learn games on all the job's threads at once, sharing the weights "
                    "without locks (TDL2048+'s way; batch 1): no serial phase, but the network "
                    "depends on the threads' timing, so a rerun does not reproduce it to the bit "
                    "(the result records reproducible: false)."
                ),
                "type": "boolean",
            },
            default=False,
        ),
        "init": Key(
            {
                "description": (
                    "The value of every board before training, spread evenly over the weights "
                    "a value reads (optimistic initialisation, OTD: Guei, Chen & Wu 2021 use "
                    "320000); 0 = untrained weights of 0."
                ),
                "type": "number",
                "minimum": 0,
                "maximum": 10000000,
            },
            default=0,
        ),
        "tc_games": Key(
            {
                "description": (
                    "The last this many games learn by TC at tc_alpha, the earlier ones by "
                    "TD(0) at alpha (OTD+TC with init > 0: Guei et al. 2021 train 90% OTD "
                    "then 10% TC); a multiple of 1000, at most games, with coherence off."
                ),
                "type": "integer",
                "minimum": 0,
                "maximum": 100000000,
                "multipleOf": 1000,
            },
            default=0,
        ),
        "tc_alpha": Key(
            {
                "description": "The learning rate of the tc_games (TDL2048+'s TC uses 1.0).",
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": 1,
            },
            default=1.0,
        ),
        "stages": Key(
            {
                "description": (
                    "Tile thresholds of a multistage network (Yeh et al. 2017), increasing "
                    "powers of 2 from 4 to 32768: a board is valued by the weights of stage k = "
                    "how many thresholds its largest tile reaches, and a stage's weights start "
                    "as a copy of the stage before's when a game first reaches it (weight "
                    "promotion, Jaskowski 2018). [] = one stage; e.g. [16384] for two."
                ),
                "type": "array",
                "items": {"type": "integer", "enum": [2**k for k in range(2, 16)]},
                "maxItems": 13,
                "uniqueItems": True,
            },
            default=[],
        ),
        "lambda": Key(
            {
                "description": (
                    "TD(lambda): each afterstate learns towards the lambda-return of the moves "
                    "after it, computed backwards once its game ends (TDL2048+'s -l); 0 = "
                    "TD(0), 1 = the game's Monte Carlo return."
                ),
                "type": "number",
                "minimum": 0,
                "maximum": 1,
            },
            default=0.0,
        ),
        "checkpoint_every": Key(
            {
                "description": (
                    "Save the training state every this many games (a multiple of 1000); a "
                    "killed job resumes from it."
                ),
                "type": "integer",
                "minimum": 1000,
                "maximum": 100000000,
                "multipleOf": 1000,
            },
            default=10000,
        ),
        "batch": Key(
            {
                "description": (
                    "Games per round (a divisor of 1000): a round's games are played with the "
                    "weights as they stood at its start, then their updates are made in game "
                    "order. 1 = the serial algorithm; the result depends on batch, not on the "
                    "job's threads."
                ),
                "type": "integer",
                "minimum": 1,
                "maximum": 1000,
            },
            default=1,
        ),
    }
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
        self,
        settings: dict,
        seed: int,
        study_seed: int,
        network_path: str,
        checkpoint: str,
        threads: int,
        log: Log,
    ) -> tuple[dict, pd.DataFrame, ntuple.Network]:
        """One training run (games seeded from `study_seed` and the run's name): (result for
        JSON, naming the network's file `network_path` and the digest of its weights; learning
        curve; network), a round of `batch` games on `threads` threads. Resumes from
        `checkpoint` when it holds this run's state (same settings, seeds and numba code)."""
        options = self.options(settings)
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
                options["network"],
                options["games"],
                lambda at, count: game_seeds(study_seed, purpose, count, at),
                alpha=options["alpha"],
                coherence=options["coherence"],
                checkpoint=checkpoint,
                checkpoint_every=options["checkpoint_every"],
                # a checkpoint of other code is never resumed either
                key={
                    "study_seed": study_seed,
                    "purpose": purpose,
                    "code": source_digest(numba_only=True),
                },
                progress=progress,
                resumed=resumed,
                batch=options["batch"],
                threads=threads,
                init=options["init"],
                tc_games=options["tc_games"],
                tc_alpha=options["tc_alpha"],
                lock_free=options["lock_free"],
                stages=tuple(options["stages"]),
                lam=options["lambda"],
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
            "games": settings["games"],
            "games_played": settings["games"],
            "train": float(curve["mean_score"].iloc[-1]),
            "reproducible": not options["lock_free"],
        }
        return data, curve, network


METHOD = TD()
