"""In the Shadow of the Emperor for bots: victory points and electors; the rule-based player's rules of thumb.

The rule-based player weighs each action by what it does to the seat's
influence in the electorate it touches (Phase V seats the electorate's
strongest player as elector, for 2 VP), less what it costs in thalers.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Action, View
from ...games.shadow.data import CARDS
from ...games.shadow.state import EMPIRE, ShadowState
from ...games.shadow.text import piece_at
from ...rng import Rng
from ..knowledge import Knowledge

THALER = 0.3  # what a thaler is worth against a point of a contest's value
FLAT = {"indulgence": 1.2, "pope": 0.6, "gray": 0.6, "church": 0.3, "excommunicate": 0.3, "doctor": 0.2,
        "promotion": 0.3, "rival": -1.0}
PIECE = {"baron": 1, "couple": 2, "knight": 1}


class ShadowKnowledge(Knowledge):
    temperature = 3.0
    depth = 5
    effort = 0.33

    def points(self, state: ShadowState) -> Sequence[float]:
        """VP, electors held (votes, privileges), and a little for thalers and tiles on the board."""
        electors = [0] * state.players
        tiles = [0] * state.players
        for e in state.electorates:
            if e.elector is not None:
                electors[e.elector.owner] += 1
            for p in e.spaces:
                if p is not None:
                    tiles[p.owner] += PIECE[p.kind]
        return [p.vp + 1.2 * electors[s] + 0.1 * p.thalers + 0.15 * tiles[s] for s, p in enumerate(state.seats)]

    def rule_choice(self, view: View, actions: list[Action], rng: Rng) -> Action:
        scored = [(_value(view, a), i) for i, a in enumerate(actions)]
        best = max(v for v, _ in scored)
        top = [actions[i] for v, i in scored if v == best]
        return top[rng.below(len(top))]

    def rank(self, view: View, actions: list[Action]) -> list[float]:
        return [_value(view, a) for a in actions]


def influence(view: View, area: str) -> dict[int, int]:
    """Each seat's influence in one electorate, as the public board shows it."""
    found: dict[int, int] = {}
    e = next(e for e in view["electorates"] if e["id"] == area)
    pieces = [e["elector"]] + e["spaces"] + e["castles"]
    for p in pieces:
        if p is not None:
            found[p["owner"]] = found.get(p["owner"], 0) + PIECE[p["kind"]]
    for owner in e["cities"]:
        if owner is not None:
            holder = view["emperor"] if owner == EMPIRE else owner
            found[holder] = found.get(holder, 0) + 1
    return found


def _standing(lead: int) -> float:
    """How good a lead in an electorate is: winning it is worth most, a tie something, behind little."""
    if lead > 0:
        return 2.5 + 0.2 * min(lead, 2)
    if lead == 0:
        return 1.0
    return 0.3 * max(lead, -3)


def _gain(view: View, area: str, amount: int, shifts: dict[int, int] | None = None) -> float:
    """What `amount` more (or less) of the seat's influence in `area` is worth, with `shifts` of other seats'."""
    if not area or area in ("supply", "throne"):
        return 0.0
    seat = view["seat"]
    power = influence(view, area)
    mine = power.get(seat, 0)
    others = max((v for s, v in power.items() if s != seat), default=0)
    after = dict(power)
    after[seat] = mine + amount
    for s, d in (shifts or {}).items():
        after[s] = after.get(s, 0) + d
    others_after = max((v for s, v in after.items() if s != seat), default=0)
    return _standing(after[seat] - others_after) - _standing(mine - others)


