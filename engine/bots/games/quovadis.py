"""Quo Vadis for bots: laurels count only for a seat in the Senate; the rule-based player's rules of thumb."""

from __future__ import annotations

from typing import Sequence

from ...game import Action, View
from ...games.quovadis.board import BOARD, LAURELS
from ...games.quovadis.rules import SENATE, laurel_total
from ...games.quovadis.state import QuoVadisState
from ...rng import Rng
from ..choices import kind_first
from ..knowledge import Knowledge


def _steps_to_senate() -> dict[str, int]:
    """Moves from each committee to the Senate, by the shortest route."""
    steps = {SENATE: 0}
    changed = True
    while changed:
        changed = False
        for path in BOARD.paths.values():
            if path.dest in steps and steps.get(path.source, 99) > steps[path.dest] + 1:
                steps[path.source] = steps[path.dest] + 1
                changed = True
    return steps


STEPS = _steps_to_senate()
TOKEN_VALUE = {name: kind.value for name, kind in LAURELS.kinds.items()}
EXITS = {c: tuple(p.id for p in BOARD.exits(c)) for c in BOARD.committees}


class QuoVadisKnowledge(Knowledge):
    temperature = 5.0
    depth = 12
    effort = 0.55
    # What a senator waiting below a laurel is worth, as a share of the richest one it may take next.
    # Measured against the yardstick (96 games a table, seeds 200-295, not the bench's), seat-games beaten
    # at three and five seats: none 52 % and 57 %, 0.5 69 % and 56 %, 1.0 75 % and 70 %, 1.5 83 % and 67 %
    # (but five-seat games won fell from 36 % to 22 %); shared among the committee's senators, 60 % and 56 %.
    waiting = 1.0

    def points(self, state: QuoVadisState) -> Sequence[float]:
        """Laurels, a place in the Senate (only its members can win), senators on their way up, and the
        laurels they wait below: nearly every laurel is taken by a senator already standing under it."""
        climb = [0.0] * state.players
        below = [0.0] * state.players
        for committee, owners in state.committees.items():
            if not owners:
                continue
            up = 4 - STEPS[committee]
            richest = _richest(state, committee)
            for owner in owners:
                climb[owner] += up
                below[owner] += richest
        senate = state.committees[SENATE]
        points = []
        for seat, player in enumerate(state.seats):
            # Only the Senate's members can win: outside it, every seat that fills is a step nearer losing.
            eligible = 6.0 if seat in senate else -1.5 * len(senate)
            points.append(laurel_total(player.laurels) + eligible + 0.4 * climb[seat] + self.waiting * below[seat])
        return points

    def rollout(self, state: QuoVadisState, seat: int, actions: list[Action], rng: Rng) -> Action:
        """Mostly the rule-based player's choice (on the few facts it reads, straight from the world), now and
        then a random one: imagined opponents who rush the Senate and back each other, as real ones do."""
        if rng.below(5) == 0:
            return kind_first(actions, rng)
        view = _facts(state, seat)
        return self.rule_choice(view, self.prune(view, actions) or actions, rng)

    def prune(self, view: View, actions: list[Action]) -> list[Action]:
        """No more votes this turn once a committee said no: a bot cannot talk anyone round, so it moves on."""
        seat = view["seat"]
        refused = any(e.get("type") == "votes" and not e["passed"] and e["seat"] == seat for e in view["recent"])
        if not refused:
            return actions
        return [a for a in actions
                if a["do"] != "advance" or not _needs_vote(view, seat, a["committee"], a["path"])]

    def rule_choice(self, view: View, actions: list[Action], rng: Rng) -> Action:
        """Climb where a laurel waits and no vote is needed; back a move that pays; keep Caesar still."""
        phase = view["phase"]
        seat = view["seat"]
        if phase == "vote":
            return _answer(view, actions)
        if phase == "reward":
            players = view["players"]
            return min(actions, key=lambda a: (players[a["to"]]["laurels"], a["to"]))
        if phase == "bonus":
            return next((a for a in actions if a["do"] == "keep"), actions[0])
        scored = [(_turn_value(view, seat, a), i) for i, a in enumerate(actions)]
        best = max(v for v, _ in scored)
        top = [actions[i] for v, i in scored if v == best]
        return top[rng.below(len(top))]

    def rank(self, view: View, actions: list[Action]) -> list[float] | None:
        if view["phase"] in ("vote", "reward", "bonus"):
            return None
        return [_turn_value(view, view["seat"], a) for a in actions]


def _facts(state: QuoVadisState, seat: int) -> View:
    """The part of a seat's view the rules of thumb read, taken from a world without building the view."""
    vote = state.vote
    return {"phase": state.phase, "seat": seat, "committees": state.committees, "senate": state.committees[SENATE],
            "diamonds": state.diamonds, "caesar": state.caesar, "recent": state.recent,
            "vote": {"path": vote.path} if vote is not None else None,
            "players": [{"laurels": len(p.laurels)} for p in state.seats]}


def _richest(state: QuoVadisState, committee: str) -> int:
    """The richest laurel on a path out of `committee` that a senator may take (Caesar covers his)."""
    diamonds, caesar = state.diamonds, state.caesar
    return max((TOKEN_VALUE[diamonds[p]] for p in EXITS[committee] if diamonds.get(p) and p != caesar), default=0)


def _needs_vote(view: View, seat: int, committee: str, path: str) -> bool:
    present = view["committees"][committee]
    spec = BOARD.committees[committee]
    if spec.seats == 1 or view["caesar"] == path:
        return False
    return present.count(seat) < spec.need


def _turn_value(view: View, seat: int, action: Action) -> float:
    do = action["do"]
    if do == "place":
        return 1.0 + 0.1 * BOARD.committees[action["committee"]].seats
    if do == "advance":
        committee, path = action["committee"], action["path"]
        dest = BOARD.paths[path].dest
        value = 2.0 + (4 - STEPS[dest])
        token = view["diamonds"].get(path, "")
        if token and view["caesar"] != path:
            value += TOKEN_VALUE[token]
        if dest == SENATE and seat not in view["senate"]:
            value += 6.0
        if _needs_vote(view, seat, committee, path):
            value -= 3.0
        return value
    return 0.0  # moving Caesar: only when nothing else is open


def _answer(view: View, actions: list[Action]) -> Action:
    """Let a senator pass unless it takes the last seats of the Senate while this seat is not there."""
    vote = view["vote"]
    seat = view["seat"]
    into_senate = vote is not None and BOARD.paths[vote["path"]].dest == SENATE
    refuse = into_senate and seat not in view["senate"] and len(view["senate"]) >= 3
    wanted = "refuse" if refuse else "support"
    return next((a for a in actions if a["do"] == wanted), actions[0])
