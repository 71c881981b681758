"""The published strength of the strongest 2048 programs, which the cost figure shows beside the
study's rows: played on other machines, so they have no time on this one and are drawn as
reference levels, labelled as published, never as measurements."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Published:
    """One published result: a program, the setting it played, its score (the `statistic` over
    its games) and where it is published."""

    program: str
    setting: str
    score: float
    statistic: str
    citation: str

    @property
    def label(self) -> str:
        """A short name for a figure: 'TDL2048+ 3 plies', 'nneonneo auto depth, median'."""
        statistic = "" if self.statistic == "mean" else f", {self.statistic}"
        return f"{self.program} {self.setting}{statistic}"


GUEI_2021 = (
    "H. Guei, L.-P. Chen and I-C. Wu, Optimistic temporal difference learning for 2048, "
    "IEEE Transactions on Games, 2021 (TDL2048+, with tile-downgrading)"
)
NNEONNEO = "nneonneo/2048-ai, README (its adaptive depth; the median, not the mean)"

PUBLISHED = (
    Published("TDL2048+", "1 ply", 412_785, "mean", GUEI_2021),
    Published("TDL2048+", "3 plies", 563_316, "mean", GUEI_2021),
    Published("TDL2048+", "6 plies", 625_377, "mean", GUEI_2021),
    Published("nneonneo", "auto depth", 387_222, "median", NNEONNEO),
)
