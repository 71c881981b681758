"""Result tables of a study, written as CSV (full precision), Markdown, LaTeX and HTML (rounded,
with a footer naming the environments the games were played in)."""

from __future__ import annotations

import html
import itertools
from pathlib import Path

import numpy as np
import pandas as pd

from g2048.report.stats import (
    ALPHA,
    THRESHOLDS,
    compare,
    detectable_difference,
    holm,
    holm_levels,
    interval_at,
    paired_difference,
    summarize,
)
from g2048.study.agent_records import recorded_agent
from g2048.study.methods import get_method

REACH = THRESHOLDS[:4]  # 2048 .. 16384 in the tables; 32768 is in the per-game files


def number(x: float) -> str:
    """Scores as whole numbers with thousands separators, rates to three significant digits."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def summary_row(df: pd.DataFrame) -> dict[str, float]:
    """The columns every table shares: games, score (mean, 95% CI, median), reach rates with
    Wilson CIs, mean moves, milliseconds per move."""
    s = summarize(df)
    row = {k: s[k] for k in ("games", "score_mean", "score_low", "score_high", "score_median")}
    for tile in REACH:
        row |= {f"reach_{tile}{k}": s[f"reach_{tile}{k}"] for k in ("", "_low", "_high")}
    row["max_tile_median"] = float(df["max_tile"].median())
    row["moves_mean"] = s["moves_mean"]
    row["ms_per_move"] = 1000.0 * df["seconds"].sum() / max(int(df["moves"].sum()), 1)
    return row


def describe_agent(agent: dict) -> str:
    """A short label of an agent's settings, e.g. 'expectimax d3 cutoff 0.0001', 'expectimax
    to d9 10 ms/move', 'montecarlo 1 ms/move', "expectimax d3 by source004's rules"."""
    a = recorded_agent(agent)
    parts = [a["name"]]
    if a["searches"]:
        depth = a["depth"]
        parts.append(
            "auto depth" if a["adaptive"] else f"to d{depth}" if a["budgeted"] else f"d{depth}"
        )
        if a["cutoff"]:
            parts.append(f"cutoff {a['cutoff']:g}")
    if a["rolls_out"]:
        if not a["rollouts_by_budget"]:
            parts.append(f"{a['rollouts']} rollouts")
        if not a["random_rollouts"]:
            parts.append(a["rollout_policy"])
        if a["step_cap"]:
            parts.append(f"cap {a['step_cap']}")
    if a["budget_ms"]:
        parts.append(f"{a['budget_ms']:g} ms/move")
    if a["budget_nodes"]:
        parts.append(f"{a['budget_nodes']} nodes/move")
    if a["downgrade"]:
        parts.append(f"downgrade {a['downgrade']}")
    if a["source_rules"]:
        parts.append(f"by {a['rules']}'s rules")
    return " ".join(parts)


def depth_summary(df: pd.DataFrame) -> dict[str, object]:
    """Search effort of a set of games: nodes per move, the mean search depth that decided the
    moves (NaN without search) and its distribution, e.g. '3:4% 5:71% 7:25%' (per-game
    'depths' columns summed)."""
    counts: dict[int, int] = {}
    for text in df["depths"]:
        for pair in text.split() if text != "none" else ():
            depth, moves = pair.split(":")
            counts[int(depth)] = counts.get(int(depth), 0) + int(moves)
    total = sum(counts.values())
    return {
        "nodes_per_move": float(df["nodes"].sum() / max(int(df["moves"].sum()), 1)),
        "depth_mean": sum(d * n for d, n in counts.items()) / total if total else float("nan"),
        "depths": " ".join(f"{d}:{100 * n / total:.0f}%" for d, n in sorted(counts.items()))
        or "none",
    }


def benchmark_table(games: dict[str, pd.DataFrame], entries: list[dict]) -> pd.DataFrame:
    """One row per benchmark entry, in config order; `timed` marks the rows whose games
    depended on the machine's speed (a time budget), `parallel` those whose node counts
    depended on the threads' timing (parallel search)."""
    rows = []
    for entry in entries:
        weights = entry.get("weights")
        label = "defaults" if weights is None else (weights if isinstance(weights, str) else "")
        agent = recorded_agent(entry["agent"])
        df = games[entry["name"]]
        rows.append(
            {
                "name": entry["name"],
                "agent": describe_agent(entry["agent"]),
                "evaluator": entry["evaluator"],
                "weights": label or " ".join(f"{w:g}" for w in weights),
                "source": entry.get("source", ""),
            }
            | summary_row(df)
            | depth_summary(df)
            | {
                "algorithm": agent["name"],
                "budget_ms": agent["budget_ms"],
                "timed": agent["timed"],
                "parallel": agent["parallel"],
            }
        )
    return pd.DataFrame(rows)


