"""Tennō (天皇): 2–7 players attack each other's face-down rows; prisoners score.

The companion holds every row, hand and prisoner pile, resolves each fight,
keeps peeks secret and scores the game. Rules: `rules.py`; views: `views.py`;
words: `text.py`; the real table: `tabletop.py`; the cards: `cards.toml`.
"""

from __future__ import annotations

from ...game import ModularGame
from ...i18n import N_
from .. import register
from . import rules, tabletop, text, views
from .cards import CARDS
from .state import TennoState


class Tenno(ModularGame):
    name = "tenno"
    title = N_("Tennō")
    min_players = 2
    max_players = rules.MAX_SEATS
    options = rules.OPTIONS
    state_type = TennoState
    flow = rules.FLOW
    max_actions = 600
    revealing_actions = frozenset({"attack", "defend", "peek"})
    rules, views, tabletop, text = rules, views, tabletop, text
    colours = CARDS.colours


GAME = register(Tenno())
