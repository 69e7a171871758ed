"""The table runtime: one loop from button events to engine actions to seat images.

Buttons (gpiozero threads) only `post` events; `step` takes one event off the
queue and handles it on the caller's thread: a menu move, or a finished
choice that becomes an action. An accepted action is journalled (fsynced)
before any screen shows its result; then only the seats whose screen changed
are redrawn. Tests call `step` directly, so nothing waits on a clock.
"""

from __future__ import annotations

import logging
import queue
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from PIL import Image

from engine.errors import IllegalAction
from engine.i18n import _
from engine.match import Match
from hardware.errors import ScreenError
from hardware.events import InputEvent

from .faces import Face, seat_face
from .journal import Journal
from .menu import Menu
from .render import render_face

_log = logging.getLogger(__name__)


class Panel(Protocol):
    """What the runtime needs of a seat's screen (`hardware.Screen` is one).

    A seat that draws for itself (a serial pod) offers `show_face(face)`
    instead, and receives the face's words rather than pixels.
    """

    size: tuple[int, int]

    def show(self, image: Image.Image) -> bool: ...


@dataclass(frozen=True)
class Command:
    """A table command (from the host console or a table menu), queued like a button event."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    reply: Callable[[str], None] | None = None  # told the outcome in words


Listener = Callable[[Match, dict[str, Any] | None, list[dict[str, Any]]], None]


@dataclass
class SeatState:
    menu: Menu = field(default_factory=Menu)
    face: Face | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)  # the legal actions the menu was built on
    notice: str = ""
    degraded: str = ""  # why the screen is failing, "" when it works
    failures: int = 0  # failed draws in a row
    retry_at: float = 0.0  # when a failing screen is tried again (clock seconds)


class Runtime:
    """Drives one match on one table.

    Args:
        match: The game being played.
        screens: One per seat (None for a seat without a screen).
        journal: Where accepted actions are saved, or None (tests, demos without a file).
        listeners: Called after each accepted action with (match, action, public events).
        clock: Seconds, for retrying a failing screen with back-off (tests pass a fake one).
    """

    RETRY_FIRST = 0.5  # seconds before a failing screen is tried again; doubled each failure
    RETRY_MAX = 30.0

    def __init__(self, match: Match, screens: Sequence[Panel | None], journal: Journal | None = None,
                 listeners: Sequence[Listener] = (), clock: Callable[[], float] = time.monotonic) -> None:
        if len(screens) != match.header.players:
            raise ValueError(f"{len(screens)} screens for {match.header.players} seats")
        self.match = match
        self.screens = list(screens)
        self.journal = journal
        self.listeners = list(listeners)
        self.clock = clock
        self.seats = [SeatState() for _ in screens]
        self.events: "queue.Queue[InputEvent | Command]" = queue.Queue()
        self.version = 0  # bumped whenever any seat's face changes
        # Table commands by name; the CLI adds those that need a session (new game, end game).
        self.commands: dict[str, Callable[..., str]] = {"undo": self._undo_command}
        self.refresh()

    # --- input ---------------------------------------------------------------
    def post(self, event: InputEvent | Command) -> None:
        """Queue a button event or a table command; safe from any thread (gpiozero calls it from its own)."""
        self.events.put(event)

    def step(self, timeout: float | None = 0) -> bool:
        """Handle one queued event; return False when none came within `timeout` (None waits)."""
        try:
            event = self.events.get(block=timeout != 0, timeout=timeout or None)
        except queue.Empty:
            return False
        self.handle(event)
        return True

    def drain(self) -> int:
        """Handle every queued event; return how many."""
        count = 0
        while self.step():
            count += 1
        return count

    def handle(self, event: InputEvent | Command) -> None:
        if isinstance(event, Command):
            self.run_command(event)
            return
        if not 0 <= event.seat < len(self.seats):
            _log.warning("event from unknown seat %s ignored", event.seat)
            return
        seat = self.seats[event.seat]
        seat.notice = ""
        actions = self.match.legal_actions(event.seat)
        if event.button == "prev":
            seat.menu.move(actions, -1)
        elif event.button == "next":
            seat.menu.move(actions, +1)
        elif event.gesture == "hold":
            seat.menu.back()
        else:
            action = seat.menu.choose(actions)
            if action is not None:
                self.submit(action)
                return
        self.refresh()

    # --- actions -------------------------------------------------------------
    def submit(self, action: dict[str, Any]) -> bool:
        """Apply, journal, then redraw. A refused action only sets a notice on its seat."""
        seat = action.get("seat") if isinstance(action, dict) else None
        before_state, before_count = self.match.state, len(self.match.actions)
        try:
            events = self.match.apply(action)
        except IllegalAction as err:
            self._notice(seat, str(err))
            return False
        if self.journal is not None:
            try:
                self.journal.append(action)
            except OSError as err:
                # Not saved means not accepted: put the match back as it was.
                self.match.state = before_state
                del self.match.actions[before_count:]
                _log.error("journal write failed: %s", err)
                self._notice(seat, _("Not saved ({error}); try again").format(error=err.strerror or err))
                return False
        for listener in self.listeners:
            listener(self.match, action, events)
        self.refresh()
        return True

    def run_command(self, command: Command) -> str:
        """Carry out a table command and tell its sender the outcome."""
        handler = self.commands.get(command.name)
        if handler is None:
            message = _("Unknown command {name!r}; known: {known}").format(
                name=command.name, known=", ".join(sorted(self.commands)))
        else:
            try:
                message = handler(**command.args)
            except TypeError as err:
                message = _("Bad arguments for {name}: {error}").format(name=command.name, error=err)
        if command.reply is not None:
            command.reply(message)
        return message

    def _undo_command(self) -> str:
        return _("Last action taken back") if self.undo() else _("Nothing to take back")

    def replace_match(self, match: Match, journal: Journal | None) -> None:
        """Play another match on the same seats (a new game); every seat starts afresh."""
        if len(self.seats) != match.header.players:
            raise ValueError(f"{match.header.players} players on a {len(self.seats)}-seat runtime")
        self.match, self.journal = match, journal
        for seat in self.seats:
            seat.menu.reset()
            seat.face = None
            seat.notice = ""
        self.refresh()

    def undo(self) -> bool:
        """Take the last action back: replay without it, journal the undo, redraw every seat.

        Returns False when there is nothing to undo or the undo could not be saved.
        """
        match = self.match
        if not match.actions:
            return False
        again = Match.replay(match.header, match.actions[:-1])
        if self.journal is not None:
            try:
                self.journal.append_undo()
            except OSError as err:
                _log.error("journal write failed: %s", err)
                return False
        self.match = again
        for seat in self.seats:
            seat.menu.reset()
            seat.face = None  # menus may point at choices that no longer exist: redraw all
        for listener in self.listeners:
            listener(self.match, None, [{"type": "undo"}])
        self.refresh()
        return True

    def _notice(self, seat: Any, message: str) -> None:
        _log.info("seat %s: %s", seat, message)
        if isinstance(seat, int) and 0 <= seat < len(self.seats):
            self.seats[seat].notice = message
        self.refresh()

    # --- output --------------------------------------------------------------
    def face(self, seat: int) -> Face:
        """Build the seat's face; a menu whose legal actions changed starts again from the top."""
        match = self.match
        state = self.seats[seat]
        actions = match.legal_actions(seat)
        if actions != state.actions:
            state.menu.reset()
            state.actions = actions
        return seat_face(match.game, match.names, seat, match.view(seat), actions,
                         state.menu, notice=state.notice or self._degraded_note(seat))

    def _degraded_note(self, seat: int) -> str:
        broken = [self.match.names[i] for i, s in enumerate(self.seats) if s.degraded and i != seat]
        return _("{names}: screen fault").format(names=", ".join(broken)) if broken else ""

    def refresh(self) -> None:
        """Redraw the seats whose face changed.

        A screen that fails changes what the other seats say (they note the
        fault), so one more pass follows whenever a seat's fault state changed.
        """
        for _attempt in range(2):
            if not self._redraw():
                break

    def tick(self) -> None:
        """Called when no event came for a while: try failing screens whose back-off is over."""
        if any(seat.degraded for seat in self.seats):
            self.refresh()

    def _redraw(self) -> bool:
        """Draw every changed face once; return whether any seat's fault state changed."""
        faults_changed = False
        now = self.clock()
        for index, seat in enumerate(self.seats):
            face = self.face(index)
            if face == seat.face:
                continue
            screen = self.screens[index]
            if screen is not None and seat.degraded and now < seat.retry_at:
                continue  # do not hammer a broken bus: wait out the back-off
            seat.face = face
            self.version += 1
            if screen is None:
                continue
            was = seat.degraded
            try:
                show_face = getattr(screen, "show_face", None)
                if show_face is not None:
                    show_face(face)
                else:
                    screen.show(render_face(face, screen.size))
                seat.degraded, seat.failures = "", 0
            except ScreenError as err:
                # A broken screen must not stop the game: note it, carry on, try again later.
                seat.degraded = str(err)
                seat.failures += 1
                seat.retry_at = now + min(self.RETRY_MAX, self.RETRY_FIRST * 2 ** (seat.failures - 1))
                seat.face = None  # so the face counts as changed when the retry is due
                if seat.failures == 1:
                    _log.error("seat %d screen: %s", index + 1, err)
            faults_changed |= bool(was) != bool(seat.degraded)
        return faults_changed