def scores(df: pd.DataFrame) -> pd.Series:
    """A set of games' scores indexed by their seeds: a sample for `compare`."""
    return pd.Series(df["score"].to_numpy(dtype=float), index=df["seed"].to_numpy())


def _versus(name: str, df: pd.DataFrame, base: pd.DataFrame) -> dict[str, float]:
    """The score difference of a weight set's games to its reference's (`compare`: paired, as
    both play the same seeds)."""
    if not np.array_equal(df["seed"].to_numpy(), base["seed"].to_numpy()):
        raise ValueError(f"{name} was not played on the reference's seeds")
    d = compare(scores(df), scores(base))
    return {
        "diff_vs_reference": d["mean"],
        "diff_low": d["low"],
        "diff_high": d["high"],
        "test": d["test"],
        "t_pvalue": d["t_pvalue"],
        "wilcoxon_pvalue": d["wilcoxon_pvalue"],
        "se": d["se"],
        "df": d["df"],
    }


def with_holm(rows: list[dict], family: str | None = None) -> pd.DataFrame:
    """The rows as a table with `holm_pvalue`: their t-test p-values Holm-corrected over the
    table's comparisons (a row that compares nothing has none and does not count), or, given a
    `family` column, over the comparisons of each of its values apart; `mdd`, each test's
    smallest detectable difference (80% power) at level ALPHA / m, m the comparisons of its
    family (the level of Holm's first step, so a true difference of `mdd` is found at least
    that often); and the difference's interval (`diff_low`, `diff_high`) at the level Holm tests
    it at (`holm_levels`), so that it excludes 0 exactly when the test separates the two. Rows
    give the test's standard error `se` and degrees of freedom `df`, which the table drops."""
    table = pd.DataFrame(rows)
    if "t_pvalue" not in table:
        table["t_pvalue"] = np.nan
    table["holm_pvalue"] = np.nan
    table["mdd"] = np.nan
    groups = table.groupby(family).groups.values() if family in table else [table.index]
    for index in groups:
        table.loc[index, "holm_pvalue"] = holm(table.loc[index, "t_pvalue"])
        if "se" not in table:
            continue
        m = int(table.loc[index, "t_pvalue"].notna().sum())
        levels = dict(zip(index, holm_levels(table.loc[index, "t_pvalue"]), strict=True))
        for i in index:
            se, df = table.at[i, "se"], table.at[i, "df"]
            table.at[i, "mdd"] = detectable_difference(se, df, ALPHA / m) if m else np.nan
            if "diff_low" in table:
                centre = (table.at[i, "diff_low"] + table.at[i, "diff_high"]) / 2
                low, high = interval_at(centre, se, df, levels[i])
                table.at[i, "diff_low"], table.at[i, "diff_high"] = low, high
    return table.drop(columns=["se", "df"], errors="ignore")


def holm_note(
    table: pd.DataFrame, family: str, test: str = "paired t-tests'", by: str | None = None
) -> str:
    """The line under a table of tests that names its family and its multiplicity control (with
    `by`, the column whose values split it into families, as `with_holm`'s)."""
    tested = table[table["holm_pvalue"].notna()]
    if by is None:
        scope = f"over the {len(tested)} comparisons of this table ({family})"
    else:
        sizes = ", ".join(f"{by} {v}: {n}" for v, n in tested.groupby(by).size().items())
        scope = f"within each value of `{by}` apart ({family}; comparisons: {sizes or 'none'})"
    return (
        f"holm_pvalue: the {test} p-values Holm-corrected {scope}; diff_low and diff_high: the "
        f"difference's interval at level 1 - {ALPHA:g} / m, m the comparisons of its family "
        "(adjusted: one that excludes 0 always goes with holm_pvalue < "
        f"{ALPHA:g}); mdd: the difference found with 80% power at that level."
    )


def validation_table(games: dict[str, pd.DataFrame], reference: str) -> pd.DataFrame:
    """One row per weight set, with the paired score difference to `reference` (same seeds) and
    its t-test p-value Holm-corrected over the table (the reference's own row compares
    nothing)."""
    base = games[reference]
    return with_holm(
        [
            {"name": n} | summary_row(df) | ({} if n == reference else _versus(n, df, base))
            for n, df in games.items()
        ]
    )


