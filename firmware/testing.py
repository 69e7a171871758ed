"""Helpers for tests that drive a runtime through a mock table's real gpiozero buttons.

Public so that a new game's runtime tests are written the way the shipped
games' are (see `engine.testing` for the rules side).
"""

from __future__ import annotations

import os
import tty
from typing import Any

from .table.faces import lines_of
from .table.render import render_face
from .table.runtime import Runtime


def run_on(table: Any, match: Any, journal: Any = None) -> Runtime:
    """A runtime for `match` on the seats' screens of an open mock table, its buttons wired in."""
    runtime = Runtime(match, [seat.screen for seat in table.seats], journal)
    table.on_event = runtime.post
    return runtime


def press(table: Any, runtime: Runtime, seat: int, button: str, times: int = 1) -> None:
    """Press a seat's real gpiozero button on its mock pin, then let the runtime handle the events."""
    pin = table.seats[seat].buttons.pin(button)
    for _ in range(times):
        pin.drive_low()
        pin.drive_high()
    runtime.drain()


def screen_text(table: Any, runtime: Runtime, seat: int) -> str:
    """The seat's face as text, after checking its screen shows exactly that face, pixel for pixel."""
    face = runtime.seats[seat].face
    shown = table.seats[seat].screen
    assert shown.image.tobytes() == render_face(face, shown.size).tobytes()
    return "\n".join(lines_of(face))


class PtyPort:
    """A serial device for tests: the master end of a pty pair, whose slave the Pi opens by name.

    `path` is a symlink to the slave, as /dev/serial/by-id names a real
    device, so `unplug` makes the device vanish under the Pi's link and
    `plug` brings a fresh one back under the same name.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.master = self.slave = -1
        self.plug()

    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        if os.path.lexists(self.path):
            os.unlink(self.path)
        os.symlink(os.ttyname(self.slave), self.path)

    def unplug(self) -> None:
        os.unlink(self.path)
        self.close()

    def close(self) -> None:
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1

    def write(self, data: bytes) -> None:
        os.write(self.master, data)
