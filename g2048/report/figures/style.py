"""The print style every figure shares: sizes, fonts and the palette (set on import), each
series' colour, marker and line style, tick formats, legends, saving at 300 dpi, and the
layouts and marks more than one figure draws: grids of panels, series split over panels,
mean scores with their intervals clipped to the axes."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from math import ceil
from pathlib import Path
from typing import TypeVar

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from cycler import cycler  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.axis import Axis  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

DPI = 300
COLUMN = 3.5  # inches: one column of a two-column page
PAGE = 7.0  # inches: the text width of a page
MIN_PT = 7  # the smallest text, in points at print size
MAX_SERIES = 8  # series per panel; more are split over panels

# Okabe & Ito (2008), "Color Universal Design": distinguishable with any colour vision. The
# yellow, the least visible on white, comes last.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "h")
LINESTYLES = ("-", "--", "-.", ":")
GREY = "0.45"

plt.rcParams.update(
    {
        "figure.dpi": DPI,
        "savefig.dpi": DPI,
        "font.size": MIN_PT,
        "axes.titlesize": 8,
        "axes.labelsize": MIN_PT,
        "xtick.labelsize": MIN_PT,
        "ytick.labelsize": MIN_PT,
        "legend.fontsize": MIN_PT,
        "figure.titlesize": 8,
        "axes.linewidth": 0.6,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "xtick.major.width": 0.6,
        "ytick.major.width": 0.6,
        "xtick.minor.width": 0.4,
        "ytick.minor.width": 0.4,
        "xtick.major.size": 2.5,
        "ytick.major.size": 2.5,
        "xtick.minor.size": 1.5,
        "ytick.minor.size": 1.5,
        "lines.linewidth": 1.0,
        "lines.markersize": 3.5,
        "lines.markeredgewidth": 0.6,
        "errorbar.capsize": 1.5,
        "legend.frameon": False,
        "legend.handlelength": 2.4,
        "legend.columnspacing": 1.2,
        "pdf.fonttype": 42,  # TrueType in the PDF: text stays text
        "axes.prop_cycle": cycler(color=PALETTE),
    }
)

Key = TypeVar("Key", bound=Hashable)


@dataclass(frozen=True)
class Style:
    """How one series of a panel is drawn: colour, marker and line style, all three distinct
    from those of the panel's other series (up to MAX_SERIES; line styles repeat after 4)."""

    color: str
    marker: str
    linestyle: str

    def line(self, **kw: object) -> dict[str, object]:
        return {"color": self.color, "marker": self.marker, "linestyle": self.linestyle} | kw


def series_style(i: int) -> Style:
    """The i-th series' style of a panel."""
    return Style(PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)], LINESTYLES[i % 4])


def text_color(color: str) -> str:
    """A series' colour for its label's text; the palette's yellow is too faint for text."""
    return "black" if color == PALETTE[-1] else color


def tag_series(artist: object, name: str) -> None:
    """Tag a series' artist (its points or its line), so that checks can find each panel's
    series and their styles."""
    artist.set_gid(f"series:{name}")  # type: ignore[attr-defined]


def new_figure(width: float, height: float) -> Figure:
    """A figure of its print size (inches), laid out with thin pads."""
    fig = plt.figure(figsize=(width, height), dpi=DPI, layout="constrained")
    fig.get_layout_engine().set(w_pad=3 / 72, h_pad=3 / 72, wspace=0.03, hspace=0.03)
    return fig


def panel_grid(
    n: int, row_height: float, extra: float, **shared: object
) -> tuple[Figure, np.ndarray]:
    """A figure of n panels, two a row (a single panel one column wide), `row_height` inches a
    row and `extra` inches more; its axes (rows, columns), those beyond the n-th hidden."""
    cols = min(n, 2)
    rows = ceil(n / cols)
    fig = new_figure(COLUMN if n == 1 else PAGE, extra + row_height * rows)
    axes = fig.subplots(rows, cols, squeeze=False, **shared)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, axes


