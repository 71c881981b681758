"""The figures' print standard, read off the rendered figures: page or column width at 300 dpi,
no text under 7 pt (its font size and its drawn height), no two text boxes overlapping, no
legend or label over a data point, at most 8 series a panel told apart by colour and marker;
checked on every figure the workflow makes, drawn from the last default study's tables in docs/
where it has them, and on small synthetic frames shaped like the study's tables; and what each
figure draws (a line per search and evaluator, published levels, zero rates, the games behind
each rate, normalised hypervolumes, one style per run), and on many series."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import yaml
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D
from matplotlib.text import Text
from PIL import Image

from g2048.report import figures
from g2048.report.figures.labels import spread
from g2048.report.figures.style import GREY
from g2048.report.published import PUBLISHED
from g2048.report.replicates import FAMILY_CONTROL
from g2048.report.tables import REACH
from g2048.study.config import validate_config
from g2048.study.naming import OBJECTIVES
from g2048.study.outputs import FIGURES

ROOT = Path(__file__).resolve().parents[2]
CAPTIONS = ROOT / "workflow" / "report"
rng = np.random.default_rng(2048)

# Frames shaped like the study's tables ----------------------------------------------------------


def reach_columns(rate: float, games: int) -> dict[str, float]:
    half = 1.96 * np.sqrt(max(rate * (1 - rate), 1 / games) / games)
    row = {}
    for k, tile in enumerate(REACH):
        r = rate / 2**k if rate < 1 else 1.0
        row |= {f"reach_{tile}": r, f"reach_{tile}_low": max(r - half, 0.0)}
        row[f"reach_{tile}_high"] = min(r + half, 1.0)
    return row


def bench_row(
    name: str,
    agent: dict,
    evaluator: str,
    ms: float,
    score: float,
    games: int,
    source: str = "source 004",
) -> tuple[dict, dict]:
    """A benchmark table's row and the config entry it comes from."""
    half = 2.0 * score / np.sqrt(games)
    row = {
        "name": name,
        "agent": agent["name"],
        "evaluator": evaluator,
        "source": source,
        "games": games,
        "score_mean": score,
        "score_low": score - half,
        "score_high": score + half,
        "ms_per_move": ms,
        "algorithm": agent["name"],
        "budget_ms": agent.get("budget_ms", 0.0),
        "timed": agent.get("budget_ms", 0.0) > 0,
        "parallel": agent.get("parallel", False),
    } | reach_columns(min(score / 60000, 1.0), games)
    return row, {"name": name, "agent": agent, "evaluator": evaluator}


def bench_table(rows: list[tuple[dict, dict]]) -> tuple[pd.DataFrame, list[dict]]:
    return pd.DataFrame([row for row, _ in rows]), [entry for _, entry in rows]


def xm(depth: int | str, **kw: object) -> dict:
    return {"name": "expectimax", "depth": depth} | kw


GREEDY, MC = {"name": "greedy"}, {"name": "montecarlo"}


def benchmark_frame() -> tuple[pd.DataFrame, list[dict]]:
    """The default study's benchmark in shape, with its config entries: 45 rows of six
    evaluators, a tight cluster of 1-ply rows at 0.001 ms and of tuned rows at 0.003 ms,
    time-budgeted rows of three searches, node-budgeted ones, nneonneo's adaptive depth, rows
    of 10 to 1000 games and rates of 0."""
    rows = [
        bench_row("random", {"name": "random"}, "ovolve", 0.00072, 1100, 1000),
        bench_row("greedy", GREEDY, "ovolve", 0.00088, 3960, 1000),
        bench_row("expectimax-d3", xm(3), "ovolve", 0.0041, 24900, 1000),
        bench_row("expectimax-d5", xm(5, parallel=True), "ovolve", 0.051, 51200, 100),
        bench_row("mc-100", MC | {"rollouts": 100}, "ovolve", 0.70, 36700, 100),
        bench_row("mc-1000", MC | {"rollouts": 1000}, "ovolve", 5.7, 51400, 50),
        bench_row("hybrid-d3-r50", {"name": "hybrid", "depth": 3}, "ovolve", 3.9, 50200, 50),
        bench_row("hybrid-d4-r100", {"name": "hybrid", "depth": 4}, "ovolve", 5.0, 38700, 50),
        bench_row("expectimax-2k-nodes", xm(9, budget_nodes=2000), "nneonneo", 0.02, 60000, 30),
        bench_row("expectimax-20k-nodes", xm(9, budget_nodes=20000), "nneonneo", 0.2, 95000, 30),
        bench_row("mc-2k-nodes", MC | {"budget_nodes": 2000}, "nneonneo", 2.1, 52000, 30),
        bench_row("nneonneo-auto", xm("auto", cutoff=0.01), "nneonneo", 0.9, 110000, 30),
    ]
    for k, (ms, score) in enumerate(
        [(0.0345, 2820), (0.0449, 4510), (0.0794, 10300), (0.0052, 2710), (0.0758, 5470)]
    ):
        rows.append(
            bench_row(f"classic4-{k}", xm(4), "classic4", ms, score, 100, source="source 001")
        )
    for k, (ms, score) in enumerate(
        [
            (0.00264, 18200),
            (0.00344, 14200),
            (0.00264, 15400),
            (0.00295, 14800),
            (0.00279, 13600),
            (0.00092, 6250),
        ]
    ):
        agent = {"name": "switching"} if k == 1 else GREEDY if k == 5 else xm(2)
        rows.append(bench_row(f"tuned-{k}", agent, "cem8", ms, score, 300, source="source 003"))
    for k, (ms, score) in enumerate(
        [(0.00243, 32400), (0.00156, 41900), (0.00171, 37500), (0.00228, 36700), (0.00091, 4640)]
    ):
        agent = GREEDY if k == 4 else xm(3)
        rows.append(
            bench_row(f"nneonneo-{k}", agent, "nneonneo", ms, score, 1000, source="new (tuned)")
        )
    rows += [
        bench_row("ntuple-d1", GREEDY, "ntuple", 0.0063, 31400, 1000, source="source 004 (TD)"),
        bench_row("ntuple-d3", xm(3), "ntuple", 0.0988, 54700, 300, source="source 004 (TD)"),
    ]
    for k, (ms, score, evaluator) in enumerate(
        [(0.00115, 1380, "classic4"), (0.000904, 14300, "nsga4"), (0.000907, 6370, "cem8")]
    ):
        rows.append(bench_row(f"greedy-{k}", GREEDY, evaluator, ms, score, 1000))
    timed = {  # name: search, evaluator and (ms, score) at 0.1, 1 and 10 ms
        "expectimax": ("expectimax", "nneonneo", [(0.033, 85400), (0.43, 106000), (3.6, 134000)]),
        "ntuple": ("expectimax", "ntuple", [(0.094, 138000), (0.22, 145000), (2.8, 184000)]),
        "mc": ("montecarlo", "nneonneo", [(0.12, 26900), (1.08, 47800), (10.1, 64800)]),
        "hybrid": ("hybrid", "nneonneo", [(0.12, 19300), (0.76, 31900), (1.7, 49400)]),
    }
    for name, (search, evaluator, points) in timed.items():
        for budget, (ms, score) in zip((0.1, 1.0, 10.0), points, strict=True):
            agent = {"name": search, "budget_ms": budget}
            agent |= {} if search == "montecarlo" else {"depth": 27}
            games = 30 if budget < 10 else 10
            rows.append(bench_row(f"{name}-{budget:g}ms", agent, evaluator, ms, score, games))
    return bench_table(rows)


