"""What a Shadow state puts on the real table: tiles, knights, cities, markers, cards and VP cards.

Computed from the state alone, so that the steps the rules tell (applied to
a `Table` of their own by the tests) can be checked against it. Victory
points are one face-down pile per player whose worth is its owner's total.
"""

from __future__ import annotations

from ...physical import Table
from .board import (ASIDE, EMPIRE_SUPPLY, ROUND_TRACK, THALERS, aristocrats, cities, front, knights, looks, stack,
                    supply_of, vp_pile, where)
from .effects import vp_face
from .state import ShadowState


def physical(state: ShadowState) -> Table:
    table = Table()
    table.put(ROUND_TRACK, "round marker", value=state.round)
    table.put(front(state.emperor), "emperor marker")
    table.put(EMPIRE_SUPPLY, "city", count=state.empire_supply)
    for card, left in state.stacks.items():
        table.put(stack(card), "card", -1, "up", card, count=left)
    for seat, player in enumerate(state.seats):
        table.put(THALERS, "thaler marker", seat, value=player.thalers)
        table.put(THALERS, "chip", seat, value=player.chip)
        table.put(vp_pile(seat), "vp cards", seat, vp_face(state), player.vp)
        table.put(supply_of(seat), "tile", seat, count=player.aristocrats)
        table.put(supply_of(seat), "knight", seat, count=player.knights)
        table.put(supply_of(seat), "city", seat, count=player.cities)
        for card in player.cards:  # a card copied through Trier's privilege is not a card on the table
            table.put(front(seat), "card", -1, "up", card)
    for area, spot, piece in list(aristocrats(state)) + list(knights(state)):
        what, side, age = looks(piece)
        table.put(where(state, area, spot), what, piece.owner, side, age)
    for area, spot, owner in cities(state):
        table.put([area, spot], "city", owner)
    if state.limbo is not None:
        what, side, age = looks(state.limbo)
        table.put(ASIDE, what, state.limbo.owner, side, age)
    return table