def panels_by(keys: dict[str, Key]) -> list[tuple[Key, list[str]]]:
    """Names grouped by their key (in order of appearance), each group split evenly over as
    few panels as hold at most MAX_SERIES names (11: 6 + 5): (key, names) per panel."""
    groups: dict[Key, list[str]] = {}
    for name, key in keys.items():
        groups.setdefault(key, []).append(name)
    panels = []
    for key, names in groups.items():
        size = ceil(len(names) / ceil(len(names) / MAX_SERIES))
        panels += [(key, names[i : i + size]) for i in range(0, len(names), size)]
    return panels


def save(fig: Figure, stem: str | Path) -> None:
    """Write stem.png (300 dpi) and stem.pdf (without a creation date, so reruns give equal
    files), both at the figure's own size; a suffix of `stem` is replaced."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(stem.with_suffix(".png"), dpi=DPI)
    fig.savefig(stem.with_suffix(".pdf"), metadata={"CreationDate": None})
    plt.close(fig)


def thousands(value: float, _pos: object = None) -> str:
    """A score tick: 500, 2k, 10k, 1.5M."""
    if abs(value) >= 1e6:
        return f"{value / 1e6:g}M"
    return f"{value / 1000:g}k" if abs(value) >= 1000 else f"{value:g}"


LOG_STEPS = ((1.0,), (1.0, 3.0), (1.0, 2.0, 5.0), tuple(float(m) for m in range(1, 10)))


def log_ticks(
    axis: Axis,
    low: float,
    high: float,
    format: Callable[[float, object], str] = lambda v, _: f"{v:g}",
    sparsest: int = 2,
    least: int = 3,
) -> None:
    """Ticks of a log axis spanning [low, high]: at 1, 2 and 5 times the powers of ten (or
    the `sparsest` steps of LOG_STEPS, where 0 is the powers alone), at the next denser steps
    while that leaves fewer than `least`; unlabelled minor ticks."""
    decades = range(int(np.floor(np.log10(low))) - 1, int(np.ceil(np.log10(high))) + 1)
    for subs in LOG_STEPS[sparsest:]:
        if sum(low <= m * 10.0**d <= high for d in decades for m in subs) >= least:
            break
    axis.set_major_locator(LogLocator(subs=subs))
    axis.set_major_formatter(FuncFormatter(format))
    axis.set_minor_formatter(NullFormatter())


def log_scores(axis: Axis) -> None:
    """A log score axis (limits set) with ticks written 2k, 50k."""
    low, high = sorted(axis.get_view_interval())
    log_ticks(axis, low, high, thousands)


def legend_above(fig: Figure, handles: list, ncols: int) -> None:
    fig.legend(handles=handles, loc="outside upper center", ncols=ncols, handletextpad=0.5)


def legend_handle(st: Style, label: str, **kw: object) -> Line2D:
    """A legend entry drawn in a series' style."""
    return Line2D([], [], label=label, **st.line(**kw))


def marker_handle(label: str, **kw: object) -> Line2D:
    """A legend entry of a lone marker."""
    return Line2D([], [], linestyle="none", label=label, **kw)


def score_bars(
    ax: Axes, x: pd.Series, rows: pd.DataFrame, bottom: float, st: Style, name: str, **kw: object
) -> None:
    """The mean scores of `rows` at x, in a series' colour and marker (tagged `name`), with
    their intervals (score_low to score_high) as error bars stopped at the axes' `bottom`."""
    mean = rows["score_mean"].to_numpy(float)
    low = np.maximum(rows["score_low"].to_numpy(float), bottom)
    err = np.clip([mean - low, rows["score_high"].to_numpy(float) - mean], 0, None)
    bars = ax.errorbar(
        x,
        rows["score_mean"],
        yerr=err,
        fmt=st.marker,
        color=st.color,
        elinewidth=0.7,
        capsize=1.5,
        **kw,
    )
    tag_series(bars.lines[0], name)
