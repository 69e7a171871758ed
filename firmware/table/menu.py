"""A seat's menu, built from its legal actions alone.

Actions are flat records (`{"seat": 1, "do": "attack", "slot": 0, "target": 2,
"target_slot": 1}`); the menu asks for one field at a time, in the order the
record lists them, and skips any field with a single possible value. So a new
game needs no menu code: only labels for its fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Action = dict[str, Any]


@dataclass(eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Level:
    """The choice the seat faces now: which field, its possible values, the cursor."""

    key: str
    values: list[Any]
    chosen: dict[str, Any]
    complete: Action | None = None  # set when a single action remains: choosing it submits


@dataclass(eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Menu:
    """Cursor and chosen fields of one seat; `level()` recomputes from the current legal actions.

    Kinds of action in `confirm` (those a seat could regret and not take back
    alone, such as handing a laurel over) ask once more before they are made.
    """

    path: list[tuple[str, Any]] = field(default_factory=list)
    cursor: int = 0
    confirm: frozenset[str] = frozenset()
    confirming: Action | None = None
    # The last level worked out, with the actions list, path and confirming it was worked out for:
    # a press asks for it more than once (to move or choose, then to draw the face), and a level
    # walks every legal action.
    _last: tuple[Any, ...] = field(default=(), repr=False)

    def reset(self) -> None:
        self.path.clear()
        self.cursor = 0
        self.confirming = None

    def candidates(self, actions: list[Action]) -> list[Action]:
        """The actions that agree with every field chosen so far (a press walks this on every level)."""
        found = actions
        for key, value in self.path:
            found = [a for a in found if a.get(key) == value]
        return found if self.path else list(actions)

    def level(self, actions: list[Action]) -> Level | None:
        """Return what to choose next, or None when there is nothing to choose.

        The cursor is kept on one of its values: the choices may have shrunk under
        it (a table menu's page, once another seat's question is gone, offers Close alone).
        """
        last = self._last
        if last and last[0] is actions and last[1] == self.path and last[2] is self.confirming:
            level = last[3]
        else:
            level = self._level(actions)
            self._last = (actions, list(self.path), self.confirming, level)
        if level is not None:
            self.cursor %= len(level.values)
        return level

    def _level(self, actions: list[Action]) -> Level | None:
        if not actions:
            return None
        if self.confirming is not None:
            if self.confirming in actions:
                return Level("confirm", [True], dict(self.confirming))
            self.reset()  # the action is no longer open: start again
        found = self.candidates(actions)
        if not found:  # the actions changed under a half-made choice: start again
            self.reset()
            found = actions
        chosen = dict(self.path)
        if len(found) == 1:
            return Level("do", [found[0]["do"]], chosen, complete=found[0])
        for key in found[0]:
            if key == "seat" or key in chosen:
                continue
            values = _distinct([action.get(key) for action in found])
            if len(values) > 1:
                return Level(key, values, chosen)
            chosen[key] = values[0]
        return Level("do", [found[0]["do"]], chosen, complete=found[0])  # duplicates: take the first

    def move(self, actions: list[Action], step: int) -> None:
        level = self.level(actions)
        if level is not None and level.values:
            self.cursor = (self.cursor + step) % len(level.values)

    def choose(self, actions: list[Action]) -> Action | None:
        """Take the value under the cursor; return the action once it is complete."""
        level = self.level(actions)
        if level is None:
            return None
        if self.confirming is not None:
            action = self.confirming
            self.reset()
            return action
        if level.complete is not None:
            return self._made(level.complete)
        self.path.append((level.key, level.values[self.cursor]))
        self.cursor = 0
        remaining = self.candidates(actions)
        if len(remaining) == 1:
            return self._made(remaining[0])
        return None

    def _made(self, action: Action) -> Action | None:
        """A finished choice: made at once, or first asked again if its kind needs confirming."""
        self.reset()
        if action["do"] in self.confirm:
            self.confirming = action
            return None
        return action

    def back(self) -> bool:
        """Undo the last choice; return False when there was none."""
        if self.confirming is not None:
            self.confirming = None
            return True
        if not self.path:
            return False
        self.path.pop()
        self.cursor = 0
        return True


def _distinct(values: list[Any]) -> list[Any]:
    """The values in first-seen order, each once (by equality, as ``in`` on a list compares)."""
    try:
        return list(dict.fromkeys(values))
    except TypeError:  # an unhashable value (a list of cards): compare one by one
        distinct: list[Any] = []
        for value in values:
            if value not in distinct:
                distinct.append(value)
        return distinct
