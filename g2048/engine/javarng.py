"""java.util.Random in numba: the generator of source 004's Java players, so that a faithful
player (g2048.agents.sources) draws the numbers the source's program draws from the same seed.

The state is one 48-bit word in a uint64 array of length 1 (as g2048.engine.rng's), advanced by
the linear congruence of java.util.Random's documentation: seed = seed x 0x5DEECE66D + 0xB mod
2**48, and `next(bits)` the top `bits` of the new seed. `next_int` and `next_double` follow the
documented algorithms of Random.nextInt(int) and Random.nextDouble() bit for bit (tested against
the JDK in tests/oracles).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MULTIPLIER = np.uint64(0x5DEECE66D)
_ADDEND = np.uint64(0xB)
_MASK = np.uint64((1 << 48) - 1)
_DOUBLE_UNIT = 2.0**-53


@njit(cache=True)
def java_state(seed: np.uint64) -> np.ndarray:
    """The state of `new java.util.Random(seed)` (seed: the low 48 bits count)."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = (np.uint64(seed) ^ _MULTIPLIER) & _MASK
    return state


@njit(cache=True, inline="always")
def _next(state: np.ndarray, bits: int) -> int:
    """Random.next(bits): advance the state, its top `bits` bits (bits <= 31: non-negative)."""
    state[0] = (state[0] * _MULTIPLIER + _ADDEND) & _MASK
    return int(state[0] >> np.uint64(48 - bits))


@njit(cache=True)
def next_int(state: np.ndarray, bound: int) -> int:
    """Random.nextInt(bound), 0 <= result < bound (bound > 0): a power of two takes the top
    bits, any other bound rejects the draws at the top of the 31-bit range that would bias it."""
    if bound & -bound == bound:
        return (bound * _next(state, 31)) >> 31
    while True:
        bits = _next(state, 31)
        value = bits % bound
        if bits - value + (bound - 1) < 1 << 31:  # Java: the int sum does not overflow
            return value


@njit(cache=True)
def next_double(state: np.ndarray) -> float:
    """Random.nextDouble(): 53 random bits, from a 26-bit and a 27-bit draw, scaled to [0, 1)."""
    high = _next(state, 26)
    return ((high << 27) + _next(state, 27)) * _DOUBLE_UNIT
