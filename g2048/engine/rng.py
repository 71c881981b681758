"""Per-game deterministic random numbers: splitmix64 in numba, seeded via SeedSequence.

Every game owns a one-word generator state (a uint64 array of length 1), so a game's result
depends only on its seed, never on the thread that plays it or on the other games in a batch.
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def mix64(z: np.uint64) -> np.uint64:
    """The splitmix64 output function: a bijective 64-bit avalanche mix."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seed_state(seed: np.uint64) -> np.ndarray:
    """A fresh generator state; the seed is mixed so that nearby seeds give unrelated streams."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = mix64(np.uint64(seed) ^ _GAMMA)
    return state


@njit(cache=True)
def next_u64(state: np.ndarray) -> np.uint64:
    """Advance the state and return 64 random bits (splitmix64, Steele et al. 2014)."""
    s = state[0] + _GAMMA
    state[0] = s
    return mix64(s)


@njit(cache=True)
def next_below(state: np.ndarray, n: int) -> int:
    """Uniform integer in [0, n) for 1 <= n < 2**32, without bias (Lemire 2019)."""
    bound = np.uint64(n)
    m = (next_u64(state) >> np.uint64(32)) * bound
    low = m & _LOW32
    if low < bound:
        threshold = (np.uint64(1 << 32) - bound) % bound
        while low < threshold:
            m = (next_u64(state) >> np.uint64(32)) * bound
            low = m & _LOW32
    return np.int64(m >> np.uint64(32))


@njit(cache=True)
def next_float(state: np.ndarray) -> float:
    """Uniform float in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def rng_state(seed: int) -> np.ndarray:
    """A generator state from an integer seed (any integer in [0, 2**64))."""
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed_state(np.uint64(int(seed)))


def _purpose_key(purpose: str) -> int:
    return int.from_bytes(hashlib.sha256(purpose.encode()).digest()[:8], "little")


def game_seeds(study_seed: int, purpose: str, n: int, start: int = 0) -> np.ndarray:
    """Seeds of games start..start+n-1 for one purpose of a study, via numpy's SeedSequence.

    Game i's seed depends only on (study_seed, purpose, i), so shards of a batch can be
    generated independently and still agree with the whole.
    """
    if n < 0 or start < 0:
        raise ValueError(f"n and start must be >= 0, got n={n}, start={start}")
    if int(study_seed) < 0:
        raise ValueError(f"study_seed must be >= 0, got {study_seed}")
    key = _purpose_key(purpose)
    return np.array(
        [
            np.random.SeedSequence(int(study_seed), spawn_key=(key, i)).generate_state(
                1, np.uint64
            )[0]
            for i in range(start, start + n)
        ],
        dtype=np.uint64,
    )
