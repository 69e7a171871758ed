"""The actions a bot weighs, and the random way of picking one that rollouts and the random bot use."""

from __future__ import annotations

from typing import Any, Sequence

from ..game import Action, Game
from ..rng import Rng

Key = tuple[Any, ...]


def decisions(game: Game, state: Any, seat: int) -> list[Action]:
    """The actions a bot weighs for `seat`: its legal ones, less those open at any time (a payment).

    A payment between players is a bargain struck at the table; a bot
    strikes none, so it never pays unasked.
    """
    legal = game.legal_actions(state, seat)
    own = [a for a in legal if a["do"] not in game.free_actions]
    return own or legal


def action_key(action: Action) -> Key:
    """A hashable copy of an action: its field names, then its values (a list becomes a tuple)."""
    key = (*action, *action.values())
    try:
        hash(key)
    except TypeError:  # a list among the values
        key = (*action, *(tuple(v) if type(v) is list else v for v in action.values()))
    return key


def kind_first(actions: Sequence[Action], rng: Rng) -> Action:
    """Uniform over the kinds of action, then over the actions of that kind.

    Ten places for Caesar must not outweigh the one way to place a senator.
    """
    kinds: list[str] = []
    for a in actions:
        if a["do"] not in kinds:
            kinds.append(a["do"])
    if len(kinds) == 1:
        return actions[rng.below(len(actions))]
    kind = kinds[rng.below(len(kinds))]
    same = [a for a in actions if a["do"] == kind]
    return same[rng.below(len(same))]
