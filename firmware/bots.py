"""Bots that play a seat from its legal actions alone (for demos and tests)."""

from __future__ import annotations

import random
from typing import Any


class RandomBot:
    """Picks uniformly among the seat's legal actions, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, actions: list[dict[str, Any]]) -> dict[str, Any]:
        return self.rng.choice(actions)
