"""The board as pure functions: finding places, moving pieces, counting influence.

A place is (area, spot): an electorate id with "elector", "a<i>" (aristocrat
space), "k<i>" (castle) or "c<i>" (city space); ("throne", ""); or
("supply", ""). Where several empty spaces of one electorate are alike, only
the first is offered, so a menu lists each real choice once.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...physical import Move, step, tell
from .data import BOARD
from .state import EMPIRE, Electorate, Piece, ShadowState

THRONE = "throne"
SUPPLY = "supply"
ELECTOR = "elector"
RULES = BOARD.rules
AGES: list[int] = list(RULES["ages"])

# Spot names by index, made once for the board's largest electorate: the
# legal-action lists name every place they offer.
ARISTOCRAT_SPOTS = tuple(f"a{i}" for i in range(max(e.aristocrat_spaces for e in BOARD.electorates)))
CASTLE_SPOTS = tuple(f"k{i}" for i in range(max(e.castle_spaces for e in BOARD.electorates)))
CITY_SPOTS = tuple(f"c{i}" for i in range(max(e.city_spaces for e in BOARD.electorates)))


# --- where things lie on the real table (engine.physical) -------------------------

ASIDE = ["aside"]  # a tile between places: a displaced elector, the old emperor
EMPIRE_SUPPLY = ["empire supply"]
THALERS = ["thaler track"]
ROUND_TRACK = ["round track"]


def supply_of(seat: int) -> list[Any]:
    """A player's tiles, knights and cities beside the board."""
    return ["supply", seat]


def front(seat: int) -> list[Any]:
    """In front of a player: the action cards bought, the emperor marker."""
    return ["front", seat]


def stack(card: str) -> list[Any]:
    return ["stack", card]


def vp_pile(seat: int) -> list[Any]:
    return ["vp", seat]


def where(state: ShadowState, area: str, spot: str) -> list[Any]:
    """The real place of a board place: an elector whose privilege was used this round sits on
    its electorate's privilege space until the round ends (rules/shadow.md §2.3)."""
    if area == THRONE:
        return [THRONE]
    if spot == ELECTOR and electorate(state, area).used:
        return [area, "privilege"]
    return [area, spot]


def looks(p: Piece) -> tuple[str, str, int | None]:
    """A piece as the table sees it: (component, side, age); a knight has neither side nor age."""
    if not p.aristocrat:
        return "knight", "", None
    return "tile", "couple" if p.kind == "couple" else "single", p.age


def carry(p: Piece, src: list[Any], dst: list[Any]) -> Move:
    """A tile or knight going from `src` to `dst`; in a supply a tile shows no side and no age."""
    what, face, age = looks(p)
    before = ("", None) if src[0] == SUPPLY else (face, age)
    after = ("", None) if dst[0] == SUPPLY else (face, age)
    return step(what, p.owner, src, dst, (before[0], after[0]), (before[1], after[1]))


def electorate(state: ShadowState, eid: str) -> Electorate:
    for e in state.electorates:
        if e.id == eid:
            return e
    raise KeyError(eid)


def spec(eid: str):
    return BOARD.electorate(eid)


def piece_at(state: ShadowState, area: str, spot: str) -> Piece | None:
    """The aristocrat or knight at a place (never a city)."""
    if area == THRONE:
        return state.throne
    e = electorate(state, area)
    if spot == ELECTOR:
        return e.elector
    kind, number = spot[0], int(spot[1:])
    return e.spaces[number] if kind == "a" else e.castles[number]


def set_piece(state: ShadowState, area: str, spot: str, piece: Piece | None) -> None:
    if area == THRONE:
        state.throne = piece
        return
    e = electorate(state, area)
    if spot == ELECTOR:
        e.elector = piece
        if piece is None:
            e.used = False  # the tile marking the privilege's use has left the board
        return
    kind, number = spot[0], int(spot[1:])
    if kind == "a":
        e.spaces[number] = piece
    else:
        e.castles[number] = piece


def aristocrats(state: ShadowState) -> list[tuple[str, str, Piece]]:
    """Every aristocrat tile on the board with its place: throne, electors, aristocrat spaces."""
    found = [(THRONE, "", state.throne)] if state.throne is not None else []
    for e in state.electorates:
        if e.elector is not None:
            found.append((e.id, ELECTOR, e.elector))
        for i, p in enumerate(e.spaces):
            if p is not None and p.kind != "knight":
                found.append((e.id, ARISTOCRAT_SPOTS[i], p))
    return found


def knights(state: ShadowState) -> list[tuple[str, str, Piece]]:
    found = []
    for e in state.electorates:
        for i, p in enumerate(e.spaces):
            if p is not None and p.kind == "knight":
                found.append((e.id, ARISTOCRAT_SPOTS[i], p))
        for i, p in enumerate(e.castles):
            if p is not None:
                found.append((e.id, CASTLE_SPOTS[i], p))
    return found


