"""In the Shadow of the Emperor (帝位背后, Im Schatten des Kaisers): 2–4 noble families vie for the crown.

The companion keeps the thalers, the victory points, the cards bought and the
whole board, walks the table through the eight phases of five rounds, and
says what to change on the physical board. Rules: `rules.py` (the flow),
`phases.py` (each phase's work), `decisions.py` (what seats decide),
`effects.py` (cards and privileges), `board.py` (places and influence);
views: `views.py`; words: `text.py`; the real table: `tabletop.py`; the facts: `board.toml`, `cards.toml`,
`privileges.toml`; hand-built positions for tests: `position.py`.
"""

from __future__ import annotations

from ...game import ModularGame
from ...i18n import N_
from .. import register
from . import rules, tabletop, text, views
from .data import BOARD
from .state import ShadowState


class Shadow(ModularGame):
    name = "shadow"
    title = N_("In the Shadow of the Emperor")
    min_players = 2
    max_players = 4
    options = rules.OPTIONS
    state_type = ShadowState
    flow = rules.FLOW
    max_actions = 1000  # a random 4-player game takes 100-250; every paid action costs a thaler
    revealing_actions = frozenset({"vote"})
    rules, views, tabletop, text = rules, views, tabletop, text
    colours = BOARD.colours


GAME = register(Shadow())
