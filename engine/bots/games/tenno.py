"""Tennō for bots: prisoners are the score; the search's rules of thumb, and the yardstick's first ones."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Sequence

from ...game import Action, View
from ...games.tenno.cards import CARDS
from ...games.tenno.rules import GEISHA, MONK, SHOGUN, current_fight, strengths
from ...games.tenno.state import TennoState
from ...rng import Rng
from ..choices import kind_first
from ..knowledge import Knowledge

# The order a refill or a swap prefers: strong defenders first. A Shogun only loses to a Geisha and takes
# any other attacker prisoner; the Geisha wins every fight but another Geisha's, attacking or attacked, so
# she is worth her slot at once (measured over 1,000 games a table against random play: three seats beaten
# 88 % with her after the Monk, 93 % with her second).
KEEP_IN_ROW = (SHOGUN, GEISHA, 9, 8, 4, 7, 6, MONK, 3, 2, 1)
FIRST_KEEP_IN_ROW = (SHOGUN, 9, 8, 4, 7, 6, MONK, GEISHA, 3, 2, 1)  # the yardstick's order
UNKNOWN_DEFENCE = 5.5  # what the yardstick takes any face-down card to defend with


def score(card: int) -> int:
    return CARDS.cards[card].score


class TennoKnowledge(Knowledge):
    temperature = 4.0
    depth = 6

    def iterations(self, level_iterations: int, players: int) -> int:
        """Fewer at a big table: every seat's row and hand is re-dealt and attacked (measured: 7 seats
        cost about 1.5 times 2 seats per iteration, and 2 seats about 0.8 ms an iteration)."""
        return max(1, round(level_iterations * 0.85 * (2 / players) ** 0.35))

    def root_bias(self, players: int) -> float:
        """Firmer with every seat: each re-deals a row and a hand and attacks as it likes, so the worlds the
        search imagines stray further from the real one, and its evidence is weaker, the more seats there are.

        Measured (40 games a table): at two seats, 0.5 beat 98 % of the random seats where 1.0 beat 89 %;
        at three, 0.5 left the rules of thumb in one decision in seven and beat fewer random seats (88 %)
        than they do alone, 1.0 left them in one in twenty and beat 94 %; at seven, 2.0 beat more of the
        yardstick's seats than 0.5 (70 % against 66 %).
        """
        return 0.5 * (players - 1)

    def points(self, state: TennoState) -> Sequence[float]:
        """Prisoners, plus a little of the cards still held (the tie-break)."""
        return [sum(score(t.card) for t in p.captives)
                + 0.05 * sum(score(c) for c in p.hand + p.row if c is not None) for p in state.seats]

    def rollout(self, state: TennoState, seat: int, actions: list[Action], rng: Rng) -> Action:
        """Mostly the rule-based player's choice (on what the seat could see, read straight from the world),
        now and then a random one: imagined opponents attack what they know they beat, as real ones do."""
        if rng.below(5) == 0:
            return kind_first(actions, rng)
        return self.rule_choice(_facts(state, seat), actions, rng)

    def rule_choice(self, view: View, actions: list[Action], rng: Rng) -> Action:
        """Attack where the reckoned gain is best; keep strong cards, and the Geisha, in the row."""
        return _choose(view, actions, rng, _attack_values, KEEP_IN_ROW)

    def baseline_choice(self, view: View, actions: list[Action], rng: Rng) -> Action:
        """The yardstick as first written: attack what it surely beats, else with its strongest card, taking a
        face-down card to defend at 5.5 whatever the table saw; the Geisha kept back in the hand."""
        return _choose(view, actions, rng, _first_values, FIRST_KEEP_IN_ROW)

    def rank(self, view: View, actions: list[Action]) -> list[float] | None:
        """Attacks by what they promise (declining or passing: nothing); other decisions are few."""
        if view["phase"] not in ("attack", "ronin"):
            return None
        values = iter(_attack_values(view, [a for a in actions if a["do"] == "attack"]))
        return [next(values) if a["do"] == "attack" else 0.0 for a in actions]


def _facts(state: TennoState, seat: int) -> View:
    """The part of a seat's view the rules of thumb read, taken from a world without building the view."""
    me = state.seats[seat]
    fight = current_fight(state)
    reward = state.rewards[0] if state.rewards and state.phase == "reward" else None
    return {
        "phase": state.phase,
        "me": {"row": me.row, "peeks": [{"target": p.target, "slot": p.slot, "card": p.card, "stale": p.stale}
                                        for p in me.peeks]},
        "players": _Rows(state),
        "fight": ({"attack_card": fight.attack_card, "target_slot": fight.target_slot}
                  if fight is not None else None),
        "reward": {"target": reward.target} if reward is not None else None,
        "discard": [[t.owner, t.card] for t in state.discard] if state.options["discard_public"] else None,
    }


