"""The published state of the art, for context beside the study's own numbers: scores other
programs report, labelled as published wherever they appear (never measured here)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Published:
    """A score a program's authors report: its program, how it searched, the statistic, the
    value and where it was published."""

    program: str
    search: str
    statistic: str
    score: float
    reference: str


TDL2048 = "Guei, Chen & Wu 2021"
PUBLISHED: tuple[Published, ...] = (
    Published("TDL2048+", "1 ply, tile-downgrading", "mean", 412_785, TDL2048),
    Published("TDL2048+", "3 plies, tile-downgrading", "mean", 563_316, TDL2048),
    Published("TDL2048+", "6 plies, tile-downgrading", "mean", 625_377, TDL2048),
    Published("nneonneo/2048-ai", "adaptive depth", "median", 387_222, "nneonneo/2048-ai README"),
)


def published_context() -> str:
    """The published scores in one clause, each labelled as published, not measured."""
    by_reference: dict[str, list[str]] = {}
    for p in PUBLISHED:
        text = f"{p.program} {p.statistic} {p.score:,.0f} at {p.search}"
        by_reference.setdefault(p.reference, []).append(text)
    cited = [f"{'; '.join(texts)} ({ref})" for ref, texts in by_reference.items()]
    return "For context, published and not measured here: " + "; ".join(cited)
