"""What each seat may know of a Tennō state, and what everyone may know.

Public: every row's occupied slots and what was revealed there and still
holds, hand and prisoner-pile sizes (never a pile's contents, not even to its
owner), this turn's fights once revealed, the discard (an option), who peeked
where, and the last action's events with their physical steps (a card laid
face down is told without its value). Private to a seat: its own row and hand, and the peeks it made.
"""

from __future__ import annotations

from typing import Any

from .rules import current_fight, pending, result
from .state import Fight, TennoState


def _fight_public(fight: Fight) -> dict[str, Any]:
    record: dict[str, Any] = {
        "attacker": fight.attacker, "slot": fight.slot, "attack_card": fight.attack_card,
        "defender": fight.defender, "target_slot": fight.target_slot, "outcome": fight.outcome,
    }
    if fight.resolved:  # before that, the defending card is still face down
        record.update(defend_card=fight.defend_card, monk_slot=fight.monk_slot,
                      attack_strength=fight.attack_strength, defend_strength=fight.defend_strength,
                      attacker_lost=fight.attacker_lost, defender_lost=fight.defender_lost,
                      captor=fight.captor)
    return record


def public_view(state: TennoState) -> dict[str, Any]:
    fight = current_fight(state)
    seen: dict[int, set[tuple[int, int]]] = {}  # who peeked at each seat's row, and where (one pass over the peeks)
    for s, other in enumerate(state.seats):
        for p in other.peeks:
            if not p.stale:
                seen.setdefault(p.target, set()).add((s, p.slot))
    players = []
    for seat, player in enumerate(state.seats):
        row = [None if card is None else (player.known[i] if player.known[i] is not None else "?")
               for i, card in enumerate(player.row)]
        players.append({"row": row, "hand": len(player.hand), "captives": len(player.captives),
                        "arranged": player.arranged, "seen_by": [list(x) for x in sorted(seen.get(seat, ()))]})
    view: dict[str, Any] = {
        "game": "tenno",
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "start": state.start,
        "pending": pending(state) if not state.over else [],
        "players": players,
        "fight": _fight_public(fight) if fight else None,
        "fights": [_fight_public(f) for f in state.fights if f.resolved],
        "last_fights": [_fight_public(f) for f in state.last_fights],
        "reward": ({"kind": state.rewards[0].kind, "seat": state.rewards[0].seat,
                    "target": state.rewards[0].target} if state.rewards and state.phase == "reward" else None),
        "discard": ([[t.owner, t.card] for t in state.discard] if state.options["discard_public"]
                    else len(state.discard)),
        "recent": [dict(e) for e in state.recent],
        "over": None,
    }
    outcome = result(state)
    if outcome is not None:
        view["over"] = {"ender": state.ender, **outcome.to_data(),  # its reason: why the game ended
                        "prisoners": [[[t.owner, t.card] for t in p.captives] for p in state.seats]}
    return view


def private_view(state: TennoState, seat: int) -> dict[str, Any]:
    """What only `seat` may know: its own row and hand, and the peeks it made."""
    me = state.seats[seat]
    return {"seat": seat, "me": {
        "row": list(me.row),
        "hand": list(me.hand),
        "captives": len(me.captives),
        "peeks": [{"target": p.target, "slot": p.slot, "card": p.card, "turn": p.turn, "stale": p.stale}
                  for p in me.peeks],
    }}


def view(state: TennoState, seat: int) -> dict[str, Any]:
    return {**public_view(state), **private_view(state, seat)}
