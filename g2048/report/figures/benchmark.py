"""The benchmark's figures: strength against cost, a line per family of agents
(`cost_strength`), and the share of games reaching each tile, a row per entry
(`benchmark_reach`)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter

from g2048.agents import AGENTS, HYBRID, MONTECARLO, RANDOM
from g2048.report.figures.labels import label_points
from g2048.report.figures.rows import reach_rows, row_blocks, row_figure, rows_axis
from g2048.report.figures.style import (
    PAGE,
    legend_above,
    legend_handle,
    log_scores,
    marker_handle,
    new_figure,
    score_bars,
    series_style,
    tag_series,
)
from g2048.report.tables import REACH
from g2048.study.naming import NETWORK_EVALUATOR

FAMILIES = (
    "expectimax, fixed depth",
    "expectimax under a budget",
    "Monte Carlo",
    "hybrid",
    "network + search",
    "random play",
)
_SOURCE_DOCUMENT = re.compile(r"(seed|source) \d{3}\b")


def family(row: pd.Series | object) -> str:
    """The family of a benchmark row for the cost figure: rows playing the trained network
    (any search), random play, Monte Carlo, hybrid, expectimax deepening under a time or node
    budget, else expectimax to a fixed depth (greedy is its 1 ply, switching its weights
    switched per move)."""
    if getattr(row, "evaluator", "") == NETWORK_EVALUATOR:
        return FAMILIES[4]
    algorithm = getattr(row, "algorithm", "")
    if algorithm == AGENTS[RANDOM]:
        return FAMILIES[5]
    if algorithm == AGENTS[MONTECARLO]:
        return FAMILIES[2]
    if algorithm == AGENTS[HYBRID]:
        return FAMILIES[3]
    if getattr(row, "budget_ms", 0) > 0 or "nodes/move" in str(getattr(row, "agent", "")):
        return FAMILIES[1]
    return FAMILIES[0]


def from_source_document(source: object) -> bool:
    """Whether a benchmark row's source is one of the study's source documents (the seeds,
    'source 000' ... 'source 004'), rather than a row this study added."""
    return bool(_SOURCE_DOCUMENT.match(str(source)))


def frontier(cost: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Indices of the rows that no cheaper (or equally cheap) row outscores, by cost: a
    family's best score for its time."""
    order = np.lexsort((-np.asarray(score), np.asarray(cost)))
    best, keep = -np.inf, []
    for i in order:
        if score[i] > best:
            keep.append(i)
            best = score[i]
    return np.array(keep, dtype=int)


def cost_strength(table: pd.DataFrame) -> Figure:
    """The study's key figure, strength against cost: mean score (95% t interval, log scale)
    against the measured milliseconds per move (log scale), a colour, marker and line per
    family (`family`); each family's line joins the rows that no cheaper row of the family
    outscores. Filled markers: the source documents' own configurations; open: rows this
    study added. Every point is named."""
    fig = new_figure(PAGE, 5.2)
    ax = fig.subplots()
    fams = np.array([family(row) for row in table.itertuples()])
    own = np.array([from_source_document(s) for s in table.get("source", [""] * len(table))])
    marked = 0 < own.sum() < len(own)  # open markers only beside filled ones
    own |= not marked
    ms = table["ms_per_move"].to_numpy(float)
    mean = table["score_mean"].to_numpy(float)
    bottom = max(float(np.min(mean)) / 2.5, 1.0)
    top = float(np.max(table["score_high"])) * 1.5
    handles = []
    for k, name in enumerate(f for f in FAMILIES if f in set(fams)):
        st = series_style(k)
        rows = np.flatnonzero(fams == name)
        line_rows = rows[frontier(ms[rows], mean[rows])]
        if len(line_rows) > 1:
            (line,) = ax.plot(
                ms[line_rows],
                mean[line_rows],
                color=st.color,
                linestyle=st.linestyle,
                lw=1.0,
                zorder=2,
            )
            tag_series(line, name)
        for filled in (True, False):
            part = table.iloc[rows[own[rows] == filled]]
            if not part.empty:
                score_bars(
                    ax,
                    part.ms_per_move,
                    part,
                    bottom,
                    st,
                    name,
                    markersize=4,
                    markerfacecolor=st.color if filled else "white",
                    zorder=3,
                )
        linestyle = st.linestyle if len(line_rows) > 1 else "none"
        handles.append(legend_handle(st, name, markersize=4, linestyle=linestyle))
    if marked:
        handles += [
            marker_handle(
                "a source document's configuration", marker="o", color="black", markersize=4
            ),
            marker_handle(
                "added by this study",
                marker="o",
                color="black",
                markerfacecolor="white",
                markersize=4,
            ),
        ]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(float(np.min(ms)) / 4, float(np.max(ms)) * 4)
    ax.set_ylim(bottom, top)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    log_scores(ax.yaxis)
    ax.set_xlabel("milliseconds per move, measured (log scale)")
    ax.set_ylabel("mean score (95% interval, log scale)")
    ax.grid(which="major", linewidth=0.4, color="0.88")
    ax.set_axisbelow(True)
    legend_above(fig, handles, ncols=4)
    parallel = [str(v).lower() == "true" for v in table.get("parallel", [False] * len(table))]
    names = [f"{n} (parallel)" if p else n for n, p in zip(table["name"], parallel, strict=True)]
    label_points(ax, np.column_stack([ms, mean]), names)
    return fig


def benchmark_reach(table: pd.DataFrame) -> Figure:
    """Reach rates of every benchmark entry, one row each in table order: a panel per tile
    (2048 to 16384), the share of games reaching it with its 95% Wilson interval (0 drawn,
    the number of games written at the right, so 0 of 10 and 0 of 1000 read apart). Beyond
    MAX_ROWS entries the rows continue in a second column, each with one panel of all tiles."""
    one = len(row_blocks(len(table))) == 1
    fig, panels, blocks = row_figure(
        len(table), [1.0] * (len(REACH) if one else 1), extra=0.95 if one else 1.15
    )
    for axes, rows in zip(panels, blocks, strict=True):
        part = table.iloc[list(rows)]
        shade = [i % 2 == 1 for i in range(len(part))]
        y = rows_axis(axes[0], list(part["name"]))
        handles = reach_rows(axes, part, y, shade)
    if not one:
        legend_above(fig, handles, ncols=len(handles))
    return fig
