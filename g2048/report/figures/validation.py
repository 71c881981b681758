"""The validation's figures: every validated weight set's scores and reach rates, a row each
(`validation_scores`), and the depth transfer, mean score against expectimax depth with a
panel per evaluator (`depth_transfer`, its panels from `transfer_groups`)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from g2048.report.figures.labels import label_line_ends
from g2048.report.figures.rows import reach_rows, row_blocks, row_figure, rows_axis, shade_rows
from g2048.report.figures.style import (
    GREY,
    PALETTE,
    legend_above,
    log_scores,
    log_ticks,
    marker_handle,
    panel_grid,
    panels_by,
    score_bars,
    series_style,
    tag_series,
    thousands,
)
from g2048.report.tables import REACH
from g2048.study.config import transfer_sets, tuned_evaluator, weight_runs
from g2048.study.naming import transfer_name

_CANDIDATE = re.compile(r"(?P<run>.+)-s\d+")


def _run_of(name: str) -> str:
    """The tuning run of a validated weight set ('cem-s3' -> 'cem'); a baseline is its own."""
    match = _CANDIDATE.fullmatch(name)
    return match["run"] if match else name


def validation_scores(games: dict[str, pd.DataFrame], table: pd.DataFrame) -> Figure:
    """Every validated weight set, one row each (the seeds of a tuning run on one shade):
    its score distribution on a log axis (heuristics and networks differ tenfold) as a box
    plot (quartiles, median line, mean diamond, whiskers to the last game within 1.5
    interquartile ranges, dots beyond), and a panel per tile with the share of games reaching
    it (95% Wilson interval; games per row at the right). Beyond MAX_ROWS sets the rows
    continue in further columns, each with one panel of all tiles."""
    names = list(games)
    table = table.set_index("name").loc[names].reset_index()
    one = len(row_blocks(len(names))) == 1
    ratios = [2.6] + [0.85] * len(REACH) if one else [1.3, 1.0]
    fig, panels, blocks = row_figure(len(names), ratios, extra=1.05)
    scores = [games[n]["score"].to_numpy(float) for n in names]
    top = 1.3 * max((float(v.max()) for v in scores), default=1.0)
    low = max(min((float(v.min()) for v in scores), default=1.0), 1.0) / 1.3
    runs = [_run_of(n) for n in names]
    group = np.cumsum([i > 0 and runs[i] != runs[i - 1] for i in range(len(runs))])
    for axes, rows in zip(panels, blocks, strict=True):
        part = [names[i] for i in rows]
        shade = [bool(group[i] % 2) for i in rows]
        y = rows_axis(axes[0], part)
        shade_rows(axes[0], y, shade)
        box = axes[0].boxplot(
            [scores[i] for i in rows],
            positions=y,
            orientation="horizontal",
            widths=0.62,
            showmeans=True,
            manage_ticks=False,
            patch_artist=True,
            boxprops={"facecolor": "white", "edgecolor": "black", "lw": 0.6},
            whiskerprops={"lw": 0.6},
            capprops={"lw": 0.6},
            medianprops={"color": PALETTE[0], "lw": 1.0},
            meanprops={
                "marker": "D",
                "markerfacecolor": PALETTE[1],
                "markeredgecolor": "black",
                "markersize": 2.8,
                "markeredgewidth": 0.4,
            },
            flierprops={
                "marker": ".",
                "markersize": 1.5,
                "markerfacecolor": GREY,
                "markeredgecolor": GREY,
            },
        )
        for artist in box["boxes"]:
            tag_series(artist, "score")
        axes[0].set_xscale("log")  # heuristics near 10k and networks near 100k, both apart
        axes[0].set_xlim(low, top)  # alike in every column of rows
        if one:
            log_ticks(axes[0].xaxis, low, top, thousands, sparsest=1)
        else:  # a narrow panel: powers of ten
            log_ticks(axes[0].xaxis, low, top, thousands, sparsest=0, least=2)
        axes[0].set_xlabel("final score (log scale)" if one else "score (log)")
        axes[0].set_title("score per game")
        axes[0].grid(axis="x", linewidth=0.4, color="0.8")
        axes[0].set_axisbelow(True)
        tiles = reach_rows(axes[1:], table.iloc[list(rows)], y, shade)
    handles = [
        Line2D([], [], color=PALETTE[0], lw=1.0, label="median"),
        marker_handle(
            "mean",
            marker="D",
            markerfacecolor=PALETTE[1],
            markeredgecolor="black",
            markersize=3,
        ),
        marker_handle(
            "quartiles",
            marker="s",
            markerfacecolor="white",
            markeredgecolor="black",
            markersize=5,
        ),
        marker_handle("games beyond 1.5 IQR", marker=".", color=GREY, markersize=3),
    ]
    legend_above(fig, handles + tiles, ncols=4)
    return fig


def transfer_groups(config: dict) -> dict[str, str]:
    """The evaluator of each weight set of a study's depth-transfer validation (a run's pick,
    `tuned-<run>`, or a baseline): the panels of `depth_transfer`."""
    groups = {transfer_name(run): tuned_evaluator(config, run) for run in weight_runs(config)}
    groups |= {b["name"]: b["evaluator"] for b in config["validate"]["baselines"]}
    return {name: groups[name] for name in transfer_sets(config)}


def depth_transfer(table: pd.DataFrame, groups: dict[str, str] | None = None) -> Figure:
    """The depth-transfer validation: mean score (95% t interval, log scale) against the
    expectimax depth, one line per weight set, all on the same seeds; one panel per group of
    `groups` (weight set -> evaluator: its tuned weights beside its baseline), at most 8
    lines a panel; each line named at its right end."""
    names = dict.fromkeys(table["name"])
    panels = panels_by({name: (groups or {}).get(name, "") for name in names})
    fig, axes = panel_grid(len(panels), 2.5, 0.2, sharex=True, sharey=True)
    depths = sorted(table["depth"].unique())
    bottom = max(float(table["score_mean"].min()) / 2, 1.0)
    axes[0, 0].set_ylim(bottom, float(table["score_high"].max()) * 1.3)
    axes[0, 0].set_xlim(min(depths) - 0.25, max(depths) + 0.25)
    ends = []
    for ax, (title, members) in zip(axes.flat, panels, strict=False):
        points, colors = [], []
        for k, name in enumerate(members):
            st = series_style(k)
            rows = table[table["name"] == name].sort_values("depth")
            score_bars(
                ax,
                rows.depth,
                rows,
                bottom,
                st,
                name,
                linestyle=st.linestyle,
                markersize=3.5,
                label=name,
            )
            points.append((float(rows.depth.iloc[-1]), float(rows.score_mean.iloc[-1])))
            colors.append(st.color)
        ends.append((ax, points, list(members), colors))
        ax.set_title(f"{title} weights" if title else "")
        ax.set_yscale("log")
        ax.set_xticks(depths)
        ax.grid(axis="y", linewidth=0.4, color="0.88")
        ax.xaxis.set_tick_params(labelbottom=True)
        ax.set_xlabel("expectimax depth (plies)")
    log_scores(axes[0, 0].yaxis)
    for ax in axes[:, 0]:
        ax.set_ylabel("mean score (95% interval, log scale)")
    label_line_ends(ends)
    return fig
