"""What action cards and Phase IV privileges do (rules/shadow.md §2.3, §6.2).

Each effect has two pure functions: `targets` lists the choices it offers a
seat now (whole action records, each the given head, such as seat, "buy" and
the card, with the target's fields after it; empty when it cannot be used),
and `apply` carries one out, returning the public events. The card files name effects;
this module gives each one its meaning once.
"""

from __future__ import annotations

from typing import Any, Callable

from ...physical import Move, step, tell, turn
from .board import (ELECTOR, SUPPLY, THALERS, THRONE, Scan, aristocrats, carry, looks, older, piece_at, place, remove,
                    set_piece, spec, supply_of, vp_pile, where, younger)
from .data import BOARD, CARDS, CardSpec
from .state import Piece, ShadowState, Task

Fields = dict[str, Any]  # an action's fields; a target list's records are `dict(head, **fields)`
Events = list[dict[str, Any]]


def vp_face(state: ShadowState) -> str:
    """VP cards lie face down in front of their owner, unless the table plays them open."""
    return "up" if state.options["vp_open"] or state.phase == "over" else "down"


def gain_vp(state: ShadowState, seat: int, amount: int, reason: str) -> Events:
    """The seat takes VP cards for `amount`. With hidden VP the table sees who takes VP cards and
    why, never how many: the amount is on the taker's screen alone (their own VP total)."""
    player = state.seats[seat]
    before = player.vp
    player.vp += amount
    player.vp_from[reason] = player.vp_from.get(reason, 0) + amount
    event: dict[str, Any] = {"type": "vp", "seat": seat, "reason": reason}
    if state.options["vp_open"]:
        event["amount"] = amount
    face = vp_face(state)
    return [tell(state, event, turn("vp cards", seat, vp_pile(seat), (face, face), (before, player.vp),
                                    hidden=not state.options["vp_open"]))]


def thaler_move(seat: int, before: int, after: int) -> Move:
    return turn("thaler marker", seat, THALERS, value=(before, after))


def spend(state: ShadowState, seat: int, cost: int) -> list[Move]:
    """Pay `cost` thalers: the seat's marker goes down the track (no step for a free action)."""
    player = state.seats[seat]
    before = player.thalers
    player.thalers -= cost
    return [thaler_move(seat, before, player.thalers)] if cost else []


def gain_thalers(state: ShadowState, seat: int, amount: int, reason: str) -> Events:
    """Add thalers up to the track's cap; the excess is lost."""
    player = state.seats[seat]
    before = player.thalers
    player.thalers = min(BOARD.rules["thaler_cap"], before + amount)
    event = {"type": "thalers", "seat": seat, "amount": player.thalers - before,
             "lost": before + amount - player.thalers, "total": player.thalers, "reason": reason}
    return [tell(state, event, *([thaler_move(seat, before, player.thalers)] if player.thalers != before else []))]


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


def crown(state: ShadowState, seat: int, area: str, spot: str, age: int) -> Events:
    """Put a tile on the empty throne: one of the seat's from the board, or a Baron from its supply."""
    if area == SUPPLY:
        state.seats[seat].aristocrats -= 1
        tile = Piece("baron", seat, age)
        src = supply_of(seat)
    else:
        found = piece_at(state, area, spot)
        assert found is not None
        tile, src = found, where(state, area, spot)
        set_piece(state, area, spot, None)
    state.throne = tile
    return [tell(state, {"type": "crowned", "seat": seat, "from_area": area, "from_spot": spot,
                         "kind": tile.kind, "age": tile.age}, carry(tile, src, [THRONE]))]


def lose_tile(state: ShadowState, area: str, spot: str, reason: str) -> Events:
    """A tile leaves the board; an emperor's death sends his owner to refill the throne."""
    events = remove(state, area, spot, reason)
    if area == THRONE:
        events += queue_throne(state, state.emperor, reason)
    return events


