"""Hand-laid Shadow positions for tests and demonstrations.

`position` builds a match whose board, thalers and cards are given, then
enters a phase as the flow would. Pieces are written short: "B1/45" is seat
1's single Baron aged 45, "C0/35" seat 0's Couple aged 35, "K2" a knight of
seat 2; a city is its owner's seat, or EMPIRE. Supplies are recounted from
the board, so every piece stays accounted for. A hand-laid match does not
replay: its action list starts empty.
"""

from __future__ import annotations

from typing import Any

from ...match import Match
from .board import on_board
from .data import BOARD, CARDS
from .rules import FLOW, _enter
from .state import EMPIRE, Piece, ShadowState

__all__ = ["EMPIRE", "piece", "position", "enter"]


def piece(code: str) -> Piece:
    """'B1/45' -> seat 1's Baron of 45; 'C0/35' -> a Couple; 'K2' -> seat 2's knight."""
    kind = {"B": "baron", "C": "couple", "K": "knight"}[code[0]]
    if kind == "knight":
        return Piece("knight", int(code[1:]))
    owner, age = code[1:].split("/")
    return Piece(kind, int(owner), int(age))


def position(players: int = 4, *, phase: str = "actions", round: int = 2, emperor: int = 0,
             board: dict[str, dict[str, Any]] | None = None, throne: str | None = None,
             thalers: dict[int, int] | None = None, cards: dict[int, list[str]] | None = None,
             vp: dict[int, int] | None = None, options: dict[str, Any] | None = None) -> Match:
    """A match at the start of `phase` in `round`, with exactly the given board.

    `board` maps an electorate id to any of: "elector" (a piece code),
    "spaces" and "castles" (lists of piece codes or None), "cities" (list of
    seats, EMPIRE or None). Every other place is empty.
    """
    match = Match.new("shadow", players, seed=0, options={"start_seat": emperor, **(options or {})})
    state = match.state
    clear(state)
    state.throne = piece(throne) if throne else None
    for eid, spec in (board or {}).items():
        e = next(x for x in state.electorates if x.id == eid)
        e.elector = piece(spec["elector"]) if spec.get("elector") else None
        for i, code in enumerate(spec.get("spaces", [])):
            e.spaces[i] = piece(code) if code else None
        for i, code in enumerate(spec.get("castles", [])):
            e.castles[i] = piece(code) if code else None
        for i, owner in enumerate(spec.get("cities", [])):
            e.cities[i] = owner
    for seat, amount in (thalers or {}).items():
        state.seats[seat].thalers = amount
    for seat, held in (cards or {}).items():
        state.seats[seat].cards = list(held)
        for card in held:
            state.stacks[card] -= 1
    for seat, amount in (vp or {}).items():
        state.seats[seat].vp = amount
        state.seats[seat].vp_from = {"emperor": amount} if amount else {}
    recount(state)
    state.round = round
    enter(match, phase)
    return match


def clear(state: ShadowState) -> None:
    state.throne = None
    for e in state.electorates:
        e.elector = None
        e.spaces = [None] * len(e.spaces)
        e.castles = [None] * len(e.castles)
        e.cities = [None] * len(e.cities)
        e.used = False
    state.tasks = []
    state.stacks = {c.id: c.copies[state.players] for c in CARDS.values()}


def recount(state: ShadowState) -> None:
    """Every piece not on the board is in its owner's supply."""
    pieces = BOARD.pieces
    for seat, player in enumerate(state.seats):
        placed = on_board(state, seat)
        player.aristocrats = pieces["aristocrats"] - placed["aristocrats"]
        player.knights = pieces["knights"] - placed["knights"]
        player.cities = pieces["cities"] - placed["cities"]
    empire = sum(1 for e in state.electorates for o in e.cities if o == EMPIRE)
    state.empire_supply = pieces["empire_cities"] - empire


def enter(match: Match, phase: str) -> None:
    """Start `phase` as the flow would, then settle; the match's action list starts empty."""
    state = match.state
    state.phase = phase
    state.tasks = []
    state.news = []
    _enter(state)
    FLOW.settle(state)
    state.changes, state.news = state.news, []
    match.actions.clear()
