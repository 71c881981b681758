"""g2048.stats against hand computations, scipy's own routines and simulated coverage."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from g2048.report.stats import (
    ALPHA,
    PAIRED,
    POWER,
    WELCH,
    compare,
    detectable_difference,
    holm,
    holm_levels,
    interval_at,
    mean_ci,
    paired_difference,
    reach_rates,
    replicates_needed,
    summarize,
    wilson_ci,
)
from g2048.report.tables import with_holm

Z95 = 1.959963984540054  # the 97.5% normal quantile


def _wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    """Wilson (1927): (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)."""
    p = k / n
    centre = p + Z95**2 / (2 * n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n))
    return (centre - half) / (1 + Z95**2 / n), (centre + half) / (1 + Z95**2 / n)


@pytest.mark.parametrize(
    ("k", "n", "published"),
    [(0, 10, (0.0, 0.2775)), (10, 10, (0.7225, 1.0)), (5, 10, (0.2366, 0.7634))],
)
def test_wilson_matches_the_formula_and_published_values(k: int, n: int, published) -> None:  # noqa: ANN001
    low, high = wilson_ci(k, n)
    assert (low, high) == pytest.approx(_wilson_by_hand(k, n), abs=1e-12)
    assert (low, high) == pytest.approx(published, abs=5e-5)


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (3, 7), (17, 40), (99, 100), (1, 1000)])
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_wilson_matches_scipy(k: int, n: int, level: float) -> None:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    assert wilson_ci(k, n, level) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="n must be >= 1"):
        wilson_ci(0, 0)
    with pytest.raises(ValueError, match="successes"):
        wilson_ci(11, 10)
    with pytest.raises(ValueError, match="level"):
        wilson_ci(1, 10, level=1.0)


def test_mean_ci_by_hand() -> None:
    # mean 3, sd sqrt(2.5), t(0.975, 4) = 2.7764451051977987
    half = 2.7764451051977987 * math.sqrt(2.5) / math.sqrt(5)
    assert mean_ci([1, 2, 3, 4, 5]) == pytest.approx((3.0, 3 - half, 3 + half), abs=1e-12)


@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.99])
def test_mean_ci_matches_scipy(level: float) -> None:
    x = np.random.default_rng(1).gamma(2.0, 1000.0, size=23)
    low, high = stats.t.interval(level, x.size - 1, loc=x.mean(), scale=stats.sem(x))
    assert mean_ci(x, level) == pytest.approx((x.mean(), low, high), rel=1e-12)


def test_mean_ci_edge_cases() -> None:
    mean, low, high = mean_ci([7])
    assert mean == 7 and math.isnan(low) and math.isnan(high)
    assert mean_ci([4, 4, 4]) == (4.0, 4.0, 4.0)
    with pytest.raises(ValueError, match="empty"):
        mean_ci([])
    with pytest.raises(ValueError, match="non-finite"):
        mean_ci([1.0, math.nan])


def test_wilson_coverage() -> None:
    """At n = 20, p = 0.1 Wilson covers about 95.7% of the time (the Wald interval: 87.6%)."""
    n, p = 20, 0.1
    ks = np.random.default_rng(2048).binomial(n, p, size=2000)
    covered = [low <= p <= high for low, high in (wilson_ci(int(k), n) for k in ks)]
    assert 0.93 <= np.mean(covered) <= 0.97


def test_t_interval_coverage() -> None:
    """Samples of 5 normals: the t interval covers 95% of the time (a z interval about 88%)."""
    samples = np.random.default_rng(4096).normal(10.0, 3.0, size=(2000, 5))
    covered = [low <= 10.0 <= high for _, low, high in (mean_ci(s) for s in samples)]
    assert 0.93 <= np.mean(covered) <= 0.97


def test_reach_rates_counts_and_intervals() -> None:
    table = reach_rates([1024, 2048, 4096, 4096, 16384, 512, 2048, 8192, 256, 128])
    assert list(table.columns) == ["tile", "reached", "games", "rate", "low", "high"]
    assert table["tile"].tolist() == [2048, 4096, 8192, 16384, 32768]
    assert table["reached"].tolist() == [6, 4, 2, 1, 0]
    assert (table["games"] == 10).all()
    assert table["rate"].tolist() == pytest.approx([0.6, 0.4, 0.2, 0.1, 0.0])
    for row in table.itertuples():
        assert (row.low, row.high) == pytest.approx(_wilson_by_hand(row.reached, 10))


def test_paired_difference_matches_scipy() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(100, 10, size=30)
    b = a - 2 + rng.normal(0, 5, size=30)
    result = paired_difference(a, b)
    assert result["n"] == 30
    assert (result["mean"], result["low"], result["high"]) == pytest.approx(mean_ci(a - b))
    assert result["mean"] == pytest.approx(np.mean(a) - np.mean(b))
    assert result["t_pvalue"] == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-9)
    assert result["wilcoxon_pvalue"] == pytest.approx(stats.wilcoxon(a, b).pvalue, rel=1e-9)
    assert result["t_pvalue"] < 0.05  # a true difference of 2 with sd 5 over 30 pairs


def test_paired_difference_by_hand() -> None:
    # differences 1, 2, 3, 4, 6: mean 3.2, sd sqrt(3.7), t = 3.2 / sqrt(3.7 / 5)
    result = paired_difference([11, 12, 13, 14, 16], [10, 10, 10, 10, 10])
    t = 3.2 / math.sqrt(3.7 / 5)
    assert result["mean"] == pytest.approx(3.2)
    assert result["t_pvalue"] == pytest.approx(2 * stats.t.sf(t, 4), rel=1e-12)
    assert result["wilcoxon_pvalue"] == pytest.approx(2 / 32)  # all 5 signs positive, exact


def test_paired_difference_degenerate_and_bad_input() -> None:
    same = paired_difference([5, 6, 7], [5, 6, 7])
    assert same["mean"] == 0 and same["t_pvalue"] == 1.0 and same["wilcoxon_pvalue"] == 1.0
    assert paired_difference([6, 7, 8], [5, 6, 7])["t_pvalue"] == 0.0
    with pytest.raises(ValueError, match="equal length, got 3 and 2"):
        paired_difference([1, 2, 3], [1, 2])


def test_summarize() -> None:
    df = pd.DataFrame(
        {
            "score": [1000, 3000, 2000, 6000],
            "max_tile": [128, 256, 2048, 4096],
            "moves": [100, 300, 200, 400],
            "nodes": [1000, 3000, 2000, 4000],
            "seconds": [0.5, 1.5, 1.0, 2.0],
        }
    )
    s = summarize(df)
    assert s["games"] == 4
    assert (s["score_mean"], s["score_low"], s["score_high"]) == pytest.approx(mean_ci(df["score"]))
    assert s["score_median"] == 2500
    assert (s["reached_2048"], s["reach_2048"]) == (2, 0.5)
    assert (s["reached_4096"], s["reached_8192"], s["reached_32768"]) == (1, 0, 0)
    assert (s["reach_4096_low"], s["reach_4096_high"]) == pytest.approx(_wilson_by_hand(1, 4))
    assert s["moves_mean"] == 250
    assert s["moves_per_s"] == pytest.approx(1000 / 5.0)
    assert s["nodes_per_move"] == pytest.approx(10.0)
    with pytest.raises(ValueError, match="no games"):
        summarize(df.iloc[:0])


def test_holm_adjusts_step_down_and_keeps_order() -> None:
    adjusted = holm([0.01, 0.04, 0.03, np.nan, 0.5])
    # m = 4 known p-values: 0.01 * 4, then max(0.04, 0.03 * 3), then max(0.09, 0.04 * 2), 0.5
    np.testing.assert_allclose(adjusted, [0.04, 0.09, 0.09, np.nan, 0.5])
    assert holm([0.9, 0.8]).tolist() == [1.0, 1.0]
    p = np.random.default_rng(1).random(20)
    assert np.all(holm(p) >= p) and np.all(np.diff(holm(p)[np.argsort(p)]) >= 0)


def test_the_detectable_difference_is_found_with_its_power() -> None:
    """A true difference of `detectable_difference` is found by the t-test about 80% of the
    time (simulated); with many degrees of freedom it is (z_0.975 + z_0.8) standard errors."""
    assert detectable_difference(1.0, 1e9, 0.05) == pytest.approx(1.959964 + 0.841621, abs=1e-5)
    assert detectable_difference(2.0, 1e9, 0.05) == pytest.approx(2 * 2.801585, abs=1e-4)
    assert detectable_difference(1.0, 1e9, 0.01) > detectable_difference(1.0, 1e9, 0.05)
    assert math.isnan(detectable_difference(math.nan, 4, 0.05))
    rng = np.random.default_rng(7)
    n, sd = 30, 10.0
    mdd = detectable_difference(sd / math.sqrt(n), n - 1, 0.05)
    found = [
        paired_difference(rng.normal(mdd, sd, n), np.zeros(n))["t_pvalue"] < 0.05
        for _ in range(3000)
    ]
    assert 0.76 < np.mean(found) < 0.84
    halved = [
        paired_difference(rng.normal(mdd / 2, sd, n), np.zeros(n))["t_pvalue"] < 0.05
        for _ in range(3000)
    ]
    assert np.mean(halved) < 0.4  # half the difference is mostly missed


def test_a_family_states_its_detectable_difference_at_its_bonferroni_level() -> None:
    rows = [
        {"t_pvalue": 0.01, "se": 2.0, "df": 9.0},
        {"t_pvalue": 0.5, "se": 1.0, "df": 9.0},
        {"t_pvalue": math.nan, "se": math.nan, "df": math.nan},  # compares nothing
    ]
    table = with_holm(rows)
    assert "se" not in table and "df" not in table
    assert table.mdd[0] == detectable_difference(2.0, 9.0, 0.05 / 2)
    assert table.mdd[1] == detectable_difference(1.0, 9.0, 0.05 / 2)
    assert math.isnan(table.mdd[2])


def test_compare_pairs_common_units_and_takes_welch_for_disjoint_ones() -> None:
    """The one rule: paired t on the units both samples hold (whatever their order, and a
    sample whose units all lie in the other's), Welch's t when they share none."""
    rng = np.random.default_rng(3)
    x, y = rng.normal(10, 3, 12), rng.normal(9, 3, 12)
    a = pd.Series(x, index=range(12))
    b = pd.Series(y, index=range(12))[::-1]  # the same games, listed the other way round
    d = compare(a, b)
    assert d["test"] == PAIRED and d["n"] == 12
    assert d["t_pvalue"] == pytest.approx(stats.ttest_rel(x, y).pvalue)
    assert d["mean"] == pytest.approx((x - y).mean())
    longer = pd.concat([a, pd.Series([99.0, 98.0], index=[12, 13])])  # b's games and 2 more
    assert compare(longer, b)["t_pvalue"] == pytest.approx(d["t_pvalue"])
    apart = pd.Series(y[:9], index=range(100, 109))
    w = compare(a, apart)
    assert w["test"] == WELCH and w["n"] == 21 and math.isnan(w["wilcoxon_pvalue"])
    welch = stats.ttest_ind(x, y[:9], equal_var=False)
    assert w["t_pvalue"] == pytest.approx(welch.pvalue)
    assert (w["low"], w["high"]) == pytest.approx(tuple(welch.confidence_interval()))


def test_compare_refuses_samples_that_share_only_some_units() -> None:
    """Neither paired (some games are not common) nor independent (some are): refused, as is a
    single common unit."""
    a = pd.Series([1.0, 2.0, 3.0, 4.0], index=[0, 1, 2, 3])
    with pytest.raises(ValueError, match="share 2 units only"):
        compare(a, pd.Series([1.0, 5.0, 6.0], index=[2, 3, 7]))
    with pytest.raises(ValueError, match="share 1 units only"):
        compare(pd.Series([1.0]), pd.Series([2.0, 3.0]))


def test_replicates_needed_reach_the_target_with_the_fewest_seeds_and_games() -> None:
    """k seeds are the fewest whose t-test finds `target` with POWER (k - 1 seeds do not);
    n games at the given seeds the fewest that do; none where the seeds' spread alone is too
    wide; and a simulated t-test over k seeds finds the target about POWER of the time."""
    between, within, games, seeds, target, alpha = 4.0, 400.0, 50, 5, 5.0, 0.05
    k, n = replicates_needed(between, within, games, seeds, target, alpha)
    variance = between + within / games

    def mdd(var: float, replicates: int) -> float:
        return detectable_difference(math.sqrt(var / replicates), replicates - 1, alpha)

    assert mdd(variance, int(k)) <= target < mdd(variance, int(k) - 1)
    assert mdd(between + within / n, seeds) <= target < mdd(between + within / (n - 1), seeds)
    wide = replicates_needed(30.0, within, games, seeds, target, alpha)
    assert wide[1] == math.inf and math.isfinite(wide[0])
    assert all(map(math.isnan, replicates_needed(between, within, games, 1, target, alpha)))
    rng = np.random.default_rng(5)
    means = rng.normal(target, math.sqrt(variance), (4000, int(k)))
    found = stats.ttest_1samp(means, 0.0, axis=1).pvalue < alpha
    assert abs(found.mean() - POWER) < 0.04


def test_an_interval_at_its_holm_level_excludes_0_exactly_when_holm_separates() -> None:
    """Each of m t-tests' intervals at holm_levels: excludes 0 iff Holm p < ALPHA, whatever the
    p-values (the Bonferroni level ALPHA / m for all would miss the later steps' rejections)."""
    rng = np.random.default_rng(3)
    for _ in range(300):
        m = int(rng.integers(1, 8))
        t = rng.normal(0.0, 3.0, m)
        se, df = rng.uniform(0.5, 2.0, m), 29.0
        p = 2 * stats.t.sf(np.abs(t), df)
        levels, adjusted = holm_levels(p), holm(p)
        for i in range(m):
            low, high = interval_at(t[i] * se[i], se[i], df, levels[i])
            assert (low > 0 or high < 0) == (adjusted[i] < ALPHA)
    assert holm_levels([0.001, 0.02, 0.03]).tolist() == pytest.approx([ALPHA / 3, ALPHA / 2, ALPHA])
    assert holm_levels([0.001, 0.04, 0.03]).tolist() == pytest.approx(
        [ALPHA / 3, ALPHA / 2, ALPHA / 2]
    )
    assert np.isnan(holm_levels([np.nan, 0.01])[0]) and holm_levels([np.nan, 0.01])[1] == ALPHA