# --- targets ------------------------------------------------------------------------
# Each takes the decision's board scan when it has one (see `board.Scan`), else looks itself.

def doctor_targets(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    """Any own tile that can be made younger, any opponent's tile (it ages, a 45 leaves); electors
    and the Emperor too, unless the option `doctor_targets` keeps to aristocrat spaces (§6.2)."""
    scan = scan or Scan(state)
    anywhere = state.options["doctor_targets"] == "any"
    return [dict(head, area=a, spot=s) for a, s, p in scan.aristocrats
            if (anywhere or s.startswith("a")) and ((p.owner != seat) or younger(p.age) is not None)]


def move_targets(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    """An own tile on an aristocrat space to any other electorate's place for a tile."""
    scan = scan or Scan(state)
    places = scan.aristocrat_places  # per electorate, so "any other" is a filter of one list
    found = []
    for a, s, p in scan.aristocrats:
        if p.owner != seat or not s.startswith("a"):
            continue
        found += [dict(head, from_area=a, from_spot=s, area=to_area, spot=to_spot)
                  for to_area, to_spot in places if to_area != a]
    return found


def knight_sources(state: ShadowState, seat: int, scan: Scan) -> list[tuple[str, str]]:
    """Where the seat's next knight comes from: its supply, or one of its knights on the board."""
    sources = [(SUPPLY, "")] if state.seats[seat].knights > 0 else []
    return sources + [(a, s) for a, s, p in scan.knights if p.owner == seat]


def knight_targets(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    """Place a knight from supply, or move one of the seat's knights, to an empty space."""
    scan = scan or Scan(state)
    places = scan.knight_places
    found = []
    for from_area, from_spot in knight_sources(state, seat, scan):
        kind = from_spot[:1]
        # The same kind of space in the same electorate is no move at all.
        found += [dict(head, from_area=from_area, from_spot=from_spot, area=area, spot=spot)
                  for area, spot in places if area != from_area or spot[0] != kind]
    return found


def knight_card_targets(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    """The Knight card: the knight action's places, and by option `knight_card_pushes` (§6.2) also an
    aristocrat space holding another player's knight, who goes back to supply (a castle's knight is
    never pushed, §5.4)."""
    scan = scan or Scan(state)
    found = knight_targets(state, seat, head, scan)
    if not state.options["knight_card_pushes"]:
        return found
    pushed = [(a, s) for a, s, p in scan.knights if p.owner != seat and s.startswith("a")]
    return found + [dict(head, from_area=from_area, from_spot=from_spot, area=a, spot=s)
                    for from_area, from_spot in knight_sources(state, seat, scan) for a, s in pushed]


def baron_places(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    if state.seats[seat].aristocrats <= 0:
        return []
    scan = scan or Scan(state)
    return [dict(head, area=a, spot=s) for a, s in scan.aristocrat_places]


def promotion_targets(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    if state.seats[seat].aristocrats <= 0:
        return []
    scan = scan or Scan(state)
    return [dict(head, area=a, spot=s) for a, s, p in scan.knights if p.owner == seat and s.startswith("a")]


def marriageable(state: ShadowState, p: Piece, area: str, spot: str) -> bool:
    """A single Baron, never an archdiocese's elector (it must stay single)."""
    if p.kind != "baron":
        return False
    return not (spot == ELECTOR and spec(area).single_elector)


def marry_own_targets(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    """One of the seat's single Barons to flip, or (option `kings_daughter`, §6.2) a place for a new
    Couple from its supply."""
    if state.options["kings_daughter"] == "new_couple":
        return baron_places(state, seat, head, scan)
    scan = scan or Scan(state)
    return [dict(head, area=a, spot=s) for a, s, p in scan.aristocrats
            if p.owner == seat and marriageable(state, p, a, s)]


def city_targets(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    """Any empty city space, or (option `permit_where`, §6.2) one in an electorate where the builder
    has an aristocrat (its elector included)."""
    if state.seats[seat].cities <= 0:
        return []
    scan = scan or Scan(state)
    places = scan.city_places
    if state.options["permit_where"] == "present":
        present = {a for a, _, p in scan.aristocrats if p.owner == seat}
        places = [(a, s) for a, s in places if a in present]
    return [dict(head, area=a, spot=s) for a, s in places]


def rival_targets(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    if seat == state.emperor:
        return []
    if state.options["rival_needs_heir"] and not throne_choices(state, seat, scan):
        return []
    return [dict(head)]


def nothing(state: ShadowState, seat: int, head: Fields, scan: Scan | None = None) -> list[Fields]:
    return [dict(head)]


TARGETS: dict[str, Callable[[ShadowState, int, Fields, Scan | None], list[Fields]]] = {
    "rival": rival_targets, "doctor": doctor_targets, "move": move_targets, "pope": nothing,
    "church": nothing, "excommunicate": nothing, "indulgence": nothing, "permit": city_targets,
    "ordinance": baron_places, "promotion": promotion_targets, "marry_own": marry_own_targets,
    "knight": knight_card_targets, "gray": nothing,
}


# --- applying ----------------------------------------------------------------------

def doctor(state: ShadowState, seat: int, f: Fields, reason: str = "doctor") -> Events:
    area, spot = f["area"], f["spot"]
    p = piece_at(state, area, spot)
    assert p is not None
    new = younger(p.age) if p.owner == seat else older(p.age)
    if new is None:
        return lose_tile(state, area, spot, reason)
    return age_tile(state, p, area, spot, new, reason)


def age_tile(state: ShadowState, p: Piece, area: str, spot: str, age: int, reason: str) -> Events:
    """Turn a tile where it lies so that `age` is at the top."""
    before = p.age
    p.age = age
    what, side, _ = looks(p)
    return [tell(state, {"type": "aged", "seat": p.owner, "kind": p.kind, "age": p.age, "area": area, "spot": spot,
                         "younger": age < before, "reason": reason},
                 turn(what, p.owner, where(state, area, spot), (side, side), (before, age)))]


def move(state: ShadowState, seat: int, f: Fields) -> Events:
    p = piece_at(state, f["from_area"], f["from_spot"])
    assert p is not None
    src = where(state, f["from_area"], f["from_spot"])
    set_piece(state, f["from_area"], f["from_spot"], None)
    return place(state, p, f["area"], f["spot"], "move", src, kind="moved", from_area=f["from_area"],
                 from_spot=f["from_spot"])


def move_knight(state: ShadowState, seat: int, f: Fields, reason: str) -> Events:
    """A knight to its space; one already there (the Knight card by option `knight_card_pushes`) goes
    back to its owner's supply first, a step of the same move."""
    knight = Piece("knight", seat)
    if f["from_area"] == SUPPLY:
        state.seats[seat].knights -= 1
        src = supply_of(seat)
    else:
        src = where(state, f["from_area"], f["from_spot"])
        set_piece(state, f["from_area"], f["from_spot"], None)
    dst = where(state, f["area"], f["spot"])
    there = piece_at(state, f["area"], f["spot"])
    steps, pushed = [], []
    if there is not None:
        assert not there.aristocrat and there.owner != seat, "only another player's knight is pushed"
        state.seats[there.owner].knights += 1
        steps.append(carry(there, dst, supply_of(there.owner)))
        pushed.append({"type": "pushed", "seat": there.owner, "area": f["area"], "spot": f["spot"]})
    set_piece(state, f["area"], f["spot"], knight)
    return [tell(state, {"type": "knight", "seat": seat, "from_area": f["from_area"], "from_spot": f["from_spot"],
                         "area": f["area"], "spot": f["spot"], "reason": reason},
                 *steps, carry(knight, src, dst))] + pushed


def new_baron(state: ShadowState, seat: int, age: int, area: str, spot: str, reason: str,
              kind: str = "baron") -> Events:
    state.seats[seat].aristocrats -= 1
    return place(state, Piece(kind, seat, age), area, spot, reason, supply_of(seat))


def city_move(owner: int, src: list[Any], dst: list[Any]) -> Move:
    """A player's city, or an empire city (owner -1)."""
    return step("city", max(owner, -1), src, dst)


def build_city(state: ShadowState, seat: int, f: Fields) -> Events:
    built = cities_built(state, seat)
    state.seats[seat].cities -= 1
    e = next(e for e in state.electorates if e.id == f["area"])
    e.cities[int(f["spot"][1:])] = seat
    events: Events = [tell(state, {"type": "city", "seat": seat, "area": f["area"], "spot": f["spot"], "reason": "permit"},
                           city_move(seat, supply_of(seat), [f["area"], f["spot"]]))]
    return events + gain_vp(state, seat, BOARD.rules["city_vp"][built], "cities")


def promote(state: ShadowState, seat: int, f: Fields, age: int) -> Events:
    """The seat's knight makes room for a Baron from supply, or a Couple (option `promotion_side`, §6.2)."""
    events = remove(state, f["area"], f["spot"], "promotion")
    return events + new_baron(state, seat, age, f["area"], f["spot"], "promotion",
                              kind=state.options["promotion_side"])


def marry_own(state: ShadowState, seat: int, f: Fields, age: int) -> Events:
    """Flip a single Baron, or (option `kings_daughter`, §6.2) place a new Couple of the card's age."""
    if state.options["kings_daughter"] == "new_couple":
        return new_baron(state, seat, age, f["area"], f["spot"], "kings_daughter", kind="couple")
    return marry(state, f["area"], f["spot"], {"reason": "kings_daughter"})


def marry(state: ShadowState, area: str, spot: str, extra: dict[str, Any]) -> Events:
    """Flip a single Baron to its Couple side, keeping its age."""
    p = piece_at(state, area, spot)
    assert p is not None
    p.kind = "couple"
    return [tell(state, {"type": "married", "seat": p.owner, "area": area, "spot": spot, "age": p.age, **extra},
                 turn("tile", p.owner, where(state, area, spot), ("single", "couple"), (p.age, p.age)))]


def apply_card(state: ShadowState, seat: int, card: CardSpec, f: Fields) -> Events:
    """Resolve a card's effect now, then score the VP the card file gives it (Indulgence's 1; §7: none
    for any other card unless the data says so)."""
    events = card_effect(state, seat, card, f)
    if card.vp:
        events += gain_vp(state, seat, card.vp, card.id)
    return events


def card_effect(state: ShadowState, seat: int, card: CardSpec, f: Fields) -> Events:
    """What the card does now; Pope, Church influence, Excommunication and Gray eminence act later."""
    effect = card.effect
    if effect == "rival":
        state.seats[seat].passed = True  # taking Rival ends the buyer's Phase IV
        return [{"type": "rival", "seat": seat}]
    if effect == "doctor":
        return doctor(state, seat, f)
    if effect == "move":
        return move(state, seat, f)
    if effect == "permit":
        return build_city(state, seat, f)
    if effect == "ordinance":
        return new_baron(state, seat, card.age, f["area"], f["spot"], "ordinance")
    if effect == "promotion":
        return promote(state, seat, f, card.age)
    if effect == "marry_own":
        return marry_own(state, seat, f, card.age)
    if effect == "knight":
        return move_knight(state, seat, f, "card")
    return []  # indulgence: only its VP; pope, church, excommunicate, gray: later phases read the cards


def holders(state: ShadowState, effect: str) -> list[int]:
    """Seats, in turn order from the emperor, once per card or Trier copy with `effect` they hold."""
    found = []
    for offset in range(state.players):
        seat = (state.emperor + offset) % state.players
        player = state.seats[seat]
        held = player.cards + player.copies
        found += [seat] * sum(1 for c in held if CARDS[c].effect == effect)
    return found

