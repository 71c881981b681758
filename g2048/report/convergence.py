"""Whether the weight-tuning runs had converged: their incumbents' values on held-out progress
games (`stages.held_out_progress`, one frame per run and seed) as curves against the training
games played, the mean over seeds with its standard error, and the rule that names a run still
improving at its last step."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from g2048.report.stats import POWER
from g2048.study.methods import get_method

# A gain counts as real when it exceeds this many of its standard errors (one-sided, about 2.3%
# for a normal estimate): a run still improving at its end would have gained from more games.
NOISE_FACTOR = 2.0
IMPROVING, FLATTENED, UNDECIDED = "still improving", "flattened", "one point: undecided"


def progress_curves(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """One row per run and point: the training games played up to it, the seeds, the mean over
    the seeds of their held-out means and its standard error: over the seeds (seeds as
    replicates) with two or more, else the one seed's over its games; and the untuned weights'
    mean on the same games (`baseline`, NaN where the frames have none)."""
    rows = []
    points = pd.concat(frames, ignore_index=True)
    for (run, step), seeds in points.groupby(["run", "step"], sort=False):
        first = seeds.iloc[0]
        n = len(seeds)
        se = seeds["mean"].std(ddof=1) / np.sqrt(n) if n > 1 else float(first["se"])
        rows.append(
            {
                "run": run,
                "method": first["method"],
                "evaluator": first["evaluator"],
                "measure": first["measure"],
                "step": step,
                "training_games": int(seeds["training_games"].max()),
                "seeds": n,
                "mean": float(seeds["mean"].mean()),
                "se": float(se),
                "baseline": float(first.get("baseline", np.nan)),
            }
        )
    return pd.DataFrame(rows)


def last_gain(seeds: pd.DataFrame) -> tuple[float, float]:
    """A run's gain from its next-to-last point to its last, averaged over its seeds (rows:
    each seed's last point, whose `gain` and `gain_se` are paired over the common progress
    games), and that mean's standard error: the larger of the seeds' spread (sd / sqrt(n),
    with two seeds or more) and the games' own noise (sqrt(sum of gain_se^2) / n), so that a
    few seeds that happen to agree do not make a gain look sure."""
    gains, errors = seeds["gain"].to_numpy(float), seeds["gain_se"].to_numpy(float)
    n = len(gains)
    games = float(np.sqrt(np.sum(errors**2)) / n)
    spread = float(np.std(gains, ddof=1) / np.sqrt(n)) if n > 1 else 0.0
    return float(gains.mean()), max(games, spread)


def detectable_gain(se: float) -> float:
    """The smallest last gain the rule finds with POWER (a normal gain of standard error `se`
    exceeds NOISE_FACTOR x se that often): what a "flattened" could have missed."""
    return float((NOISE_FACTOR + stats.norm.ppf(POWER)) * se)


def still_improving(gain: float, se: float) -> bool:
    """The not-flattened rule: the last gain exceeds NOISE_FACTOR of its standard errors (a
    flat or falling run, or one whose gain is within its noise, has flattened)."""
    return bool(gain > NOISE_FACTOR * se)


def progress_table(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """One row per weight-tuning run: its held-out value (mean over seeds) at its first, next to
    last and last points with the training games played by then, the gain over the last
    interval with its standard error (`last_gain`) and the smallest gain the rule would find
    (`detectable_gain`; none where no seed's incumbent played differently over the last
    interval), and its `verdict`: IMPROVING by `still_improving`, else FLATTENED
    (UNDECIDED for a run measured at one point only)."""
    curves = progress_curves(frames)
    points = pd.concat(frames, ignore_index=True)
    rows = []
    for run, curve in curves.groupby("run", sort=False):
        first, last = curve.iloc[0], curve.iloc[-1]
        before = curve.iloc[-2] if len(curve) > 1 else None
        row = {
            "run": run,
            "method": get_method(first["method"]).label,
            "evaluator": first["evaluator"],
            "measure": first["measure"],
            "seeds": int(last["seeds"]),
            "points": len(curve),
            "progress_games": int(points.loc[points.run == run, "progress_games"].iloc[0]),
            "first_games": int(first["training_games"]),
            "first_value": first["mean"],
            "before_games": np.nan if before is None else int(before["training_games"]),
            "before_value": np.nan if before is None else before["mean"],
            "games": int(last["training_games"]),
            "value": last["mean"],
            "value_se": last["se"],
            "gain": np.nan,
            "gain_se": np.nan,
            "detectable_gain": np.nan,
            "verdict": UNDECIDED,
        }
        if before is not None:
            ends = points[(points.run == run) & (points.step == last["step"])]
            gain, se = last_gain(ends)
            verdict = IMPROVING if still_improving(gain, se) else FLATTENED
            # no seed's incumbent played differently (a gain of 0 on every game): nothing to
            # detect a gain against
            found = np.nan if gain == se == 0 else detectable_gain(se)
            row |= {"gain": gain, "gain_se": se, "detectable_gain": found}
            row["verdict"] = verdict
        rows.append(row)
    return pd.DataFrame(rows)
