"""The public screen: the table's public snapshots drawn on the table file's ``[public_screen]``.

`PublicDisplay` is fed only `Snapshot`s (it follows a `PublicTable`), lays
each out for its screen (`Layout`), and turns the pages by the clock. It
draws in `update(now)`: tests call it with a fake clock, the emulator from
its own loop, and the headless table from a thread of the display's own
(`start`), so a slow bus or a broken panel never delays a seat's button.

Which events it shows: those the screen has not yet shown in full. A page
counts as read once it has been up for its hold time; when every page has
been read, the next snapshot shows only the events that came after. So a
burst of actions never pushes a public event past the screen unseen.

A screen that fails is handled as a seat's screen is: the error is logged
once, the seats are told (``on_fault``), the display keeps turning its
pages without drawing, and retries with the runtime's back-off; the table
plays on.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import Any, Callable

from hardware.errors import ScreenError

from ..table.runtime import retry_delay
from .layout import Layout, Page
from .snapshot import PublicTable, Snapshot

_log = logging.getLogger(__name__)


class PublicDisplay:
    """Draws the public snapshots on one screen, page after page.

    Example::

        display = PublicDisplay(table.public_screen).follow(public_table)
        display.start()       # or call display.update(now) from a loop of your own
        ...
        display.close()

    Args:
        screen: A ``hardware.Screen`` (anything with ``size``, ``mode`` and ``show(image)``).
        clock: Seconds, for turning pages and retrying (tests pass a fake one).
        on_fault: Called with the error in words when the screen starts failing,
            and with "" when it works again (from the thread that draws).

    Attributes:
        snapshot: The snapshot on screen (None before the first).
        pages: Its pages for this screen.
        index: The page on screen now (or due, while the screen fails).
        degraded: Why the screen fails, "" while it works.
        frames: How many frames the screen took (a front-end redraws when it grows).
    """

    def __init__(self, screen: Any, *, clock: Callable[[], float] = time.monotonic,
                 on_fault: Callable[[str], None] | None = None) -> None:
        self.screen = screen
        self.layout = Layout(tuple(screen.size), screen.mode)
        self.clock = clock
        self.on_fault = on_fault
        self.snapshot: Snapshot | None = None
        self.pages: list[Page] = []
        self.index = 0
        self.degraded = ""
        self.failures = 0
        self.frames = 0
        self._offered: Snapshot | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._turn_at = math.inf  # when the page on screen gives way to the next
        self._read_at: float | None = None  # when the page on the panel has been up its hold; None till drawn
        self._read: set[int] = set()  # pages that stayed up their whole hold
        self._from = 0  # the first event line (counted as `Snapshot.noted` counts) still to show
        self._events_end = 0  # `noted` of the snapshot on screen
        self._drawn: tuple[int, int] | None = None  # (snapshot serial, page) on the panel
        self._retry_at = 0.0

    # --- input ---------------------------------------------------------------
    def follow(self, public: PublicTable) -> PublicDisplay:
        """Take every new snapshot of `public`, starting with its latest."""
        public.subscribe(self.offer)
        self.offer(public.latest())
        return self

    def offer(self, snapshot: Snapshot) -> None:
        """Hand a new snapshot over; safe from any thread, never waits for the screen."""
        with self._lock:
            self._offered = snapshot
        self._wake.set()

    # --- drawing ---------------------------------------------------------------
    def update(self, now: float | None = None) -> float | None:
        """Take the newest snapshot, turn the page if its time is up, and draw what changed.

        Args:
            now: The clock's time; default ``clock()``.

        Returns:
            Seconds until something is due (a page turn, a retry), or None
            when nothing will change until a new snapshot comes.
        """
        now = self.clock() if now is None else now
        with self._lock:
            offered, self._offered = self._offered, None
        if offered is not None and (self.snapshot is None or offered.serial != self.snapshot.serial):
            self._accept(offered, now)
        if self.snapshot is None:
            return None
        if len(self.pages) > 1 and now >= self._turn_at:
            self._mark_read(now)
            self._show_page((self.index + 1) % len(self.pages), now)
        self._draw(now)
        due = [self._turn_at] if len(self.pages) > 1 else []
        if self.degraded:
            due.append(self._retry_at)
        return max(0.0, min(due) - now) if due else None

    def show_all(self, now: float) -> float:
        """Put every page up in turn, each for its hold, from `now` on the caller's own clock.

        For recordings and tests, whose clock is their own: afterwards the
        table has read every page, so the next snapshot shows only newer events.

        Returns:
            The time the last page's hold ends.
        """
        self.update(now)
        for _ in range(len(self.pages) - 1):
            now = self._turn_at
            self.update(now)
        return self._turn_at if self.pages else now

    def _accept(self, snapshot: Snapshot, now: float) -> None:
        self._mark_read(now)
        if self.pages and len(self._read) == len(self.pages):
            self._from = self._events_end  # every event shown so far was read
        first = snapshot.noted - len(snapshot.log)  # the number of the oldest line kept
        events = snapshot.log[max(0, self._from - first):]
        pages = self.layout.pages(snapshot, events)
        old = self.pages
        same = next((i for i, (a, b) in enumerate(zip(old, pages)) if a != b), min(len(old), len(pages)))
        self.snapshot, self.pages, self._events_end = snapshot, pages, snapshot.noted
        self._read = {i for i in self._read if i < same}
        if not old or same <= self.index:
            self._show_page(min(same, len(pages) - 1) if old else 0, now)  # back to the first change

    def _show_page(self, index: int, now: float) -> None:
        self.index = index
        self._read_at = None
        self._turn_at = now + self.pages[index].hold

    def _mark_read(self, now: float) -> None:
        if self._read_at is not None and now >= self._read_at:
            self._read.add(self.index)

    def _draw(self, now: float) -> None:
        assert self.snapshot is not None
        key = (self.snapshot.serial, self.index)
        if key == self._drawn or (self.degraded and now < self._retry_at):
            return
        image = self.layout.draw(self.snapshot, self.pages[self.index], self.index, len(self.pages))
        try:
            self.screen.show(image)
        except ScreenError as err:
            # A broken screen must not stop the table: note it, carry on, try again later.
            self.failures += 1
            self._retry_at = now + retry_delay(self.failures)
            self._drawn = None
            if not self.degraded:
                _log.error("public screen: %s", err)
                self.degraded = str(err) or type(err).__name__
                self._tell(self.degraded)
            return
        if self._drawn is None or self._drawn[1] != self.index or self._read_at is None:
            self._read_at = now + self.pages[self.index].hold
        self._drawn = key
        self.frames += 1
        if self.degraded:
            _log.info("public screen works again")
            self.degraded, self.failures = "", 0
            self._tell("")

    def _tell(self, message: str) -> None:
        if self.on_fault is None:
            return
        try:
            self.on_fault(message)
        except Exception:  # whoever listens must not stop the screen
            _log.exception("public screen fault listener failed")

    # --- the thread ------------------------------------------------------------
    def start(self) -> PublicDisplay:
        """Draw from a thread of the display's own until `close`."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="public-screen", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            self._wake.clear()
            if self._stopping:
                return
            try:
                wait = self.update()
            except Exception:  # a bug in one snapshot's layout must not end the screen for good
                _log.exception("public screen: cannot draw")
                wait = 1.0
            self._wake.wait(wait)

    def close(self) -> None:
        """Stop the thread (the table closes the screen itself); safe to repeat."""
        self._stopping = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> PublicDisplay:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
