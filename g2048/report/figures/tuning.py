"""The tuning runs' figures: NSGA-II's Pareto fronts (`pareto_fronts`) and hypervolume
(`hypervolume`), every weight-tuning run's progress on held-out games (`tuner_progress`), TD
learning curves (`td_learning`), TD recipes side by side with another program
(`td_recipes`), one recipe's long curves with their gaps (`td_agreement`), and the tuning
comparisons the findings test (`tuning_differences`)."""

from __future__ import annotations

from itertools import combinations
from math import ceil

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, MaxNLocator

from g2048.report.figures.labels import label_line_ends
from g2048.report.figures.style import (
    COLUMN,
    GREY,
    LINESTYLES,
    MARKERS,
    MAX_SERIES,
    PAGE,
    Style,
    legend_above,
    legend_handle,
    marker_handle,
    new_figure,
    panel_grid,
    panels_by,
    series_style,
    tag_series,
    thousands,
)
from g2048.report.replicates import FAMILY_CONTROL, family_rows
from g2048.report.stats import ALPHA
from g2048.study.naming import OBJECTIVES, objective_label


def pareto_fronts(runs: list[dict], selected: list[dict]) -> Figure:
    """Pairwise scatter of the NSGA-II first fronts of every seed (a colour and marker per seed,
    up to 8), on the values the run trained on; each seed's pick (the selection rule's) as a
    star at its training values."""
    pairs = list(combinations(range(len(OBJECTIVES)), 2))
    fig = new_figure(PAGE, 4.6)
    axes = fig.subplots(2, 3)
    handles = []
    for k, (run, sel) in enumerate(zip(runs, selected, strict=True)):
        st = series_style(k)
        F = np.asarray(run["F"])[np.asarray(run["front"])]
        star = np.asarray(sel["train"])
        for ax, (i, j) in zip(axes.flat, pairs, strict=True):
            points = ax.scatter(
                F[:, i], F[:, j], s=7, marker=st.marker, color=st.color, alpha=0.7, linewidths=0
            )
            tag_series(points, f"seed {run['seed']}")
            ax.scatter(
                star[i],
                star[j],
                marker="*",
                s=55,
                color=st.color,
                edgecolor="black",
                linewidths=0.5,
                zorder=3,
            )
        handles.append(legend_handle(st, f"seed {run['seed']}", linestyle="none"))
    for ax, (i, j) in zip(axes.flat, pairs, strict=True):
        ax.set_xlabel(OBJECTIVES[i].label)
        ax.set_ylabel(OBJECTIVES[j].label)
    chosen = marker_handle(
        "the seed's pick",
        marker="*",
        markersize=7,
        color="white",
        markeredgecolor="black",
    )
    legend_above(fig, [*handles, chosen], ncols=min(len(handles) + 1, 6))
    return fig


def _band(ax: Axes, histories: list[pd.DataFrame], x: str, y: str, st: Style, name: str) -> Line2D:
    """Mean over seeds as a line, the range over seeds as a band of the same colour."""
    table = pd.concat([h.set_index(x)[y] for h in histories], axis=1)
    mean = table.mean(axis=1)
    every = max(len(table) // 12, 1)
    (line,) = ax.plot(table.index, mean, markevery=every, **st.line(markersize=3))
    tag_series(line, name)
    ax.fill_between(
        table.index, table.min(axis=1), table.max(axis=1), alpha=0.18, color=st.color, linewidth=0
    )
    return line


def hypervolume(histories: dict[str, list[pd.DataFrame]]) -> Figure:
    """NSGA-II hypervolume of the first front per generation, one panel per run (each run has
    its own objective space: its agent and move cap): mean and range over seeds, relative to
    the largest hypervolume any front of the run reached, so that 1 is the best it found
    (with fresh game seeds per generation a front's value can fall)."""
    fig, axes = panel_grid(len(histories), 2.3, 0.3)
    for k, (ax, (run, runs)) in enumerate(zip(axes.flat, histories.items(), strict=False)):
        best = max(float(h["hypervolume"].max()) for h in runs)
        scaled = [h.assign(relative=h["hypervolume"] / best) for h in runs]
        _band(ax, scaled, "generation", "relative", series_style(0), run)
        ax.set_title(f"{run} ({len(runs)} seeds)")
        ax.set_xlabel("generation")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, 1.05)
        if k % axes.shape[1] == 0:
            ax.set_ylabel("hypervolume / run's largest")
    return fig