def transfer_frame(names: list[str], depths: tuple[int, ...] = (1, 2, 3)) -> pd.DataFrame:
    """A transfer table: every weight set at every depth, scores rising with depth, some
    weight sets nearly equal (their labels must still part)."""
    rows = []
    for k, name in enumerate(names):
        for depth in depths:
            score = (4000 + 900 * (k % 5)) * depth ** (1 + 0.1 * (k % 3))
            rows.append(
                {
                    "name": name,
                    "depth": depth,
                    "games": 300,
                    "score_mean": score,
                    "score_low": score * 0.94,
                    "score_high": score * 1.06,
                }
            )
    return pd.DataFrame(rows)


def validation_frames(names: list[str], games: int = 300) -> tuple[dict, pd.DataFrame]:
    """Per-game scores of every weight set and the validation table over them."""
    per_game, rows = {}, []
    for k, name in enumerate(names):
        scores = rng.gamma(4.0, (8000 + 400 * (k % 7)) / 4.0, games)
        per_game[name] = pd.DataFrame({"score": scores})
        row = {"name": name, "games": games, "score_mean": scores.mean()}
        rows.append(row | reach_columns(float((scores > 20000).mean()), games))
    return per_game, pd.DataFrame(rows)


def progress_frame(groups: dict[tuple[str, str], list[str]], seeds: int = 5) -> pd.DataFrame:
    """Held-out progress curves (convergence.progress_curves) shaped like the default study's:
    6 points a run, its values rising and levelling off, one group per evaluator and measure."""
    rows = []
    for (evaluator, measure), runs in groups.items():
        scale = 40000.0 if measure == "score" else 9.0
        for k, run in enumerate(runs):
            games = 400 * (k + 3) * np.arange(1, 7)
            mean = scale * (0.8 + 0.2 * (1 - np.exp(-np.arange(6) / (1 + k))))
            for step, (g, m) in enumerate(zip(games, mean, strict=True)):
                row = {"run": run, "method": "cem", "evaluator": evaluator, "measure": measure}
                rows.append(row | {"step": step, "training_games": g, "seeds": seeds, "mean": m})
                rows[-1] |= {"se": 0.02 * scale, "baseline": 0.75 * scale}
    return pd.DataFrame(rows)


DEFAULT_GROUPS = {
    ("nsga4", "score"): ["nsga2", "nsga4-random"],
    ("cem8", "score"): ["cem", "cem-noisy", "cmaes", "random-search"],
    ("nneonneo", "score"): ["nneonneo-nsga2", "nneonneo-cem", "nneonneo-cmaes", "nneonneo-random"],
}


def tuning_tables() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Methods and method pairs tables shaped like the default study's: 11 runs of three
    evaluators, their controls, the tuners' pairs with their families."""
    rng = np.random.default_rng(5)
    runs = {
        "nsga4": ["nsga2", "nsga4-random"],
        "cem8": ["cem", "cem-noisy", "cmaes", "random-search"],
        "nneonneo": ["nneonneo-nsga2", "nneonneo-cem", "nneonneo-cmaes", "nneonneo-random"],
    }
    base = {"nsga4": "equal-nsga4", "cem8": "cem-prior", "nneonneo": "nneonneo"}  # fmt: skip
    methods, pairs = [], []
    for evaluator, names in runs.items():
        for name in names:
            d = float(rng.normal(2000, 3000))
            methods.append(
                {
                    "run": name,
                    "evaluator": evaluator,
                    "baseline": base[evaluator],
                    "diff_vs_baseline": d,
                    "diff_low": d - 2500,
                    "diff_high": d + 2500,
                    "holm_pvalue": 0.01 if abs(d) > 2500 else 0.4,
                    "mdd": 3500.0,
                    "control": name.endswith("random") or name == "random-search",
                }
            )
        control = names[-1]
        for name in names[:-1]:
            d = float(rng.normal(0, 3000))
            pairs.append(
                {
                    "family": FAMILY_CONTROL,
                    "evaluator": evaluator,
                    "run": name,
                    "versus": control,
                    "diff": d,
                    "diff_low": d - 4000,
                    "diff_high": d + 4000,
                    "holm_pvalue": 0.6,
                    "mdd": 5500.0,
                }
            )
    return pd.DataFrame(methods), pd.DataFrame(pairs)


