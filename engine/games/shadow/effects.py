"""What action cards and Phase IV privileges do (rules/shadow.md §2.3, §6.2).

Each effect has two pure functions: `targets` lists the choices it offers a
seat now (a list of field dicts; empty when it cannot be used), and `apply`
carries one out, returning the public events. The card files name effects;
this module gives each one its meaning once.
"""

from __future__ import annotations

from typing import Any, Callable

from .board import ELECTOR, SUPPLY, THRONE, Scan, aristocrats, older, piece_at, place, remove, set_piece, spec, younger
from .data import BOARD, CARDS, CardSpec
from .state import Piece, ShadowState, Task

Fields = dict[str, Any]
Events = list[dict[str, Any]]


def gain_vp(state: ShadowState, seat: int, amount: int, reason: str) -> Events:
    player = state.seats[seat]
    player.vp += amount
    player.vp_from[reason] = player.vp_from.get(reason, 0) + amount
    return [{"type": "vp", "seat": seat, "amount": amount, "reason": reason}]


def gain_thalers(state: ShadowState, seat: int, amount: int, reason: str) -> Events:
    """Add thalers up to the track's cap; the excess is lost."""
    player = state.seats[seat]
    before = player.thalers
    player.thalers = min(BOARD.rules["thaler_cap"], before + amount)
    return [{"type": "thalers", "seat": seat, "amount": player.thalers - before, "lost": before + amount - player.thalers,
             "total": player.thalers, "reason": reason}]


def cities_built(state: ShadowState, seat: int) -> int:
    return BOARD.pieces["cities"] - state.seats[seat].cities


def card_cost(state: ShadowState, seat: int, card: CardSpec) -> int | None:
    """What the card costs this seat now, or None when it cannot be bought at any price."""
    if card.costs:
        built = cities_built(state, seat)
        return card.costs[built] if built < len(card.costs) else None
    return card.cost


def throne_choices(state: ShadowState, seat: int, scan: Scan | None = None) -> list[tuple[str, str]]:
    """Where a seat's emperor tile may come from: its tiles on aristocrat spaces, else its supply."""
    tiles = scan.aristocrats if scan is not None else aristocrats(state)
    own = [(a, s) for a, s, p in tiles if p.owner == seat and s.startswith("a")]
    if own:
        return own
    return [(SUPPLY, "")] if state.seats[seat].aristocrats > 0 else []


def queue_throne(state: ShadowState, seat: int, reason: str, front: bool = True) -> Events:
    """Ask the seat to fill the empty throne; with nothing to put there it stays empty (§5.2)."""
    if not throne_choices(state, seat):
        return [{"type": "throne_empty", "seat": seat}]
    task = Task("crown", seat, area=reason)
    if front:
        state.tasks.insert(0, task)
    else:
        state.tasks.append(task)
    return []


def lose_tile(state: ShadowState, area: str, spot: str, reason: str) -> Events:
    """A tile leaves the board; an emperor's death sends his owner to refill the throne."""
    events = remove(state, area, spot, reason)
    if area == THRONE:
        events += queue_throne(state, state.emperor, reason)
    return events


# --- targets ------------------------------------------------------------------------
# Each takes the decision's board scan when it has one (see `board.Scan`), else looks itself.

