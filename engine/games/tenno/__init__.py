"""Tennō (天皇): 2–7 players attack each other's face-down rows; prisoners score.

The companion holds every row, hand and prisoner pile, resolves each fight,
keeps peeks secret and scores the game. Rules: `rules.py`; views: `views.py`;
words: `text.py`; the cards: `cards.toml`.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Action, Game, Prompt, Result
from ...rng import Rng
from .. import register
from . import rules, text, views
from .cards import CARDS
from .state import TennoState


class Tenno(Game):
    name = "tenno"
    title = "Tennō"
    min_players = 2
    max_players = 7
    options = rules.OPTIONS
    state_type = TennoState
    flow = rules.FLOW
    max_actions = 600

    def setup(self, players: int, rng: Rng, options: dict[str, Any]) -> TennoState:
        return rules.setup(players, rng, options)

    def pending(self, state: TennoState) -> list[int]:
        return [] if state.over else rules.pending(state)

    def legal_actions(self, state: TennoState, seat: int) -> list[Action]:
        return [] if state.over else rules.legal_actions(state, seat)

    def perform(self, state: TennoState, action: Action) -> list[dict[str, Any]]:
        return rules.perform(state, action)

    def result(self, state: TennoState) -> Result | None:
        return rules.result(state)

    def view(self, state: TennoState, seat: int) -> dict[str, Any]:
        return views.view(state, seat)

    def public_view(self, state: TennoState) -> dict[str, Any]:
        return views.public_view(state)

    def seat_names(self, players: int) -> list[str]:
        return list(CARDS.colours[:players])

    def redeal(self, state: TennoState, seat: int, rng: Rng) -> TennoState:
        return rules.redeal(state, seat, rng)

    def check_invariants(self, state: TennoState) -> None:
        rules.check_invariants(state)

    # words, from a view alone
    def header(self, view: dict[str, Any], names: Sequence[str]) -> str:
        return text.header(view, names)

    def panel(self, view: dict[str, Any], names: Sequence[str]) -> list[str]:
        return text.panel(view, names)

    def ask(self, view: dict[str, Any], names: Sequence[str]) -> str:
        return text.ask(view, names)

    def label(self, view: dict[str, Any], key: str, value: Any, names: Sequence[str],
              chosen: dict[str, Any]) -> str:
        return text.label(view, key, value, names, chosen)

    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str:
        return text.describe_event(event, names)

    def standings(self, view: dict[str, Any], names: Sequence[str]) -> list[str]:
        return text.standings(view, names)

    def rules_help(self, view: dict[str, Any], names: Sequence[str]) -> list[str]:
        return text.rules_help(view, names)

    def public_prompt(self, view: dict[str, Any], names: Sequence[str]) -> Prompt:
        return text.prompt(view, names)


GAME = register(Tenno())