def hv_history(n: int, scale: float) -> pd.DataFrame:
    hv = scale * np.maximum.accumulate(1 + np.log1p(np.arange(n)) + rng.normal(0, 0.2, n))
    return pd.DataFrame(
        {"generation": np.arange(n), "evaluations": 40 * np.arange(1, n + 1), "hypervolume": hv}
    )


def fronts(seeds: int) -> tuple[list[dict], list[dict]]:
    runs, selected = [], []
    for seed in range(1, seeds + 1):
        score = np.sort(rng.uniform(3000, 32000, 30))
        F = np.column_stack([score, 7.5 + score / 9000, 100 + score / 20, 7 - score / 10000])
        runs.append({"seed": seed, "F": F.tolist(), "front": list(range(30))})
        selected.append({"train": F[15].tolist()})
    return runs, selected


def td_curves(seeds: int) -> dict[int, pd.DataFrame]:
    games = np.arange(1000, 20001, 1000)
    return {
        seed: pd.DataFrame(
            {
                "games": games,
                "mean_score": 8000 + games * (1.2 + 0.02 * seed),
                "reach_2048": np.minimum(games / 30000, 1.0),
            }
        )
        for seed in range(1, seeds + 1)
    }


# Frames from the last default study: docs/tables and config/config.yaml --------------------------


def docs_table(name: str) -> pd.DataFrame:
    """A table of the default study's run in docs/ (Markdown, numbers rounded)."""
    lines = (ROOT / "docs" / "tables" / f"{name}.md").read_text().splitlines()
    rows = [line.strip().strip("|") for line in lines if line.startswith("|")]
    rows = [row for row in rows if not row.startswith(":")]  # the alignment row
    return pd.read_csv(io.StringIO("\n".join(rows)), sep=r"\s*\|\s*", engine="python")


def study_config() -> dict:
    return validate_config(yaml.safe_load((ROOT / "config" / "config.yaml").read_text()))


def study_benchmark() -> tuple[pd.DataFrame, list[dict]]:
    """The default study's benchmark rows in docs/ that its config still has, with their
    entries."""
    table = docs_table("benchmark")
    entries = [e for e in study_config()["benchmark"]["entries"] if e["name"] in set(table.name)]
    table = table[table["name"].isin({e["name"] for e in entries})].reset_index(drop=True)
    return table, entries


def study_validation() -> tuple[dict, pd.DataFrame]:
    """The default study's validation table in docs/, with per-game scores of its means."""
    table = docs_table("validation")
    games = {
        row.name: pd.DataFrame({"score": rng.gamma(4.0, row.score_mean / 4.0, int(row.games))})
        for row in table.itertuples()
    }
    return games, table


def study_transfer() -> tuple[pd.DataFrame, dict[str, str]]:
    table = docs_table("transfer")
    groups = figures.transfer_groups(study_config())
    return table, {name: groups.get(name, "") for name in table["name"]}


# Reading a rendered figure ----------------------------------------------------------------------


