"""TD training's settings, each defined once (`TDConfig`), and TDL2048+'s named recipes.

A setting's field is its one definition: description, default, type and bounds. The study
config's `tune.td` schema (g2048.study.methods.td; all but TRAIN_ONLY), the `train` command's
flags (g2048.cli) and the checks of `g2048.learning.td.train` are all written from it, and the
rules across settings are `TDConfig.__post_init__`'s, so a value the config refuses the CLI and
the function refuse too, with the same message.

A recipe (TDL2048+'s word: its users name a learning method, not its settings) is a few
settings over TD(0)'s: optimistic initialisation (OTD), TC for the last tenth (OTD+TC), a
second stage (2-stage), lambda-returns (TD(0.5)). tools/td_recipes.py compares their
learning curves with TDL2048+'s.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from g2048.evaluators.ntuple import MAX_STAGE_TILE, check_stages, network_tuples
from g2048.settings import (
    SettingError,
    check_settings,
    from_settings,
    keyed_settings,
    object_schema,
    setting,
)

BLOCK = 1000  # games per learning-curve row (the study's; tests take smaller blocks)
MAX_GAMES = 100_000_000  # a curve row per block; the games themselves are seeded block by block


@dataclass(frozen=True)
class TDConfig:
    """A TD training run's settings: what `g2048.learning.td.train` learns, and from which
    games' schedule. `block` (not a setting of the config or the CLI: the study's curves have
    a row per 1000 games) is the games per curve row, of which tc_games and checkpoint_every
    are multiples and batch a divisor."""

    network: str = setting(
        description="The tuples: wu6x4 (four 6-tuples, Wu et al. 2014), sj4x2+6x2 (two straight "
        "4-tuples and two 2x3 rectangles, Szubert & Jaskowski 2014), lines4x2 (two straight "
        "4-tuples, small and quick), a TDL2048+ pattern by its name: 4x6patt (the tuples of "
        "wu6x4), 5x6patt, 6x6patt, 7x6patt, 8x6patt, 4x5patt, 2x4patt; or tuples of their own "
        "by their cells (0..15, row by row), commas between cells and semicolons between "
        "tuples: '0,1,2,3,4,5;4,5,6,7,8,9' (at most 8 cells a tuple, none twice).",
        type="string",
    )
    games: int = setting(
        keyed=False,  # a longer run goes on from a shorter one's checkpoint
        description="Training games (self-play, one learning curve row per 1000; at most "
        "100 000 000, the games themselves are seeded and played block by block).",
        type="integer",
        minimum=1,
        maximum=MAX_GAMES,
    )
    alpha: float = setting(
        0.1,
        description="Learning rate, divided over the weights a value reads (at most 1: a "
        "larger step overshoots every update).",
        type="number",
        exclusiveMinimum=0,
        maximum=1,
    )
    coherence: bool = setting(
        False,
        description="Temporal-coherence learning rates per weight (Jaskowski 2018).",
        type="boolean",
    )
    lock_free: bool = setting(
        False,
        description="Play and learn games on all the job's threads at once, sharing the weights "
        "without locks (TDL2048+'s way; batch 1): no serial phase, but the network depends on "
        "the threads' timing, so a rerun does not reproduce it to the bit (the result records "
        "reproducible: false).",
        type="boolean",
    )
    init: float = setting(
        0,
        description="The value of every board before training, spread evenly over the weights "
        "a value reads (optimistic initialisation, OTD: Guei, Chen & Wu 2021 use 320000); 0 = "
        "untrained weights of 0.",
        type="number",
        minimum=0,
        maximum=10_000_000,
    )
    tc_games: int = setting(
        0,
        keyed=False,  # keyed as where TC begins (`checkpoint_settings`)
        description="The last this many games learn by TC at tc_alpha, the earlier ones by "
        "TD(0) at alpha (OTD+TC with init > 0: Guei et al. 2021 train 90% OTD then 10% TC); a "
        "multiple of 1000, at most games, with coherence off.",
        type="integer",
        minimum=0,
        maximum=MAX_GAMES,
    )
    tc_alpha: float = setting(
        1.0,
        description="The learning rate of the tc_games (TDL2048+'s TC uses 1.0).",
        type="number",
        exclusiveMinimum=0,
        maximum=1,
    )
    stages: tuple[int, ...] = setting(
        (),
        description="Tile thresholds of a multistage network (Yeh et al. 2017), increasing "
        "powers of 2 from 4 to 32768: a board is valued by the weights of stage k = how many "
        "thresholds its largest tile reaches, and a stage's weights start as a copy of the "
        "stage before's when a game first reaches it (weight promotion, Jaskowski 2018). [] = "
        "one stage; e.g. [16384] for two.",
        type="array",
        items={"type": "integer", "enum": [2**k for k in range(2, MAX_STAGE_TILE.bit_length())]},
        maxItems=13,
        uniqueItems=True,
    )
    lambda_: float = setting(
        0.0,
        description="TD(lambda): each afterstate learns towards the lambda-return of the moves "
        "after it, computed backwards once its game ends (TDL2048+'s -l); 0 = TD(0), 1 = the "
        "game's Monte Carlo return.",
        type="number",
        minimum=0,
        maximum=1,
    )
    from_: str = setting(
        "",
        keyed=False,  # its content is keyed by from_sha256
        description="The train command's: a network file (.npz: of train, of the pipeline, or "
        "of import-network from TDL2048+) whose weights training starts from instead of init "
        "(TDL2048+'s -i): it "
        "must hold the network's tuples and stages (init stays 0); a stage whose weights are "
        'all 0 is promoted when first reached, as in a fresh run. "" = a fresh network.',
        type="string",
    )
    from_sha256: str = setting(
        "",
        description="The SHA-256 of the from file (sha256sum FILE), which it must have: the "
        "weights a rerun starts from are the same (train --from fills it in).",
        type="string",
    )
    checkpoint_every: int = setting(
        10000,
        keyed=False,  # how often the state is saved, not what it is
        description="Save the training state every this many games (a multiple of 1000); a "
        "killed job resumes from it.",
        type="integer",
        minimum=1,
        maximum=MAX_GAMES,
    )
    batch: int = setting(
        1,
        description="Games per round (a divisor of 1000): a round's games are played with the "
        "weights as they stood at its start, then their updates are made in game order. 1 = "
        "the serial algorithm; the result depends on batch, not on the job's threads.",
        type="integer",
        minimum=1,
        maximum=1000,
    )
    block: int = BLOCK

    def __post_init__(self) -> None:
        check_settings(self)  # each setting against its schema; the rules across settings:
        if not isinstance(self.block, int) or self.block < 1:
            raise SettingError("block", f"block must be a positive integer, got {self.block}")
        try:
            object.__setattr__(self, "stages", check_stages(self.stages))
        except ValueError as exc:
            raise SettingError("stages", str(exc)) from None
        for key in ("tc_games", "checkpoint_every"):
            if getattr(self, key) % self.block:
                raise SettingError(
                    key,
                    f"{key} must be a multiple of {self.block} (a learning-curve block), got "
                    f"{getattr(self, key)}",
                )
        if self.tc_games > self.games:
            raise SettingError(
                "tc_games", f"tc_games {self.tc_games} is more than games ({self.games})"
            )
        if self.tc_games and self.coherence:
            raise SettingError(
                "tc_games", "tc_games needs coherence off: TC for the last games follows plain TD"
            )
        if self.block % self.batch:
            raise SettingError(
                "batch",
                f"batch must divide {self.block} (a learning-curve block), got {self.batch}",
            )
        try:
            network_tuples(self.network)
        except ValueError as exc:
            raise SettingError("network", str(exc)) from None
        if self.from_ and self.init:
            raise SettingError(
                "init", f"init {self.init} with from: the weights start as the file's (init 0)"
            )
        if self.from_ and not re.fullmatch("[0-9a-f]{64}", self.from_sha256):
            raise SettingError(
                "from_sha256",
                f"from {self.from_!r} needs from_sha256, the file's SHA-256 (64 hex digits), got "
                f"{self.from_sha256!r}",
            )
        if self.from_sha256 and not self.from_:
            raise SettingError("from_sha256", "from_sha256 without from: no file to check")
        if self.lock_free and self.batch > 1:
            raise SettingError(
                "lock_free", f"lock_free plays every game at once: batch 1, got {self.batch}"
            )

    def checkpoint_settings(self) -> dict[str, object]:
        """What ties a checkpoint to the run that may resume it: every setting but those
        declared keyed=False (`g2048.settings.keyed_settings`), the games per curve row, and
        where TC begins when the last games learn by TC (so that a longer run with the same
        start goes on from a shorter one's checkpoint)."""
        keyed = keyed_settings(self) | {"block": self.block}
        return keyed | ({"tc_from": self.tc_from} if self.tc_games else {})

    @property
    def tc_from(self) -> int:
        """The first game learnt by TC (games: none; 0 with coherence, TC from the start)."""
        if self.tc_games:
            return self.games - self.tc_games
        return 0 if self.coherence else self.games


# The train command's own settings, not keys of a study's tune.td: a study's td runs start
# afresh (a file to start from would be an input the workflow does not track, and every key of
# the section is filled into each run's settings, which its result file records).
TRAIN_ONLY = ("from", "from_sha256")


def td_schema(description: str, train: bool = False) -> dict:
    """The JSON schema of a mapping of TDConfig's settings: the study's `tune.td`, or with
    `train` the train command's (TRAIN_ONLY too)."""
    schema = object_schema(TDConfig, description)
    if not train:
        schema["properties"] = {
            k: v for k, v in schema["properties"].items() if k not in TRAIN_ONLY
        }
    return schema


@dataclass(frozen=True)
class Recipe:
    """A named way to learn (TDL2048+'s recipes): the settings it changes from TD(0)'s, and the
    share of the games learnt by TC at the end (rounded down to a block)."""

    label: str  # as tables and figures name it
    description: str
    changes: dict = dataclasses.field(default_factory=dict)
    tc_share: float = 0.0

    def config(self, settings: dict) -> TDConfig:
        """The TDConfig of this recipe for `settings` (keyed as a config), which override the
        recipe's own: network and games at least."""
        merged = dict(self.changes)
        if self.tc_share:
            block = settings.get("block", BLOCK)
            games = settings.get("games", 0)
            merged["tc_games"] = int(games * self.tc_share) // block * block
            if not merged["tc_games"] and "tc_games" not in settings:
                raise SettingError(
                    "games",
                    f"the {self.label} recipe learns the last {self.tc_share:.0%} of the games "
                    f"by TC: games must be at least {int(block / self.tc_share)}, got {games}",
                )
        return from_settings(TDConfig, merged | settings)


OTD_INIT = 320_000  # Guei, Chen & Wu 2021: above any value the network has yet seen
# The 2-stage recipe's threshold: reached in most games by 10^5 (16384, the papers', hardly ever)
STAGE_TILE = 4096
RECIPES = {
    "td": Recipe("TD", "afterstate TD(0), the weights starting at 0"),
    "otd": Recipe(
        "OTD", f"optimistic TD: every board first valued at {OTD_INIT}", {"init": OTD_INIT}
    ),
    "otd-tc": Recipe(
        "OTD+TC",
        "OTD, then the last 10% of the games by TC at tc_alpha 1 (Guei et al. 2021)",
        {"init": OTD_INIT, "tc_alpha": 1.0},
        tc_share=0.1,
    ),
    "2-stage": Recipe(
        "2-stage",
        f"a second stage from the first {STAGE_TILE} tile on, promoted from the first's weights",
        {"stages": (STAGE_TILE,)},
    ),
    "td-lambda": Recipe(
        "TD(0.5)", "lambda-returns over the whole game, lambda 0.5", {"lambda": 0.5}
    ),
}
