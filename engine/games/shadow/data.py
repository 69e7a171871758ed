"""The board, cards and privileges of In the Shadow of the Emperor, loaded from TOML and checked.

Every fact a table may need to correct (space counts, card costs, colours and
copies, the round track, the privileges) lives in the data files beside this
module; a file that breaks a rule raises `BadData` naming the rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import BadData, read_toml

_HERE = Path(__file__).parent
KINDS = ("spiritual", "secular")
COLOURS = ("blue", "red", "none")
EFFECTS = ("rival", "doctor", "move", "pope", "church", "excommunicate", "indulgence", "permit",
           "ordinance", "promotion", "marry_own", "knight", "gray")
PRIVILEGE_EFFECTS = {"copy_sold_out": "IV", "doctor": "IV", "place_baron": "IV", "take_card": "IV",
                     "income": "I", "vp": "V", "votes": "VI"}
CITY_ACTIONS = ("place_or_move", "move", "none")
PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True)
class ElectorateSpec:
    id: str
    name: str
    kind: str
    aristocrat_spaces: int
    city_spaces: int
    castle_spaces: int

    @property
    def single_elector(self) -> bool:
        """An archdiocese's elector must be a single Baron."""
        return self.kind == "spiritual"


@dataclass(frozen=True)
class RoundSpec:
    number: int
    vp: int
    thalers: int
    empire_city: str


@dataclass(frozen=True)
class Board:
    colours: tuple[str, ...]
    electorates: tuple[ElectorateSpec, ...]
    rounds: tuple[RoundSpec, ...]
    rules: dict[str, Any]
    pieces: dict[str, int]

    def electorate(self, eid: str) -> ElectorateSpec:
        for spec in self.electorates:
            if spec.id == eid:
                return spec
        raise KeyError(eid)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(e.id for e in self.electorates)


@dataclass(frozen=True)
class CardSpec:
    id: str
    name: str
    short: str
    abbr: str
    colour: str
    copies: dict[int, int]
    effect: str
    cost: int = 0
    costs: tuple[int, ...] = ()  # by the number of the buyer's cities already built (Permit)
    age: int = 0  # the age of a tile the card places (Ordinance, Promotion, a new Couple of the King's daughter)
    vp: int = 0  # victory points the card gives when bought or copied (Indulgence)


@dataclass(frozen=True)
class PrivilegeSpec:
    electorate: str
    phase: str
    effect: str
    name: str
    amount: int = 0
    age: int = 0
    card: str = ""
    cost: int = 0
    exclude: tuple[str, ...] = ()


