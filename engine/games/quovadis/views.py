"""What each seat may know of a Quo Vadis state, and what everyone may know.

Public: the board (senators, face-up laurels on the diamonds, Caesar), the
bag's size (never its order), the reward supply, each player's unplaced
senators and the number of laurels each holds, the vote in progress (who is
asked and who has answered, never how until all have), and the last
action's public events with their physical steps (a laurel handed over face
down is told without its value). Private to a seat: its own laurels and total, and
its own answer to a vote in progress.
"""

from __future__ import annotations

from typing import Any

from .rules import SENATE, laurel_total, pending, result
from .state import QuoVadisState


def public_view(state: QuoVadisState) -> dict[str, Any]:
    vote = state.vote
    view: dict[str, Any] = {
        "game": "quovadis",
        "phase": state.phase,
        "turn": state.turn,
        "played": state.played,
        "active": state.active,
        "pending": pending(state),
        "committees": {c: list(owners) for c, owners in state.committees.items()},
        "senate": list(state.committees[SENATE]),
        "diamonds": dict(state.diamonds),
        "caesar": state.caesar,
        "bag": len(state.bag),
        "supply": state.supply,
        "players": [{"reserve": p.reserve, "laurels": len(p.laurels)} for p in state.seats],
        "vote": ({"mover": vote.mover, "committee": vote.committee, "path": vote.path, "voters": list(vote.voters),
                  "answered": sorted(vote.answers),
                  "answers": ({str(s): a for s, a in sorted(vote.answers.items())}
                              if state.options["open_answers"] else None)} if vote is not None else None),
        "payout": {"left": state.payout_left, "backers": {str(s): n for s, n in state.payout.items()}}
        if state.payout_left else None,
        "bonus": state.bonus,
        "recent": list(state.recent),
        "retry": state.retry,
        "revealed": list(state.revealed),
        "reveal_open": state.reveal_open,
        "over": None,
    }
    outcome = result(state)
    if outcome is not None:
        view["over"] = {**outcome.to_data(), "laurels": [sorted(p.laurels) for p in state.seats]}
    return view


def private_view(state: QuoVadisState, seat: int) -> dict[str, Any]:
    """What only `seat` may know: its own laurels and total, and its own answer to a vote in progress."""
    me = state.seats[seat]
    return {"seat": seat, "me": {"laurels": sorted(me.laurels), "total": laurel_total(me.laurels),
                                 "reserve": me.reserve,
                                 "answer": state.vote.answers.get(seat) if state.vote is not None else None}}


def view(state: QuoVadisState, seat: int) -> dict[str, Any]:
    return {**public_view(state), **private_view(state, seat)}