def transfer_table(games: dict[tuple[str, int], pd.DataFrame], reference: str) -> pd.DataFrame:
    """The depth-transfer validation: one row per (weight set, depth), with the paired score
    difference to `reference` at the same depth (same seeds) and its t-test p-value
    Holm-corrected over every comparison of the table (`holm_pvalue`; the reference's own rows
    compare nothing and get NaN)."""
    rows = []
    for (name, depth), df in games.items():
        row = {"name": name, "depth": depth} | summary_row(df)
        if name != reference:
            row |= _versus(name, df, games[(reference, depth)])
        rows.append(row)
    return with_holm(rows)


def budget_groups(entries: list[dict]) -> dict[str, list[str]]:
    """The benchmark entries that search under one budget, by budget ('0.1 ms per move',
    '2000 nodes per move'), in config order: the rows the findings rank for their cost."""
    groups: dict[str, list[str]] = {}
    for entry in entries:
        agent = recorded_agent(entry["agent"])
        if agent["budget_ms"]:
            groups.setdefault(f"{agent['budget_ms']:g} ms per move", []).append(entry["name"])
        elif agent["budget_nodes"]:
            groups.setdefault(f"{agent['budget_nodes']} nodes per move", []).append(entry["name"])
    return groups


def comparison_table(
    network_pairs: list[tuple[str, str]],
    budgets: dict[str, list[str]],
    games: dict[str, pd.DataFrame],
) -> pd.DataFrame:
    """Every comparison of two benchmark rows that the findings make, each pair once and tested
    once (`compare`: paired on their common seeds): the network against each heuristic of the
    same agent (`first`, the network's side, as `network` names it), and, under each of
    `budgets`, every two rows (`budget`; `rank`: k for the pair of the k-th and (k+1)-th by mean
    score, which the findings read, 0 for the others; `first` the higher unless the pair is a
    network's). Every two, not only neighbours: which rows neighbour under a time budget
    changes from run to run, and the table's rows must not. Holm within two families, the
    timed pairs and the others: a timed pair's p-value differs from run to run and must not
    move the reproducible rows' correction."""
    rows: dict[frozenset, dict] = {}
    for network, heuristic in network_pairs:
        rows[frozenset((network, heuristic))] = {
            "first": network, "second": heuristic, "network": network, "budget": "", "rank": 0,
        }  # fmt: skip
    for budget, names in budgets.items():
        ranked = sorted(names, key=lambda n: -games[n]["score"].mean())
        for i, j in itertools.combinations(range(len(ranked)), 2):
            high, low = ranked[i], ranked[j]
            row = rows.setdefault(frozenset((high, low)), {"first": high, "second": low})
            rank = i + 1 if j == i + 1 else 0
            row |= {"network": row.get("network", ""), "budget": budget, "rank": rank}
    out = []
    for row in rows.values():
        a, b = games[row["first"]], games[row["second"]]
        d = compare(scores(a), scores(b))
        n = min(len(a), len(b))
        out.append(
            row
            | {
                "test": d["test"],
                "games": d["n"],
                "first_score": float(a["score"].iloc[:n].mean()),
                "second_score": float(b["score"].iloc[:n].mean()),
                "diff": d["mean"],
                "diff_low": d["low"],
                "diff_high": d["high"],
                "t_pvalue": d["t_pvalue"],
                "wilcoxon_pvalue": d["wilcoxon_pvalue"],
                "se": d["se"],
                "df": d["df"],
                "first_reach_2048": float((a["max_tile"].iloc[:n] >= 2048).mean()),
                "second_reach_2048": float((b["max_tile"].iloc[:n] >= 2048).mean()),
                "timed": bool(a["timed"].any() or b["timed"].any()),
            }
        )
    return with_holm(out, family="timed")


def leader_table(groups: dict[str, dict[str, pd.DataFrame]]) -> pd.DataFrame:
    """In each group (e.g. a depth: its weight sets' games), the set of highest mean score
    against the runner-up, tested once (`compare`), Holm over the groups: an order the games
    cannot tell apart reads as such, not by whether two intervals overlap."""
    rows = []
    for group, sets in groups.items():
        ranked = sorted(sets, key=lambda n: -sets[n]["score"].mean())
        if len(ranked) < 2:
            continue
        first, second = ranked[:2]
        d = compare(scores(sets[first]), scores(sets[second]))
        rows.append(
            {"group": group, "first": first, "second": second, "test": d["test"],
             "games": d["n"], "first_score": float(sets[first]["score"].mean()),
             "second_score": float(sets[second]["score"].mean()), "diff": d["mean"],
             "diff_low": d["low"], "diff_high": d["high"], "t_pvalue": d["t_pvalue"],
             "se": d["se"], "df": d["df"]}
        )  # fmt: skip
    return with_holm(rows)


