"""The study's figures, each a function from result data to a matplotlib Figure, in one print
style (`style`): a figure is one column (3.5 in) or the page (7 in) wide, drawn at that size and
saved at 300 dpi, so its text is the size it prints at (never under 7 pt); the series of a panel
(at most eight: more are split over panels) differ in colour (Okabe & Ito's palette, safe for
colour-blind readers) and in marker and line style; points are named by labels beside them
(moved apart, with a leader line where they had to move) or at the ends of their lines
(`labels`), legends sit outside the axes; rates of 0 are drawn, the games behind each rate are
written beside it (`rows`), and score intervals are drawn clipped to the axes (a t interval of a
few games can reach below zero, which no score can; the tables keep the interval as computed).
What each marker, line, band and error bar means is said in the figure's caption
(`workflow/report/<figure>.rst`). The figures: `benchmark`, `validation` and `tuning`."""

from g2048.report.figures.benchmark import (
    SearchLine,
    benchmark_reach,
    cost_strength,
    frontier,
    line_of,
    measured_on,
)
from g2048.report.figures.style import COLUMN, DPI, MAX_SERIES, MIN_PT, PAGE, PALETTE, save
from g2048.report.figures.tuning import (
    fitness_label,
    hypervolume,
    pareto_fronts,
    td_agreement,
    td_learning,
    td_recipes,
    tuner_progress,
    tuning_differences,
)
from g2048.report.figures.validation import depth_transfer, transfer_groups, validation_scores

__all__ = [
    "COLUMN",
    "DPI",
    "MAX_SERIES",
    "MIN_PT",
    "PAGE",
    "PALETTE",
    "SearchLine",
    "benchmark_reach",
    "cost_strength",
    "depth_transfer",
    "fitness_label",
    "frontier",
    "hypervolume",
    "line_of",
    "measured_on",
    "pareto_fronts",
    "save",
    "td_agreement",
    "td_learning",
    "td_recipes",
    "transfer_groups",
    "tuner_progress",
    "tuning_differences",
    "validation_scores",
]
