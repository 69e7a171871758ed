"""What a bot knows of a game beyond its rules: how good a position is, and a few rules of thumb.

The search needs a value for every seat of a world it stops playing (a
whole game is too long to play out in a decision's budget), and the
strength bench needs a simple rule-based player to measure against. Both are
game knowledge, kept beside the bots rather than in the rules: a game without
any still gets bots, which then judge only finished games and play the
rule-based part at random.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..game import Action, Result, View
from ..rng import Rng
from .choices import kind_first


class Knowledge:
    """The default: no idea of a position's worth, and no rules of thumb."""

    # How many points of the game's score make one seat e times as likely to win as another.
    temperature: float = 5.0
    # Rollout actions the search plays below its tree before it judges the world.
    depth: int = 12
    # The pull of the rules of thumb's choice at the search's root (`Budget.bias`): how much evidence it
    # takes to leave it. Where those rules are good and the budget small, leaving them is mostly noise.
    bias: float = 0.5
    # The share of a level's iterations this game affords: its iterations cost more or less than Tennō's.
    effort: float = 1.0

    def iterations(self, level_iterations: int, players: int) -> int:
        """A level's iterations for this game at this many players (a bigger table costs more per iteration)."""
        return max(1, round(level_iterations * self.effort))

    def root_bias(self, players: int) -> float:
        """How firmly the search holds to the rules of thumb's choice at this many players (default: `bias`)."""
        return self.bias

    def points(self, state: Any) -> Sequence[float]:
        """Each seat's score as the position promises it (the game's points, roughly)."""
        return [0.0] * state.players

    def values(self, state: Any, shift: Sequence[float] | None = None) -> list[float]:
        """Each seat's chance to win, estimated from `points` (each moved by `shift`): a softmax over the seats."""
        points = self.points(state)
        if shift is not None:
            points = [p + d for p, d in zip(points, shift)]
        return softmax(points, self.temperature)

    def final_values(self, result: Result, shift: Sequence[float] | None = None) -> list[float]:
        """A finished game: the winners share the win; the margin counts a little, for the search's sake.

        With `shift`, each seat's score moves by it first, and the winners are the best seats after it.
        """
        seats = sorted(result.scores)
        scores = [result.scores[s] + (shift[s] if shift is not None else 0.0) for s in seats]
        if shift is None:
            winners = set(result.winners)
        else:
            top = max(scores)
            winners = {s for s, v in zip(seats, scores) if v >= top - 1e-9}
        share = 1.0 / len(winners)
        margin = softmax(scores, self.temperature)
        return [0.9 * (share if s in winners else 0.0) + 0.1 * m for s, m in zip(seats, margin)]

    def rollout(self, state: Any, seat: int, actions: list[Action], rng: Rng) -> Action:
        """How the search plays on below its tree, for any seat of an imagined world: at random here.

        A game may play its rules of thumb instead (a world is the search's own
        imagining, so reading all of it is fair); they must be cheap, since
        they run at every rollout step.
        """
        return kind_first(actions, rng)

    def prune(self, view: View, actions: list[Action]) -> list[Action]:
        """The actions worth weighing at all, from the seat's view (never empty when `actions` is not).

        A bot must not, say, ask a vote the table has just refused, again and
        again: people would move on, and so must it.
        """
        return actions

    def rule_choice(self, view: View, actions: list[Action], rng: Rng) -> Action:
        """The rule-based player's choice, from the seat's view and its legal actions alone."""
        return kind_first(actions, rng)

    def baseline_choice(self, view: View, actions: list[Action], rng: Rng) -> Action:
        """The choice of the rule-based player the strength bench measures against: the rules of thumb,
        unless a game keeps its first, simpler ones as that yardstick while its bots' knowledge grows
        (so that strength figures compare from one release to the next)."""
        return self.rule_choice(view, actions, rng)

    def rank(self, view: View, actions: list[Action]) -> list[float] | None:
        """How good each action looks to the rules of thumb (higher is better), or None for no idea.

        The search weighs only the best-ranked actions when a decision has more
        than its budget can tell apart.
        """
        return None


def softmax(points: Sequence[float], temperature: float) -> list[float]:
    top = max(points)
    weights = [math.exp((p - top) / temperature) for p in points]
    total = sum(weights)
    return [w / total for w in weights]
