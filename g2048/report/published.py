"""The published strength of the strongest 2048 programs, for context beside the study's own
numbers: the cost figure draws them as reference levels (played on other machines, they have no
time on this one) and the findings name them, always labelled as published, never measured."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Published:
    """One published result: a program, the setting it played, its score (the `statistic` over
    its games), where it is published, and a short form of that for a sentence."""

    program: str
    setting: str
    score: float
    statistic: str
    citation: str
    cited_as: str

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
    Published("TDL2048+", "1 ply", 412_785, "mean", GUEI_2021, "Guei, Chen & Wu 2021"),
    Published("TDL2048+", "3 plies", 563_316, "mean", GUEI_2021, "Guei, Chen & Wu 2021"),
    Published("TDL2048+", "6 plies", 625_377, "mean", GUEI_2021, "Guei, Chen & Wu 2021"),
    Published("nneonneo", "auto depth", 387_222, "median", NNEONNEO, "nneonneo/2048-ai README"),
)


def published_context() -> str:
    """The published scores in one clause, each labelled as published, not measured."""
    by_source: dict[str, list[str]] = {}
    for p in PUBLISHED:
        detail = ", tile-downgrading" if p.citation == GUEI_2021 else ""
        text = f"{p.program} {p.statistic} {p.score:,.0f} at {p.setting}{detail}"
        by_source.setdefault(p.cited_as, []).append(text)
    cited = [f"{'; '.join(texts)} ({source})" for source, texts in by_source.items()]
    return "For context, published and not measured here: " + "; ".join(cited)
