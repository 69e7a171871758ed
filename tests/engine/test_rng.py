"""The seeded random source: SplitMix64, fixed by its definition, so a game replays anywhere."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rng import Rng


def test_splitmix64_gives_the_published_sequence():
    """The first outputs for seed 0 and seed 1234567, as the reference implementation gives them."""
    rng = Rng.seeded(0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    rng = Rng.seeded(1234567)
    assert [rng.next64() for _ in range(2)] == [6457827717110365317, 3203168211198807973]


def test_the_seed_is_kept_to_64_bits_and_the_state_is_one_integer():
    assert Rng.seeded(-1).state == (1 << 64) - 1 and Rng.seeded(1 << 64).state == 0
    rng = Rng.seeded(5)
    rng.next64()
    assert rng == Rng(state=(5 + 0x9E3779B97F4A7C15) & ((1 << 64) - 1))
    assert Rng().state == 0


def test_below_is_in_range_and_every_value_comes():
    rng = Rng.seeded(3)
    seen = Counter(rng.below(6) for _ in range(600))
    assert set(seen) == set(range(6)) and min(seen.values()) > 60
    assert Rng.seeded(3).below(1) == 0
    for n in (0, -1):
        with pytest.raises(ValueError, match=r"^below\(\) needs a positive bound$"):
            Rng.seeded(3).below(n)


def test_below_throws_away_draws_that_would_bias_it():
    """A draw at or past the largest multiple of n below 2**64 is drawn again (no modulo bias)."""
    n = (1 << 63) + 1  # only one multiple of n fits: draws of n or more are thrown away
    rng = Rng.seeded(0)  # whose first draw is past the last multiple
    draws = []
    probe = Rng.seeded(0)
    while True:
        x = probe.next64()
        draws.append(x)
        if x < n:
            break
    assert len(draws) > 1 and draws[0] >= n
    assert rng.below(n) == draws[-1] and rng.state == probe.state


def test_choice_and_shuffle_follow_below():
    items = list(range(10))
    rng, probe = Rng.seeded(8), Rng.seeded(8)
    assert rng.choice(items) == items[probe.below(10)]
    shuffled = list(items)
    Rng.seeded(9).shuffle(shuffled)
    expected, probe = list(items), Rng.seeded(9)
    for i in range(9, 0, -1):
        j = probe.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled == expected and sorted(shuffled) == items and shuffled != items
    single = [1]
    Rng.seeded(1).shuffle(single)
    assert single == [1]