class _Rows:
    """Each seat's row as the table sees it, worked out only for the seats a rule asks about."""

    def __init__(self, state: TennoState) -> None:
        self.seats = state.seats

    def __getitem__(self, seat: int) -> dict[str, list[Any]]:
        p = self.seats[seat]
        return {"row": [None if c is None else (p.known[i] if p.known[i] is not None else "?")
                        for i, c in enumerate(p.row)], "hand": len(p.hand)}


PEASANTS = frozenset(c for c, card in CARDS.cards.items() if card.starts_in_row)
HIGHS = frozenset(CARDS.cards) - PEASANTS
LOSS = 0.6  # what a card of mine sent to the discard costs, per point of its score: a slot's future fights


def _known_cards(view: View, target: int) -> list[int | None]:
    """Each card of another seat's row that this seat knows (shown in a fight and still there, or peeked)."""
    cards = [c if isinstance(c, int) else None for c in view["players"][target]["row"]]
    for peek in view["me"]["peeks"]:
        if peek["target"] == target and not peek["stale"] and cards[peek["slot"]] is None:
            cards[peek["slot"]] = peek["card"]
    return cards


def _target_card(view: View, target: int, slot: int) -> int | None:
    """The card in another seat's slot, if this seat knows it (shown in a fight, or peeked)."""
    return _known_cards(view, target)[slot]


def _seen(view: View, target: int, known: list[int | None]) -> frozenset[int]:
    """The cards of `target` this seat knows are not face down in an unknown slot: known ones, discarded ones."""
    seen = {c for c in known if c is not None}
    discard = view.get("discard")
    if isinstance(discard, list):
        seen.update(card for owner, card in discard if owner == target)
    return frozenset(seen)


def _unknown_slot(view: View, target: int) -> tuple[tuple[int, float], ...]:
    """What a face-down card in another seat's row may be, each with its chance, from what the table saw."""
    return _chances(view["players"][target].get("hand"), _seen(view, target, _known_cards(view, target)))


@lru_cache(maxsize=4096)
def _chances(hand: int | None, seen: frozenset[int]) -> tuple[tuple[int, float], ...]:
    """A face-down card's chances, for a seat holding `hand` cards of which `seen` are known elsewhere.

    A row starts with the three peasants and a hand with the rest; every refill
    brings a hand card into the row. So the seat's hand size says how many of
    its other cards can be in the row at all: early on, a face-down card is a
    peasant.
    """
    peasants = [c for c in PEASANTS if c not in seen]
    highs = [c for c in HIGHS if c not in seen]
    out = len(HIGHS) - hand if isinstance(hand, int) else len(highs)  # cards that left the hand for the row
    out -= sum(1 for c in seen if c in HIGHS)
    out = max(0, min(out, len(highs)))
    if not peasants and not out:
        out = len(highs)
    weight = len(peasants) + out
    if not weight:
        return tuple((c, 1.0 / len(HIGHS)) for c in HIGHS)
    chances = [(c, 1.0 / weight) for c in peasants]
    if out:
        chances += [(c, out / weight / len(highs)) for c in highs]
    return tuple(chances)  # shared by the cache: never changed


@lru_cache(maxsize=16384)
def _expected(mine: int, hand: int | None, seen: frozenset[int]) -> float:
    """What attacking a face-down card of such a seat with `mine` promises, on average."""
    return sum(p * FIGHTS[mine, c] for c, p in _chances(hand, seen))


