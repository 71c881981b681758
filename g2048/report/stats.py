"""Statistics for result tables: confidence intervals, tile reach rates, comparisons.

Means get Student t intervals, rates Wilson score intervals (which stay inside [0, 1] and
behave at 0/n and n/n, where the normal approximation collapses). Every comparison of the study
is made by one rule (`compare`): samples that share their units (agents on the same game
seeds, a run's seeds against one baseline on the same games) are tested pairwise, a paired
t-test with the Wilcoxon signed-rank test as a check that does not lean on normality; samples
without common units by Welch's t.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

THRESHOLDS = (2048, 4096, 8192, 16384, 32768)


def _check_level(level: float) -> None:
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")


def _sample(x: object, name: str = "x") -> np.ndarray:
    values = np.asarray(x, dtype=np.float64).ravel()
    if values.size == 0:
        raise ValueError(f"{name} is empty")
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} holds non-finite values")
    return values


def _t_interval(values: np.ndarray, level: float) -> tuple[float, float, float]:
    mean = float(values.mean())
    if values.size < 2:
        return mean, math.nan, math.nan
    half = (
        stats.t.ppf(0.5 + level / 2, values.size - 1) * values.std(ddof=1) / math.sqrt(values.size)
    )
    return mean, mean - float(half), mean + float(half)


def mean_ci(x: object, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the Student t interval for the mean; nan bounds for one value."""
    _check_level(level)
    return _t_interval(_sample(x), level)


def median_ci(x: object, level: float = 0.95) -> tuple[float, float, float]:
    """(median, low, high): the distribution-free interval for the median between two order
    statistics, x_(r) and x_(n+1-r) with r the largest rank whose binomial tail
    P(Bin(n, 1/2) < r) stays within (1 - level) / 2 (the whole range when n is too small)."""
    _check_level(level)
    values = np.sort(_sample(x))
    n = values.size
    r = max(1, int(stats.binom.ppf((1 - level) / 2, n, 0.5)))
    return float(np.median(values)), float(values[r - 1]), float(values[n - r])