def doctor_targets(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    """Any own tile that can be made younger, any opponent's tile (it ages, a 45 leaves)."""
    scan = scan or Scan(state)
    return [{"area": a, "spot": s} for a, s, p in scan.aristocrats
            if (p.owner != seat) or younger(p.age) is not None]


def move_targets(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    """An own tile on an aristocrat space to any other electorate's place for a tile."""
    scan = scan or Scan(state)
    places = scan.aristocrat_places  # per electorate, so "any other" is a filter of one list
    found = []
    for a, s, p in scan.aristocrats:
        if p.owner != seat or not s.startswith("a"):
            continue
        found += [{"from_area": a, "from_spot": s, "area": to_area, "spot": to_spot}
                  for to_area, to_spot in places if to_area != a]
    return found


def knight_targets(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    """Place a knight from supply, or move one of the seat's knights, to an empty space."""
    scan = scan or Scan(state)
    sources = [(SUPPLY, "")] if state.seats[seat].knights > 0 else []
    sources += [(a, s) for a, s, p in scan.knights if p.owner == seat]
    places = scan.knight_places
    found = []
    for from_area, from_spot in sources:
        kind = from_spot[:1]
        # The same kind of space in the same electorate is no move at all.
        found += [{"from_area": from_area, "from_spot": from_spot, "area": area, "spot": spot}
                  for area, spot in places if area != from_area or spot[0] != kind]
    return found


def baron_places(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    if state.seats[seat].aristocrats <= 0:
        return []
    scan = scan or Scan(state)
    return [{"area": a, "spot": s} for a, s in scan.aristocrat_places]


def promotion_targets(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    if state.seats[seat].aristocrats <= 0:
        return []
    scan = scan or Scan(state)
    return [{"area": a, "spot": s} for a, s, p in scan.knights if p.owner == seat and s.startswith("a")]


def marriageable(state: ShadowState, p: Piece, area: str, spot: str) -> bool:
    """A single Baron, never an archdiocese's elector (it must stay single)."""
    if p.kind != "baron":
        return False
    return not (spot == ELECTOR and spec(area).single_elector)


def marry_own_targets(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    scan = scan or Scan(state)
    return [{"area": a, "spot": s} for a, s, p in scan.aristocrats
            if p.owner == seat and marriageable(state, p, a, s)]


def city_targets(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    if state.seats[seat].cities <= 0:
        return []
    scan = scan or Scan(state)
    return [{"area": a, "spot": s} for a, s in scan.city_places]


def rival_targets(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    if seat == state.emperor:
        return []
    if state.options["rival_needs_heir"] and not throne_choices(state, seat, scan):
        return []
    return [{}]


def nothing(state: ShadowState, seat: int, scan: Scan | None = None) -> list[Fields]:
    return [{}]


TARGETS: dict[str, Callable[[ShadowState, int, Scan | None], list[Fields]]] = {
    "rival": rival_targets, "doctor": doctor_targets, "move": move_targets, "pope": nothing,
    "church": nothing, "excommunicate": nothing, "indulgence": nothing, "permit": city_targets,
    "ordinance": baron_places, "promotion": promotion_targets, "marry_own": marry_own_targets,
    "knight": knight_targets, "gray": nothing,
}


# --- applying ----------------------------------------------------------------------

def doctor(state: ShadowState, seat: int, f: Fields, reason: str = "doctor") -> Events:
    area, spot = f["area"], f["spot"]
    p = piece_at(state, area, spot)
    assert p is not None
    if p.owner == seat:
        p.age = younger(p.age)  # type: ignore[assignment]
        return [{"type": "aged", "seat": p.owner, "kind": p.kind, "age": p.age, "area": area, "spot": spot,
                 "younger": True, "reason": reason}]
    new = older(p.age)
    if new is None:
        return lose_tile(state, area, spot, reason)
    p.age = new
    return [{"type": "aged", "seat": p.owner, "kind": p.kind, "age": p.age, "area": area, "spot": spot,
             "younger": False, "reason": reason}]


def move(state: ShadowState, seat: int, f: Fields) -> Events:
    p = piece_at(state, f["from_area"], f["from_spot"])
    assert p is not None
    set_piece(state, f["from_area"], f["from_spot"], None)
    events = place(state, p, f["area"], f["spot"], "move")
    events[0].update(type="moved", from_area=f["from_area"], from_spot=f["from_spot"])
    return events


def move_knight(state: ShadowState, seat: int, f: Fields, reason: str) -> Events:
    if f["from_area"] == SUPPLY:
        state.seats[seat].knights -= 1
    else:
        set_piece(state, f["from_area"], f["from_spot"], None)
    set_piece(state, f["area"], f["spot"], Piece("knight", seat))
    return [{"type": "knight", "seat": seat, "from_area": f["from_area"], "from_spot": f["from_spot"],
             "area": f["area"], "spot": f["spot"], "reason": reason}]


def new_baron(state: ShadowState, seat: int, age: int, area: str, spot: str, reason: str,
              kind: str = "baron") -> Events:
    state.seats[seat].aristocrats -= 1
    return place(state, Piece(kind, seat, age), area, spot, reason)


def build_city(state: ShadowState, seat: int, f: Fields) -> Events:
    built = cities_built(state, seat)
    state.seats[seat].cities -= 1
    e = next(e for e in state.electorates if e.id == f["area"])
    e.cities[int(f["spot"][1:])] = seat
    events: Events = [{"type": "city", "seat": seat, "area": f["area"], "spot": f["spot"], "reason": "permit"}]
    return events + gain_vp(state, seat, BOARD.rules["city_vp"][built], "cities")


def promote(state: ShadowState, seat: int, f: Fields, age: int) -> Events:
    events = remove(state, f["area"], f["spot"], "promotion")
    return events + new_baron(state, seat, age, f["area"], f["spot"], "promotion")


def marry_own(state: ShadowState, seat: int, f: Fields) -> Events:
    p = piece_at(state, f["area"], f["spot"])
    assert p is not None
    p.kind = "couple"
    return [{"type": "married", "seat": seat, "area": f["area"], "spot": f["spot"], "age": p.age,
             "reason": "kings_daughter"}]


def apply_card(state: ShadowState, seat: int, card: CardSpec, f: Fields) -> Events:
    """Resolve a card's effect now; Pope, Church influence, Excommunication and Gray eminence act later."""
    effect = card.effect
    if effect == "rival":
        state.seats[seat].passed = True  # taking Rival ends the buyer's Phase IV
        return [{"type": "rival", "seat": seat}]
    if effect == "doctor":
        return doctor(state, seat, f)
    if effect == "move":
        return move(state, seat, f)
    if effect == "indulgence":
        return gain_vp(state, seat, card.vp, "indulgence")
    if effect == "permit":
        return build_city(state, seat, f)
    if effect == "ordinance":
        return new_baron(state, seat, card.age, f["area"], f["spot"], "ordinance")
    if effect == "promotion":
        return promote(state, seat, f, card.age)
    if effect == "marry_own":
        return marry_own(state, seat, f)
    if effect == "knight":
        return move_knight(state, seat, f, "card")
    return []  # pope, church, excommunicate, gray: later phases read the cards


def holders(state: ShadowState, effect: str) -> list[int]:
    """Seats, in turn order from the emperor, once per card or Trier copy with `effect` they hold."""
    found = []
    for offset in range(state.players):
        seat = (state.emperor + offset) % state.players
        player = state.seats[seat]
        held = player.cards + player.copies
        found += [seat] * sum(1 for c in held if CARDS[c].effect == effect)
    return found

