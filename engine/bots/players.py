"""The bots a seat can be played by: the search at a level, the rule-based player, uniform random.

Every bot answers `choose(game, state, seat, turn, should_stop)` with one of
the seat's legal actions. It reads the state only through the seat's legal
actions, its view, or `redeal` of its seat, never more. Its randomness comes
from its seed and `turn` (the number of actions the match has taken), so the
same decision asked again (after an undo, or in a replay) is answered the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..game import Action, Game
from ..rng import Rng
from .choices import decisions
from .games import knowledge_for
from .search import Budget, Report, Search

StopCheck = Callable[[], bool]


def decision_rng(seed: int, turn: int, seat: int) -> Rng:
    """A generator for one decision, drawn from the bot's seed, the match's length and the seat."""
    rng = Rng.seeded(seed)
    rng.state ^= rng.next64() ^ (turn * 0x9E3779B97F4A7C15) ^ (seat * 0xBF58476D1CE4E5B9)
    rng.next64()
    return rng


@dataclass(frozen=True)
class Level:
    """A bot's strength: iterations of the search, and the wall time the firmware allows a decision.

    Each game affords a share of `iterations` by what its iterations cost
    (its knowledge's `iterations`), so a level takes about the same time in
    every game and at every table size.
    """

    name: str
    iterations: int
    seconds: float


class SearchBot:
    """IS-MCTS at a level (see `search`)."""

    def __init__(self, level: Level, seed: int = 0) -> None:
        self.level = level
        self.seed = seed
        self.name = level.name
        self.last: Report | None = None

    def choose(self, game: Game, state: Any, seat: int, turn: int = 0,
               should_stop: StopCheck | None = None) -> Action:
        knowledge = knowledge_for(game.name)
        budget = Budget(knowledge.iterations(self.level.iterations, state.players), knowledge.depth,
                        bias=knowledge.root_bias(state.players))
        search = Search(game, knowledge, seat, budget, decision_rng(self.seed, turn, seat))
        action, self.last = search.run(state, should_stop)
        return action


class RuleBot:
    """The simple rule-based player of each game (the strength baseline), from its seat's view alone."""

    name = "rules"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game, state: Any, seat: int, turn: int = 0,
               should_stop: StopCheck | None = None) -> Action:
        actions = decisions(game, state, seat)
        if len(actions) == 1:
            return actions[0]
        knowledge = knowledge_for(game.name)
        view = game.view(state, seat)
        actions = knowledge.prune(view, actions) or actions
        return knowledge.baseline_choice(view, actions, decision_rng(self.seed, turn, seat))


class UniformBot:
    """Any legal action, all equally likely (payments aside)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game, state: Any, seat: int, turn: int = 0,
               should_stop: StopCheck | None = None) -> Action:
        actions = decisions(game, state, seat)
        return actions[decision_rng(self.seed, turn, seat).below(len(actions))]
