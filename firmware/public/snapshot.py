"""One public snapshot of the table, shared by every public channel.

The match changes in place as actions are applied, so a snapshot is built on
the runtime's thread (as a runtime watcher, after each refresh) and handed to
other threads whole. It holds only what the whole table may know: the public
view, the table prompt and its physical steps, who must decide (and which
seats are bots: the prompt says when it waits for one), the result once the
game is over, and the recent public events in words (a bot's action is
told after "Yellow (bot) plays:").
"""

from __future__ import annotations

import collections
import logging
import threading
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Sequence

from engine.i18n import _, reader_names

from ..table.faces import describe, with_bots
from .colours import seat_colours

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """The public side of the table at one moment."""

    game: str
    title: str
    names: tuple[str, ...]
    header: str  # round, phase, whose turn
    line: str  # the table prompt
    steps: tuple[str, ...]  # what to do on the physical table now
    pending: tuple[int, ...]  # the seats that must decide
    public: dict[str, Any]  # the public view
    result: dict[str, Any] | None  # scores, winners and breakdown once over
    log: tuple[str, ...] = ()  # recent public events in words, oldest first
    serial: int = 0  # grows with every new snapshot
    moves: tuple[dict[str, Any], ...] = ()  # the last action's physical steps as data (engine.physical)
    bots: tuple[int, ...] = ()  # the seats bots play
    noted: int = 0  # lines ever noted; `log[-1]` is line `noted - 1`, so a channel can tell which are new
    actions: int = 0  # actions taken in this game: 0 while it has not begun
    address: str = ""  # the table page's address, while the page is served
    helping: bool = False  # a seat reads the table menu's rules help
    colours: tuple[str, ...] = ()  # each seat's colour, by its untranslated name (`colours.seat_colours`)

    @property
    def over(self) -> bool:
        return self.result is not None


Subscriber = Callable[[Snapshot], None]


class PublicTable:
    """The public story of a match and its latest snapshot.

    Attach it to a runtime (`attach`): it becomes one of its listeners (the
    public events of each accepted action, never the action itself, which may
    be secret) and one of its watchers (a new snapshot after each refresh that
    changed the match or the log). Other threads read `latest()`; a
    subscriber is called with each new snapshot on the runtime's thread, so it
    must only hand it on (queue it, wake a loop).

    Args:
        log_size: How many public events are kept.
        bots: The seats bots play (seat index to level), which the prompt names as such.
    """

    def __init__(self, log_size: int = 50, bots: Mapping[int, str] | None = None) -> None:
        self.bots = dict(bots or {})
        self._log: collections.deque[str] = collections.deque(maxlen=log_size)
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []
        self._runtime: Any = None
        self._match: Any = None
        self._key: tuple[Any, ...] | None = None
        self._latest: Snapshot | None = None
        self._serial = 0
        self._noted = 0  # lines ever noted, so a change of the log alone makes a new snapshot
        self.address = ""  # the table page's address while it is served (`serve_page`)

    def attach(self, runtime: Any) -> "PublicTable":
        """Follow `runtime`: listen to its actions and snapshot after its refreshes."""
        self._runtime = runtime
        self._match = runtime.match
        runtime.listeners.append(self)
        runtime.watchers.append(self.refresh)
        self.refresh()
        return self

    def serve_page(self, address: str) -> None:
        """Say that the table page is served at `address` ("" when it stops); on the runtime's thread."""
        self.address = address
        if self._runtime is not None:
            self.refresh()

    # --- the public story -------------------------------------------------
    def note(self, line: str) -> None:
        """Add a line of the table's own (a start-up message, a saved-game notice)."""
        with self._lock:
            self._log.append(line)
            self._noted += 1

    @property
    def lines(self) -> list[str]:
        """The public events kept, in words, oldest first."""
        with self._lock:
            return list(self._log)

    def __call__(self, match: Any, action: Any, events: Sequence[dict[str, Any]]) -> None:
        """Runtime listener: keep the public events of an accepted action, in words."""
        for event in events:
            try:
                line = describe(match, event)
            except Exception:  # a game's wording must not stop the table
                _log.exception("cannot describe %r", event)
                continue
            self.note(line)

    # --- snapshots ----------------------------------------------------------
    def build(self, match: Any | None = None) -> Snapshot:
        """The public side of `match` (the runtime's) now; call it on the runtime's thread."""
        match = match if match is not None else self._runtime.match
        game, state = match.game, match.state
        if match is not self._match:
            self._match = match
            if not match.actions:
                with self._lock:
                    self._log.clear()  # a new game: the old one's events are history
        # The runtime's, which its seats' views share, when it is of this match; else made here.
        runtime = self._runtime
        public = (runtime.public_view() if runtime is not None and runtime.match is match
                  else game.public_view(state))
        names = reader_names(match.names)  # the public channels read the table's language
        prompt = game.public_prompt(public, names)
        prompt = replace(prompt, line=with_bots(prompt.line, match.pending(), names, self.bots))
        result = match.result()  # the match works it out once per state
        with self._lock:
            log, noted = tuple(self._log), self._noted
        return Snapshot(
            game=game.name, title=_(game.title), names=names,
            header=game.header(public, names), line=prompt.line, steps=tuple(prompt.steps),
            pending=tuple(match.pending()), public=public,
            result=result.to_data() if result is not None else None,
            log=log, serial=self._serial, moves=tuple(prompt.moves), bots=tuple(sorted(self.bots)), noted=noted,
            actions=len(match.actions), address=self.address, helping=self._helping(),
            colours=seat_colours(match.names),
        )

    def _helping(self) -> bool:
        """Whether a seat has the table menu's rules help open (the public screen then shows the page's code)."""
        seats = getattr(self._runtime, "seats", ())
        return any(seat.mode == "info" and seat.info_kind == "help" for seat in seats)

    def refresh(self) -> None:
        """Runtime watcher: make a new snapshot if the match or the log moved, and tell the subscribers."""
        match = self._runtime.match
        key = (id(match), len(match.actions), self._noted, match.is_over, self.address, self._helping())
        if key == self._key and self._latest is not None:
            return
        self._key = key
        self._serial += 1
        snapshot = self.build(match)
        with self._lock:
            self._latest = snapshot
        for subscriber in list(self._subscribers):
            try:
                subscriber(snapshot)
            except Exception:  # one channel's fault must not stop the table or the others
                _log.exception("public subscriber %r failed", subscriber)

    def latest(self) -> Snapshot:
        """The newest snapshot; safe from any thread."""
        with self._lock:
            if self._latest is None:
                raise RuntimeError("PublicTable is not attached to a runtime yet")
            return self._latest

    def subscribe(self, subscriber: Subscriber) -> None:
        """Call `subscriber(snapshot)` with every new snapshot (on the runtime's thread)."""
        self._subscribers.append(subscriber)
