"""Tennō for bots: prisoners are the score; the rule-based player's rules of thumb."""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Action, View
from ...games.tenno.cards import CARDS
from ...games.tenno.rules import GEISHA, MONK, SHOGUN, strengths
from ...games.tenno.state import TennoState
from ...rng import Rng
from ..knowledge import Knowledge

# The order a refill or a swap prefers: strong defenders first (a Shogun only loses to a Geisha).
KEEP_IN_ROW = (SHOGUN, 9, 8, 4, 7, 6, MONK, GEISHA, 3, 2, 1)
UNKNOWN_DEFENCE = 5.5  # what a face-down card is taken to defend with


def score(card: int) -> int:
    return CARDS.cards[card].score


class TennoKnowledge(Knowledge):
    temperature = 4.0
    depth = 10

    def iterations(self, level_iterations: int, players: int) -> int:
        """Fewer at a big table: every seat's row and hand is re-dealt and attacked (measured: 7 seats
        cost about 1.7 times 2 seats per iteration)."""
        return max(1, round(level_iterations * (2 / players) ** 0.45))

    def points(self, state: TennoState) -> Sequence[float]:
        """Prisoners, plus a little of the cards still held (the tie-break)."""
        return [sum(score(t.card) for t in p.captives)
                + 0.05 * sum(score(c) for c in p.hand + p.row if c is not None) for p in state.seats]

    def rule_choice(self, view: View, actions: list[Action], rng: Rng) -> Action:
        """Attack what it surely beats, else with its strongest card; keep strong cards in the row."""
        phase = view["phase"]
        if phase in ("attack", "ronin"):
            return _attack(view, actions, rng)
        if phase == "defend":
            return _defend(view, actions)
        if phase == "refill":
            return min(actions, key=lambda a: KEEP_IN_ROW.index(a["card"]))
        if phase == "reward":
            return _reward(view, actions, rng)
        return actions[rng.below(len(actions))]


def _target_card(view: View, target: int, slot: int) -> int | None:
    """The card in another seat's slot, if this seat knows it (shown in a fight, or peeked)."""
    shown = view["players"][target]["row"][slot]
    if isinstance(shown, int):
        return shown
    for peek in view["me"]["peeks"]:
        if peek["target"] == target and peek["slot"] == slot and not peek["stale"]:
            return peek["card"]
    return None


def _attack_value(view: View, action: Action) -> float:
    mine = view["me"]["row"][action["slot"]]
    known = _target_card(view, action["target"], action["target_slot"])
    if known is not None:
        attack, defend = strengths(mine, known, False)
        if known == GEISHA:
            return -score(mine)  # she always wins and leaves: the attacker's card is lost
        if attack > defend:
            return score(known) - (score(mine) if mine == GEISHA else 0) - 0.01 * score(mine)
        return -score(mine) - 1
    if mine == GEISHA:
        return -1.0  # spent on a card it cannot see
    attack = CARDS.cards[mine].attack
    return (attack - UNKNOWN_DEFENCE) * 0.6 - 0.01 * score(mine)


def _attack(view: View, actions: list[Action], rng: Rng) -> Action:
    attacks = [a for a in actions if a["do"] == "attack"]
    if not attacks:
        return actions[0]
    best = max(_attack_value(view, a) for a in attacks)
    if view["phase"] == "ronin" and best <= 0:
        return next(a for a in actions if a["do"] == "decline")
    top = [a for a in attacks if _attack_value(view, a) == best]
    return top[rng.below(len(top))]


def _defend(view: View, actions: list[Action]) -> Action:
    """Show the Monk only when it turns a loss into a tie or a win."""
    fight = view["fight"]
    if len(actions) == 1 or fight is None:
        return actions[0]
    mine = view["me"]["row"][fight["target_slot"]]
    attack, defend = strengths(fight["attack_card"], mine, False)
    boosted_attack, boosted = strengths(fight["attack_card"], mine, True)
    helps = defend <= attack and boosted >= boosted_attack
    return next(a for a in actions if a["monk"] is helps)


def _reward(view: View, actions: list[Action], rng: Rng) -> Action:
    kind = actions[0]["do"]
    if kind == "peek":
        fight_target = view["reward"]["target"] if view.get("reward") else None
        unknown = [a for a in actions if a["do"] == "peek"
                   and (fight_target is None or _target_card(view, fight_target, a["slot"]) is None)]
        pool = unknown or [a for a in actions if a["do"] == "peek"]
        return pool[rng.below(len(pool))]
    if kind == "swap":
        # Bring the best hand card in for the weakest row card; else put the same card back (a fake swap).
        return min((a for a in actions if a["do"] == "swap"),
                   key=lambda a: (KEEP_IN_ROW.index(a["card"]),
                                  -KEEP_IN_ROW.index(view["me"]["row"][a["slot"]])))
    if kind == "reorder":
        fakes = [a for a in actions if a["do"] == "reorder" and a["fake"]]
        return fakes[rng.below(len(fakes))]
    return actions[rng.below(len(actions))]