def wilson_ci(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """(low, high): the Wilson score interval for a binomial rate successes / n."""
    _check_level(level)
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..{n}, got {successes}")
    z = stats.norm.ppf(0.5 + level / 2)
    p = successes / n
    shrink = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / shrink
    half = z / shrink * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # at 0/n and n/n the bound is exactly 0 or 1; floating point would leave ~1e-19 over
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def reach_rates(
    max_tiles: object, thresholds: tuple[int, ...] = THRESHOLDS, level: float = 0.95
) -> pd.DataFrame:
    """One row per threshold: tile, reached (games with max tile >= tile), games, rate, and
    the rate's Wilson interval (low, high)."""
    tiles = _sample(max_tiles, "max_tiles")
    rows = []
    for tile in thresholds:
        reached = int(np.count_nonzero(tiles >= tile))
        low, high = wilson_ci(reached, tiles.size, level)
        rows.append((tile, reached, tiles.size, reached / tiles.size, low, high))
    return pd.DataFrame(rows, columns=["tile", "reached", "games", "rate", "low", "high"])


ALPHA = 0.05  # the level of every test of the study (Holm-corrected within each family)
POWER = 0.8  # the power at which a comparison's smallest detectable difference is stated


def detectable_difference(se: float, df: float, alpha: float, power: float = POWER) -> float:
    """The smallest true difference a two-sided t-test at level `alpha` finds with probability
    `power`, given the standard error `se` of the difference and its degrees of freedom `df`:
    (t_{1 - alpha/2} + t_{power}) x se (the usual normal-approximation formula with t
    quantiles). NaN where the test has no error estimate."""
    if not (se >= 0 and df > 0) or not 0 < alpha < 1:
        return math.nan
    return float((stats.t.ppf(1 - alpha / 2, df) + stats.t.ppf(power, df)) * se)


def replicates_needed(
    between: float, within: float, games: int, seeds: int, target: float, alpha: float
) -> tuple[float, float]:
    """(seeds at `games` test games, test games at `seeds` seeds) that a t-test over seeds at
    level `alpha` needs to find a true difference `target` with probability POWER, when a
    seed's value varies by `between` (variance across seeds) plus `within` / games (the game
    noise of its mean). Infinite where no number reaches it (at these `seeds`, the seeds'
    own spread alone is too large); NaN without variances."""
    if not (between >= 0 and within >= 0 and target > 0 and seeds >= 2 and games >= 1):
        return math.nan, math.nan

    def quantiles(k: int) -> float:
        return float(stats.t.ppf(1 - alpha / 2, k - 1) + stats.t.ppf(POWER, k - 1))

    variance = between + within / games
    z = stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(POWER)
    k = max(2, math.ceil(z * z * variance / target**2))  # t's quantiles exceed z's: k grows
    while quantiles(k) * math.sqrt(variance / k) > target:
        k += 1
    room = seeds * (target / quantiles(seeds)) ** 2 - between
    n = math.ceil(within / room) if room > 0 else math.inf
    return float(k), float(max(n, 1))


def paired_difference(a: object, b: object, level: float = 0.95) -> dict[str, float]:
    """Mean of a - b over paired samples (same seeds): n, mean, low, high (t interval),
    t_pvalue (paired t-test) and wilcoxon_pvalue (signed-rank test), both two-sided, and the
    t-test's standard error `se` and degrees of freedom `df` (NaN with one pair).

    When every difference is 0 both p-values are 1 (no evidence of a difference); when all
    differences are equal but not 0 the t-test gives 0.
    """
    _check_level(level)
    x, y = _sample(a, "a"), _sample(b, "b")
    if x.size != y.size:
        raise ValueError(f"a and b must have equal length, got {x.size} and {y.size}")
    d = x - y
    mean, low, high = _t_interval(d, level)
    if not np.any(d):
        t_p = w_p = 1.0
    elif d.size < 2:
        t_p = w_p = math.nan
    else:
        sd = d.std(ddof=1)
        t = math.inf if sd == 0 else abs(mean) / sd * math.sqrt(d.size)
        t_p = float(2 * stats.t.sf(t, d.size - 1))
        w_p = float(stats.wilcoxon(d).pvalue)
    return {
        "n": int(d.size),
        "mean": mean,
        "low": low,
        "high": high,
        "t_pvalue": t_p,
        "wilcoxon_pvalue": w_p,
        "se": float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else math.nan,
        "df": float(d.size - 1) if d.size > 1 else math.nan,
    }


def _welch(a: np.ndarray, b: np.ndarray, level: float) -> dict[str, float]:
    """Mean a - b with Welch's interval and two-sided p-value (NaN with fewer than 2 each)."""
    diff = float(a.mean() - b.mean())
    nan = math.nan
    out = {"mean": diff, "low": nan, "high": nan, "t_pvalue": nan, "se": nan, "df": nan}
    if a.size < 2 or b.size < 2:
        return out
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = math.sqrt(va + vb)
    if se == 0:
        p = 1.0 if diff == 0 else 0.0
        return out | {"low": diff, "high": diff, "t_pvalue": p, "se": 0.0, "df": math.inf}
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = float(stats.t.ppf(0.5 + level / 2, df)) * se
    p = float(2 * stats.t.sf(abs(diff) / se, df))
    return out | {"low": diff - half, "high": diff + half, "t_pvalue": p, "se": se, "df": df}


PAIRED, WELCH = "paired t", "Welch t"


def compare(a: pd.Series, b: pd.Series, level: float = 0.95) -> dict[str, object]:
    """The study's one test of a difference a - b, each sample a Series indexed by its units
    (game seeds, or a run's seeds): paired t over the units both hold, when they share at
    least two (the same games, so the same spawn streams); Welch's t over all of each when they
    share none. `test` names the test; n (pairs, or both sizes summed), mean, low, high (t
    interval at `level`), t_pvalue, wilcoxon_pvalue (paired only), se and df as
    `paired_difference`. Sharing a single unit, or only some, is refused: the rule would be
    ambiguous."""
    common = a.index.intersection(b.index, sort=False)
    if len(common) >= 2 and len(common) == min(len(a), len(b)):
        d = paired_difference(a.loc[common], b.loc[common], level)
        return d | {"test": PAIRED}
    if len(common):
        raise ValueError(f"the samples share {len(common)} units only: neither paired nor apart")
    d = _welch(_sample(a, "a"), _sample(b, "b"), level)
    return d | {"test": WELCH, "n": len(a) + len(b), "wilcoxon_pvalue": math.nan}


def interval_at(mean: float, se: float, df: float, alpha: float) -> tuple[float, float]:
    """The two-sided t interval at level 1 - alpha about `mean`; NaN bounds where the test has no
    error estimate."""
    if not (se >= 0 and df > 0 and alpha > 0):
        return math.nan, math.nan
    half = float(stats.t.ppf(1 - alpha / 2, df)) * se if se > 0 else 0.0
    return mean - half, mean + half


def _ascending(pvalues: object) -> tuple[np.ndarray, np.ndarray]:
    """The p-values as floats, and the indices of those that are not NaN, smallest first (ties
    in their order)."""
    p = np.asarray(pvalues, dtype=float)
    known = np.flatnonzero(~np.isnan(p))
    return p, known[np.argsort(p[known], kind="stable")]


def holm_levels(pvalues: object) -> np.ndarray:
    """The level Holm's step-down procedure tests each p-value at: ALPHA / (m - j) for the j-th
    smallest (from 0) while every smaller one was rejected, then the level of the first step
    that was not, for all that follow. An interval at its comparison's level excludes 0 exactly
    when its Holm-adjusted p-value is below ALPHA. NaN stays NaN and does not count in m."""
    p, order = _ascending(pvalues)
    out = np.full_like(p, np.nan)
    level, rejecting = np.nan, True
    for j, i in enumerate(order):
        if rejecting:
            level = ALPHA / (order.size - j)
            rejecting = p[i] < level
        out[i] = level
    return out


def holm(pvalues: object) -> np.ndarray:
    """Holm's step-down adjustment of p-values for testing them all at once (family-wise error
    rate): the i-th smallest becomes max over j <= i of min(1, (m - j) p_(j)); NaN stays NaN
    and does not count in m."""
    p, order = _ascending(pvalues)
    out = np.full_like(p, np.nan)
    m = order.size
    running = 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (m - j) * p[i]))
        out[i] = running
    return out


