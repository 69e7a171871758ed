"""Seats and a host console attached by serial link, on the Pi side.

A ``SerialSeat`` stands where a seat's screen would: the runtime hands it the
seat's face and it sends that face, and nothing else, to the seat's pod. A
``HostConsole`` sends the public side of the table to a laptop and queues
the commands it sends. A ``SerialPump`` polls them all, from the runtime's
loop or from one background thread, and only *posts* what arrives into the
runtime's queue, like the gpiozero callbacks do: the runtime's own thread
still makes every change.

A bad line is answered with an ``error`` line and dropped. A port that
vanishes (a pod unplugged) is reopened with growing pauses, timed by the
clock the caller passes to ``poll(now)``; the game goes on meanwhile and a
seat's latest face is sent again when its pod comes back.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Iterable, Sequence

from hardware.errors import ProtocolError, ScreenError
from hardware.events import InputEvent
from hardware.link import Link

from . import protocol
from ..table.faces import Face
from ..table.render import render_face
from ..public import PublicTable, Snapshot
from ..table.runtime import Command, Runtime

_log = logging.getLogger(__name__)

SEAT_SIZE = (128, 64)
# Error lines answered per second on one link, at most: a pod that crashed into
# its REPL evaluates and echoes every line it is sent, so each answer would
# bring back two more bad lines, without end.
ERRORS_PER_SECOND = 4
# The host console's lines carry a whole public view (about 3.5 KB for In the
# Shadow of the Emperor at four players); pods keep the Link default.
CONSOLE_MAX_LINE = 1 << 16


class Backoff:
    """When to try a vanished port again: at once, then after 0.5 s, 1 s, ... up to 8 s.

    Args:
        first: The pause after the first failed attempt, in seconds.
        longest: The longest pause.
    """

    def __init__(self, first: float = 0.5, longest: float = 8.0) -> None:
        self.first = first
        self.longest = longest
        self.pause = 0.0
        self.next_try: float | None = None  # None: try at the next poll

    def due(self, now: float) -> bool:
        """Whether an attempt may be made at ``now``."""
        return self.next_try is None or now >= self.next_try

    def failed(self, now: float) -> None:
        """Record a failed attempt; the next waits twice as long as the last."""
        self.pause = min(self.longest, self.pause * 2 if self.pause else self.first)
        self.next_try = now + self.pause

    def reset(self) -> None:
        """The port is back: the next loss is tried again at once."""
        self.pause = 0.0
        self.next_try = None


class _Endpoint:
    """One link's upkeep: a lock (two threads use it), reopening, and answering bad lines."""

    def __init__(self, link: Link, backoff: Backoff | None) -> None:
        self.link = link
        self.backoff = backoff or Backoff()
        self._lock = threading.RLock()
        self._bad_lines: list[ProtocolError] = []
        self._window = 0.0            # start of the current second of error answers
        self._answered = 0            # error lines sent in it
        self.suppressed = 0           # error lines not sent, over the limit
        # Errors the link finds in raw lines (not JSON, too long) are answered
        # too; keep whatever handler the link already had.
        chained = link.on_error

        def on_error(error: ProtocolError) -> None:
            self._bad_lines.append(error)
            if chained is not None:
                chained(error)

        link.on_error = on_error

    @property
    def connected(self) -> bool:
        """True while the port is open."""
        return self.link.connected

    def send(self, message: dict[str, Any]) -> bool:
        with self._lock:
            return self.link.send(message)

    def exchange(self, now: float) -> list[protocol.Message]:
        """Reopen if due, read, answer bad lines; return the well-formed messages."""
        with self._lock:
            link = self.link
            if not link.connected:
                if not self.backoff.due(now):
                    return []
                if not link.reopen():
                    self.backoff.failed(now)
                    return []
                _log.info("%s: back", link.name)
                self.backoff.reset()
                self.reconnected()
            messages = []
            for raw in link.receive():
                try:
                    messages.append(protocol.decode(raw))
                except ProtocolError as error:
                    self._bad_lines.append(ProtocolError(f"{link.name}: {error}"))
            if not link.connected:
                _log.warning("%s: port lost; reopening it", link.name)
            for error in self._bad_lines:
                self._answer(error, now)
            self._bad_lines.clear()
            return messages

    def _answer(self, error: ProtocolError, now: float) -> None:
        """Send an error line, unless this link has had ``ERRORS_PER_SECOND`` this second."""
        if now - self._window >= 1.0 or now < self._window:
            if self.suppressed:
                _log.warning("%s: %d more bad lines were dropped unanswered", self.link.name, self.suppressed)
            self._window, self._answered, self.suppressed = now, 0, 0
        if self._answered >= ERRORS_PER_SECOND:
            self.suppressed += 1
            _log.debug("%s (not answered: too many bad lines)", error)
            return
        self._answered += 1
        _log.warning("%s", error)
        self.link.send(protocol.encode_error(str(error)))

    def answer_unexpected(self, message: protocol.Message, expected: str, now: float) -> None:
        """Answer a well-formed message that has no business on this link."""
        kind = type(message).__name__
        if isinstance(message, protocol.ErrorReport):
            # Never answer an error with an error: two ends would ping-pong forever.
            _log.warning("%s reports: %s", self.link.name, message.message)
        elif isinstance(message, (protocol.FaceUpdate, protocol.TableUpdate, protocol.Reply)):
            # What we send ourselves: a loop:// stand-in port reads back its own writes.
            _log.debug("%s: ignored our own %s (loopback?)", self.link.name, kind)
        else:
            with self._lock:
                self._answer(ProtocolError(f"{self.link.name}: this link takes {expected}, "
                                           f"not {_type_name(message)}"), now)

    def reconnected(self) -> None:
        """Called (under the lock) when the port has just been reopened."""

    def close(self) -> None:
        with self._lock:
            self.link.close()