def _arrive(view: View, area: str, spot: str, kind: str) -> float:
    """What a `kind` tile of the seat arriving at a place is worth, less what it replaces there.

    The rule options show here: a Foreign king's daughter flips the seat's own
    single Baron (+1: `kings_daughter` = flip) or brings a new Couple to an
    empty space (+2: new_couple); a knight or an aristocrat may land on
    another player's knight (an aristocrat always, the Knight card by
    `knight_card_pushes`), which goes back to its supply: that player's loss
    counts too. A tile arriving at the supply or the throne is worth nothing (`_gain`).
    """
    there = piece_at(view, area, spot) if spot else None
    if there is None:
        return _gain(view, area, PIECE[kind])
    if there["owner"] == view["seat"]:
        return _gain(view, area, PIECE[kind] - PIECE[there["kind"]])
    return _gain(view, area, PIECE[kind], {there["owner"]: -PIECE[there["kind"]]})


def _value(view: View, action: Action) -> float:
    do = action["do"]
    seat = view["seat"]
    me = view["players"][seat]
    if do == "buy":
        card = CARDS[action["card"]]
        return _effect(view, card.effect, action) - THALER * _cost(card)
    if do == "privilege":
        return _privilege(view, action)
    if do == "knight":
        return _move_value(view, action, 1) - THALER * 1
    if do == "pass":
        return 0.05 + (0.3 if me["thalers"] <= 1 else 0.0)
    if do == "place":
        return _place(view, action)
    if do in ("son", "retire"):
        return _arrive(view, action["area"], action["spot"], "baron")
    if do == "empire_city":
        return _gain(view, action["area"], 1)
    if do == "move_city":
        return _gain(view, action["area"], 1) + _gain(view, action["from_area"], -1)
    if do == "propose":
        return 1.0
    if do in ("accept", "done", "crown", "elect", "return"):
        return 1.0
    if do == "gray":
        return _gain(view, action["area"], 1)
    if do == "tie":
        return 2.0 if action["winner"] == seat else 0.0
    if do == "vote":
        return _vote(view, action)
    return 0.0


def _place(view: View, action: Action) -> float:
    """A start-position piece: a city counts one, a tile what it is (a pushed knight counted off)."""
    piece = (view["task"] or {}).get("piece", "baron")
    if piece == "city":
        return _gain(view, action["area"], 1)
    return _arrive(view, action["area"], action["spot"], piece if piece in PIECE else "baron")


def _cost(card: Any) -> int:
    return card.costs[0] if card.costs else card.cost


def _effect(view: View, effect: str, action: Action) -> float:
    if effect in FLAT:
        return FLAT[effect]
    if effect == "permit":
        return 1.5 + _gain(view, action["area"], 1)
    if effect == "ordinance":
        return 0.2 + _arrive(view, action["area"], action["spot"], "baron")
    if effect == "marry_own":
        return _arrive(view, action["area"], action["spot"], "couple")
    if effect == "knight":
        return _move_value(view, action, 1)
    if effect == "move":
        return _move_value(view, action, 1)
    return 0.0


def _move_value(view: View, action: dict[str, Any], amount: int) -> float:
    """A knight moved (or placed from supply): what it brings where it lands, less what it leaves."""
    return (_arrive(view, action["area"], action.get("spot", ""), "knight")
            + _gain(view, action.get("from_area", ""), -amount))


def _privilege(view: View, action: Action) -> float:
    if "card" in action:
        card = CARDS[action["card"]]
        return _effect(view, card.effect, action) - THALER * _cost(card)
    if "area" in action and action["privilege"] == "PALATINATE":
        return 0.5 + _gain(view, action["area"], 1)
    return 0.5


def _vote(view: View, action: Action) -> float:
    """Back whoever the electors already favour (a backer of the winner scores)."""
    election = view["election"] or {}
    emperor, rival = election.get("emperor", view["emperor"]), election.get("rival", -1)
    counts = {emperor: 0, rival: 0}
    for e in view["electorates"]:
        owner = (e["elector"] or {}).get("owner")
        if owner in counts:
            counts[owner] += 2 if e["id"] == "BOHEMIA" else 1
    favourite = "emperor" if counts[emperor] >= counts[rival] else "rival"
    return 1.0 if action["for"] == favourite else 0.0
