"""Tennō's card set, loaded from `cards.toml` and checked when it loads."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import BadData, read_toml

ABILITIES = ("ninja", "monk", "ronin", "shogun", "geisha")
_FILE = Path(__file__).with_name("cards.toml")


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    short: str
    attack: int
    defend: int
    score: int
    starts_in_row: bool = False
    ability: str = ""


@dataclass(frozen=True)
class CardSet:
    cards: dict[int, Card]
    colours: tuple[str, ...]
    monk_bonus: int
    geisha_margin: int
    row_size: int

    def in_order(self, cards: Any) -> list[int]:
        """Cards as a seat's screen lists them, in its hand and in its menus alike: by strength,
        the Geisha (X, who has none of her own) last."""
        return sorted(cards, key=lambda c: (self.cards[c].ability == "geisha", c))

    def with_ability(self, ability: str) -> int | None:
        for card in self.cards.values():
            if card.ability == ability:
                return card.id
        return None

    @property
    def starting_row(self) -> tuple[int, ...]:
        return tuple(sorted(c.id for c in self.cards.values() if c.starts_in_row))


def load_cards(path: Path = _FILE) -> CardSet:
    """Read and check a card file; raise BadData naming the broken rule."""
    return parse_cards(read_toml(path), path.name)


def parse_cards(data: dict[str, Any], source: str = "cards") -> CardSet:
    rules = data.get("rules", {})
    cards: dict[int, Card] = {}
    for number, raw in enumerate(data.get("card", []), 1):
        try:
            card = Card(**raw)
        except TypeError as err:
            raise BadData(f"{source}: card {number}: {err}") from err
        if card.id in cards:
            raise BadData(f"{source}: card id {card.id} appears twice")
        if card.ability not in ("",) + ABILITIES:
            raise BadData(f"{source}: card {card.id} has unknown ability {card.ability!r}")
        cards[card.id] = card
    if len(cards) != 11:
        raise BadData(f"{source}: a colour has 11 cards, this file has {len(cards)}")
    for ability in ABILITIES:
        holders = [c.id for c in cards.values() if c.ability == ability]
        if len(holders) != 1:
            raise BadData(f"{source}: exactly one card must have ability {ability!r}, found {len(holders)}")
    row_size = int(rules.get("row_size", 3))
    starters = [c for c in cards.values() if c.starts_in_row]
    if len(starters) != row_size:
        raise BadData(f"{source}: {row_size} cards must start in the row, found {len(starters)}")
    colours = tuple(data.get("colours", rules.get("colours", ())))
    if len(colours) < 7 or len(set(colours)) != len(colours):
        raise BadData(f"{source}: seven different colours are needed, found {list(colours)}")
    return CardSet(
        cards=cards,
        colours=colours,
        monk_bonus=int(rules.get("monk_bonus", 2)),
        geisha_margin=int(rules.get("geisha_margin", 1)),
        row_size=row_size,
    )


CARDS = load_cards()
