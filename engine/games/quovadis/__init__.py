"""Quo Vadis (元老院): 3–5 players climb the committees into the Senate, collecting laurels.

The companion is the table's bag, its hidden laurel piles and its vote
counter; the players move their senators on the real board, as the screens
say. Rules: `rules.py`; views: `views.py`; words: `text.py`; the board and
the laurels: `board.toml`, `laurels.toml`.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Action, Game, Prompt, Result
from ...rng import Rng
from .. import register
from . import rules, text, views
from .state import QuoVadisState

COLOURS = ["Red", "Blue", "Yellow", "Green", "Black"]


class QuoVadis(Game):
    name = "quovadis"
    title = "Quo Vadis"
    min_players = 3
    max_players = 5
    options = rules.OPTIONS
    free_actions = frozenset({"pay"})
    state_type = QuoVadisState
    flow = rules.FLOW
    max_actions = 5_000

    def setup(self, players: int, rng: Rng, options: dict[str, Any]) -> QuoVadisState:
        return rules.setup(players, rng, options)

    def pending(self, state: QuoVadisState) -> list[int]:
        return rules.pending(state)

    def legal_actions(self, state: QuoVadisState, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def perform(self, state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
        return rules.perform(state, action)

    def result(self, state: QuoVadisState) -> Result | None:
        return rules.result(state)

    def view(self, state: QuoVadisState, seat: int) -> dict[str, Any]:
        return views.view(state, seat)

    def public_view(self, state: QuoVadisState) -> dict[str, Any]:
        return views.public_view(state)

    def seat_names(self, players: int) -> list[str]:
        return COLOURS[:players]

    def redeal(self, state: QuoVadisState, seat: int, rng: Rng) -> QuoVadisState:
        return rules.redeal(state, seat, rng)

    def check_invariants(self, state: QuoVadisState) -> None:
        rules.check_invariants(state)

    def public_prompt(self, view: dict[str, Any], names: Sequence[str]) -> Prompt:
        return text.prompt(view, names)

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


GAME = register(QuoVadis())
