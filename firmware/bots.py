"""Bots that play a seat from its legal actions alone (for demos and tests)."""

from __future__ import annotations

import random
from typing import Any


class RandomBot:
    """Picks a kind of action at random, then one action of that kind, from its own seeded generator.

    Choosing the kind first keeps a bot from spending a game on whichever
    kind happens to have the most variants (there are ten places Caesar can
    go, but one way to place a senator). Actions open at any time (`free`,
    such as a payment between players) are left to people.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, actions: list[dict[str, Any]], free: frozenset[str] = frozenset()) -> dict[str, Any]:
        kinds = sorted({a["do"] for a in actions if a["do"] not in free}) or sorted({a["do"] for a in actions})
        kind = self.rng.choice(kinds)
        return self.rng.choice([a for a in actions if a["do"] == kind])
