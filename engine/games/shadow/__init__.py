"""In the Shadow of the Emperor (帝位背后, Im Schatten des Kaisers): 2–4 noble families vie for the crown.

The companion keeps the thalers, the victory points, the cards bought and the
whole board, walks the table through the eight phases of five rounds, and
says what to change on the physical board. Rules: `rules.py` (the flow),
`phases.py` (each phase's work), `decisions.py` (what seats decide),
`effects.py` (cards and privileges), `board.py` (places and influence);
views: `views.py`; words: `text.py`; the facts: `board.toml`, `cards.toml`,
`privileges.toml`; hand-built positions for tests: `position.py`.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Action, Game, Prompt, Result
from ...rng import Rng
from .. import register
from . import rules, text, views
from .data import BOARD
from .state import ShadowState


class Shadow(Game):
    name = "shadow"
    title = "In the Shadow of the Emperor"
    min_players = 2
    max_players = 4
    options = rules.OPTIONS
    state_type = ShadowState
    flow = rules.FLOW
    max_actions = 1000  # a random 4-player game takes 100-250; every paid action costs a thaler

    def setup(self, players: int, rng: Rng, options: dict[str, Any]) -> ShadowState:
        return rules.setup(players, rng, options)

    def pending(self, state: ShadowState) -> list[int]:
        return rules.pending(state)

    def legal_actions(self, state: ShadowState, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def perform(self, state: ShadowState, action: Action) -> list[dict[str, Any]]:
        return rules.perform(state, action)

    def result(self, state: ShadowState) -> Result | None:
        return rules.result(state)

    def view(self, state: ShadowState, seat: int) -> dict[str, Any]:
        return views.view(state, seat)

    def public_view(self, state: ShadowState) -> dict[str, Any]:
        return views.public_view(state)

    def seat_names(self, players: int) -> list[str]:
        return list(BOARD.colours[:players])

    def redeal(self, state: ShadowState, seat: int, rng: Rng) -> ShadowState:
        return rules.redeal(state, seat, rng)

    def check_invariants(self, state: ShadowState) -> None:
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


GAME = register(Shadow())