def summarize(df: pd.DataFrame, level: float = 0.95) -> dict[str, float]:
    """One batch of games (a `play_games` table) in one flat dict: games, score_mean,
    score_low, score_high, score_median, for each threshold t reached_t, reach_t, reach_t_low,
    reach_t_high, moves_mean, moves_per_s (total moves / total game seconds: per thread) and
    nodes_per_move (total search nodes / total moves)."""
    if len(df) == 0:
        raise ValueError("no games to summarize")
    mean, low, high = mean_ci(df["score"], level)
    out: dict[str, float] = {
        "games": len(df),
        "score_mean": mean,
        "score_low": low,
        "score_high": high,
        "score_median": float(df["score"].median()),
    }
    for row in reach_rates(df["max_tile"], level=level).itertuples():
        out[f"reached_{row.tile}"] = row.reached
        out[f"reach_{row.tile}"] = row.rate
        out[f"reach_{row.tile}_low"] = row.low
        out[f"reach_{row.tile}_high"] = row.high
    moves = float(df["moves"].sum())
    seconds = float(df["seconds"].sum())
    out["moves_mean"] = float(df["moves"].mean())
    out["moves_per_s"] = moves / seconds if seconds > 0 else math.nan
    out["nodes_per_move"] = float(df["nodes"].sum()) / moves if moves > 0 else math.nan
    return out
