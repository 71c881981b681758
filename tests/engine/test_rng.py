"""Tests of the per-game random numbers in g2048.rng."""

import math

import numpy as np
import pytest
from stat_checks import binomial_z, chi2_uniform_pvalue

from g2048.engine.rng import game_seeds, next_below, next_float, next_u64, rng_state

# Fixed seeds; a fair generator fails a chi-square test only with probability P_MIN and a
# binomial or mean test (more than Z_MAX standard errors off) with probability about 6e-7.
P_MIN = 1e-4
Z_MAX = 5.0


def test_game_seeds_are_reproducible():
    """The same arguments give the same seeds."""
    a = game_seeds(2024, "evaluation", 1000)
    b = game_seeds(2024, "evaluation", 1000)
    assert a.dtype == np.uint64
    assert a.shape == (1000,)
    np.testing.assert_array_equal(a, b)


def test_game_seeds_are_distinct():
    """n seeds are n different numbers."""
    seeds = game_seeds(2024, "evaluation", 10_000)
    assert len(set(seeds.tolist())) == 10_000


def test_game_seeds_depend_on_purpose_and_study_seed():
    """Different purposes, or different study seeds, share no seed."""
    base = set(game_seeds(2024, "evaluation", 1000).tolist())
    assert base.isdisjoint(game_seeds(2024, "tuning", 1000).tolist())
    assert base.isdisjoint(game_seeds(2025, "evaluation", 1000).tolist())


def test_game_seeds_of_a_shard_agree_with_the_whole_batch():
    """Seeds are indexed: the first n of a longer batch are the batch of n, and start works."""
    whole = game_seeds(7, "shards", 100)
    np.testing.assert_array_equal(game_seeds(7, "shards", 40), whole[:40])
    np.testing.assert_array_equal(game_seeds(7, "shards", 60, start=40), whole[40:])


def test_two_states_from_one_seed_give_the_same_stream():
    """rng_state is a pure function of the seed."""
    a, b = rng_state(12345), rng_state(12345)
    assert [int(next_u64(a)) for _ in range(100)] == [int(next_u64(b)) for _ in range(100)]


def test_states_from_different_seeds_give_different_streams():
    """Neighbouring seeds do not share their first outputs."""
    firsts = {int(next_u64(rng_state(seed))) for seed in range(1000)}
    assert len(firsts) == 1000


def test_next_u64_advances_the_state_in_place():
    """Each draw changes the state array and the next draw differs."""
    state = rng_state(1)
    before = state.copy()
    first = int(next_u64(state))
    assert not np.array_equal(state, before)
    assert int(next_u64(state)) != first


def test_next_u64_bits_are_balanced():
    """Each of the 64 bits is set in about half of 20000 draws (binomial, 5 standard errors)."""
    state = rng_state(99)
    n = 20_000
    draws = np.array([int(next_u64(state)) for _ in range(n)], dtype=np.uint64)
    for bit in range(64):
        ones = int(np.count_nonzero((draws >> np.uint64(bit)) & np.uint64(1)))
        assert abs(binomial_z(ones, n, 0.5)) < Z_MAX, bit


@pytest.mark.parametrize("n", [2, 3, 7, 10, 16])
def test_next_below_is_uniform_in_range(n: int):
    """2000 draws per value on average: every draw in [0, n), counts pass a chi-square test."""
    state = rng_state(1000 + n)
    counts = [0] * n
    for _ in range(2000 * n):
        value = int(next_below(state, n))
        assert 0 <= value < n
        counts[value] += 1
    assert chi2_uniform_pvalue(counts) > P_MIN


def test_next_below_one_is_always_zero():
    """There is only one value in [0, 1)."""
    state = rng_state(3)
    assert {int(next_below(state, 1)) for _ in range(100)} == {0}


def test_next_float_is_uniform_on_the_unit_interval():
    """50000 draws in [0, 1): mean within 5 standard errors of 1/2 (sd 1/sqrt(12)), and 20
    equal bins pass a chi-square test."""
    state = rng_state(4242)
    n = 50_000
    draws = np.array([float(next_float(state)) for _ in range(n)])
    assert np.all(draws >= 0.0)
    assert np.all(draws < 1.0)
    assert abs(draws.mean() - 0.5) < Z_MAX / math.sqrt(12 * n)
    counts = np.bincount((draws * 20).astype(np.int64), minlength=20)
    assert chi2_uniform_pvalue(counts.tolist()) > P_MIN


@pytest.mark.parametrize("bad", [-1, 2**64])
def test_rng_state_rejects_seeds_outside_uint64(bad: int):
    """A seed that does not fit in 64 unsigned bits raises ValueError naming it."""
    with pytest.raises(ValueError) as excinfo:
        rng_state(bad)
    assert str(bad) in str(excinfo.value)