def cities(state: ShadowState) -> Iterator[tuple[str, str, int]]:
    for e in state.electorates:
        for i, owner in enumerate(e.cities):
            if owner is not None:
                yield e.id, CITY_SPOTS[i], owner


def on_board(state: ShadowState, seat: int) -> dict[str, int]:
    """How many of a seat's pieces stand on the board (a tile in limbo counts here too)."""
    in_limbo = state.limbo is not None and state.limbo.owner == seat
    return {"aristocrats": sum(1 for _, _, p in aristocrats(state) if p.owner == seat) + in_limbo,
            "knights": sum(1 for _, _, p in knights(state) if p.owner == seat),
            "cities": sum(1 for _, _, o in cities(state) if o == seat)}


# --- where things may go ------------------------------------------------------

def aristocrat_places(state: ShadowState, exclude: str = "") -> list[tuple[str, str]]:
    """Where a tile may be placed: each electorate's first empty aristocrat space, or,
    when it has none, each of its aristocrat spaces holding a knight (that knight is pushed)."""
    found: list[tuple[str, str]] = []
    for e in state.electorates:
        if e.id != exclude:
            found += places_in(e)
    return found


def _first_empty(spaces: list[Piece | None], skip: str = "") -> int:
    """The index of the first empty space, or -1 (by identity: ``None in spaces`` would call each
    piece's dataclass ``__eq__``); the space named `skip` ("a2") is passed over."""
    for i, p in enumerate(spaces):
        if p is None and (not skip or ARISTOCRAT_SPOTS[i] != skip):
            return i
    return -1


def places_in(e: Electorate, skip: str = "") -> list[tuple[str, str]]:
    """The electorate's first empty aristocrat space, else each one a knight holds (`skip`: a space
    that does not count as empty)."""
    empty = _first_empty(e.spaces, skip)
    if empty >= 0:
        return [(e.id, ARISTOCRAT_SPOTS[empty])]
    return [(e.id, ARISTOCRAT_SPOTS[i]) for i, p in enumerate(e.spaces) if p is not None and p.kind == "knight"]


def knight_places(state: ShadowState) -> list[tuple[str, str]]:
    """Empty places for a knight: each electorate's first empty aristocrat space and first empty castle."""
    found = []
    for e in state.electorates:
        empty = _first_empty(e.spaces)
        if empty >= 0:
            found.append((e.id, ARISTOCRAT_SPOTS[empty]))
        empty = _first_empty(e.castles)
        if empty >= 0:
            found.append((e.id, CASTLE_SPOTS[empty]))
    return found


def city_places(state: ShadowState, exclude: tuple[str, str] | None = None) -> list[tuple[str, str]]:
    found = [(e.id, CITY_SPOTS[e.cities.index(None)]) for e in state.electorates if None in e.cities]
    return [p for p in found if p != exclude]


class Scan:
    """One look at the board for one decision: each list its choices read, made at most once.

    A seat's Phase IV turn offers a dozen cards whose targets read the same
    lists (the tiles, the knights, the free places); a scan is made per
    decision and never outlives it, as the board changes with every action.
    The tiles, the knights and the places for each are read in one pass over
    the electorates (`survey`), the first time any of them is asked for.
    (Plain lazy attributes: ``functools.cached_property`` takes a lock on
    every read before Python 3.12, which cost more than the lists.)
    """

    __slots__ = ("state", "_aristocrats", "_knights", "_aristocrat_places", "_knight_places", "_city_places")

    def __init__(self, state: ShadowState) -> None:
        self.state = state
        self._aristocrats: list[tuple[str, str, Piece]] | None = None
        self._knights: list[tuple[str, str, Piece]] = []
        self._aristocrat_places: list[tuple[str, str]] = []
        self._knight_places: list[tuple[str, str]] = []
        self._city_places: list[tuple[str, str]] | None = None

    def _survey(self) -> None:
        self._aristocrats, self._knights, self._aristocrat_places, self._knight_places = survey(self.state)

    @property
    def aristocrats(self) -> list[tuple[str, str, Piece]]:
        if self._aristocrats is None:
            self._survey()
        return self._aristocrats  # type: ignore[return-value]

    @property
    def knights(self) -> list[tuple[str, str, Piece]]:
        if self._aristocrats is None:
            self._survey()
        return self._knights

    @property
    def aristocrat_places(self) -> list[tuple[str, str]]:
        if self._aristocrats is None:
            self._survey()
        return self._aristocrat_places

    @property
    def knight_places(self) -> list[tuple[str, str]]:
        if self._aristocrats is None:
            self._survey()
        return self._knight_places

    @property
    def city_places(self) -> list[tuple[str, str]]:
        if self._city_places is None:
            self._city_places = city_places(self.state)
        return self._city_places


