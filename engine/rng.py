"""The seeded random source kept inside a game's state.

A game's randomness must replay from (seed, actions) alone, and the state must
round-trip through JSON. `random.Random` keeps 625 words of state and its
draw methods have changed between Python versions, so the state holds one
64-bit integer driven by SplitMix64 (Steele, Lea and Flood, 2014), whose
output is fixed by its definition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


@dataclass
class Rng:
    """A SplitMix64 generator: the whole state is `state`, a JSON-safe int."""

    state: int = 0

    @classmethod
    def seeded(cls, seed: int) -> "Rng":
        return cls(state=seed & _MASK)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an unbiased integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
