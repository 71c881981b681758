"""The study's figures, each a function from result data to a matplotlib Figure, in one style:
text legible at a column's width (legends 9 pt, labels 10 pt), the Okabe-Ito palette (safe for
colour-blind readers), integer ticks on axes that count, no error bar where there is no bar, and
score intervals drawn clipped at 0 (a t interval of a few games can reach below zero, which no
score can; the tables keep the interval as computed)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from cycler import cycler  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from g2048.report.tables import REACH  # noqa: E402
from g2048.study.naming import OBJECTIVES  # noqa: E402

# Okabe & Ito (2008), "Color Universal Design": distinguishable with any colour vision.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
plt.rcParams.update(
    {
        "font.size": 10,
        "axes.labelsize": 10,
        "axes.titlesize": 11,
        "xtick.labelsize": 9,
        "ytick.labelsize": 9,
        "legend.fontsize": 9,
        "axes.prop_cycle": cycler(color=PALETTE),
    }
)


def save(fig: plt.Figure, stem: str | Path) -> None:
    """Write stem.png and stem.pdf (without a creation date, so reruns give equal files)."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(stem.with_suffix(".png"), dpi=150, bbox_inches="tight")
    fig.savefig(stem.with_suffix(".pdf"), bbox_inches="tight", metadata={"CreationDate": None})
    plt.close(fig)


def pareto_fronts(runs: list[dict], selected: list[dict]) -> plt.Figure:
    """Pairwise scatter of the NSGA-II first fronts of every seed; balanced points as stars."""
    pairs = list(combinations(range(len(OBJECTIVES)), 2))
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5))
    for ax, (i, j) in zip(axes.flat, pairs, strict=True):
        for run, sel in zip(runs, selected, strict=True):
            F = np.asarray(run["F"])[np.asarray(run["front"])]
            points = ax.scatter(F[:, i], F[:, j], s=14, alpha=0.6, label=f"seed {run['seed']}")
            star = np.asarray(sel["objectives"])
            ax.scatter(star[i], star[j], marker="*", s=180, color=points.get_facecolor()[0],
                       edgecolor="black", zorder=3)  # fmt: skip
        ax.set_xlabel(OBJECTIVES[i].label)
        ax.set_ylabel(OBJECTIVES[j].label)
    axes.flat[0].legend()
    fig.suptitle("NSGA-II first fronts (stars: the balanced point chosen for validation)")
    fig.tight_layout()
    return fig


def _band(ax: plt.Axes, histories: list[pd.DataFrame], x: str, y: str, label: str) -> None:
    table = pd.concat([h.set_index(x)[y] for h in histories], axis=1)
    mean = table.mean(axis=1)
    (line,) = ax.plot(table.index, mean, label=f"{label} (mean)")
    ax.fill_between(table.index, table.min(axis=1), table.max(axis=1), alpha=0.25,
                    color=line.get_color(), label=f"{label} (range over seeds)")  # fmt: skip


def hypervolume(histories: dict[str, list[pd.DataFrame]]) -> plt.Figure:
    """NSGA-II hypervolume of the first front per generation: mean and range over seeds, one
    band per run."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for run, runs in histories.items():
        _band(ax, runs, "generation", "hypervolume", run)
    ax.set_xlabel("generation")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("hypervolume of the first front")
    ax.legend()
    fig.tight_layout()
    return fig


def step_size(history: pd.DataFrame) -> pd.Series:
    """A CEM or CMA-ES run's step size per iteration, as a fraction of the tuning box: CMA-ES's
    sigma, the CEM's sampling std averaged over the weights (both search the unit box)."""
    if "sigma" in history:
        return history["sigma"]
    return history.filter(like="std_").mean(axis=1)