def fitness_label(fitness: str) -> str:
    """A tuning fitness's name as an axis reads it: 'log2_max_tile' -> 'mean log2 max tile'."""
    return objective_label(fitness)


UNTUNED = (0, (6, 2, 1, 2, 1, 2))  # dash-dot-dot: no series' line style (style.LINESTYLES)


def tuner_progress(curves: pd.DataFrame, improving: frozenset[str] = frozenset()) -> Figure:
    """Every weight-tuning run's incumbent on held-out games against the training games it had
    played (`convergence.progress_curves`: one row per run and point), one panel per group of
    runs judged alike (evaluator and measure), at most 8 runs a panel: the mean over seeds as a
    line with a marker per point, plus or minus its standard error as a band; each run named at
    its line's end, followed by an up arrow when it was still improving at its last step
    (`improving`); the untuned weights' value on the same games (`baseline`) as a grey
    dash-dot-dot level (no series' style), named "untuned" at its end."""
    runs = dict.fromkeys(curves["run"])
    first = curves.groupby("run", sort=False).first()
    panels = panels_by({run: (first.evaluator[run], first.measure[run]) for run in runs})
    fig, axes = panel_grid(len(panels), 2.4, 0.2)
    ends = []
    for ax, ((evaluator, measure), members) in zip(axes.flat, panels, strict=False):
        points, colors = [], []
        for i, run in enumerate(members):
            st = series_style(i)
            curve = curves[curves["run"] == run].sort_values("training_games")
            x, mean, se = curve["training_games"], curve["mean"], curve["se"]
            (line,) = ax.plot(x, mean, **st.line(markersize=3))
            tag_series(line, run)
            ax.fill_between(x, mean - se, mean + se, alpha=0.18, color=st.color, linewidth=0)
            points.append((float(x.iloc[-1]), float(mean.iloc[-1])))
            colors.append(st.color)
        names = [f"{run} \u2191" if run in improving else run for run in members]
        baseline = curves.loc[curves["run"] == members[0], "baseline"]
        if len(baseline) and np.isfinite(baseline.iloc[0]):
            level = float(baseline.iloc[0])
            end = float(curves.loc[curves["run"].isin(members), "training_games"].max())
            (untuned,) = ax.plot(
                [0, end], [level, level], color=GREY, linestyle=UNTUNED, lw=1.0, zorder=1
            )  # up to the runs' end, where its name stands
            untuned.set_gid("untuned")
            points, names, colors = [*points, (end, level)], [*names, "untuned"], [*colors, GREY]
        ends.append((ax, points, names, colors))
        seeds = int(curves.loc[curves["run"].isin(members), "seeds"].max())
        ax.set_title(f"{evaluator} weights ({seeds} seeds)")
        ax.set_xlabel("training games played")
        ax.xaxis.set_major_formatter(FuncFormatter(thousands))
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.set_ylabel(f"{fitness_label(measure)}, held-out")
        if curves.loc[curves["run"].isin(members), "mean"].abs().max() >= 1000:
            ax.yaxis.set_major_formatter(FuncFormatter(thousands))
    label_line_ends(ends)
    return fig


