"""Each seat's colour, one table for every public channel: the colour screen, the page and the report's charts.

A seat is keyed by its untranslated name ("Yellow"), as the games name their
seats by the colours of their pieces, so a Chinese table draws Yellow as
yellow too. A seat whose name is no colour here (a table's "Ann") takes the
next spare colour by its seat number, never one a named seat has. Each colour
has two shades: RGB for a dark screen (Black drawn grey, or it would not
show) and hex for the light page (White drawn grey, for the same reason).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Colour:
    """One seat colour: on a dark screen, and on the light page."""

    screen: tuple[int, int, int]
    page: str


COLOURS = {
    "red": Colour((235, 50, 50), "#d62728"),
    "blue": Colour((70, 130, 255), "#1f77b4"),
    "green": Colour((40, 200, 80), "#2ca02c"),
    "yellow": Colour((250, 215, 0), "#e6b800"),
    "purple": Colour((185, 90, 230), "#9467bd"),
    "orange": Colour((255, 150, 30), "#ff7f0e"),
    "cyan": Colour((0, 200, 200), "#17becf"),
    "pink": Colour((255, 120, 180), "#e377c2"),
    "black": Colour((150, 150, 150), "#444444"),
    "white": Colour((255, 255, 255), "#8c8c8c"),
}
# For seats not named after a colour, by seat number: the most distinct first.
SPARE = ("red", "blue", "green", "yellow", "purple", "orange", "cyan", "pink")


def seat_colours(names: Sequence[str]) -> tuple[str, ...]:
    """Each seat's colour (a key of `COLOURS`), from the seats' untranslated names."""
    named = [name.strip().casefold() for name in names]
    spare = [key for key in SPARE if key not in named] or list(SPARE)
    return tuple(key if key in COLOURS else spare[seat % len(spare)] for seat, key in enumerate(named))


def seat_colour(colours: Sequence[str], seat: int) -> Colour:
    """Seat `seat`'s colour, from `seat_colours`; by its number if it has none there."""
    key = colours[seat] if 0 <= seat < len(colours) else ""
    return COLOURS.get(key) or COLOURS[SPARE[seat % len(SPARE)]]


def page_colour(colours: Sequence[str], seat: int) -> str:
    """Seat `seat`'s colour on the page, as CSS takes it."""
    return seat_colour(colours, seat).page