def _type_name(message: protocol.Message) -> str:
    return {protocol.Hello: "hello", protocol.PodEvent: "button", protocol.ConsoleCommand: "command",
            protocol.FaceUpdate: "face", protocol.FrameUpdate: "frame", protocol.TableUpdate: "table",
            protocol.Reply: "reply",
            protocol.ErrorReport: "error"}[type(message)] + " messages"


class SerialSeat(_Endpoint):
    """A seat whose screen and buttons are a pod on a serial link.

    The runtime treats it as the seat's screen: it calls ``show_face`` with
    the seat's own face, which is all the pod is ever sent.

    Example::

        seat = SerialSeat(Link("/dev/serial/by-id/usb-...-if00", name="Blue"), 1)
        runtime = Runtime(match, [screen0, seat, screen2])
        for event in seat.poll(time.monotonic()):
            runtime.post(event)

    Args:
        link: The pod's link; its ``on_error`` is chained so bad lines are answered.
        seat: The seat's index at the table.
        backoff: Reopening pauses (default 0.5 s doubling to 8 s).

    Attributes:
        face: The latest face shown (sent again when the pod comes back).
        pod: What the pod called itself in its hello, or None.
    """

    size = SEAT_SIZE

    def __init__(self, link: Link, seat: int, *, backoff: Backoff | None = None) -> None:
        super().__init__(link, backoff)
        self.seat = seat
        self.face: Face | None = None
        self.pod: str | None = None
        self.frames = False  # the pod said it draws frames (so any script reaches it as pixels)
        self._unsent = False   # the latest face has not reached the pod yet

    def show(self, image: Any) -> bool:
        """Refuse pixels: a pod draws its own face from words (the runtime calls ``show_face``)."""
        raise ScreenError(f"{self.link.name}: a serial seat is sent faces, not images")

    def message(self, face: Face) -> dict[str, Any]:
        """What the pod is sent for a face: its words, or its pixels when its font cannot draw them."""
        if self.frames and protocol.needs_frame(face):
            return protocol.encode_frame(self.seat, render_face(face, self.size))
        return protocol.encode_face(self.seat, face)

    def show_face(self, face: Face) -> None:
        """Send the seat's face to its pod; if the link is down, keep it for when it is back.

        Raises:
            ScreenError: The face does not fit on one line of the link (the
                runtime notes the fault and carries on).
        """
        message = self.message(face)
        with self._lock:
            self.face = face
            try:
                self._unsent = not self.link.send(message)
            except ProtocolError as error:
                raise ScreenError(str(error)) from error
            if self._unsent:
                _log.info("%s: face not delivered; kept for later", self.link.name)

    def poll(self, now: float | None = None) -> list[InputEvent]:
        """Read the pod: return its button gestures as this seat's events.

        Args:
            now: The clock, in seconds (``time.monotonic()`` if None), for reopening pauses.
        """
        now = time.monotonic() if now is None else now
        events = []
        for message in self.exchange(now):
            if isinstance(message, protocol.PodEvent):
                events.append(message.for_seat(self.seat))
            elif isinstance(message, protocol.Hello):
                _log.info("%s: pod %s says hello", self.link.name, message.peer)
                self.pod = message.peer
                self.frames = message.frames
                self._resend()   # a pod that (re)started has a blank screen
            else:
                self.answer_unexpected(message, "hello and button messages", now)
        if self._unsent and self.connected:
            self._resend()      # a write that timed out: try the latest face again
        return events

    def reconnected(self) -> None:
        self._resend()

    def _resend(self) -> None:
        with self._lock:
            if self.face is None:
                return
            try:
                self._unsent = not self.link.send(self.message(self.face))
            except ProtocolError as error:
                _log.error("%s", error)
                self._unsent = False


