"""What a Tennō state puts on the real table: each colour's cards, where they lie and which way up.

Computed from the state alone, so that the steps the rules tell (applied to
a `Table` of their own by the tests) can be checked against it.
"""

from __future__ import annotations

from ...physical import Table
from .cards import CARDS
from .rules import DISCARD, current_fight, discard_face, hand, prisoners, row
from .state import TennoState


def physical(state: TennoState) -> Table:
    table = Table()
    fight = current_fight(state)
    shown = (fight.attacker, fight.slot) if fight is not None else None  # the attacking card, up until answered
    for seat, player in enumerate(state.seats):
        held = len(player.hand) + (0 if player.arranged else len(CARDS.starting_row))
        table.put(hand(seat), "card", seat, count=held)
        for slot, card in enumerate(player.row):
            if card is not None:
                table.put(row(seat, slot), "card", seat, "up" if (seat, slot) == shown else "down", card)
        for taken in player.captives:
            table.put(prisoners(seat), "card", taken.owner, "up" if state.over else "down", taken.card)
    for taken in state.discard:
        table.put(DISCARD, "card", taken.owner, discard_face(state), taken.card)
    return table