def recipe_curves(recipes: tuple[str, ...] = ("TD", "OTD", "OTD+TC")) -> pd.DataFrame:
    """The recipes by two programs, two seeds, 100 blocks: rising curves apart by recipe."""
    rng = np.random.default_rng(8)
    rows = [
        {"program": program, "recipe": recipe, "seed": seed, "games": 1000 * b,
         "mean_score": (k + 1) * 300 * b**0.7 + rng.normal(0, 200)}
        for k, recipe in enumerate(recipes)
        for program in ("g2048", "TDL2048+")
        for seed in (1, 2)
        for b in range(1, 101)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_td_recipes_draw_a_line_per_recipe_and_program_styled_by_both() -> None:
    fig = figures.td_recipes(recipe_curves())
    styles = series_styles(fig.axes[0])
    assert len(styles) == 6
    for recipe in ("TD", "OTD", "OTD+TC"):
        g, t = styles[f"{recipe} (g2048)"], styles[f"{recipe} (TDL2048+)"]
        assert {s[0] for s in g} == {s[0] for s in t}  # one colour per recipe
        assert g != t  # the programs told apart by marker (and line style)
    (line,) = [x for x in fig.axes[0].lines if x.get_gid() == "series:OTD (g2048)"]
    assert line.get_ydata()[0] == pytest.approx(
        recipe_curves()
        .query("recipe == 'OTD' and program == 'g2048' and games == 1000")
        .mean_score.mean()
    )  # the mean over seeds


def long_curves(blocks: int = 200) -> pd.DataFrame:
    """One recipe by g2048 (seeds 1, 2) and TDL2048+ (seed 1, its run cut short at 150
    blocks): block k of g2048 seed s scores 1000 k + 10 s, TDL2048+'s 1000 k."""
    rows = [
        {"program": program, "seed": seed, "games": 1000 * k,
         "mean_score": 1000.0 * k + (10 * seed if program == "g2048" else 0)}
        for program, seeds, last in (("g2048", (1, 2), blocks), ("TDL2048+", (1,), 150))
        for seed in seeds
        for k in range(1, last + 1)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_td_agreement_draws_window_means_and_gaps_from_the_reference() -> None:
    fig = figures.td_agreement(long_curves(), window=10)
    top, bottom = fig.axes
    assert sorted(series_styles(top)) == ["TDL2048+ seed 1", "g2048 seed 1", "g2048 seed 2"]
    assert sorted(series_styles(bottom)) == ["g2048 seed 1", "g2048 seed 2"]
    (line,) = [x for x in top.lines if x.get_gid() == "series:g2048 seed 2"]
    # the first window: blocks 1..10, mean 5500 + 20, drawn at 10 000 games; 20 windows
    assert list(line.get_xdata()[:2]) == [10_000, 20_000] and len(line.get_xdata()) == 20
    assert line.get_ydata()[0] == pytest.approx(5520)
    (gap,) = [x for x in bottom.lines if x.get_gid() == "series:g2048 seed 2"]
    # only where the reference has played: its 15 windows
    assert len(gap.get_xdata()) == 15
    assert gap.get_ydata()[0] == pytest.approx(100 * 20 / 5500)


FIVE_RECIPES = ("TD", "OTD", "OTD+TC", "2-stage", "TD(0.5)")


def test_more_recipes_than_a_panel_holds_go_to_panels_that_each_show_plain_td() -> None:
    fig = figures.td_recipes(recipe_curves(FIVE_RECIPES))
    panels = [series_styles(ax) for ax in fig.axes if ax.get_visible()]
    assert [sorted(p) for p in panels] == [
        sorted(f"{r} ({p})" for r in recipes for p in ("g2048", "TDL2048+"))
        for recipes in (("TD", "OTD", "OTD+TC"), ("TD", "2-stage", "TD(0.5)"))
    ]
    assert panels[0]["TD (g2048)"] == panels[1]["TD (g2048)"]  # one style per recipe
    assert len(fig.legends[0].get_texts()) == 10  # each recipe and program named once


@contextmanager
def recording_texts() -> Iterator[list[tuple[Text, object]]]:
    """Every text as drawn (tick labels only where a tick is drawn), with its box: the text's
    own, without an annotation's leader line."""
    drawn: list[tuple[Text, object]] = []
    original = Text.draw

    def draw(self: Text, renderer: object) -> None:
        original(self, renderer)
        if self.get_visible() and self.get_text().strip():
            drawn.append((self, Text.get_window_extent(self, renderer)))

    Text.draw = draw  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        Text.draw = original  # type: ignore[method-assign]


def render(fig: plt.Figure) -> list[tuple[Text, object]]:
    with recording_texts() as drawn:
        fig.canvas.draw()
    return drawn


def data_points(ax: plt.Axes) -> np.ndarray:
    """The display positions of an axes' data: every marker and line vertex and the ends of
    its error bars, where they lie inside the axes."""
    pts = [np.zeros((0, 2))]
    for line in ax.get_lines():
        if line.get_visible() and len(line.get_xydata()):
            pts.append(line.get_transform().transform(line.get_xydata()))
    for coll in ax.collections:
        if isinstance(coll, LineCollection):
            pts += [coll.get_transform().transform(seg) for seg in coll.get_segments()]
        elif isinstance(coll, PathCollection):
            pts.append(coll.get_offset_transform().transform(coll.get_offsets()))
    xy = np.concatenate(pts)
    xy = xy[np.isfinite(xy).all(axis=1)]
    box = ax.get_window_extent()
    inside = (xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) & (xy[:, 1] >= box.y0)
    return xy[inside & (xy[:, 1] <= box.y1)]


def contains(box: object, pts: np.ndarray) -> bool:
    return bool(
        (
            (pts[:, 0] > box.x0 + 0.5)
            & (pts[:, 0] < box.x1 - 0.5)
            & (pts[:, 1] > box.y0 + 0.5)
            & (pts[:, 1] < box.y1 - 0.5)
        ).any()
    )


def series_styles(ax: plt.Axes) -> dict[str, set[tuple]]:
    """Each tagged series of an axes with the (colour, marker) of its artists."""
    styles: dict[str, set[tuple]] = {}
    for artist in [*ax.get_lines(), *ax.collections, *ax.patches]:
        gid = artist.get_gid() or ""
        if not gid.startswith("series:"):
            continue
        if isinstance(artist, Line2D):
            marker = artist.get_marker()
            style = (to_hex(artist.get_color()), None if marker in ("None", "") else marker)
        elif isinstance(artist, PathCollection):
            path = artist.get_paths()[0].vertices.round(3)
            style = (to_hex(artist.get_facecolor()[0]), path.tobytes())
        else:
            style = (to_hex(artist.get_edgecolor()), None)
        styles.setdefault(gid.removeprefix("series:"), set()).add(style)
    return styles


def line_height(fig: plt.Figure, size: float) -> float:
    """The height in points of a line of text at `size` points as drawn in `fig`: what every
    line of its text must reach at print size."""
    probe = fig.text(0, 0, "lp", fontsize=size)
    fig.canvas.draw()
    height = probe.get_window_extent().height * 72 / fig.dpi
    probe.remove()
    return height


def print_problems(fig: plt.Figure) -> list[str]:
    """Every way a figure falls short of the print standard (empty when it meets it)."""
    problems = []
    width, height = fig.get_size_inches()
    if width not in (figures.COLUMN, figures.PAGE):
        problems.append(f"width {width} in")
    drawn = render(fig)
    page = fig.bbox
    least = line_height(fig, figures.MIN_PT)
    for text, box in drawn:
        if text.get_fontsize() < figures.MIN_PT:
            problems.append(f"{text.get_text()!r} at {text.get_fontsize()} pt")
        across = 45 < text.get_rotation() % 180 < 135  # a vertical text's height is its width
        lines = text.get_text().count("\n") + 1
        height = (box.width if across else box.height) / lines * 72 / fig.dpi
        if height < least - 0.05:
            problems.append(f"{text.get_text()!r} {height:.2f} pt tall, under {least:.2f}")
        if (
            box.x0 < page.x0 - 1
            or box.x1 > page.x1 + 1
            or box.y0 < page.y0 - 1
            or (box.y1 > page.y1 + 1)
        ):
            problems.append(f"{text.get_text()!r} off the page")
    for i, (a, box_a) in enumerate(drawn):
        for b, box_b in drawn[i + 1 :]:
            overlap_x = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            overlap_y = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            if overlap_x > 0.5 and overlap_y > 0.5:
                problems.append(f"{a.get_text()!r} overlaps {b.get_text()!r}")
    axes = [ax for ax in fig.get_axes() if ax.get_visible()]
    points = [data_points(ax) for ax in axes]
    legends = [ax.get_legend() for ax in axes] + list(fig.legends)
    for legend in filter(None, legends):
        box = legend.get_window_extent()
        if any(contains(box, pts) for pts in points):
            problems.append("a legend covers a data point")
    for ax, pts in zip(axes, points, strict=True):
        for text in ax.texts:  # labels beside points
            if text.get_visible() and contains(Text.get_window_extent(text), pts):
                problems.append(f"label {text.get_text()!r} covers a data point")
        styles = series_styles(ax)
        if len(styles) > figures.MAX_SERIES:
            problems.append(f"{len(styles)} series in a panel")
        firsts = [min(s, key=str) for s in styles.values()]
        if len(set(firsts)) < len(firsts):
            problems.append(f"series drawn alike: {sorted(styles)}")
        for name, style in styles.items():
            if any(color not in {c.lower() for c in figures.PALETTE} for color, _ in style):
                problems.append(f"{name} is not in the palette")
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=figures.DPI)
    with Image.open(png) as image:
        if image.size[0] != round(width * figures.DPI):
            problems.append(f"{image.size[0]} px wide")
    plt.close(fig)
    return problems


BUILDERS: dict[str, Callable[[], plt.Figure]] = {
    "cost_strength": lambda: figures.cost_strength(*study_benchmark()),
    "cost_strength_column": lambda: figures.cost_strength(
        *study_benchmark(), width=figures.COLUMN, cpu="Intel(R) Xeon(R) Processor"
    ),
    "cost_strength_shaped": lambda: figures.cost_strength(*benchmark_frame()),
    "cost_strength_column_shaped": lambda: figures.cost_strength(
        *benchmark_frame(), width=figures.COLUMN
    ),
    "benchmark_reach": lambda: figures.benchmark_reach(study_benchmark()[0]),
    "tuning_differences": lambda: figures.tuning_differences(*tuning_tables()),
    "validation_scores": lambda: figures.validation_scores(*study_validation()),
    "validation_scores_shaped": lambda: figures.validation_scores(
        *validation_frames(
            [f"{run}-s{s}" for run in ("nsga2", "cem", "td") for s in (1, 2)] + ["hand", "equal"]
        )
    ),
    "depth_transfer": lambda: figures.depth_transfer(*study_transfer()),
    "depth_transfer_shaped": lambda: figures.depth_transfer(
        transfer_frame(["tuned-a", "tuned-b", "base-a", "base-b"]),
        {"tuned-a": "nsga4", "base-a": "nsga4", "tuned-b": "cem8", "base-b": "cem8"},
    ),
    "tuner_progress": lambda: figures.tuner_progress(
        progress_frame(DEFAULT_GROUPS), frozenset({"cmaes", "nneonneo-cem"})
    ),
    "tuner_progress_column": lambda: figures.tuner_progress(
        progress_frame({("cem8", "log2_max_tile"): ["cem", "cmaes", "random-search"]})
    ),
    "hypervolume": lambda: figures.hypervolume(
        {
            "nsga2": [hv_history(61, 5e8) for _ in range(3)],
            "nneonneo-nsga2": [hv_history(15, 2e9) for _ in range(3)],
        }
    ),
    "td_learning": lambda: figures.td_learning(td_curves(5)),
    "td_recipes": lambda: figures.td_recipes(recipe_curves()),
    "td_agreement": lambda: figures.td_agreement(long_curves(1000)),
    "td_recipes_panels": lambda: figures.td_recipes(recipe_curves(FIVE_RECIPES)),
    "pareto_fronts": lambda: figures.pareto_fronts(*fronts(5)),
}


@pytest.mark.parametrize("name", BUILDERS)
def test_every_figure_meets_the_print_standard(name: str) -> None:
    assert print_problems(BUILDERS[name]()) == []


def test_the_checks_catch_what_the_reviewer_found() -> None:
    """The old figures' defects fail the checks: an unsized figure, 5 pt text, overlapping
    tick labels, a legend over the data, eleven series on eight colours."""
    fig, ax = plt.subplots(figsize=(13, 4))
    for k in range(11):
        ax.plot(range(44), np.full(44, k), "o-", label=f"series {k}", gid=f"series:{k}")
    ax.set_xticks(range(44), [f"weight-set-{k}" for k in range(44)], fontsize=5)
    ax.legend(loc="center")
    problems = " ".join(print_problems(fig))
    for found in ("width 13", "at 5", "overlaps", "legend covers", "11 series", "drawn alike"):
        assert found in problems


def test_every_paper_figure_is_checked_at_print_size_on_the_studys_data() -> None:
    assert set(FIGURES) <= set(BUILDERS)
    assert "cost_strength_column" in FIGURES
    assert not {"td_learning_100k", "layers"} & set(FIGURES)


def test_the_checks_catch_a_small_or_overlapping_label_in_a_paper_figure() -> None:
    fig = BUILDERS["cost_strength_column"]()
    first, second = fig.axes[0].texts[:2]
    first.set_fontsize(6)
    second.xy, second.xyann = first.xy, first.xyann  # one name on top of another
    problems = " ".join(print_problems(fig))
    assert f"{first.get_text()!r} at 6" in problems
    assert f"{first.get_text()!r} " in problems and "pt tall, under" in problems
    assert f"{first.get_text()!r} overlaps {second.get_text()!r}" in problems or (
        f"{second.get_text()!r} overlaps {first.get_text()!r}" in problems
    )


def test_many_series_are_split_over_panels() -> None:
    """Eleven weight sets without groups: two panels of 6 and 5; 44 validated sets and 120
    (two columns of rows): no overlap anywhere."""
    names = [f"tuned-run{k}" for k in range(7)] + ["hand", "equal", "prior", "nneonneo"]
    fig = figures.depth_transfer(transfer_frame(names))
    per_panel = [len(series_styles(ax)) for ax in fig.axes if ax.get_visible()]
    assert sorted(per_panel) == [5, 6]
    assert print_problems(fig) == []
    many = [f"run{r}-s{s}" for r in range(8) for s in range(1, 6)] + ["a", "b", "c", "d"]
    assert print_problems(figures.validation_scores(*validation_frames(many))) == []
    more = [f"run{r}-s{s}" for r in range(24) for s in range(1, 6)]
    fig = figures.validation_scores(*validation_frames(more, games=30))
    assert fig.get_size_inches()[1] <= 9.5  # two columns of rows, within a page
    assert print_problems(fig) == []


def test_cost_strength_names_every_point_once_beside_it() -> None:
    table, entries = benchmark_frame()
    ax = figures.cost_strength(table, entries).axes[0]
    published = {p.label for p in PUBLISHED}
    labels = {
        t.get_text().removesuffix(" (parallel)"): t
        for t in ax.texts
        if t.get_text() not in published
    }
    assert sorted(labels) == sorted(table["name"])
    assert labels["expectimax-d5"].get_text() == "expectimax-d5 (parallel)"
    render(ax.figure)
    for row in table.itertuples():  # each label within 120 pt of its point
        x, y = ax.transData.transform((row.ms_per_move, row.score_mean))
        box = Text.get_window_extent(labels[row.name])
        dx = max(box.x0 - x, 0, x - box.x1)
        dy = max(box.y0 - y, 0, y - box.y1)
        assert np.hypot(dx, dy) < 120 * figures.DPI / 72, row.name


def drawn_lines(ax: plt.Axes) -> dict[str, Line2D]:
    """The cost figure's lines by their labels (`SearchLine.label`)."""
    return {
        line.get_gid().removeprefix("line:"): line
        for line in ax.get_lines()
        if (line.get_gid() or "").startswith("line:")
    }


@pytest.mark.parametrize("width", [figures.PAGE, figures.COLUMN])
def test_cost_strength_draws_a_line_per_search_and_evaluator(width: float) -> None:
    table, entries = benchmark_frame()
    fig = figures.cost_strength(table, entries, width=width)
    assert fig.get_size_inches()[0] == width
    lines = drawn_lines(fig.axes[0])
    assert set(lines) == {
        "ovolve, expectimax fixed depth",
        "ovolve, Monte Carlo fixed rollouts",
        "classic4, expectimax fixed depth",
        "cem8, expectimax fixed depth",
        "nneonneo, expectimax fixed depth",
        "ntuple, expectimax fixed depth",
        "nneonneo, expectimax node budget",
        "nneonneo, expectimax time budget",
        "ntuple, expectimax time budget",
        "nneonneo, Monte Carlo time budget",
        "nneonneo, hybrid time budget",
    }  # one best row (random, switching, adaptive depth, ovolve's hybrid, the node-budgeted
    # Monte Carlo and hybrid rows, ntuple's): a point, no line
    nodes = lines["nneonneo, expectimax node budget"]  # node and time budgets apart
    np.testing.assert_array_equal(nodes.get_xdata(), [0.02, 0.2])
    timed = lines["nneonneo, expectimax time budget"]
    np.testing.assert_array_equal(timed.get_xdata(), [0.033, 0.43, 3.6])
    fixed = lines["nneonneo, expectimax fixed depth"]
    assert list(fixed.get_ydata()) == sorted(fixed.get_ydata())  # the line's best, rising
    mc = lines["nneonneo, Monte Carlo time budget"]
    np.testing.assert_array_equal(mc.get_xdata(), [0.12, 1.08, 10.1])
    styles = {name: (line.get_color(), line.get_linestyle()) for name, line in lines.items()}
    ovolve = styles["ovolve, Monte Carlo fixed rollouts"][0]
    assert ovolve == styles["ovolve, expectimax fixed depth"][0]
    assert len({style for _, style in styles.values()}) == 3  # expectimax, Monte Carlo, hybrid
    assert len({color for color, _ in styles.values()}) == 5  # one colour per evaluator


def test_cost_strength_tells_node_and_time_budgets_and_the_searches_apart() -> None:
    """Filled for a fixed effort, open under a node budget, half filled (the lower half) under
    a time budget and (the left) at adaptive depth; Monte Carlo and hybrid by markers of their
    own, whatever their evaluator; the column figure's legend under a fifth of its height."""
    table, entries = benchmark_frame()
    ax = figures.cost_strength(table, entries).axes[0]
    faces = {}
    for line in ax.get_lines():
        if (line.get_gid() or "").startswith("series:"):
            for x, y in line.get_xydata():
                faces[float(x), float(y)] = (
                    to_hex(line.get_markerfacecolor()), line.get_fillstyle(), line.get_marker()
                )  # fmt: skip
    for row, entry in zip(table.itertuples(), entries, strict=True):
        face, fill, marker = faces[row.ms_per_move, row.score_mean]
        agent = entry["agent"]
        if agent.get("budget_nodes"):
            assert face == "#ffffff" and fill == "full", row.name
        elif agent.get("budget_ms"):
            assert fill == "bottom", row.name
        elif agent.get("depth") == "auto":
            assert fill == "left", row.name
        else:
            assert face != "#ffffff" and fill == "full", row.name
        if agent["name"] in ("montecarlo", "hybrid"):
            assert marker == {"montecarlo": "d", "hybrid": "*"}[agent["name"]], row.name
    fig = figures.cost_strength(table, entries, width=figures.COLUMN)
    render(fig)
    assert fig.legends[0].get_window_extent().height < fig.bbox.height / 5


def test_cost_strength_draws_the_published_results_as_labelled_levels() -> None:
    fig = figures.cost_strength(*benchmark_frame(), width=figures.COLUMN)
    ax = fig.axes[0]
    texts = {t.get_text(): t for t in ax.texts}
    levels = [line for line in ax.get_lines() if not line.get_gid() and line.get_color() == GREY]
    assert sorted(line.get_ydata()[0] for line in levels) == sorted(p.score for p in PUBLISHED)
    for p in PUBLISHED:
        assert texts[p.label].xy[1] == p.score
    assert "TDL2048+ 6 plies" in texts and "nneonneo auto depth, median" in texts
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "published, not measured" in legend
    assert ax.get_ylim()[1] > max(p.score for p in PUBLISHED)


def test_published_results_cite_their_source() -> None:
    assert [(p.program, p.setting, p.score) for p in PUBLISHED] == [
        ("TDL2048+", "1 ply", 412_785),
        ("TDL2048+", "3 plies", 563_316),
        ("TDL2048+", "6 plies", 625_377),
        ("nneonneo", "auto depth", 387_222),
    ]
    assert all("2021" in p.citation for p in PUBLISHED[:3])
    assert PUBLISHED[3].statistic == "median"


def test_cost_strength_names_the_cpu_that_measured_the_time() -> None:
    provenance = {
        "environments": [
            {"environment": {"cpu": "AMD EPYC"}, "jobs": ["results/benchmark/a/shard0.csv"]},
            {"environment": {"cpu": "Other"}, "jobs": ["results/tune/nsga2/seed1.json"]},
        ]
    }
    cpu = figures.measured_on(provenance)
    assert cpu == "AMD EPYC"
    ax = figures.cost_strength(*benchmark_frame(), cpu=cpu).axes[0]
    assert "measured on AMD EPYC" in ax.get_xlabel()


def test_score_intervals_stop_at_the_axes() -> None:
    table, entries = benchmark_frame()
    table.loc[0, "score_low"] = -5000.0  # a t interval of a few games below zero
    ax = figures.cost_strength(table, entries).axes[0]
    bottom = ax.get_ylim()[0]
    segments = [
        s for c in ax.collections if isinstance(c, LineCollection) for s in c.get_segments()
    ]
    assert min(seg[:, 1].min() for seg in segments) >= bottom > 0


def test_line_of_reads_the_agent_settings_not_the_name() -> None:
    lines = {e["name"]: figures.line_of(e["agent"], e["evaluator"]) for e in benchmark_frame()[1]}
    assert lines["expectimax-2k-nodes"] != lines["expectimax-1ms"]  # node or time: apart
    assert (lines["expectimax-2k-nodes"].mode, lines["expectimax-1ms"].mode) == ("nodes", "time")
    assert lines["nneonneo-4"] == lines["nneonneo-0"]  # greedy is expectimax's 1 ply
    assert lines["greedy"] != lines["nneonneo-4"]  # another evaluator
    assert lines["mc-100"].mode == "fixed" and lines["mc-2k-nodes"].mode == "nodes"
    assert lines["mc-100"] != lines["mc-1ms"]
    assert lines["nneonneo-auto"].mode == "adaptive"
    assert lines["tuned-1"].search == "switching"
    assert lines["random"] == figures.SearchLine("random", "fixed", "")
    assert lines["random"].label == "random play"
    cost = np.array([3.0, 1.0, 2.0, 2.0, 4.0])
    score = np.array([5.0, 2.0, 1.0, 3.0, 4.0])
    assert list(figures.frontier(cost, score)) == [1, 3, 0]


def test_reach_rates_of_zero_are_drawn_with_their_games() -> None:
    table, _ = bench_table(
        [
            bench_row("a", GREEDY, "ovolve", 0.001, 0.0, 100),
            bench_row("b", GREEDY, "ovolve", 0.001, 0.0, 1000),
        ]
    )
    fig = figures.benchmark_reach(table)
    drawn = render(fig)
    for ax in fig.axes[: len(REACH)]:
        (line,) = [ln for ln in ax.get_lines() if (ln.get_gid() or "").startswith("series:")]
        np.testing.assert_array_equal(line.get_xdata(), [0.0, 0.0])  # a marker at 0
        assert ax.get_xlim()[0] < 0  # not on the spine
        highs = sorted(s[:, 0].max() for c in ax.collections for s in c.get_segments())
        assert highs[0] < highs[1]  # 0/1000's interval is the shorter
    texts = [t.get_text() for t, _ in drawn]
    assert "100" in texts and "1000" in texts and "games" in texts
    assert print_problems(fig) == []


def test_hypervolume_is_relative_to_each_runs_best_front_one_run_a_panel() -> None:
    fig = figures.hypervolume(
        {
            "nsga2": [hv_history(10, 5e8) for _ in range(3)],
            "nneonneo-nsga2": [hv_history(5, 3e10) for _ in range(2)],
        }
    )
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 2
    for ax in panels:
        fig.canvas.draw()
        assert ax.yaxis.get_offset_text().get_text() == ""  # no 1e10 offset
        (line,) = ax.get_lines()
        assert 0 < line.get_ydata().max() <= 1
        band = ax.collections[0].get_paths()[0].vertices[:, 1]
        assert band.max() == pytest.approx(1.0)  # the run's largest front
    ticks = panels[0].get_xticks()
    assert all(float(t).is_integer() for t in ticks)


def test_hypervolume_hides_the_panel_an_odd_number_of_runs_leaves_empty() -> None:
    fig = figures.hypervolume({f"run{k}": [hv_history(5, 1e9)] for k in range(3)})
    assert [ax.get_visible() for ax in fig.axes] == [True, True, True, False]


def test_tuning_differences_draw_each_tested_difference_with_its_interval() -> None:
    """A row per tested comparison: the primary family's pairs at the left (tuner - control),
    every run against its hand baseline at the right; filled where Holm p < 0.05."""
    methods, pairs = tuning_tables()
    fig = figures.tuning_differences(methods, pairs)
    left, right = fig.axes[:2]  # the primary family above, the second below
    assert left.get_title().endswith("(primary family)")
    labels = [t.get_text() for t in left.get_yticklabels()]
    assert labels == [f"{r.run} - {r.versus}" for r in pairs.itertuples()]
    assert len(right.get_yticklabels()) == len(methods)
    faces = [
        to_hex(line.get_markerfacecolor()) for line in right.get_lines() if line.get_marker() == "o"
    ]
    found = methods.holm_pvalue < 0.05
    assert [face == "#ffffff" for face in faces] == list(~found)
    assert print_problems(fig) == []


def test_tuner_progress_has_a_panel_per_group_and_names_every_run_at_its_end() -> None:
    curves = progress_frame(DEFAULT_GROUPS)
    fig = figures.tuner_progress(curves, frozenset({"cmaes"}))
    panels = {ax.get_title(): ax for ax in fig.axes if ax.get_visible()}
    assert set(panels) == {
        "nsga4 weights (5 seeds)",
        "cem8 weights (5 seeds)",
        "nneonneo weights (5 seeds)",
    }
    ax = panels["cem8 weights (5 seeds)"]
    assert sorted(series_styles(ax)) == ["cem", "cem-noisy", "cmaes", "random-search"]
    assert sorted(t.get_text() for t in ax.texts) == [
        "cem",
        "cem-noisy",
        "cmaes \u2191",
        "random-search",
        "untuned",
    ]
    (line,) = [ln for ln in ax.get_lines() if ln.get_gid() == "series:cmaes"]
    rows = curves[curves.run == "cmaes"]
    np.testing.assert_array_equal(line.get_xdata(), rows.training_games)
    np.testing.assert_array_equal(line.get_ydata(), rows["mean"])
    untuned = [ln for ln in ax.get_lines() if ln.get_gid() == "untuned"]
    assert [ln.get_ydata()[0] for ln in untuned] == [rows.baseline.iloc[0]]  # the level
    assert ax.get_xlabel() == "training games played"
    assert ax.get_ylabel() == "mean score, held-out"  # the study's metric in every panel
    assert panels["nsga4 weights (5 seeds)"].get_ylabel() == "mean score, held-out"
    assert not fig.legends and not any(a.get_legend() for a in fig.axes)
    one = figures.tuner_progress(progress_frame({("cem8", "log2_max_tile"): ["cem"]}))
    assert one.get_size_inches()[0] == figures.COLUMN


def test_depth_transfer_puts_each_evaluator_in_its_panel_and_names_lines_at_their_ends() -> None:
    table = transfer_frame(["tuned-a", "tuned-b", "base-a", "base-b"])
    groups = {"tuned-a": "nsga4", "base-a": "nsga4", "tuned-b": "cem8", "base-b": "cem8"}
    fig = figures.depth_transfer(table, groups)
    panels = {ax.get_title(): ax for ax in fig.axes if ax.get_visible()}
    assert set(panels) == {"nsga4 weights", "cem8 weights"}
    ax = panels["nsga4 weights"]
    assert sorted(series_styles(ax)) == ["base-a", "tuned-a"]
    (bars,) = [c for c in ax.containers if c.get_label() == "tuned-a"]
    np.testing.assert_array_equal(bars.lines[0].get_xdata(), [1, 2, 3])
    assert sorted(t.get_text() for t in ax.texts) == ["base-a", "tuned-a"]
    for text in ax.texts:
        assert text.xy[0] == 3  # at the line's right end
    assert ax.get_legend() is None


def test_transfer_groups_follow_the_config() -> None:
    config = validate_config(yaml.safe_load((ROOT / "config" / "config.yaml").read_text()))
    groups = figures.transfer_groups(config)
    assert groups["tuned-nneonneo-cem"] == groups["nneonneo"] == "nneonneo"
    assert groups["tuned-cem"] == groups["cem-prior"] == "cem8"
    assert groups["tuned-nsga2"] == groups["equal-nsga4"] == "nsga4"


def test_pareto_fronts_name_the_objectives_and_mark_the_chosen_points() -> None:
    fig = figures.pareto_fronts(*fronts(2))
    labels = {ax.get_xlabel() for ax in fig.axes} | {ax.get_ylabel() for ax in fig.axes}
    assert labels == {o.label for o in OBJECTIVES}
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["seed 1", "seed 2", "the seed's pick"]


def test_spread_keeps_order_and_gap_and_moves_the_least() -> None:
    y = np.array([10.0, 11.0, 50.0, 10.5])
    out = spread(y, gap=4.0, low=0.0, high=100.0)
    assert list(np.argsort(out)) == list(np.argsort(y, kind="stable"))
    assert np.diff(np.sort(out)).min() >= 4.0 - 1e-9
    assert out[2] == 50.0  # the lone one stays
    assert np.isclose(out[[0, 1, 3]].mean(), y[[0, 1, 3]].mean())  # the crowd keeps its centre


def test_save_writes_print_sized_png_and_pdf(tmp_path: Path) -> None:
    figures.save(figures.td_learning(td_curves(2)), tmp_path / "td")
    with Image.open(tmp_path / "td.png") as image:
        assert image.size[0] == round(figures.PAGE * figures.DPI)
    assert (tmp_path / "td.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    ("figure", "words"),
    [
        ("cost_strength", ("95%", "interval", "filled", "open", "line", "published")),
        ("cost_strength_column", ("95%", "interval", "filled", "open", "published")),
        ("benchmark_reach", ("95%", "Wilson", "games", "0")),
        ("validation_scores", ("quartiles", "median", "mean", "1.5", "Wilson", "games")),
        ("depth_transfer", ("95%", "interval", "panel", "end")),
        (
            "tuner_progress",
            ("mean", "band", "standard error", "seeds", "arrow", "held-out", "untuned"),
        ),
        ("hypervolume", ("mean", "band", "range", "largest", "objective space")),
        ("td_learning", ("seed",)),
        ("pareto_fronts", ("star", "seed")),
    ],
)
def test_each_caption_explains_the_marks_of_its_figure(figure: str, words: tuple) -> None:
    caption = (CAPTIONS / f"{figure}.rst").read_text()
    for word in words:
        assert word.lower() in caption.lower(), word
