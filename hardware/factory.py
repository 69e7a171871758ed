"""Choosing a backend and opening every device of a table.

Like gpiozero's pin factory, the backend comes from an environment variable,
``COURTIER_HARDWARE=pi|mock|emulator``, then from the table file, then from
the machine: ``pi`` on a Raspberry Pi, ``emulator`` elsewhere. An explicit
``backend`` argument overrides all of these, for tests.

- ``pi``: gpiozero's default pin factory, luma.oled drivers on the real
  buses, pyserial ports.
- ``mock`` and ``emulator``: a fresh gpiozero ``MockFactory`` (a press is
  ``pin.drive_low()``), luma ``dummy`` screens (or recording drivers), and
  ``loop://`` for serial seats whose port is a device path. The emulator
  front-end (a window or terminal showing every seat) belongs to the firmware.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.buttons import SeatButtons
from hardware.errors import HardwareError
from hardware.events import InputEvent
from hardware.link import Link
from hardware.screens import Screen, open_screen
from hardware.table import BACKENDS, SeatConfig, TableConfig

_log = logging.getLogger(__name__)

ENV_VAR = "COURTIER_HARDWARE"
_MODEL_PATH = Path("/proc/device-tree/model")


def on_raspberry_pi() -> bool:
    """Tell whether this machine is a Raspberry Pi, from its device-tree model."""
    try:
        return b"Raspberry Pi" in _MODEL_PATH.read_bytes()
    except OSError:
        return False


def backend_name(config_backend: str | None = None) -> str:
    """Decide which backend to use.

    Args:
        config_backend: The table file's ``backend``, if it has one.

    Returns:
        "pi", "mock" or "emulator".

    Raises:
        HardwareError: ``COURTIER_HARDWARE`` holds something else.
    """
    chosen = os.environ.get(ENV_VAR, "").strip().lower()
    if chosen:
        if chosen not in BACKENDS:
            raise HardwareError(f"{ENV_VAR}={chosen!r}: expected one of {', '.join(BACKENDS)}")
        return chosen
    if config_backend is not None:
        return config_backend
    return "pi" if on_raspberry_pi() else "emulator"


@dataclass
class Seat:
    """The devices of one seat: buttons and screen, or a serial link."""

    config: SeatConfig
    buttons: SeatButtons | None = None
    screen: Screen | None = None
    link: Link | None = None

    @property
    def index(self) -> int:
        """Position at the table, counting from 0."""
        return self.config.index

    @property
    def name(self) -> str:
        """The seat's name from the table file."""
        return self.config.name

    def close(self) -> None:
        """Close every device of the seat."""
        for device in (self.buttons, self.screen, self.link):
            if device is not None:
                device.close()


class Table:
    """Every device of an open table; close it (or use ``with``) when done.

    Example::

        with open_table(load_table("table.toml"), on_event=events.put) as table:
            table.seats[0].screen.show(image)

    Attributes:
        config: The table description.
        backend: "pi", "mock" or "emulator".
        seats: The seats, in table order.
        public_screen: The shared screen, or None.
        pin_factory: The gpiozero factory the buttons use; the ``MockFactory``
            for mock and emulator tables (drive its pins to press buttons),
            None for gpiozero's default on a Pi.
        on_event: Receives every ``InputEvent``, possibly on a gpiozero thread,
            so it should only enqueue. May be set after opening.
    """

    def __init__(self, config: TableConfig, backend: str, *, pin_factory: Any = None,
                 owns_factory: bool = False,
                 on_event: Callable[[InputEvent], Any] | None = None) -> None:
        self.config = config
        self.backend = backend
        self.seats: list[Seat] = []
        self.public_screen: Screen | None = None
        self.pin_factory = pin_factory
        self.on_event = on_event
        self._owns_factory = owns_factory
        self._closed = False

    def dispatch(self, event: InputEvent) -> None:
        """Pass a button event to ``on_event``; events before one is set are dropped."""
        sink = self.on_event
        if sink is None:
            _log.debug("no event handler yet; dropped %s", event)
            return
        sink(event)

    def close(self) -> None:
        """Close every device; a mock factory this table made is reset too."""
        if self._closed:
            return
        self._closed = True
        for seat in self.seats:
            seat.close()
        if self.public_screen is not None:
            self.public_screen.close()
        if self._owns_factory and self.pin_factory is not None:
            self.pin_factory.reset()

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return self._closed

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_table(config: TableConfig, backend: str | None = None, *,
               on_event: Callable[[InputEvent], Any] | None = None,
               pin_factory: Any = None, recording: bool = False) -> Table:
    """Open every seat's devices and the public screen.

    If anything fails, what was already opened is closed again.

    Args:
        config: The table description.
        backend: Overrides ``backend_name(config.backend)``.
        on_event: Initial ``Table.on_event``.
        pin_factory: gpiozero factory to use instead of the backend's choice;
            the caller keeps ownership (it is not reset on close).
        recording: For mock/emulator, drive screens with real luma.oled
            drivers over ``RecordingInterface`` to count bus bytes.

    Returns:
        The open table.

    Raises:
        HardwareError: A device cannot be opened (``ScreenError`` for screens).
        LinkError: A serial URL or setting is invalid.
    """
    backend = backend or backend_name(config.backend)
    if backend not in BACKENDS:
        raise HardwareError(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    owns_factory = False
    if pin_factory is None and backend != "pi":
        from gpiozero.pins.mock import MockFactory

        pin_factory = MockFactory()
        owns_factory = True
    table = Table(config, backend, pin_factory=pin_factory, owns_factory=owns_factory,
                  on_event=on_event)
    try:
        for seat_config in config.seats:
            seat = Seat(seat_config)
            table.seats.append(seat)
            _open_seat(table, seat, recording)
        if config.public_screen is not None:
            table.public_screen = open_screen(config.public_screen, backend, label="public",
                                              recording=recording)
    except BaseException:
        table.close()
        raise
    _log.info("opened %s (%s backend, %d seats)", config.name, backend, len(table.seats))
    return table


def _open_seat(table: Table, seat: Seat, recording: bool) -> None:
    config = seat.config
    if config.serial is not None:
        url = config.serial.port
        if table.backend != "pi" and "://" not in url:
            url = "loop://"   # a device path from a Pi table; nothing is plugged in here
        seat.link = Link(url, baudrate=config.serial.baudrate, name=config.label)
        return
    if config.buttons is not None:
        seat.buttons = SeatButtons(config.index, config.buttons, table.dispatch,
                                   hold_time=table.config.hold_time,
                                   bounce_time=table.config.bounce_time,
                                   pin_factory=table.pin_factory)
    if config.screen is not None:
        seat.screen = open_screen(config.screen, table.backend, label=config.label,
                                  recording=recording)
