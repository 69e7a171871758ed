"""The real table as data: the steps that change it, and a model of what lies on it.

A step is one change of a real component, told to the players. A card,
token, marker or tile (`what`, whose: `owner`) goes from one place to
another (`src`, `dst`: short lists such as ``["row", 0, 2]``; ``["box"]``
is out of the game), lying one way before and another after (`face`:
"up", "down", a tile's side, "" when it has none) and showing one value
before and another after (`value`: which card, a tile's age, a marker's
figure). `count` alike components move together. Where `src` is `dst` the
component stays put and is turned, flipped or set to its new value.

A step the table does not see whole (a card laid face down from a hand, a
laurel handed over face down, hidden victory points) is `hidden`: its
public form drops the value, and the owner's own screen names it.

The rules record each step where they change the component (`tell`): the
state keeps the last action's steps whole, and the public event that
caused them carries their public form, which the game's words render. Each
game projects its state onto a `Table` of its own (`Game.physical`); the
tests apply every step to a `Table` and check after every action, undo
included (`inverse`), that the two are equal, so a change that reaches the
real table without a step cannot pass unnoticed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Sequence

Move = dict[str, Any]
BOX = ["box"]


def step(what: str, owner: int = -1, src: Sequence[Any] = BOX, dst: Sequence[Any] = BOX,
         face: Sequence[str] = ("", ""), value: Sequence[Any] = (None, None), count: int = 1,
         hidden: bool = False) -> Move:
    """One physical step as a JSON-safe record (see the module's docstring for the fields)."""
    return {"what": what, "owner": owner, "src": list(src), "dst": list(dst), "face": list(face),
            "value": list(value), "count": count, "hidden": hidden}


def turn(what: str, owner: int, place: Sequence[Any], face: Sequence[str] = ("", ""),
         value: Sequence[Any] = (None, None), count: int = 1, hidden: bool = False) -> Move:
    """A component that stays where it is and is flipped, turned or set to a new value."""
    return step(what, owner, place, place, face, value, count, hidden)


def public(s: Move) -> Move:
    """What the whole table may be told of a step: a hidden step without its value; a step the
    table sees whole is itself (a step is never changed once told, so the state's record of it
    and the event's can be the one record)."""
    if not s["hidden"]:
        return s
    return {**s, "value": [None, None]}


def inverse(steps: Iterable[Move]) -> list[Move]:
    """The steps that take `steps` back: in reverse order, each from where it went back to where
    it came from, turned back to how it lay and what it showed (`back` says so to the words)."""
    return [{**s, "src": list(s["dst"]), "dst": list(s["src"]), "face": s["face"][::-1],
             "value": s["value"][::-1], "back": not s.get("back", False)} for s in reversed(list(steps))]


def tell(state: Any, event: dict[str, Any], *steps: Move) -> dict[str, Any]:
    """Record `steps` as part of the action being made: whole in the state, public in `event`."""
    state.moves.extend(steps)
    told = event.get("moves")
    if told is None:
        told = event["moves"] = []
    for s in steps:
        told.append(s if not s["hidden"] else {**s, "value": [None, None]})  # `public`, written out
    return event


Made = tuple[Move, Move]  # a step and its public form


def made(s: Move) -> Made:
    """A step made once with its public form, for an action that tells the very same step again and
    again (a payment, Caesar's move): `tell_made` then builds and copies nothing."""
    return s, public(s)


def tell_made(state: Any, event: dict[str, Any], step_made: Made) -> dict[str, Any]:
    """`tell` of one step made once (`made`): whole in the state, public in `event`."""
    whole, told = step_made
    state.moves.append(whole)
    moves = event.get("moves")
    if moves is None:
        event["moves"] = [told]
    else:
        moves.append(told)
    return event


def event_moves(events: Iterable[dict[str, Any]]) -> list[Move]:
    """The public steps the events carry, in order."""
    return [m for e in events for m in e.get("moves", ())]


def bare(events: Iterable[Any]) -> list[Any]:
    """Events without the steps they carry: what happened alone, to compare it, or to send it
    where the steps go on their own (an item that is no event is kept as it is)."""
    return [{k: v for k, v in e.items() if k != "moves"} if isinstance(e, dict) else e for e in events]


class Drift(AssertionError):
    """A step asked for a component the table does not hold there."""


Thing = tuple[str, int, str, Any]  # what, owner, face, value


def _key(place: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(place)


class Table:
    """What lies where on a physical table: each place holds a count of each kind of component.

    A game builds one from its state (`put`); the tests build another from
    the steps alone (`apply`) and compare them.
    """

    def __init__(self) -> None:
        self.places: dict[tuple[Any, ...], Counter[Thing]] = {}

    def put(self, place: Sequence[Any], what: str, owner: int = -1, face: str = "", value: Any = None,
            count: int = 1) -> None:
        if count > 0 and _key(place) != _key(BOX):
            self.places.setdefault(_key(place), Counter())[(what, owner, face, value)] += count

    def take(self, place: Sequence[Any], what: str, owner: int = -1, face: str = "", value: Any = None,
             count: int = 1) -> None:
        if _key(place) == _key(BOX):
            return
        held = self.places.get(_key(place), Counter())
        thing = (what, owner, face, value)
        if held[thing] < count:
            raise Drift(f"no {count} x {thing} at {list(place)}; it holds {sorted(map(repr, +held))}")
        held[thing] -= count
        if not +held:
            self.places.pop(_key(place), None)

    def apply(self, s: Move) -> None:
        """Make one step on this table; raise Drift when its component is not where it says."""
        self.take(s["src"], s["what"], s["owner"], s["face"][0], s["value"][0], s["count"])
        self.put(s["dst"], s["what"], s["owner"], s["face"][1], s["value"][1], s["count"])

    def contents(self) -> dict[tuple[Any, ...], dict[Thing, int]]:
        return {place: dict(+held) for place, held in self.places.items() if +held}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and self.contents() == other.contents()

    def diff(self, other: "Table") -> list[str]:
        """Where this table and `other` differ, one line per place, for a failing test's message."""
        mine, theirs = self.contents(), other.contents()
        lines = []
        for place in sorted(set(mine) | set(theirs), key=repr):
            a, b = mine.get(place, {}), theirs.get(place, {})
            if a != b:
                lines.append(f"{list(place)}: {sorted(a.items(), key=repr)} != {sorted(b.items(), key=repr)}")
        return lines
