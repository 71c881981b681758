"""Small statistics helpers for the statistical tests (scipy does the distributions)."""

import math

from scipy import stats


def chi2_uniform_pvalue(counts: list[int]) -> float:
    """Pearson chi-square p-value of counts against equal expected counts in every category."""
    return float(stats.chisquare(counts).pvalue)


def chi2_homogeneity_pvalue(counts_a: list[int], counts_b: list[int]) -> float:
    """Chi-square p-value that two samples of category counts come from one distribution."""
    return float(stats.chi2_contingency([counts_a, counts_b], correction=False).pvalue)


def binomial_z(successes: int, trials: int, p: float) -> float:
    """Standardised distance of a success count from its binomial mean."""
    return (successes - trials * p) / math.sqrt(trials * p * (1 - p))
