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

from engine.errors import EngineError, IllegalAction
from engine.i18n import _, normalize, reading
from engine.match import Match
from hardware.errors import ScreenError
from hardware.events import InputEvent

from . import garbage, table_menu
from .faces import Face, reader_names, seat_face
from .journal import Journal
from .menu import Menu
from .render import face_pixels, render_face
from .table_menu import Request

_log = logging.getLogger(__name__)


class Panel(Protocol):
    """What the runtime needs of a seat's screen (`hardware.Screen` is one).

    A seat that draws for itself (a serial pod) offers `show_face(face)`
    instead, and receives the face's words rather than pixels. A panel that
    offers `show_pixels(pixels)` (`hardware.Screen` does) is sent the image
    as its bytes (`render.face_pixels`), and no PIL image is made on the way.
    """

    size: tuple[int, int]

    def show(self, image: Image.Image) -> bool: ...


@dataclass(frozen=True, eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Command:
    """A table command (from the host console or a table menu), queued like a button event."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    reply: Callable[[str], None] | None = None  # told the outcome in words


@dataclass(frozen=True, eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class DeviceFault:
    """A device beside the seats (the public screen) fails, or works again (`error` ""), queued like an event.

    Every seat's screen then notes it, as it notes another seat's failing screen.
    """

    device: str  # its name untranslated (N_("Public")): each seat reads it in its own language
    error: str = ""


Listener = Callable[[Match, dict[str, Any] | None, list[dict[str, Any]]], None]


def retry_delay(failures: int) -> float:
    """Seconds before a screen that failed `failures` times in a row is tried again."""
    return min(Runtime.RETRY_MAX, Runtime.RETRY_FIRST * 2 ** (failures - 1))


@dataclass(eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class SeatState:
    menu: Menu = field(default_factory=Menu)
    face: Face | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)  # the legal actions the menu was built on
    notice: str = ""
    degraded: str = ""  # why the screen is failing, "" when it works
    mode: str = ""  # "" for the game, "menu" for the table menu, "info" for a page of scores or help
    table_menu: Menu = field(default_factory=Menu)
    info: list[list[str]] = field(default_factory=list)  # the pages of scores, help or an announcement
    info_title: str = ""
    info_page: int = 0
    info_kind: str = ""  # what the info page shows: "scores", "help", or "" for an announcement
    language: str | None = None  # the seat's own language; None reads the table's
    failures: int = 0  # failed draws in a row
    retry_at: float = 0.0  # when a failing screen is tried again (clock seconds)
    changed: bool = False  # an undo or a new game changed this seat's choices: its next ok only acknowledges
    # The seat's view and the words it gives (header, panel), the match change and the language they are of.
    words: tuple[Any, int, str | None, dict[str, Any], tuple[str, tuple[str, ...]]] | None = None
    # The legal list the match handed out and the game menu's part of it (`Runtime._game_actions`).
    game_actions: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None


def _menu_moved(menu: Menu) -> bool:
    """Whether a seat has started a choice (moved the cursor, picked a field, or is asked to confirm)."""
    return bool(menu.path) or menu.cursor != 0 or menu.confirming is not None


class Runtime:
    """Drives one match on one table.

    Args:
        match: The game being played.
        screens: One per seat (None for a seat without a screen).
        journal: Where accepted actions are saved, or None (tests, demos without a file).
        listeners: Called after each accepted action with (match, action, public events).
        clock: Seconds, for retrying a failing screen with back-off (tests pass a fake one).
        languages: Each seat's own language by seat (a resumed game's, from its journal); the
            others read the table's.
    """

    RETRY_FIRST = 0.5  # seconds before a failing screen is tried again; doubled each failure
    RETRY_MAX = 30.0

    def __init__(self, match: Match, screens: Sequence[Panel | None], journal: Journal | None = None,
                 listeners: Sequence[Listener] = (), clock: Callable[[], float] = time.monotonic,
                 languages: dict[int, str] | None = None) -> None:
        if len(screens) != match.header.players:
            raise ValueError(f"{len(screens)} screens for {match.header.players} seats")
        self.match = match
        self.screens = list(screens)
        self.journal = journal
        self.listeners = list(listeners)
        self.clock = clock
        self.seats = [SeatState() for _ in screens]
        for seat in self.seats:
            seat.menu.confirm = match.game.confirm_actions
        for index, lang in (languages or {}).items():
            if 0 <= index < len(self.seats):
                self.seats[index].language = normalize(lang)
        # C-made and lock-free to read when empty: the runtime asks it twice on every press.
        self.events: "queue.SimpleQueue[InputEvent | Command | DeviceFault]" = queue.SimpleQueue()
        self.faults: dict[str, str] = {}  # failing devices beside the seats, by untranslated name
        self.version = 0  # bumped whenever any seat's face changes
        self._public: tuple[Any, int, dict[str, Any]] | None = None  # the match, its change, its public view (`_view`)
        # Table commands by name; the CLI adds those that need a session (new game, end game).
        self.commands: dict[str, Callable[..., str]] = {"undo": self._undo_command}
        self.request: Request | None = None  # an undo or end asked for at the table, awaiting a yes
        self.page_address = ""  # the table page's address while it is served: the rules help ends with it
        self.save_fault = ""  # why the last journal write failed (the table's words), "" once a write succeeds
        self._save_error = ""  # the same fault's cause, for each seat's words
        self._replying: Callable[[str], None] | None = None  # the reply of the command being run
        self.banner = ""  # the word every seat was told at the start (`tell_every_seat`), until an action
        # Called on this runtime's thread after every refresh: the one safe moment for another
        # thread's helper (the host console) to take what it needs of the match.
        self.watchers: list[Callable[[], None]] = []
        garbage.take_over()
        self.refresh()

    # --- input ---------------------------------------------------------------
    def post(self, event: InputEvent | Command | DeviceFault) -> None:
        """Queue a button event or a table command; safe from any thread (gpiozero calls it from its own)."""
        self.events.put(event)

    def step(self, timeout: float | None = 0) -> bool:
        """Handle one queued event; return False when none came within `timeout` (None waits).

        When no event waits, the garbage due is collected first (`garbage`),
        so that a collection does not fall in the middle of a press.
        """
        try:
            event = self.events.get_nowait()
        except queue.Empty:
            garbage.while_idle()
            if timeout == 0:
                return False
            try:
                event = self.events.get(timeout=timeout)
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

    def handle(self, event: InputEvent | Command | DeviceFault) -> None:
        if isinstance(event, Command):
            self.run_command(event)
            self._lay_ahead()  # an undo, a new game or a language may have been saved
            return
        if isinstance(event, DeviceFault):
            if event.error:
                self.faults[event.device] = event.error
            else:
                self.faults.pop(event.device, None)
            self.refresh()
            return
        if not 0 <= event.seat < len(self.seats):
            _log.warning("event from unknown seat %s ignored", event.seat)
            return
        with self._reading(event.seat):
            self._handle_press(event)
        self._lay_ahead()

    def _reading(self, index: int | None) -> Any:
        """Make words for seat `index` in its own language (the table's for None or a seat without one)."""
        seat = self.seats[index] if isinstance(index, int) and 0 <= index < len(self.seats) else None
        return reading(seat.language if seat is not None else None)

    def _handle_press(self, event: InputEvent) -> None:
        seat = self.seats[event.seat]
        seat.notice = ""
        if self.request is not None or seat.mode:
            # Walking the table menu or turning an info page changes that seat's face alone.
            alone = self._handle_table(event)
            if alone is not None:  # None: already redrawn (an action submitted, a language set)
                self.refresh(only=event.seat if alone else None)
            return
        if seat.changed:
            # The seat's choices changed under it (an undo, a new game): its first ok only says "seen".
            seat.changed = False
            if event.button == "ok" and event.gesture != "hold":
                self.refresh(only=event.seat)
                return
        actions = self._game_actions(event.seat)
        if event.button == "prev":
            seat.menu.move(actions, -1)
        elif event.button == "next":
            seat.menu.move(actions, +1)
        elif event.gesture == "hold":
            if not seat.menu.back():  # at the top already: holding ok opens the table menu
                seat.mode = "menu"
                seat.table_menu.reset()
        else:
            action = seat.menu.choose(actions)
            if action is not None:
                self.submit(action)
                return
        # Moving along a menu changes that seat's face alone: leave the others be.
        self.refresh(only=event.seat)

    def _game_actions(self, index: int) -> list[dict[str, Any]]:
        """The seat's legal actions its game menu offers: all but the demands made from the table menu.

        The list is kept while the match hands out the same legal list, so the
        menu knows it again (it keeps its level for the list it was given).
        """
        demands = self.match.game.table_actions
        actions = self.match.legal_actions(index)
        if not demands:
            return actions
        seat = self.seats[index]
        kept = seat.game_actions
        if kept is None or kept[0] is not actions:
            kept = seat.game_actions = (actions, [a for a in actions if a["do"] not in demands])
        return kept[1]

    # --- the table menu ------------------------------------------------------
    def _table_choices(self, index: int) -> list[dict[str, Any]]:
        if self.request is not None:
            if index == self.request.by:
                return table_menu.pick(table_menu.WAIT)
            return table_menu.pick(table_menu.AGREED if index in self.request.agreed else table_menu.ASK)
        if self.seats[index].mode == "info":
            return table_menu.pick(table_menu.INFO)
        demands = self.match.game.table_actions
        offered = [a for a in self.match.legal_actions(index) if a["do"] in demands] if demands else []
        return offered + table_menu.pick(table_menu.MENU)  # a demand the game offers now comes first

    def _handle_table(self, event: InputEvent) -> bool | None:
        """A press on a seat in its table menu, on an info page or asked a question; return
        whether that seat's face is all it changed, or None when the faces are already redrawn."""
        index, seat = event.seat, self.seats[event.seat]
        if seat.mode == "info" and self.request is None and event.button in ("prev", "next"):
            step = -1 if event.button == "prev" else 1
            seat.info_page = max(0, min(len(seat.info) - 1, seat.info_page + step))
            return True
        choices = self._table_choices(index)
        if event.button in ("prev", "next"):
            seat.table_menu.move(choices, -1 if event.button == "prev" else 1)
            return True
        if event.gesture == "hold":
            if self.request is None and not seat.table_menu.back():
                seat.mode = ""
            return True
        chosen = seat.table_menu.choose(choices)
        if chosen is None:
            return True  # into a submenu, or asked to confirm
        if chosen["do"] in self.match.game.table_actions:
            seat.mode = ""
            self.submit(chosen)  # redraws every seat itself
            return None
        return self._table_action(index, chosen["do"], chosen.get("lang"))

    def announce(self, title: str, lines: Sequence[str]) -> None:
        """Show every seat a page of words (what happened at start-up); ok closes it."""
        pages = table_menu.paginate(lines)
        for seat in self.seats:
            seat.mode, seat.info_title, seat.info, seat.info_page = "info", title, pages, 0
            seat.info_kind = ""
            seat.table_menu.reset()
        self.refresh()

    def tell_every_seat(self, notice: str) -> None:
        """A short word for every seat (how the game began), shown until that seat's next press or the
        next action: nobody has to dismiss it."""
        self.banner = notice
        for seat in self.seats:
            seat.notice = notice
        self.refresh()

    def _table_action(self, index: int, do: str, lang: str | None = None) -> bool | None:
        """Carry out a table-menu item; return whether seat `index`'s face is all it changed,
        or None when the item already redrew the faces."""
        seat = self.seats[index]
        if do == "language":
            seat.mode = ""
            self.set_language(index, None if lang == table_menu.TABLE_LANGUAGE else lang)  # redraws the seat
            return None
        if do in ("close", "cancel"):
            seat.mode = ""
            if self.request is not None and self.request.by == index:
                self.request = None  # every seat was asked: every seat hears the question is gone
                return False
            return True
        if do in ("scores", "help"):
            view = self.match.view(index)
            game = self.match.game
            seat.mode, seat.info_page = "info", 0
            seat.info_title, seat.info_kind = (_("Scores") if do == "scores" else _("Rules")), do
            names = reader_names(self.match.names)
            lines = game.standings(view, names) if do == "scores" else game.rules_help(view, names)
            if do == "help" and self.page_address:
                # The address as a browser takes it, without "http://", so it fits a seat's line whole.
                where = self.page_address.removeprefix("http://").rstrip("/")
                lines = [*lines, _("Table page: {url}").format(url=where)]
            seat.info = table_menu.paginate(lines)
            return True
        if do in ("undo", "end"):
            if do == "end" and "end_game" not in self.commands:
                seat.notice = _("Ending a game is not possible here")
                seat.mode = ""
                return True
            self.request = self._new_request(do, index)
            seat.mode = ""
            return False
        request = self.request
        assert request is not None
        if do == "refuse":
            self.request = None
            with self._reading(request.by):
                self._tell_asker(request, _("{name} said no").format(name=reader_names(self.match.names)[index]))
            return False
        self._agreed(index)
        return False

    def agree(self, index: int) -> None:
        """Seat `index` says yes to the table's request, as a bot seat does at once; then redraw."""
        if self.request is not None and index != self.request.by:
            self._agreed(index)
        self.refresh()

    def set_language(self, index: int, lang: str | None) -> None:
        """Seat `index` reads `lang` from now on (None: the table's); kept in the journal, then redrawn.

        The choice is a journal record of its own, not an action: the game
        replays the same whatever each seat reads.
        """
        if not 0 <= index < len(self.seats):
            return
        seat = self.seats[index]
        seat.language = normalize(lang) if lang else None
        if self.journal is not None:  # None too: a restarted table must not give back the old choice
            try:
                self.journal.append_language(index, seat.language)
            except OSError as err:
                _log.error("journal write failed: %s", err)
                with self._reading(index):
                    seat.notice = _("Not saved ({error}); try again").format(error=err.strerror or err)
        seat.face = None
        self.refresh(only=index)

    def _agreed(self, index: int) -> None:
        request = self.request
        assert request is not None
        request.agreed.add(index)
        if not request.settled(len(self.seats)):
            return
        self.request = None
        with self._reading(request.by):  # the asker's words (the table's for the console)
            if request.kind == "undo":
                self._tell_asker(request, self._undo_outcome(request))
            else:
                self._tell_asker(request, self._call("end_game", {}))

    def _new_request(self, kind: str, by: int | None, reply: Callable[[str], None] | None = None) -> Request:
        """Ask the table. An undo names the action and its seat, whose yes it needs too; taking back
        an action that showed something hidden needs every seat's yes."""
        if kind != "undo" or not self.match.actions:
            return table_menu.Request(kind, by, reply=reply)
        last = self.match.actions[-1]  # accepted by the match, so it names a seat of this table
        return table_menu.Request(kind, by, everyone=last.get("do") in self.match.game.revealing_actions,
                                  reply=reply, owner=last["seat"], action=dict(last))

    def _undoing(self, request: Request, reader: int | None = None) -> str:
        """What `request` takes back, in the words being made now: "Green's row arrangement"."""
        what = self.match.game.action_title(request.action) if request.action is not None else ""
        return table_menu.taken_back_what(request, what, reader_names(self.match.names), reader)

    def _tell_asker(self, request: Request, message: str) -> None:
        if request.by is not None:
            self.seats[request.by].notice = message
        if request.reply is not None:
            request.reply(message)

    # --- actions -------------------------------------------------------------
    def submit(self, action: dict[str, Any]) -> bool:
        """Apply, journal, then redraw. A refused action only sets a notice on its seat.

        Once the action is saved, the seat that made it sees its answer
        first, then the other seats; the listeners (the public display, the
        console) and the watchers follow.
        """
        seat = action.get("seat") if isinstance(action, dict) else None
        try:
            events = self.match.apply(action)
        except IllegalAction as err:
            with self._reading(seat):
                message = err.render()  # in the words of the seat it is shown to
            self._notice(seat, message)
            return False
        if self.journal is not None:
            try:
                self.journal.append(action)
            except OSError as err:
                # Not saved means not accepted: put the match back as it was.
                self.match.take_back()
                self._save_failed(err)
                return False
        self.save_fault = ""
        self._forget_banner()
        # The match accepted the action, so its seat is one of the table's.
        self._redraw([seat])  # a change of its fault state shows on the others in the redraw below
        self._redraw_seats()  # then every other seat's, before the public channels' words
        for listener in self.listeners:
            listener(self.match, action, events)
        for watcher in self.watchers:
            watcher()
        self._lay_ahead()
        return True

    def _lay_ahead(self) -> None:
        """Once the screens are drawn, let the journal lay zeros ahead of its records (see `Journal.lay_ahead`)."""
        if self.journal is not None:
            self.journal.lay_ahead()

    def _forget_banner(self) -> None:
        """Once the game moves on, how it began is no longer news on any seat."""
        if self.banner:
            for state in self.seats:
                if state.notice == self.banner:
                    state.notice = ""
            self.banner = ""

    def run_command(self, command: Command) -> str:
        """Carry out a table command and tell its sender the outcome."""
        self._replying = command.reply
        try:
            return self._run_command(command)
        finally:
            self._replying = None

    def _run_command(self, command: Command) -> str:
        message = self._call(command.name, command.args)
        if command.reply is not None:
            command.reply(message)
        return message

    def _call(self, name: str, args: dict[str, Any]) -> str:
        """Run table command `name` and return its outcome in words; a refusal never stops the table."""
        handler = self.commands.get(name)
        if handler is None:
            return _("Unknown command {name!r}; known: {known}").format(
                name=name, known=", ".join(sorted(self.commands)))
        try:
            return handler(**args)
        except TypeError as err:
            return _("Bad arguments for {name}: {error}").format(name=name, error=err)
        except (EngineError, OSError) as err:
            # A refused command (an unknown game, a full disk) must not stop the table.
            return _("{name} failed: {error}").format(
                name=name, error=err.render() if isinstance(err, EngineError) else err)

    def _undo_command(self) -> str:
        """The console's undo: a request the seats answer, as when a seat asks at the table."""
        if not self.match.actions:
            return _("Nothing to take back")
        if self.request is not None:
            return _("The table is already answering another request; try again after it")
        told: list[str] = []
        request = self.request = self._new_request("undo", None, reply=told.append)
        self.refresh()  # the question reaches the seats; bot seats may settle it within this redraw
        if told:
            return told[-1]  # settled already: the outcome is the reply
        request.reply = self._replying
        what = self._undoing(request)
        if request.everyone:
            return _("Asked the table: every seat must agree to take back {what}").format(what=what)
        return _("Asked the table: {who} must agree to take back {what}").format(
            who=reader_names(self.match.names)[request.owner], what=what)

    def _undo_outcome(self, request: Request) -> str:
        try:
            done = self.undo()
        except OSError as err:
            return _("Not saved ({error}): nothing was taken back").format(error=err.strerror or err)
        if not done:
            return _("Nothing to take back")
        return _("Taken back: {what}").format(what=self._undoing(request, request.by))

    def _save_failed(self, err: OSError) -> None:
        """A journal write failed: every seat says so, and nothing is accepted until a write succeeds."""
        _log.error("journal write failed: %s", err)
        self._save_error = str(err.strerror or err)
        self.save_fault = self._save_note()
        self.refresh()

    def _save_note(self) -> str:
        """Why nothing counts now (a failed journal write), in the current reader's words; asked only after one."""
        return _("Not saved ({error}): nothing counts until saving works").format(error=self._save_error)

    def replace_match(self, match: Match, journal: Journal | None) -> None:
        """Play another match on the same seats (a new game); every seat starts afresh."""
        if len(self.seats) != match.header.players:
            raise ValueError(f"{match.header.players} players on a {len(self.seats)}-seat runtime")
        self.match, self.journal = match, journal
        if self.request is not None:
            # A request belongs to the old game: a yes must not end or undo the new one.
            request, self.request = self.request, None
            if request.reply is not None:
                request.reply(_("The request was dropped: a new game began"))
        self.save_fault = ""
        self._menus_changed()
        try:
            for index, seat in enumerate(self.seats):
                if journal is not None and seat.language is not None:
                    journal.append_language(index, seat.language)  # the same people read the new game
        except OSError as err:
            # The new game is saved already; only a restart would forget who reads what.
            _log.error("the seats' languages could not be saved with the new game: %s", err)
        self.banner = ""
        for seat in self.seats:
            seat.menu.confirm = match.game.confirm_actions
            seat.notice = ""
            seat.mode, seat.info, seat.info_page = "", [], 0  # a page of the old game is no news of this one
            seat.table_menu.reset()
        self.refresh()

    def undo(self) -> bool:
        """Take the last action back: journal the undo, replay without it, redraw every seat.

        Returns False when there is nothing to undo.

        Raises:
            OSError: The undo could not be saved; nothing was taken back, so the
                match and the journal still agree.
        """
        if not self.match.actions:
            return False
        if self.journal is not None:
            try:
                self.journal.append_undo()
            except OSError as err:
                self._save_failed(err)
                raise
        self.save_fault = ""
        self.match.undo()  # the table is told what is taken back, and the steps that reverse it
        self._menus_changed()
        for listener in self.listeners:
            listener(self.match, None, [{"type": "undo"}])
        self.refresh()
        return True

    def _menus_changed(self) -> None:
        """After an undo or a new game: start every menu afresh, and flag the seats whose choices changed.

        A flagged seat is shown that its choices changed, and its first ok
        only acknowledges it, so a press meant for the old menu never
        commits an item of the new one unseen.
        """
        for index, seat in enumerate(self.seats):
            actions = self._game_actions(index)
            seat.changed = bool(actions) and (actions != seat.actions or _menu_moved(seat.menu))
            seat.menu.reset()
            seat.actions = actions
            seat.face = None  # menus may point at choices that no longer exist: redraw all

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
        with reading(state.language):
            if self.request is not None or state.mode:
                return self._table_face(seat)
            actions = self._game_actions(seat)
            if actions != state.actions:
                state.menu.reset()
                state.actions = actions
            names = reader_names(match.names)
            words = state.words
            if words is None or words[0] is not match or words[1] != match.changes or words[2] != state.language:
                # A cursor move changes neither the view nor its header and panel: they are kept
                # until the match, or the language the seat reads, changes.
                view = self._view(seat)
                game = match.game
                words = state.words = (match, match.changes, state.language, view,
                                       (game.header(view, names), tuple(game.panel(view, names))))
            return seat_face(match.game, names, seat, words[3], actions, state.menu,
                             notice=state.notice or self._table_note(seat), words=words[4])

    def public_view(self) -> dict[str, Any]:
        """The match's public view, worked out once per change of the match (the seats' views share it: only read it)."""
        match = self.match
        public = self._public
        if public is None or public[0] is not match or public[1] != match.changes:
            public = self._public = (match, match.changes, match.public_view())
        return public[2]

    def _view(self, seat: int) -> dict[str, Any]:
        """`match.view(seat)`, its public part worked out once per change of the match for every seat.

        The seats' views share that part's objects: a view is only read.
        """
        return {**self.public_view(), **self.match.game.private_view(self.match.state, seat)}

    def _table_face(self, index: int) -> Face:
        seat, names = self.seats[index], reader_names(self.match.names)
        choices = self._table_choices(index)
        level = seat.table_menu.level(choices)
        assert level is not None
        value = level.values[seat.table_menu.cursor]
        choice = (self.match.game.label(self.match.view(index), "do", value, names, {})
                  if value in self.match.game.table_actions else table_menu.label(value))
        position = f"{seat.table_menu.cursor + 1}/{len(level.values)}" if len(level.values) > 1 else ""
        panel: list[str] = []
        if self.request is not None:
            title = _("Table")
            request = self.request
            if index == request.by:
                if request.everyone:
                    ask = _("Waiting for every seat's yes")
                elif request.owner_to_agree():
                    ask = _("Waiting for {who}'s yes").format(who=names[request.owner])
                else:
                    ask = _("Waiting for another seat's yes")
            elif index in request.agreed:
                ask = _("You agreed; waiting for the others")
            else:
                asker = _("The console") if request.by is None else names[request.by]
                ask = table_menu.request_question(request, asker, self._undoing(request, index))
        elif seat.mode == "info":
            title = seat.info_title
            panel, position = table_menu.info_page(seat.info, seat.info_page)
            ask = ""
        else:
            title, ask = _("Table menu"), _("Hold ok to go back")
        return Face(seat_name=names[index], header=title, panel=tuple(panel), ask=ask, choice=choice,
                    position=position, notice=seat.notice or (self._save_note() if self.save_fault else ""))

    def _table_note(self, seat: int) -> str:
        """What a seat's face notes about the table: a failing disk first, then a changed menu, then broken screens."""
        if self.save_fault:
            return self._save_note()
        if self.seats[seat].changed:
            return _("Your choices changed: ok to go on")
        return self._degraded_note(seat)

    def _degraded_note(self, seat: int) -> str:
        if not self.faults and not any(state.degraded for state in self.seats):
            return ""  # every screen works: the usual case, on every face drawn
        names = reader_names(self.match.names)
        broken = [names[i] for i, s in enumerate(self.seats) if s.degraded and i != seat]
        broken += [_(device) for device in sorted(self.faults)]  # in this reader's words
        return _("{names}: screen fault").format(names=", ".join(broken)) if broken else ""

    def refresh(self, only: int | None = None) -> None:
        """Redraw the seats whose face changed: `only` that seat, or all; then tell the watchers.

        A screen that fails changes what the other seats say (they note the
        fault), so one more pass over every seat follows whenever a seat's
        fault state changed.
        """
        self._redraw_seats(only)
        for watcher in self.watchers:
            watcher()

    def _redraw_seats(self, only: int | None = None) -> None:
        """`refresh`'s redraw, without telling the watchers."""
        order = list(range(len(self.seats))) if only is None else [only]
        if self._redraw(order):
            self._redraw(list(range(len(self.seats))))

    def tick(self) -> None:
        """Called when no event came for a while: try failing screens whose back-off is over."""
        if any(seat.degraded for seat in self.seats):
            self.refresh()

    def _redraw(self, order: Sequence[int]) -> bool:
        """Draw the changed faces of these seats once; return whether any seat's fault state changed."""
        faults_changed = False
        now = self.clock()
        for index in order:
            seat = self.seats[index]
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
                show_pixels = getattr(screen, "show_pixels", None)
                if show_face is not None:
                    show_face(face)
                elif show_pixels is not None:
                    show_pixels(face_pixels(face, screen.size))  # no PIL image between the words and the bus
                else:
                    screen.show(render_face(face, screen.size))
                seat.degraded, seat.failures = "", 0
            except ScreenError as err:
                # A broken screen must not stop the game: note it, carry on, try again later.
                seat.degraded = str(err)
                seat.failures += 1
                seat.retry_at = now + retry_delay(seat.failures)
                seat.face = None  # so the face counts as changed when the retry is due
                if seat.failures == 1:
                    _log.error("seat %d screen: %s", index + 1, err)
            faults_changed |= bool(was) != bool(seat.degraded)
        return faults_changed
