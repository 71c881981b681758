"""Game-record frames for the table, claim and selection tests."""

import pandas as pd


def games(scores: list[int], tiles: list[int], seeds: list[int] | None = None) -> pd.DataFrame:
    n = len(scores)
    return pd.DataFrame(
        {
            "game": range(n),
            "seed": seeds or list(range(n)),
            "score": scores,
            "max_tile": tiles,
            "moves": [100 + 10 * i for i in range(n)],
            "empty_mean": [5.0] * n,
            "nodes": [1000] * n,
            "overflow": [False] * n,
            "depth_mean": [3.0] * n,
            "depths": [f"3:{100 + 10 * i}" for i in range(n)],
            "timed": [False] * n,
            "seconds": [0.5] * n,
        }
    )
