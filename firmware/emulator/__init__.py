"""The emulated table: every seat's screen and buttons on a laptop.

The table itself is the ordinary emulator backend of ``hardware`` (gpiozero
mock pins, luma ``dummy`` screens); this package only lets people play it:

- `compose` draws the whole table as one picture; `braille` and
  `terminal_lines` as terminal text.
- `Keyboard` turns keys into presses on the mock pins (`KEYS`: seat i's
  prev/ok/next; the upper-case ok key holds ok, meaning "back").
- `WindowFrontend` (a luma.emulator pygame window), `TerminalFrontend`
  (curses) and `Recorder` (luma.emulator animated GIF or PNG frames) run the
  loop. luma.emulator and pygame are imported only by the window and the
  recorder, so this package imports without the ``emulator`` extra.

Example::

    table = open_table(emulator_table(3), "emulator")
    runtime = Runtime(match, [s.screen for s in table.seats])
    log = PublicTable().attach(runtime)
    table.on_event = runtime.post
    with TerminalFrontend(table, log=log) as frontend:
        frontend.run(runtime)
    table.close()
"""

from .keyboard import KEYS, Keyboard
from .loop import Frontend, screen_images
from .picture import braille, compose, default_columns, keys_label, seat_label, seat_positions, terminal_lines
from .recorder import Recorder
from .terminal import TerminalFrontend
from .window import WindowFrontend

__all__ = [
    "KEYS",
    "Frontend",
    "Keyboard",
    "Recorder",
    "TerminalFrontend",
    "WindowFrontend",
    "braille",
    "compose",
    "default_columns",
    "keys_label",
    "screen_images",
    "seat_label",
    "seat_positions",
    "terminal_lines",
]
