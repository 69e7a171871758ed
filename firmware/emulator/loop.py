"""The loop the emulated table's front-ends share, and what they show besides the screens.

Every front-end reads keys (pressing mock buttons through a `Keyboard`), lets
the runtime handle the queued events, redraws when ``runtime.version``
moved or the public screen drew a new page, and stops on quit. The words
under the seats are the public table's latest snapshot (`picture_args`), as
every public channel reads them; every seat pixel comes from that seat's own
screen image, and the public screen's from the table's public screen, drawn
by a `PublicDisplay` that the loop updates itself (no thread: the clock turns
its pages as the loop polls).
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any, Callable, Sequence

from PIL import Image

from ..public import PublicDisplay, PublicTable
from .keyboard import Keyboard
from .picture import SEAT_SIZE
from engine.game import Prompt
from engine.i18n import reader_names

if TYPE_CHECKING:
    from .recorder import Recorder

_log = logging.getLogger(__name__)


def luma_emulator() -> Any:
    """Import luma.emulator's devices; it needs pygame, which only the ``emulator`` extra installs."""
    # pygame greets on import; a greeting would land in the middle of a terminal or a log.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from luma.emulator import device

    return device


def screen_images(screens: Sequence[Any]) -> list[Image.Image]:
    """The last image each screen showed (blank for a seat without a screen)."""
    return [screen.image if screen is not None else Image.new("1", SEAT_SIZE) for screen in screens]


def public_image(table: Any) -> Image.Image | None:
    """The last image the table's public screen showed, or None for a table without one."""
    screen = getattr(table, "public_screen", None)
    return screen.image if screen is not None else None


def picture_args(runtime: Any, screens: Sequence[Any], log: PublicTable | None,
                 public: Image.Image | None) -> dict[str, Any]:
    """What `compose` and `terminal_lines` draw of the table now, by their argument names.

    The words are the public table's latest snapshot (the table's language,
    the bots it waits for named as such), the very words the public screen,
    the page and the console show; without a public table, the match's own
    public prompt in the table's language.
    """
    if log is not None:
        snapshot = log.latest()
        names, lines, pending = snapshot.names, snapshot.log, snapshot.pending
        prompt = Prompt(snapshot.line, snapshot.steps)
    else:
        match = runtime.match
        names, lines, pending = tuple(reader_names(match.names)), (), tuple(match.pending())
        prompt = match.prompt()
    return {"images": screen_images(screens), "names": names, "prompt": prompt, "log": lines,
            "highlight": pending, "public": public}


class Frontend:
    """The loop the window and terminal share; subclasses read keys and draw.

    Args:
        table: The open emulator or mock table; its buttons are pressed and its screens shown.
        log: Public lines to show under the seats, or None.
        recorder: Also record every new picture, or None.
        seats: How many of the table's seats are in play (the first ones; default: all). A table
            file may describe more seats than a game has players; only those in play are shown.
        public: Draws the table's public screen (shown under the seats), or None.
    """

    def __init__(self, table: Any, *, log: PublicTable | None = None, recorder: Recorder | None = None,
                 seats: int | None = None, public: PublicDisplay | None = None) -> None:
        self.table = table
        self.seats = len(table.seats) if seats is None else max(0, min(seats, len(table.seats)))
        self.keyboard = Keyboard(table)
        self.log = log
        self.recorder = recorder
        self.public = public
        # (runtime.version, public screen frames) last drawn; None forces a redraw
        self._shown: tuple[int, int] | None = None
        self._quit = False

    def run(self, runtime: Any, stop: Callable[[], bool] = lambda: False) -> None:
        """Play until the user quits or ``stop()`` says so."""
        while not stop() and self.poll_once(runtime):
            pass

    def poll_once(self, runtime: Any) -> bool:
        """Read waiting keys, handle the events, redraw if anything changed; False once the user quit.

        Keys typed before the quit key still count.
        """
        for key in self.read_keys():
            if not self.keyboard.press(key):
                _log.debug("key %r is no button here", key)
        runtime.drain()
        if self.public is not None:
            self.public.update()
        shown = (runtime.version, self.public.frames if self.public is not None else 0)
        if not self._quit and shown != self._shown:
            self._shown = shown
            self.draw(runtime)
        return not self._quit

    def snapshot(self, runtime: Any) -> dict[str, Any]:
        """Everything a picture of the table shows (`picture_args`), for the seats in play."""
        screens = [seat.screen for seat in self.table.seats[: self.seats]]
        return picture_args(runtime, screens, self.log, public_image(self.table))

    def read_keys(self) -> list[str]:
        """Keys typed since the last call, waiting briefly for one; sets ``_quit`` on the quit key."""
        raise NotImplementedError

    def draw(self, runtime: Any) -> None:
        """Show the table as it is now."""
        raise NotImplementedError

    def close(self) -> None:
        """Let go of held keys; subclasses also close their display."""
        self.keyboard.close()

    def __enter__(self) -> Frontend:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