TUNING_COSTS = ("warmup_seconds", "wall_seconds", "cpu_seconds")


def tuning_table(runs: list[dict]) -> pd.DataFrame:
    """One row per tuning run and seed: the seed's pick (its weights, or a network's file),
    the objective its method maximised (`fitness`: NSGA-II's four, shown by the score) with
    its value in training (`fitness_train`, the tuner's) and on the selection games
    (`fitness_selection`), its mean score on the selection games (`selection_score`, what the
    pick was made by), on the test games in the game it was tuned in (`test_score`) and in
    validation (`validation_mean_score`), and the run's cost: games played in training, in
    selection and in all, and the seconds of its warm-up (compiling its kernels) and after
    it, wall and CPU (a network's training: its job's, compilation included)."""
    rows = []
    for run in runs:
        row = {"run": run["run"], "method": run["method"], "seed": run["seed"]}
        row["evaluator"] = run["evaluator"]
        weights = run["weights"]  # numbers, or the file of a td run's network
        row["weights"] = (
            weights if isinstance(weights, str) else " ".join(f"{w:.4g}" for w in weights)
        )
        if "fresh" in run:  # NSGA-II's values are its four objectives, the score first
            method = get_method(run["method"])
            row["fitness"] = run.get("judged_by")
            row["fitness_train"] = method.headline(run["train"])
            row["fitness_selection"] = method.headline(run["fresh"])
            row["selection_score"] = run["metric"]
        for key in ("test_score", "validation_mean_score"):
            if run.get(key) is not None:
                row[key] = run[key]
        for games in ("train_games", "selection_games", "games_played"):
            if games in run:
                row[games] = run[games]
        rows.append(row | {k: run.get(k, np.nan) for k in TUNING_COSTS})
    return pd.DataFrame(rows)


_HTML_STYLE = (
    "body{font-family:sans-serif;font-size:13px;margin:8px}"
    "table{border-collapse:collapse}th,td{padding:3px 8px;text-align:right;"
    "border-bottom:1px solid #ddd}th{background:#f0f0f0;position:sticky;top:0}"
    "tr:nth-child(even){background:#fafafa}td:first-child,th:first-child{text-align:left}"
    "p{color:#555}"
)


def html_page(df: pd.DataFrame, title: str, footer: str = "") -> str:
    """A table as a small self-contained HTML page, for the Snakemake report (which shows HTML
    results inline, where Markdown and LaTeX are only links)."""
    notes = "".join(f"<p>{html.escape(line)}</p>" for line in footer.splitlines())
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_HTML_STYLE}</style></head><body>"
        f"{df.to_html(index=False, border=0, escape=True)}{notes}</body></html>\n"
    )


def write_table(df: pd.DataFrame, stem: str | Path, digits: int = 3, footer: str = "") -> None:
    """Write stem.csv (full precision), stem.md, stem.tex and stem.html (rounded to `digits`),
    the last three with `footer` below the table (in LaTeX as comments); a suffix of `stem`
    is replaced (any of the four files names them all)."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(stem.with_suffix(".csv"), index=False)
    rounded = df.copy()
    for col in rounded.select_dtypes("float").columns:
        rounded[col] = rounded[col].map(lambda v: f"{v:.{digits}g}")
    md_footer = f"\n{footer}\n" if footer else ""
    stem.with_suffix(".md").write_text(rounded.to_markdown(index=False) + "\n" + md_footer)
    tex_footer = "".join(f"% {line}\n" for line in footer.splitlines())
    stem.with_suffix(".tex").write_text(rounded.to_latex(index=False, escape=True) + tex_footer)
    stem.with_suffix(".html").write_text(html_page(rounded, stem.name, footer))


def moves_gain(games: pd.DataFrame, baseline: pd.DataFrame) -> tuple[float, float, float]:
    """Relative gain in mean moves over a baseline on the same seeds: (gain, low, high), the
    paired difference's 95% interval divided by the baseline's mean moves."""
    d = paired_difference(games["moves"], baseline["moves"])
    base = float(baseline["moves"].mean())
    return d["mean"] / base, d["low"] / base, d["high"] / base