def survey(state: ShadowState) -> tuple[list[tuple[str, str, Piece]], list[tuple[str, str, Piece]],
                                        list[tuple[str, str]], list[tuple[str, str]]]:
    """`aristocrats`, `knights`, `aristocrat_places` and `knight_places` of the board, each in its
    own order, read in one pass over the electorates (a test holds them equal to the four)."""
    throne = state.throne
    tiles: list[tuple[str, str, Piece]] = [(THRONE, "", throne)] if throne is not None else []
    knights: list[tuple[str, str, Piece]] = []
    tile_places: list[tuple[str, str]] = []
    knight_places: list[tuple[str, str]] = []
    for e in state.electorates:
        area = e.id
        if e.elector is not None:
            tiles.append((area, ELECTOR, e.elector))
        empty = ""
        held: list[tuple[str, str]] = []  # aristocrat spaces a knight holds: a tile may push it
        for spot, p in zip(ARISTOCRAT_SPOTS, e.spaces):
            if p is None:
                if not empty:
                    empty = spot
            elif p.kind == "knight":
                knights.append((area, spot, p))
                held.append((area, spot))
            else:
                tiles.append((area, spot, p))
        if empty:
            tile_places.append((area, empty))
            knight_places.append((area, empty))
        else:
            tile_places += held
        empty = ""
        for spot, p in zip(CASTLE_SPOTS, e.castles):
            if p is None:
                if not empty:
                    empty = spot
            else:
                knights.append((area, spot, p))
        if empty:
            knight_places.append((area, empty))
    return tiles, knights, tile_places, knight_places


# --- changing the board (each returns the public events) -------------------------

def place(state: ShadowState, piece: Piece, area: str, spot: str, reason: str, src: list[Any],
          kind: str = "placed", **extra: Any) -> list[dict[str, Any]]:
    """Put a tile coming from `src` on an aristocrat space, pushing a knight there back to supply
    (a step of the placing: the knight comes off first)."""
    events: list[dict[str, Any]] = []
    steps: list[Move] = []
    there = piece_at(state, area, spot)
    dst = where(state, area, spot)
    if there is not None:
        assert not there.aristocrat, "only a knight is pushed"
        state.seats[there.owner].knights += 1
        events.append({"type": "pushed", "seat": there.owner, "area": area, "spot": spot})
        steps.append(carry(there, dst, supply_of(there.owner)))
    set_piece(state, area, spot, piece)
    placed = {"type": kind, "seat": piece.owner, "kind": piece.kind, "age": piece.age, "area": area, "spot": spot,
              "reason": reason, **extra}
    return [tell(state, placed, *steps, carry(piece, src, dst))] + events


def remove(state: ShadowState, area: str, spot: str, reason: str) -> list[dict[str, Any]]:
    """Take a tile or knight off the board into its owner's supply."""
    piece = piece_at(state, area, spot)
    assert piece is not None
    src = where(state, area, spot)
    set_piece(state, area, spot, None)
    owner = state.seats[piece.owner]
    if piece.aristocrat:
        owner.aristocrats += 1
    else:
        owner.knights += 1
    return [tell(state, {"type": "removed", "seat": piece.owner, "kind": piece.kind, "age": piece.age,
                         "area": area, "spot": spot, "reason": reason}, carry(piece, src, supply_of(piece.owner)))]


def older(age: int) -> int | None:
    """The next age, or None past the last (the tile leaves the board)."""
    i = AGES.index(age)
    return AGES[i + 1] if i + 1 < len(AGES) else None


def younger(age: int) -> int | None:
    i = AGES.index(age)
    return AGES[i - 1] if i > 0 else None


# --- influence --------------------------------------------------------------------

def influence(state: ShadowState, e: Electorate, elector_counts: bool,
              bonus: dict[int, int] | None = None) -> dict[int, int]:
    """Each seat's power in an electorate (§5.6): Baron 1, Couple 2, knight 1, own city 1,
    each empire city 1 for the throne's holder (an empty throne's Emperor by option
    `empty_throne_rights`), the elector tile (an option), and any bonus."""
    power = {s: 0 for s in range(state.players)}

    def weight(p: Piece) -> int:
        return 2 if p.kind == "couple" else 1

    for p in e.spaces + e.castles:
        if p is not None:
            power[p.owner] += weight(p)
    if elector_counts and e.elector is not None:
        power[e.elector.owner] += weight(e.elector)
    for owner in e.cities:
        if owner == EMPIRE:
            if state.throne is not None or state.options["empty_throne_rights"]:
                power[state.emperor] += 1
        elif owner is not None:
            power[owner] += 1
    for seat, extra in (bonus or {}).items():
        power[seat] += extra
    return power