def tuner_progress(runs: dict[str, dict]) -> plt.Figure:
    """CEM and CMA-ES runs side by side: per group of runs judged alike (evaluator, fitness),
    the best candidate's fitness per step against the candidates evaluated so far (equal games
    per candidate: equal cost), mean and range over seeds; and every run's step size. `runs`
    maps a run's name to its `label`, evaluator, `judged_by` and its seeds' histories."""
    groups: dict[tuple[str, str], list[str]] = {}
    for name, run in runs.items():
        groups.setdefault((run["evaluator"], run["judged_by"]), []).append(name)
    fig, axes = plt.subplots(1, len(groups) + 1, figsize=(5.2 * (len(groups) + 1), 4))
    for ax, ((evaluator, fitness), names) in zip(axes, groups.items(), strict=False):
        for name in names:
            _band(ax, runs[name]["histories"], "evaluations", "best_f", runs[name]["label"])
        ax.set_title(f"{evaluator}: best candidate per step")
        ax.set_ylabel(fitness)
    right = axes[-1]
    for run in runs.values():
        steps = [h.assign(step=step_size(h)) for h in run["histories"]]
        _band(right, steps, "evaluations", "step", run["label"])
    right.set_yscale("log")
    right.set_title("step size")
    right.set_ylabel("std / sigma (fraction of the box)")
    for ax in axes:
        ax.set_xlabel("candidates evaluated")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def td_learning(curves: dict[int, pd.DataFrame]) -> plt.Figure:
    """TD(0) learning curves, one line per seed: mean score and the share of games reaching
    2048 per block of training games (greedy self-play while learning)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for k, (seed, curve) in enumerate(sorted(curves.items())):
        color = PALETTE[k % len(PALETTE)]
        left.plot(curve["games"], curve["mean_score"], color=color, label=f"seed {seed}")
        right.plot(curve["games"], curve["reach_2048"], color=color, label=f"seed {seed}")
    left.set_ylabel("mean score per block")
    right.set_ylabel("share of games reaching 2048")
    right.set_ylim(0, 1)
    for ax in (left, right):
        ax.set_xlabel("training games")
        ax.legend()
    fig.tight_layout()
    return fig


def _reach_bars(ax: plt.Axes, table: pd.DataFrame) -> None:
    width = 0.8 / len(REACH)
    x = np.arange(len(table))
    for k, tile in enumerate(REACH):
        rate = table[f"reach_{tile}"].to_numpy()
        low, high = table[f"reach_{tile}_low"].to_numpy(), table[f"reach_{tile}_high"].to_numpy()
        ax.bar(x + k * width, rate, width, label=f">= {tile}")
        shown = rate > 0  # no error bar on an empty bar
        err = np.clip([rate - low, high - rate], 0, 1)[:, shown]
        ax.errorbar((x + k * width)[shown], rate[shown], yerr=err, fmt="none", capsize=2,
                    ecolor="black", elinewidth=0.8)  # fmt: skip
    ax.set_xticks(x + 0.4 - width / 2, table["name"], rotation=45, ha="right")
    ax.set_ylabel("share of games (95% Wilson CI)")
    ax.set_ylim(0, 1.08)  # room for a full bar's cap
    ax.legend(ncols=len(REACH), loc="upper left", bbox_to_anchor=(0, 1.14), frameon=False)


def validation_scores(games: dict[str, pd.DataFrame], table: pd.DataFrame) -> plt.Figure:
    """Score distributions of every validated weight set, and their reach rates."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.5))
    names = list(games)
    left.boxplot([games[n]["score"] for n in names], showmeans=True)
    left.set_xticks(range(1, len(names) + 1), names, rotation=45, ha="right")
    left.set_ylabel("final score")
    _reach_bars(right, table)
    fig.tight_layout()
    return fig


def benchmark_reach(table: pd.DataFrame) -> plt.Figure:
    """Reach rates of every benchmark entry."""
    fig, ax = plt.subplots(figsize=(max(7, 0.7 * len(table)), 4.5))
    _reach_bars(ax, table)
    fig.tight_layout()
    return fig


def spread_labels(x: np.ndarray, y: np.ndarray, gap: float, width: float) -> np.ndarray:
    """Heights for the labels of points (x, y), top down: a label that would come within `gap`
    of a higher one less than `width` away along x moves just below it."""
    heights = np.asarray(y, dtype=float).copy()
    placed: list[int] = []
    for i in np.argsort(-heights, kind="stable"):
        for j in sorted(placed, key=lambda j: -heights[j]):
            if abs(x[i] - x[j]) < width and heights[i] > heights[j] - gap:
                heights[i] = heights[j] - gap
        placed.append(i)
    return heights


def cost_strength(table: pd.DataFrame) -> plt.Figure:
    """Strength against cost: mean score (95% CI) against milliseconds per move, log scale; the
    time-budgeted rows of one algorithm and evaluator joined by a line, budgets in order, so
    that the best algorithm at each budget reads off the top line."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    low = np.maximum(table.score_low, 0)  # no score is below zero
    err = np.clip([table.score_mean - low, table.score_high - table.score_mean], 0, None)
    ax.errorbar(table.ms_per_move, table.score_mean, yerr=err, fmt="o", capsize=3, color="C0")
    budgeted = table[table.budget_ms > 0].sort_values("budget_ms")
    groups = budgeted.groupby(["algorithm", "evaluator"])
    for i, ((algorithm, evaluator), line) in enumerate(groups):
        budgets = ", ".join(f"{b:g}" for b in line.budget_ms)
        label = f"{algorithm} ({evaluator}) at {budgets} ms"
        ax.plot(line.ms_per_move, line.score_mean, "-", color=f"C{i + 1}", zorder=3, label=label)
    span = float(table.score_high.max() - min(table.score_low.min(), 0))
    heights = spread_labels(np.log10(table.ms_per_move.to_numpy()),
                            table.score_mean.to_numpy(), gap=0.045 * span, width=0.6)  # fmt: skip
    for row, height in zip(table.itertuples(), heights, strict=True):
        ax.annotate(row.name, (row.ms_per_move * 1.12, height + 0.01 * span), fontsize=8)
    if len(budgeted):
        ax.legend(fontsize=8, loc="upper left")
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds per move (log scale)")
    ax.set_ylabel("mean score")
    fig.tight_layout()
    return fig


def depth_transfer(table: pd.DataFrame) -> plt.Figure:
    """The depth-transfer validation: mean score (95% CI) against expectimax depth, one line
    per weight set, all on the same seeds."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, rows in table.groupby("name", sort=False):
        rows = rows.sort_values("depth")
        low = np.maximum(rows.score_low, 0)  # no score is below zero
        err = np.clip([rows.score_mean - low, rows.score_high - rows.score_mean], 0, None)
        ax.errorbar(rows.depth, rows.score_mean, yerr=err, fmt="o-", capsize=3, label=name)
    ax.set_yscale("log")
    ax.set_xlabel("expectimax depth (plies)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("mean score (95% CI, log scale)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
