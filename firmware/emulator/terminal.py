"""The emulated table in a terminal, through curses: every seat's screen as words or braille pixels."""

from __future__ import annotations

import locale
import logging
from typing import TYPE_CHECKING, Any, Callable

from ..table.faces import Face
from ..table.render import WIDTH, HEIGHT, screen_rows
from ..public import PublicDisplay, PublicTable
from .loop import Frontend
from .picture import compose, terminal_lines

if TYPE_CHECKING:
    from .recorder import Recorder

_log = logging.getLogger(__name__)

_ESC = 27
_CTRL_C = 3


def face_text(face: Face | None, size: tuple[int, int] = (WIDTH, HEIGHT)) -> list[str]:
    """What a seat's screen shows, row by row, exactly as its pixels do (blank before its first drawing)."""
    return screen_rows(face, size) if face is not None else []


class TerminalFrontend(Frontend):
    """The table in a terminal, through curses: each screen's words, or its pixels in braille.

    Upper-case letters are hold keys, so ESC or Ctrl-C quits; ``curses.wrapper``
    puts the terminal back however the loop ends.

    Args:
        table: As for `Frontend`.
        poll_ms: How long ``getch`` waits for a key.
        log: As for `Frontend`.
        recorder: As for `Frontend`.
        pixels: Draw each screen's pixels in braille instead of its words.
        public: As for `Frontend`; the public screen shows in braille where the terminal is wide enough.
    """

    def __init__(self, table: Any, *, poll_ms: int = 50, log: PublicTable | None = None,
                 recorder: Recorder | None = None, pixels: bool = False, seats: int | None = None,
                 public: PublicDisplay | None = None) -> None:
        import curses  # not on every platform, so only when a terminal is wanted

        super().__init__(table, log=log, recorder=recorder, seats=seats, public=public)
        self._curses = curses
        self.poll_ms = poll_ms
        self.pixels = pixels
        self.window: Any = None
        self.lines: list[str] = []

    def run(self, runtime: Any, stop: Callable[[], bool] = lambda: False) -> None:
        """Take over the terminal and play until ESC, Ctrl-C or ``stop()``."""
        previous = locale.setlocale(locale.LC_CTYPE)
        locale.setlocale(locale.LC_CTYPE, "")  # so curses writes braille as UTF-8
        try:
            self._curses.wrapper(self._main, runtime, stop)
        except KeyboardInterrupt:
            _log.info("interrupted")
        finally:
            locale.setlocale(locale.LC_CTYPE, previous)
            self.window = None

    def _main(self, window: Any, runtime: Any, stop: Callable[[], bool]) -> None:
        self.attach(window)
        super().run(runtime, stop)

    def attach(self, window: Any) -> None:
        """Draw in a curses window (the whole screen from ``curses.wrapper``)."""
        curses = self._curses
        self.window = window
        curses.set_escdelay(25)  # ESC alone quits; do not wait a second for a sequence
        try:
            curses.curs_set(0)
        except curses.error:
            pass  # a terminal that cannot hide the cursor
        window.keypad(True)
        window.timeout(self.poll_ms)
        self._shown = None

    def read_keys(self) -> list[str]:
        window = self.window
        keys = []
        code = window.getch()
        window.timeout(0)
        try:
            while code != -1:
                if code in (_ESC, _CTRL_C):
                    self._quit = True
                    break
                if code == self._curses.KEY_RESIZE:
                    self._shown = None
                elif 32 <= code < 0x110000 and chr(code).isprintable():
                    keys.append(chr(code))
                code = window.getch()
        finally:
            window.timeout(self.poll_ms)
        return keys

    def draw(self, runtime: Any) -> None:
        window = self.window
        height, width = window.getmaxyx()
        snapshot = self.snapshot(runtime)
        faces = None if self.pixels else [
            face_text(seat.face, getattr(screen, "size", (WIDTH, HEIGHT)))
            for seat, screen in zip(runtime.seats, runtime.screens)]
        self.lines = terminal_lines(width=width, faces=faces, **snapshot)
        window.erase()
        for y, line in enumerate(self.lines[:height]):
            try:
                window.addnstr(y, 0, line, width)
            except self._curses.error:
                pass  # the bottom-right cell cannot be written; the rest is drawn
        window.refresh()
        if self.recorder is not None:
            self.recorder.record(runtime, compose(**snapshot))
