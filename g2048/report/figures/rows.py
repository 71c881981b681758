"""The row figures' layout and their reach panels: one named row per entry, top down, in
columns of at most MAX_ROWS rows side by side, each row's share of games reaching each tile
with its 95% Wilson interval and the games behind it."""

from __future__ import annotations

from math import ceil

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.transforms import ScaledTranslation

from g2048.report.figures.style import (
    PAGE,
    legend_handle,
    new_figure,
    series_style,
    tag_series,
    text_color,
)
from g2048.report.tables import REACH

ROW_PITCH = 0.14  # inches per named row of the row figures (7 pt text is 0.11 in tall)
MAX_ROWS = 56  # rows per column of a row figure (about a page's height); more: side by side


def row_blocks(n: int) -> list[range]:
    """Rows per column of a row figure: one column up to MAX_ROWS rows, else even columns."""
    blocks = max(ceil(n / MAX_ROWS), 1)
    size = ceil(n / blocks) if n else 0
    return [range(i, min(i + size, n)) for i in range(0, n, size)] if n else [range(0)]


def row_figure(n: int, ratios: list[float], extra: float) -> tuple[Figure, list, list]:
    """A page-wide figure of `n` named rows top down: per column block, panels side by side
    (widths in `ratios`) sharing the rows; `extra` inches for titles, legend and x labels."""
    blocks = row_blocks(n)
    rows = max(len(b) for b in blocks)
    fig = new_figure(PAGE, extra + ROW_PITCH * max(rows, 3))
    subs = fig.subfigures(1, len(blocks), squeeze=False)[0] if len(blocks) > 1 else [fig]
    panels = []
    for sub in subs:
        axes = sub.subplots(
            1,
            len(ratios),
            sharey=True,
            squeeze=False,
            gridspec_kw={"width_ratios": ratios, "wspace": 0.04},
        )[0]
        panels.append(list(axes))
    return fig, panels, blocks


def rows_axis(ax: Axes, names: list[str]) -> np.ndarray:
    """Name the rows of a panel (and those sharing its y axis) top down."""
    y = np.arange(len(names), dtype=float)
    ax.set_yticks(y, names)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    return y


def shade_rows(ax: Axes, y: np.ndarray, shade: list[bool]) -> None:
    """A grey band behind each row marked in `shade`."""
    for row, shaded in zip(y, shade, strict=True):
        if shaded:
            ax.axhspan(row - 0.5, row + 0.5, color="0.93", linewidth=0, zorder=0)


def _games_column(ax: Axes, y: np.ndarray, games: pd.Series) -> None:
    """The number of games behind each row, written right of `ax` under the header 'games'."""
    column = ax.secondary_yaxis("right")
    column.set_yticks(y, [f"{int(n)}" for n in games])
    column.tick_params(axis="y", length=0)
    column.spines["right"].set_visible(False)
    column.set_ylabel("games", rotation=0, labelpad=0, va="bottom", ha="left")
    shift = ScaledTranslation(1 / 72, 3 / 72, ax.get_figure(root=True).dpi_scale_trans)
    column.yaxis.set_label_coords(1.0, 1.0, transform=ax.transAxes + shift)


def _rate_axis(ax: Axes) -> None:
    ax.set_xlim(-0.05, 1.05)
    ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"])
    ax.grid(axis="x", linewidth=0.4, color="0.8")
    ax.set_axisbelow(True)
    ax.set_xlabel("share of games")
    ax.tick_params(axis="y", length=0)


def _reach(
    ax: Axes, table: pd.DataFrame, y: np.ndarray, k: int, tile: int, size: float = 3.0
) -> Line2D:
    """One tile's reach rates (0 drawn too) with their 95% Wilson intervals, at heights y."""
    st = series_style(k)
    rate = table[f"reach_{tile}"].to_numpy(float)
    low = table[f"reach_{tile}_low"].to_numpy(float)
    high = table[f"reach_{tile}_high"].to_numpy(float)
    bars = ax.errorbar(
        rate,
        y,
        xerr=np.clip([rate - low, high - rate], 0, 1),
        fmt=st.marker,
        color=st.color,
        markersize=size,
        elinewidth=0.7,
        capsize=1.2 if size >= 3 else 0.8,
    )
    tag_series(bars.lines[0], f">= {tile}")
    return legend_handle(st, f"\u2265 {tile}", linestyle="none", markersize=3)


def reach_rows(
    axes: list[Axes], table: pd.DataFrame, y: np.ndarray, shade: list[bool]
) -> list[Line2D]:
    """The share of games reaching each tile, per row: one panel per tile when there are as
    many axes as tiles, else all tiles in one panel, each a quarter row apart (then their
    legend entries are returned); the games behind each row at the right."""
    handles = []
    if len(axes) == len(REACH):
        for k, (ax, tile) in enumerate(zip(axes, REACH, strict=True)):
            _reach(ax, table, y, k, tile)
            ax.set_title(f"\u2265 {tile}", color=text_color(series_style(k).color))
    else:
        (ax,) = axes
        for k, tile in enumerate(REACH):
            handles.append(_reach(ax, table, y + 0.22 * (k - 1.5), k, tile, size=2.2))
        ax.set_title("reaching")
    for ax in axes:
        shade_rows(ax, y, shade)
        _rate_axis(ax)
    _games_column(axes[-1], y, table["games"])
    return handles