def td_learning(curves: dict[int, pd.DataFrame]) -> Figure:
    """TD(0) learning curves, one line per seed: mean score and the share of games reaching
    2048 per block of training games (greedy self-play while learning)."""
    fig = new_figure(PAGE, 2.7)
    left, right = fig.subplots(1, 2)
    handles = []
    for k, (seed, curve) in enumerate(sorted(curves.items())):
        st = series_style(k % MAX_SERIES)
        every = max(len(curve) // 8, 1)
        for ax, column in ((left, "mean_score"), (right, "reach_2048")):
            (line,) = ax.plot(
                curve["games"], curve[column], markevery=(k % every, every), **st.line(markersize=3)
            )
            tag_series(line, f"seed {seed}")
        handles.append(legend_handle(st, f"seed {seed}"))
    left.set_ylabel("mean score per block")
    left.yaxis.set_major_formatter(FuncFormatter(thousands))
    right.set_ylabel("share of games reaching 2048")
    right.set_ylim(0, 1)
    for ax in (left, right):
        ax.set_xlabel("training games")
        ax.xaxis.set_major_formatter(FuncFormatter(thousands))
    legend_above(fig, handles, ncols=min(len(handles), 8))
    return fig


def td_recipes(curves: pd.DataFrame) -> Figure:
    """Learning curves of TD recipes from two programs at equal games (`tools/td_recipes.py`:
    columns program, recipe, seed, games, mean_score): the mean over seeds per block, a colour
    per recipe, a marker and line style per program. More recipes than a panel holds
    (MAX_SERIES lines) go to side-by-side panels, each with the first recipe (plain TD) as the
    common reference."""
    recipes = list(dict.fromkeys(curves["recipe"]))
    programs = list(dict.fromkeys(curves["program"]))
    groups = recipe_panels(recipes, MAX_SERIES // len(programs))
    if len(groups) == 1:
        fig = new_figure(COLUMN, 2.6)
        axes = [fig.add_subplot()]
    else:
        fig, grid = panel_grid(len(groups), 2.4, 0.5, sharey=True)
        axes = list(grid.flat)
    handles = {}
    for ax, group in zip(axes, groups, strict=False):
        for recipe in group:
            st = series_style(recipes.index(recipe))
            for j, program in enumerate(programs):
                rows = curves[(curves.recipe == recipe) & (curves.program == program)]
                mean = rows.groupby("games").mean_score.mean()
                every = max(len(mean) // 6, 1)
                look = {"marker": MARKERS[j], "linestyle": LINESTYLES[j]}
                (line,) = ax.plot(
                    mean.index,
                    mean.to_numpy(),
                    **st.line(markevery=(j * every // 2, every), **look),
                )
                tag_series(line, f"{recipe} ({program})")
                label = f"{recipe}, {program}"
                handles.setdefault(label, legend_handle(st, label, **look))
        ax.set_xlabel("training games")
        ax.xaxis.set_major_formatter(FuncFormatter(thousands))
        ax.yaxis.set_major_formatter(FuncFormatter(thousands))
    axes[0].set_ylabel("mean score per block of 1000")
    legend_above(fig, list(handles.values()), ncols=len(programs) * (1 + (len(groups) > 1)))
    return fig


def td_agreement(curves: pd.DataFrame, window: int = 10) -> Figure:
    """One recipe's long learning curves by two programs (columns program, seed, games,
    mean_score; blocks of 1000 games), each a line per program and seed, over windows of
    `window` blocks: the mean score above; below, each line's difference in percent from the
    last program's first seed (the reference), on the games both have played. Where one
    program has two seeds, the gap between them is what chance alone moves a curve by."""
    programs = list(dict.fromkeys(curves["program"]))
    series = [(p, s) for p in programs for s in sorted(set(curves[curves.program == p].seed))]
    reference = (programs[-1], min(curves[curves.program == programs[-1]].seed))
    size = 1000 * window

    def smoothed(program: str, seed: int) -> pd.Series:
        rows = curves[(curves.program == program) & (curves.seed == seed)]
        full = rows.groupby((rows.games - 1) // size).filter(lambda w: len(w) == window)
        means = full.groupby((full.games - 1) // size).mean_score.mean()
        return pd.Series(means.to_numpy(), index=(means.index + 1) * size)

    base = smoothed(*reference)
    fig = new_figure(COLUMN, 4.0)
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(3, 2))
    handles = []
    for k, (program, seed) in enumerate(series):
        st = series_style(k)
        name = f"{program} seed {seed}"
        line = smoothed(program, seed)
        every = max(len(line) // 6, 1)
        look = {"markevery": (k * every // len(series), every), "markersize": 3}
        (drawn,) = top.plot(line.index, line.to_numpy(), **st.line(**look))
        tag_series(drawn, name)
        handles.append(legend_handle(st, name, markersize=3))
        if (program, seed) != reference:
            both = line.index.intersection(base.index)
            gap = 100 * (line[both] / base[both] - 1)
            (drawn,) = bottom.plot(both, gap.to_numpy(), **st.line(**look))
            tag_series(drawn, name)
    bottom.axhline(0, color="0.5", linewidth=0.6, zorder=0)
    top.set_ylabel(f"mean score\n(per {window} 000 games)")
    top.yaxis.set_major_formatter(FuncFormatter(thousands))
    bottom.set_ylabel(f"% from {reference[0]}\nseed {reference[1]}")
    bottom.set_xlabel("training games")
    bottom.xaxis.set_major_formatter(FuncFormatter(thousands))
    legend_above(fig, handles, ncols=min(len(handles), 2))
    return fig


def recipe_panels(recipes: list[str], per_panel: int) -> list[list[str]]:
    """The recipes split evenly over as few panels as hold `per_panel` each, the first recipe
    (the reference) repeated in every panel after the first."""
    if len(recipes) <= per_panel:
        return [recipes]
    first, rest = recipes[0], recipes[1:]
    panels = ceil(len(rest) / (per_panel - 1))
    size = ceil(len(rest) / panels)
    return [[first, *rest[i : i + size]] for i in range(0, len(rest), size)]


def _forest(ax: Axes, rows: pd.DataFrame, labels: list[str], colors: list[str]) -> None:
    """One panel of tested differences, a row each from the top: the difference as a marker
    (filled where its Holm p < ALPHA, open otherwise) with its Holm-level interval, a grey
    band of +- its smallest detectable difference, and 0 as a line."""
    y = np.arange(len(rows))[::-1]
    for yi, (_, r), color in zip(y, rows.iterrows(), colors, strict=True):
        ax.fill_betweenx([yi - 0.3, yi + 0.3], -r.mdd, r.mdd, color="0.9", lw=0, zorder=0)
        found = bool(r.holm_pvalue < ALPHA)
        ax.errorbar(
            r["diff"], yi, xerr=[[r["diff"] - r.diff_low], [r.diff_high - r["diff"]]],
            fmt="o", color=color, markerfacecolor=color if found else "white", markersize=4,
            elinewidth=0.9, capsize=2, zorder=3,
        )  # fmt: skip
    ax.axvline(0, color=GREY, lw=0.8, zorder=1)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:+,.0f}" if v else "0"))
    ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
    ax.grid(axis="x", linewidth=0.4, color="0.88")


def tuning_differences(methods: pd.DataFrame, pairs: pd.DataFrame) -> Figure:
    """The tuning comparisons the findings test, each in the game its runs were tuned in (the
    test stage's games): left, each tuner against its evaluator's random-search control (the
    method pairs table's family against the control, tuner - control); right, each run
    against its evaluator's hand baseline (the methods table, run - baseline). Each
    difference of mean scores over seeds with its Holm-level interval, filled where Holm p <
    ALPHA, beside a grey band of +- the difference its test finds with 80% power; a colour
    per evaluator; the two families one above the other, their names at one margin."""
    control = family_rows(pairs, FAMILY_CONTROL)
    based = methods[methods["baseline"].apply(lambda b: isinstance(b, str))]
    evaluators = list(dict.fromkeys([*control.evaluator, *based.evaluator]))
    color = {e: series_style(k).color for k, e in enumerate(evaluators)}
    sizes = [max(len(control), 1), max(len(based), 1)]
    fig = new_figure(PAGE, 1.9 + 0.2 * sum(sizes))
    top, bottom = fig.subplots(2, 1, sharex=False, gridspec_kw={"height_ratios": sizes})
    panels = (
        (top, control, [f"{r.run} - {r.versus}" for r in control.itertuples()],
         "each tuner - the random-search control of its evaluator (primary family)"),
        (bottom, based.rename(columns={"diff_vs_baseline": "diff"}),
         [f"{r.run} - {r.baseline}" for r in based.itertuples()],
         "each run - the hand baseline of its evaluator (second family)"),
    )  # fmt: skip
    for ax, rows, labels, title in panels:
        if rows.empty:
            ax.set_visible(False)
            continue
        _forest(ax, rows, labels, [color[e] for e in rows.evaluator])
        ax.set_title(title)
        ax.set_xlabel("difference of mean scores over seeds")
    handles = [marker_handle(e, marker="o", color=color[e], markersize=4) for e in evaluators]
    handles += [
        marker_handle(f"filled: Holm p < {ALPHA:g}", marker="o", color="black", markersize=4),
        marker_handle("open: no clear difference", marker="o", color="black",
                      markerfacecolor="white", markersize=4),
        Patch(color="0.9", label="+- the difference found with 80% power"),
    ]  # fmt: skip
    legend_above(fig, handles, ncols=min(len(handles), 4))
    return fig
