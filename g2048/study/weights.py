"""What a weight vector of the study may hold, one rule for the config check and the result
readers: a list of as many numbers as the evaluator has features (JSON numbers: not true or
false, not strings), each finite and inside the evaluator's box (`Evaluator.bounds`).

The box is where the evaluators are tested (live values stay far from DEAD_VALUE, nneonneo's
row table below 2**24) and where the tuners search: CEM clips its samples to the box, CMA-ES
maps its points into it (cma's boundary transformation), NSGA-II's crossover and mutation clip
to it, and every method's result (mean, elite, front, re-evaluated candidates) is made of such
points. So a tuned vector outside the box was not made by its run, and a hand-made one outside
it is untested. Every shipped default and hand-made set lies inside (nneonneo's defaults
200000, 270, 700, 47, 11 in its box of 400000, 1000, 2000, 200, 50). BOX_TOLERANCE of a box's
width allows for the rounding of the tuners' arithmetic at its edges."""

from __future__ import annotations

import json
import math

import numpy as np

from g2048.evaluators import get_evaluator

BOX_TOLERANCE = 1e-9  # of a box's width


def shown(value: object) -> str:
    """A value as a message shows it: its JSON (else its repr), cut to 60 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def weights_problem(evaluator: str, value: object) -> str | None:
    """None when `value` (a JSON value, or a numpy array) is a valid weight vector of the
    heuristic `evaluator`, else what is wrong with it, as a phrase ("holds 3 weights, ...")."""
    ev = get_evaluator(evaluator)
    features, d = ev.features, len(ev.features)
    if isinstance(value, np.ndarray):
        value = value.tolist()  # a bool array's items stay bools, a str array's strs
    if not isinstance(value, list):
        return f"must be a list of {d} numbers ({evaluator}: {', '.join(features)}), got " + (
            shown(value)
        )
    if len(value) != d:
        return (
            f"holds {len(value)} weights; evaluator {evaluator} takes {d} ({', '.join(features)})"
        )
    for i, (w, (low, high)) in enumerate(zip(value, ev.bounds, strict=True)):
        what = f"weight {i} ({features[i]})"
        if isinstance(w, bool) or not isinstance(w, int | float):
            return f"holds {shown(w)} as its {what}, not a number"
        try:
            finite = math.isfinite(w)
        except OverflowError:  # an int beyond any float
            finite = False
        if not finite:
            return f"holds {shown(w)} as its {what}, not a finite number"
        slack = BOX_TOLERANCE * (high - low)
        if not low - slack <= w <= high + slack:
            return (
                f"holds {w:g} as its {what}, outside {evaluator}'s box [{low:g}, {high:g}] "
                "(the box its tuners search and its values are tested in)"
            )
    return None


def rows_problem(evaluator: str, rows: object) -> str | None:
    """`weights_problem` of one weight vector, or of each of the switching agent's rows (a
    list, or an array, of vectors), naming the row; None when every row is valid."""
    if isinstance(rows, np.ndarray):
        rows = rows.tolist()
    if isinstance(rows, list) and rows and all(isinstance(row, list) for row in rows):
        for i, row in enumerate(rows):
            if (problem := weights_problem(evaluator, row)) is not None:
                return f"row {i} {problem}" if len(rows) > 1 else problem
        return None
    return weights_problem(evaluator, rows)
