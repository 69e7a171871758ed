"""Quo Vadis (元老院): 3–5 players climb the committees into the Senate, collecting laurels.

The companion is the table's bag, its hidden laurel piles and its vote
counter; the players move their senators on the real board, as the screens
say. Rules: `rules.py`; views: `views.py`; words: `text.py`; the real
table: `tabletop.py`; the board and the laurels: `board.toml`,
`laurels.toml`.
"""

from __future__ import annotations

from ...game import ModularGame
from ...i18n import N_
from .. import register
from . import rules, tabletop, text, views
from .state import QuoVadisState


class QuoVadis(ModularGame):
    name = "quovadis"
    title = N_("Quo Vadis")
    min_players = 3
    max_players = rules.MAX_PLAYERS
    options = rules.OPTIONS
    free_actions = frozenset({"pay", "demand_reveal"})
    confirm_actions = frozenset({"pay"})
    table_actions = frozenset({"demand_reveal"})
    state_type = QuoVadisState
    flow = rules.FLOW
    max_actions = 5_000
    revealing_actions = frozenset({"support", "refuse", "advance", "pay", "demand_reveal"})
    rules, views, tabletop, text = rules, views, tabletop, text
    colours = ("Red", "Blue", "Yellow", "Green", "Black")


GAME = register(QuoVadis())
