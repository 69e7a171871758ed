"""Bots for empty seats: players that see only what their seat may see.

`make_bot("strong", seed)` is the information-set Monte Carlo tree search
(`search`) at a level; `"rules"` the simple rule-based player of each game;
`"random"` uniform random play. Levels are budgets of iterations (which fix
the choice for a seed) and of wall time (which the firmware enforces on a
slow machine through `should_stop`: nothing here reads a clock).
"""

from __future__ import annotations

from ..errors import EngineError
from .players import Level, RuleBot, SearchBot, UniformBot

LEVELS = {
    "easy": Level("easy", iterations=30, seconds=0.5),
    "normal": Level("normal", iterations=80, seconds=1.0),
    "strong": Level("strong", iterations=200, seconds=2.0),
}
KINDS = tuple(LEVELS) + ("rules", "random")


class UnknownBot(EngineError, ValueError):
    """A bot kind that does not exist."""


def make_bot(kind: str, seed: int = 0) -> SearchBot | RuleBot | UniformBot:
    """A bot of `kind` (a level, "rules" or "random") with its own seed."""
    if kind in LEVELS:
        return SearchBot(LEVELS[kind], seed)
    if kind == "rules":
        return RuleBot(seed)
    if kind == "random":
        return UniformBot(seed)
    raise UnknownBot(f"no bot called {kind!r} (bots: {', '.join(KINDS)})")
