"""What each seat may know of a Shadow game, and what everyone may know.

Public: the whole board, thalers (the track is open), supplies, the cards in
front of each player, the stacks, the phase and whose decision is pending,
who has cast a ballot, and the last action's events with their physical
steps. Private to a seat: its victory points and where they came from
(everyone's, with the `vp_open` option; the events then say who takes VP
cards and why, never how many), and its own ballot until all ballots are
revealed together.
"""

from __future__ import annotations

from typing import Any

from .data import BOARD
from .decisions import pending
from .rules import result
from .state import Piece, ShadowState, Task


def piece(p: Piece | None) -> dict[str, Any] | None:
    return None if p is None else {"kind": p.kind, "owner": p.owner, "age": p.age}


def task(t: Task) -> dict[str, Any]:
    return {"kind": t.kind, "seat": t.seat, "area": t.area, "spot": t.spot, "other": t.other,
            "seats": list(t.seats), "piece": t.piece, "age": t.age}


def public_view(state: ShadowState) -> dict[str, Any]:
    vp_open = state.options["vp_open"]
    election = state.election
    outcome = result(state)
    return {
        "game": "shadow",
        "phase": state.phase,
        "round": state.round,
        "rounds": BOARD.rules["rounds"],
        "emperor": state.emperor,
        "pending": pending(state) if outcome is None else [],
        "task": task(state.tasks[0]) if state.tasks else None,
        "throne": piece(state.throne),
        "electorates": [{"id": e.id, "elector": piece(e.elector), "spaces": [piece(p) for p in e.spaces],
                         "castles": [piece(p) for p in e.castles], "cities": list(e.cities), "used": e.used}
                        for e in state.electorates],
        "empire_supply": state.empire_supply,
        "players": [{"thalers": p.thalers, "vp": p.vp if vp_open else None, "aristocrats": p.aristocrats,
                     "knights": p.knights, "cities": p.cities, "cards": list(p.cards), "copies": list(p.copies),
                     "passed": p.passed, "chip": p.chip} for p in state.seats],
        "stacks": dict(state.stacks),
        "picks": [{"kind": p.kind, "seat": p.seat, "area": p.area} for p in state.picks],
        "contest": ({"area": state.contest.area, "scores": dict(state.contest.scores),
                     "winner": state.contest.winner} if state.contest else None),
        "limbo": piece(state.limbo),
        "voted": sorted(state.ballots),
        "election": ({"emperor": election.emperor, "rival": election.rival, "votes": dict(election.votes),
                      "revealed": dict(election.revealed), "emperor_total": election.emperor_total,
                      "rival_total": election.rival_total, "winner": election.winner} if election else None),
        "changes": [dict(e) for e in state.changes],
        "vp_open": vp_open,
        "over": outcome.to_data() if outcome is not None else None,
    }


def private_view(state: ShadowState, seat: int) -> dict[str, Any]:
    """What only `seat` may know: its victory points, where they came from, and its own ballot."""
    me = state.seats[seat]
    return {"seat": seat, "me": {"vp": me.vp, "vp_from": dict(me.vp_from), "ballot": state.ballots.get(seat)}}


def view(state: ShadowState, seat: int) -> dict[str, Any]:
    return {**public_view(state), **private_view(state, seat)}