def _int(source: str, what: str, value: Any, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BadData(f"{source}: {what} must be a whole number of at least {low}, not {value!r}")
    return value


def parse_board(data: dict[str, Any], source: str = "board.toml") -> Board:
    colours = tuple(data.get("colours", ()))
    if len(colours) < max(PLAYER_COUNTS) or len(set(colours)) != len(colours):
        raise BadData(f"{source}: {max(PLAYER_COUNTS)} different colours are needed, found {list(colours)}")
    electorates = []
    for number, raw in enumerate(data.get("electorate", []), 1):
        try:
            spec = ElectorateSpec(**raw)
        except TypeError as err:
            raise BadData(f"{source}: electorate {number}: {err}") from err
        if spec.kind not in KINDS:
            raise BadData(f"{source}: electorate {spec.id} has kind {spec.kind!r}, not one of {KINDS}")
        for field in ("aristocrat_spaces", "city_spaces", "castle_spaces"):
            _int(source, f"{spec.id}.{field}", getattr(spec, field), 1 if field == "aristocrat_spaces" else 0)
        electorates.append(spec)
    ids = [e.id for e in electorates]
    if len(ids) != 7 or len(set(ids)) != 7:
        raise BadData(f"{source}: the board has seven different electorates, found {ids}")
    if sum(e.single_elector for e in electorates) != 3:
        raise BadData(f"{source}: three electorates are archdioceses (kind 'spiritual')")
    rules = dict(data.get("rules", {}))
    for key in ("rounds", "start_thalers", "thaler_cap", "base_income", "elector_vp", "vote_vp",
                "marriage_vp", "nunnery_thalers", "knight_action_cost", "throne_age", "son_age"):
        if key not in rules:
            raise BadData(f"{source}: [rules] lacks {key}")
        _int(source, f"rules.{key}", rules[key])
    ages = rules.get("ages", [])
    if not ages or sorted(ages) != list(ages) or len(set(ages)) != len(ages):
        raise BadData(f"{source}: rules.ages must list the tile's ages from youngest to oldest")
    if rules["son_age"] not in ages or rules["throne_age"] not in ages:
        raise BadData(f"{source}: son_age and throne_age must be ages a tile shows")
    if rules["start_thalers"] > rules["thaler_cap"]:
        raise BadData(f"{source}: start_thalers is above the thaler cap")
    pieces = dict(data.get("pieces", {}))
    for key in ("aristocrats", "knights", "cities", "empire_cities"):
        _int(source, f"pieces.{key}", pieces.get(key), 1)
    city_vp = rules.get("city_vp", [])
    if len(city_vp) != pieces["cities"]:
        raise BadData(f"{source}: city_vp needs one value per city a player owns ({pieces['cities']})")
    rounds = []
    for number, raw in enumerate(data.get("round", []), 1):
        try:
            spec = RoundSpec(**raw)
        except TypeError as err:
            raise BadData(f"{source}: round {number}: {err}") from err
        if spec.number != number:
            raise BadData(f"{source}: round entries must be numbered 1, 2, ... in order")
        if spec.empire_city not in CITY_ACTIONS:
            raise BadData(f"{source}: round {number} empire_city must be one of {CITY_ACTIONS}")
        rounds.append(spec)
    if len(rounds) != rules["rounds"]:
        raise BadData(f"{source}: the round track needs {rules['rounds']} rounds, found {len(rounds)}")
    return Board(colours, tuple(electorates), tuple(rounds), rules, pieces)


def parse_cards(data: dict[str, Any], board: Board, source: str = "cards.toml") -> dict[str, CardSpec]:
    cards: dict[str, CardSpec] = {}
    for number, raw in enumerate(data.get("card", []), 1):
        raw = dict(raw)
        copies = raw.pop("copies", {})
        costs = tuple(raw.pop("costs", ()))
        try:
            card = CardSpec(copies={int(k): v for k, v in copies.items()}, costs=costs, **raw)
        except (TypeError, ValueError) as err:
            raise BadData(f"{source}: card {number}: {err}") from err
        if card.id in cards:
            raise BadData(f"{source}: card {card.id!r} appears twice")
        if card.colour not in COLOURS:
            raise BadData(f"{source}: card {card.id} has colour {card.colour!r}, not one of {COLOURS}")
        if card.effect not in EFFECTS:
            raise BadData(f"{source}: card {card.id} has unknown effect {card.effect!r}")
        if sorted(card.copies) != list(PLAYER_COUNTS):
            raise BadData(f"{source}: card {card.id} needs copies for {PLAYER_COUNTS} players")
        for players, count in card.copies.items():
            _int(source, f"{card.id} copies for {players}", count)
        _int(source, f"{card.id}.cost", card.cost)
        _int(source, f"{card.id}.vp", card.vp)
        if card.effect == "permit" and len(card.costs) != board.pieces["cities"]:
            raise BadData(f"{source}: card {card.id} needs one cost per city a player owns")
        if card.effect in ("ordinance", "promotion", "marry_own") and card.age not in board.rules["ages"]:
            raise BadData(f"{source}: card {card.id} must place a Baron of an age a tile shows")
        cards[card.id] = card
    if len(cards) != 13:
        raise BadData(f"{source}: there are 13 card types, this file has {len(cards)}")
    if sum(c.copies[4] for c in cards.values()) != 21:
        raise BadData(f"{source}: the 4-player game uses 21 action cards")
    for effect in EFFECTS:
        if sum(c.effect == effect for c in cards.values()) != 1:
            raise BadData(f"{source}: exactly one card type must have effect {effect!r}")
    if any(c.copies[4] != 1 for c in cards.values() if c.effect == "rival"):
        raise BadData(f"{source}: there is one Rival card")
    return cards


def parse_privileges(data: dict[str, Any], board: Board, cards: dict[str, CardSpec],
                     source: str = "privileges.toml") -> dict[str, PrivilegeSpec]:
    found: dict[str, PrivilegeSpec] = {}
    for number, raw in enumerate(data.get("privilege", []), 1):
        raw = dict(raw)
        exclude = tuple(raw.pop("exclude", ()))
        try:
            spec = PrivilegeSpec(exclude=exclude, **raw)
        except TypeError as err:
            raise BadData(f"{source}: privilege {number}: {err}") from err
        if spec.electorate not in board.ids or spec.electorate in found:
            raise BadData(f"{source}: privilege {number} names {spec.electorate!r}: each electorate has one")
        if PRIVILEGE_EFFECTS.get(spec.effect) != spec.phase:
            raise BadData(f"{source}: privilege {spec.electorate} effect {spec.effect!r} is not a phase "
                          f"{spec.phase} effect")
        if spec.effect == "take_card" and spec.card not in cards:
            raise BadData(f"{source}: privilege {spec.electorate} takes unknown card {spec.card!r}")
        if spec.effect == "place_baron" and spec.age not in board.rules["ages"]:
            raise BadData(f"{source}: privilege {spec.electorate} places a Baron of age {spec.age}")
        for card in spec.exclude:
            if card not in cards:
                raise BadData(f"{source}: privilege {spec.electorate} excludes unknown card {card!r}")
        found[spec.electorate] = spec
    if sorted(found) != sorted(board.ids):
        raise BadData(f"{source}: every electorate has a privilege")
    return found


BOARD = parse_board(read_toml(_HERE / "board.toml"))
CARDS = parse_cards(read_toml(_HERE / "cards.toml"), BOARD)
PRIVILEGES = parse_privileges(read_toml(_HERE / "privileges.toml"), BOARD, CARDS)


def card_with(effect: str) -> CardSpec:
    """The card type that has `effect` (exactly one does)."""
    return next(c for c in CARDS.values() if c.effect == effect)


def privilege_with(effect: str) -> PrivilegeSpec | None:
    return next((p for p in PRIVILEGES.values() if p.effect == effect), None)
