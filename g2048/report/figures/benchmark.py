"""The benchmark's figures: strength against cost, a line per search and evaluator beside the
published state of the art (`cost_strength`), and the share of games reaching each tile, a row
per entry (`benchmark_reach`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, NullFormatter

from g2048.evaluators import EVALUATOR_NAMES
from g2048.report.figures.labels import LEVEL_DASHES, label_levels, label_points
from g2048.report.figures.rows import reach_rows, row_blocks, row_figure, rows_axis
from g2048.report.figures.style import (
    GREY,
    PAGE,
    Style,
    legend_above,
    log_scores,
    marker_handle,
    new_figure,
    score_bars,
    series_style,
)
from g2048.report.published import PUBLISHED
from g2048.report.tables import REACH
from g2048.study.agent_records import MONTECARLO_AGENT, RANDOM_AGENT, recorded_agent

# how a search's effort is set
FIXED, NODES, TIME, ADAPTIVE = "fixed", "nodes", "time", "adaptive"
_SEARCH_NAMES = {"montecarlo": "Monte Carlo", "random": "random play"}
_LINESTYLES = {"expectimax": "-", "montecarlo": "--", "hybrid": "-.", "switching": ":"}
# Monte Carlo and hybrid have markers of their own (the evaluator's colour kept), so that their
# points are told apart where no line joins them
_SEARCH_MARKERS = {"montecarlo": "d", "hybrid": "*"}
_FILLS: dict[str, dict[str, object]] = {
    FIXED: {},
    NODES: {"markerfacecolor": "white"},
    TIME: {"fillstyle": "bottom", "markerfacecoloralt": "white"},
    ADAPTIVE: {"fillstyle": "left", "markerfacecoloralt": "white"},
}
_FILL_NAMES = {
    FIXED: "filled: fixed effort",
    NODES: "open: node budget",
    TIME: "half: time budget",
    ADAPTIVE: "half (left): adaptive",
}
_EFFORTS = {FIXED: "fixed depth", NODES: "node budget", TIME: "time budget",
            ADAPTIVE: "adaptive depth"}  # fmt: skip


@dataclass(frozen=True)
class SearchLine:
    """A line of the cost figure: the search (the agent; greedy is expectimax's 1 ply), how its
    effort is set (a fixed depth or number of rollouts, a time or node budget, the adaptive
    depth) and the evaluator it searches with ("" for random play, which has none). Rows of
    one line differ only in depth, rollouts, budget or weights."""

    search: str
    mode: str
    evaluator: str

    @property
    def label(self) -> str:
        """E.g. 'nneonneo, expectimax time budget', 'ovolve, Monte Carlo fixed rollouts'."""
        search = _SEARCH_NAMES.get(self.search, self.search)
        if not self.evaluator:
            return search
        fixed = self.search == MONTECARLO_AGENT and self.mode == FIXED
        return f"{self.evaluator}, {search} {'fixed rollouts' if fixed else _EFFORTS[self.mode]}"

    @property
    def style(self) -> Style:
        """Colour of its evaluator (random play its own), marker of its evaluator or of its
        search (Monte Carlo's, hybrid's), its search's line style."""
        k = EVALUATOR_NAMES.index(self.evaluator) if self.evaluator else len(EVALUATOR_NAMES)
        st = series_style(k)
        marker = _SEARCH_MARKERS.get(self.search, st.marker)
        return Style(st.color, marker, _LINESTYLES.get(self.search, "none"))


def line_of(agent: dict, evaluator: str) -> SearchLine:
    """The line of a benchmark entry, from its agent's settings and its evaluator."""
    a = recorded_agent(agent)
    if a["name"] == RANDOM_AGENT:
        return SearchLine(RANDOM_AGENT, FIXED, "")
    if a["budgeted"]:
        mode = TIME if a["budget_ms"] else NODES
    else:
        mode = ADAPTIVE if a["adaptive"] else FIXED
    return SearchLine(a["search"], mode, evaluator)


def frontier(cost: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Indices of the rows that no cheaper (or equally cheap) row outscores, by cost: a
    line's best score for its time."""
    order = np.lexsort((-np.asarray(score), np.asarray(cost)))
    best, keep = -np.inf, []
    for i in order:
        if score[i] > best:
            keep.append(i)
            best = score[i]
    return np.array(keep, dtype=int)


def measured_on(provenance: dict) -> str:
    """The CPU model (or models, joined by 'and') that played the benchmark's games, from a
    run's provenance summary (`g2048.study.records.provenance.summarise`)."""
    cpus = {
        group["environment"]["cpu"]
        for group in provenance["environments"]
        if any(job.startswith("results/benchmark/") for job in group["jobs"])
    }
    return " and ".join(sorted(cpus))


def _legend(lines: list[SearchLine]) -> list[Line2D]:
    """Legend entries: each evaluator (colour and marker) and random play, each search (line
    style), each way effort is set (fill), and the published levels."""
    handles = []
    ordered = sorted(lines, key=lambda line: not line.evaluator)  # random play last
    for line in {line.evaluator or line.search: line for line in ordered}.values():
        st = series_style(EVALUATOR_NAMES.index(line.evaluator)) if line.evaluator else line.style
        name = line.label if not line.evaluator else line.evaluator
        handles.append(marker_handle(name, marker=st.marker, color=st.color, markersize=4))
    for search in dict.fromkeys(line.search for line in lines if line.search in _LINESTYLES):
        name = _SEARCH_NAMES.get(search, search)  # greedy, expectimax's 1 ply, among them
        style, marker = _LINESTYLES[search], _SEARCH_MARKERS.get(search, "")
        handles.append(
            Line2D([], [], color="black", linestyle=style, marker=marker or None,
                   markersize=5, markevery=[1], label=name, lw=1.0)
        )  # fmt: skip
    for mode in dict.fromkeys(line.mode for line in lines if line.evaluator):
        handles.append(
            marker_handle(
                _FILL_NAMES[mode], marker="o", color="black", markersize=4, **_FILLS[mode]
            )
        )
    handles.append(
        Line2D([], [], color=GREY, lw=0.7, linestyle=LEVEL_DASHES, label="published, not measured")
    )
    return handles


def cost_strength(
    table: pd.DataFrame, entries: list[dict], width: float = PAGE, cpu: str = ""
) -> Figure:
    """The study's key figure, strength against cost: mean score (95% t interval, log scale)
    against the measured milliseconds per move (log scale), one line per search and evaluator
    (`line_of`; the evaluator's colour and marker, the search's line style, filled for a fixed
    effort, open under a budget), joining the line's rows that no cheaper row of it outscores;
    the published state of the art (`PUBLISHED`) as grey dashed levels named at the left.
    Page wide every point is named; narrower (one column) the legend alone tells them apart."""
    by_name = {e["name"]: e for e in entries}
    lines = [line_of(by_name[n]["agent"], by_name[n]["evaluator"]) for n in table["name"]]
    column = width < PAGE
    fig = new_figure(width, 4.8 if column else 6.4)
    ax = fig.subplots()
    ms = table["ms_per_move"].to_numpy(float)
    mean = table["score_mean"].to_numpy(float)
    bottom = max(float(np.min(mean)) / 2.5, 1.0)
    top = max(float(np.max(table["score_high"])), *(p.score for p in PUBLISHED)) * 1.3
    for line in dict.fromkeys(lines):
        st = line.style
        rows = np.flatnonzero([other == line for other in lines])
        on = rows[frontier(ms[rows], mean[rows])]
        if len(on) > 1:
            (drawn,) = ax.plot(
                ms[on], mean[on], color=st.color, linestyle=st.linestyle, lw=1.0, zorder=2
            )
            drawn.set_gid(f"line:{line.label}")
        part = table.iloc[rows]
        score_bars(
            ax,
            part.ms_per_move,
            part,
            bottom,
            st,
            line.evaluator or line.search,
            markersize=4,
            zorder=3,
            **_FILLS[line.mode],
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(float(np.min(ms)) / 4, float(np.max(ms)) * 4)
    ax.set_ylim(bottom, top)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    log_scores(ax.yaxis)
    where = f"measured on {cpu or 'this machine'}"
    joint = "\n" if column else ", "
    ax.set_xlabel(f"milliseconds per move (log scale){joint}{where}")
    ax.set_ylabel("mean score (95% interval, log scale)")
    ax.grid(which="major", linewidth=0.4, color="0.88")
    ax.set_axisbelow(True)
    legend_above(fig, _legend(lines), ncols=3 if column else 4)
    label_levels(ax, [p.score for p in PUBLISHED], [p.label for p in PUBLISHED], GREY)
    if not column:
        parallel = [str(v).lower() == "true" for v in table.get("parallel", [False] * len(ms))]
        names = [
            f"{n} (parallel)" if p else n for n, p in zip(table["name"], parallel, strict=True)
        ]
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