def _fight_value(mine: int, theirs: int) -> float:
    """What attacking `theirs` with `mine` gains me against that seat: its card taken, or mine lost or taken."""
    attack, defend = strengths(mine, theirs, False)
    lost = LOSS * score(mine)
    if theirs == SHOGUN and attack < defend:
        return -score(mine) - lost  # the Shogun takes my card prisoner
    if attack > defend:
        return score(theirs) - (lost if mine == GEISHA else 0.0)  # she leaves even when she wins
    return -lost


FIGHTS = {(mine, theirs): _fight_value(mine, theirs) for mine in CARDS.cards for theirs in CARDS.cards}
SPEND = {card: 0.01 * score(card) for card in CARDS.cards}  # between equal promises, the weaker card goes


def _attack_values(view: View, attacks: list[Action]) -> list[float]:
    """What each attack promises: the fight against the card if this seat knows it, else the mean over what
    it may be; a little less for spending a better card."""
    row = view["me"]["row"]
    targets: dict[int, tuple[list[int | None], int | None, frozenset[int]]] = {}
    values = []
    for action in attacks:
        mine, target = row[action["slot"]], action["target"]
        found = targets.get(target)
        if found is None:
            known = _known_cards(view, target)
            found = targets[target] = (known, view["players"][target].get("hand"), _seen(view, target, known))
        card = found[0][action["target_slot"]]
        value = FIGHTS[mine, card] if card is not None else _expected(mine, found[1], found[2])
        values.append(value - SPEND[mine])
    return values


def _first_values(view: View, attacks: list[Action]) -> list[float]:
    """The yardstick's attack values: a known card's fight, else the attacking card against 5.5."""
    values = []
    for action in attacks:
        mine = view["me"]["row"][action["slot"]]
        known = _target_card(view, action["target"], action["target_slot"])
        if known is not None:
            attack, defend = strengths(mine, known, False)
            if known == GEISHA:
                value = -score(mine)  # she always wins and leaves: the attacker's card is lost
            elif attack > defend:
                value = score(known) - (score(mine) if mine == GEISHA else 0) - 0.01 * score(mine)
            else:
                value = -score(mine) - 1
        elif mine == GEISHA:
            value = -1.0  # spent on a card it cannot see
        else:
            value = (CARDS.cards[mine].attack - UNKNOWN_DEFENCE) * 0.6 - 0.01 * score(mine)
        values.append(value)
    return values


AttackValues = Callable[[View, list[Action]], list[float]]


def _choose(view: View, actions: list[Action], rng: Rng, values: AttackValues, keep: tuple[int, ...]) -> Action:
    """The rules of thumb, with attacks weighed by `values` and cards kept in the row in the order `keep`."""
    phase = view["phase"]
    if phase in ("attack", "ronin"):
        return _attack(view, actions, rng, values)
    if phase == "defend":
        return _defend(view, actions)
    if phase == "refill":
        return min(actions, key=lambda a: keep.index(a["card"]))
    if phase == "reward":
        return _reward(view, actions, rng, keep)
    return actions[rng.below(len(actions))]


def _attack(view: View, actions: list[Action], rng: Rng, weigh: AttackValues) -> Action:
    attacks = [a for a in actions if a["do"] == "attack"]
    if not attacks:
        return actions[0]
    values = weigh(view, attacks)
    best = max(values)
    if view["phase"] == "ronin" and best <= 0:
        return next(a for a in actions if a["do"] == "decline")
    top = [a for a, v in zip(attacks, values) if v == best]
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


def _reward(view: View, actions: list[Action], rng: Rng, keep: tuple[int, ...]) -> Action:
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
                   key=lambda a: (keep.index(a["card"]), -keep.index(view["me"]["row"][a["slot"]])))
    if kind == "reorder":
        fakes = [a for a in actions if a["do"] == "reorder" and a["fake"]]
        return fakes[rng.below(len(fakes))]
    return actions[rng.below(len(actions))]