class HostConsole(_Endpoint):
    """The Pi's end of the host console: public table out, commands in.

    The table message is the table's public snapshot (`firmware.public`):
    its public view, the table prompt, the seat names, the result once the
    game is over, and a short log of public events. It is sent when the
    runtime's ``version`` moved and the message differs from the last one
    sent, when the console says hello, and when the port comes back.

    A command becomes a ``Command`` posted to the runtime; the runtime's
    thread carries it out and the reply is sent down the link.

    Args:
        link: The console's link (give it ``max_line=CONSOLE_MAX_LINE``).
        runtime: The table's runtime.
        public: The table's public channel (one is attached to `runtime` if none is given).
        log_size: How many public events the table message keeps.
        backoff: Reopening pauses.
    """

    def __init__(self, link: Link, runtime: Runtime, *, public: PublicTable | None = None,
                 log_size: int = 20, backoff: Backoff | None = None) -> None:
        super().__init__(link, backoff)
        self.runtime = runtime
        self.public = public if public is not None else PublicTable().attach(runtime)
        self.log_size = log_size
        self._lock_current = threading.Lock()
        self._sent_version: int | None = None
        self._last: dict[str, Any] | None = None
        self._force = True
        self._current: dict[str, Any] = self._encode(self.public.latest())
        self.public.subscribe(self._take)

    def _encode(self, snapshot: Snapshot) -> dict[str, Any]:
        return protocol.encode_table(snapshot.public, snapshot.line, snapshot.steps, snapshot.names,
                                     snapshot.result, list(snapshot.log[-self.log_size:]))

    def _take(self, snapshot: Snapshot) -> None:
        """Public subscriber: keep the newest table message (runs on the runtime's thread)."""
        message = self._encode(snapshot)
        with self._lock_current:
            self._current = message

    def table_message(self) -> dict[str, Any]:
        """The public side of the table now, as a ``table`` message.

        The match changes in place as actions are applied, so this runs on the
        runtime's thread, or before the runtime's loop starts.
        """
        return self._encode(self.public.build())

    def poll(self, now: float | None = None) -> int:
        """Read the console, post its commands, send the table if it changed.

        Args:
            now: The clock, in seconds (``time.monotonic()`` if None), for reopening pauses.

        Returns:
            How many commands were posted.
        """
        now = time.monotonic() if now is None else now
        posted = 0
        for message in self.exchange(now):
            if isinstance(message, protocol.ConsoleCommand):
                _log.info("console: %s %s", message.name, message.args)
                self.runtime.post(Command(message.name, dict(message.args), reply=self._reply))
                posted += 1
            elif isinstance(message, protocol.Hello):
                _log.info("console %s says hello", message.peer)
                self._force = True
            else:
                self.answer_unexpected(message, "hello and command messages", now)
        self._send_table()
        return posted

    def reconnected(self) -> None:
        self._force = True

    def _reply(self, message: str) -> None:
        # Called on the runtime's thread; the lock keeps the link to one thread at a time.
        if not self.send(protocol.encode_reply(message)):
            _log.warning("console: reply not delivered: %s", message)

    def _send_table(self) -> None:
        version = self.runtime.version
        if version == self._sent_version and not self._force:
            return
        with self._lock:
            if not self.link.connected:
                return
            with self._lock_current:
                message = dict(self._current)
            if message == self._last and not self._force:
                self._sent_version = version
                return
            try:
                sent = self.link.send(message)
            except ProtocolError as error:
                _log.error("console: %s", error)
                message["public"] = {}
                message["log"] = [f"(the public view is too long for one line: {error})"]
                sent = self.link.send(message)
            if sent:
                self._last, self._sent_version, self._force = message, version, False


