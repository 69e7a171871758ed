"""What a Quo Vadis state puts on the real table: senators, laurels, the bag and Caesar.

Computed from the state alone, so that the steps the rules tell (applied to
a `Table` of their own by the tests) can be checked against it.
"""

from __future__ import annotations

from ...physical import Table
from .rules import BAG, REWARD, SENATE, SUPPLY, diamond, laurels, reserve, seat_of
from .state import QuoVadisState


def physical(state: QuoVadisState) -> Table:
    table = Table()
    for seat, player in enumerate(state.seats):
        table.put(reserve(seat), "senator", seat, count=player.reserve)
        for token in player.laurels:
            table.put(laurels(seat), "laurel", -1, "up" if state.over else "down", token)
    for committee, owners in state.committees.items():
        for index, owner in enumerate(owners):
            table.put(seat_of(committee, index if committee == SENATE else 0), "senator", owner)
    for path, token in state.diamonds.items():
        if token:
            table.put(diamond(path), "laurel", -1, "up", token)
    table.put(diamond(state.caesar), "caesar")
    for token in state.bag:
        table.put(BAG, "laurel", -1, "", token)
    table.put(SUPPLY, "laurel", -1, "up", REWARD, count=state.supply)
    return table