class SerialPump:
    """Polls every serial seat and the host console and posts what arrives to the runtime.

    Either call ``poll(now)`` from the runtime's loop, or ``start()`` one
    background thread that does so every ``interval`` seconds. It only
    enqueues (``runtime.post``); a failure in one link is logged and the
    others go on.

    Example::

        with SerialPump(runtime, serial_seats, console):   # polls from its thread
            frontend.run(runtime)

    Args:
        runtime: Where events and commands are posted.
        seats: The serial seats.
        console: The host console, or None.
        clock: Seconds, for reopening pauses (``time.monotonic``).
        interval: Seconds between polls of the background thread.
    """

    def __init__(self, runtime: Runtime, seats: Iterable[SerialSeat] = (), console: HostConsole | None = None,
                 *, clock: Callable[[], float] = time.monotonic, interval: float = 0.02) -> None:
        self.runtime = runtime
        self.seats = list(seats)
        self.console = console
        self.clock = clock
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll(self, now: float | None = None) -> int:
        """Poll every link once; return how many events and commands were posted."""
        now = self.clock() if now is None else now
        posted = 0
        for seat in self.seats:
            try:
                events = seat.poll(now)
            except Exception:   # a seat's fault must not stop the table
                _log.exception("seat %d: poll failed", seat.seat + 1)
                continue
            for event in events:
                self.runtime.post(event)
            posted += len(events)
        if self.console is not None:
            try:
                posted += self.console.poll(now)
            except Exception:
                _log.exception("console: poll failed")
        return posted

    def start(self) -> None:
        """Poll from a background thread until ``stop()``."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="serial-pump", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the background thread (if any) and wait for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> "SerialPump":
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.poll()
            self._stop.wait(self.interval)


def seat_panels(seats: Sequence[Any]) -> tuple[list[Any], list[SerialSeat]]:
    """What the runtime draws on for each opened seat, and the serial seats among them.

    Args:
        seats: ``hardware.factory.Seat`` objects, in seat order.

    Returns:
        (panels, serial seats): each seat's screen, or a ``SerialSeat`` over
        its link; the serial seats again, for the ``SerialPump``.
    """
    panels: list[Any] = []
    serial: list[SerialSeat] = []
    for index, seat in enumerate(seats):
        if getattr(seat, "link", None) is not None:
            serial_seat = SerialSeat(seat.link, index)
            panels.append(serial_seat)
            serial.append(serial_seat)
        else:
            panels.append(seat.screen)
    return panels, serial
