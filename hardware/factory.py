"""Choosing a backend and opening every device of a table.

Like gpiozero's pin factory, the backend comes from an environment variable,
``COURTIER_HARDWARE=pi|mock|emulator``, then from the table file, then from
the machine: ``pi`` on a Raspberry Pi, ``emulator`` elsewhere. An explicit
``backend`` argument overrides all of these, for tests.

- ``pi``: gpiozero's lgpio pin factory (``hardware.pins``), luma.oled
  drivers on the real buses (panels behind a TCA9548A share one bus per
  port), pyserial ports.
- ``mock`` and ``emulator``: a fresh gpiozero ``MockFactory`` (a press is
  ``pin.drive_low()``), luma ``dummy`` screens (or recording drivers), and
  ``loop://`` for serial seats whose port is a device path. The emulator
  front-end (a window or terminal showing every seat) belongs to the firmware.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.buttons import SeatButtons, SeatEncoder
from hardware.errors import HardwareError, PermanentHardwareError
from hardware.events import InputEvent
from hardware.screens import Screen, driver_screen, open_screen
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


@dataclass(eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Seat:
    """The devices of one seat: buttons (or an encoder) and screen, or a serial link.

    Attributes:
        config: The seat's entry in the table file.
        buttons: Its ``SeatButtons``, or its ``SeatEncoder``; both give the
            same events and a ``pin()`` tests can drive. None if it has none
            or they failed to open.
        screen: Its screen, or None.
        link: Its serial link, or None.
        errors: For a table opened with ``missing_ok``, why a device did not
            open, by device: "buttons", "screen" or "link".
    """

    config: SeatConfig
    buttons: SeatButtons | SeatEncoder | None = None
    screen: Screen | None = None
    link: Any = None  # a hardware.link.Link
    errors: dict[str, HardwareError] = field(default_factory=dict)

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
        pin_factory: The gpiozero factory the buttons use: the ``MockFactory``
            for mock and emulator tables (drive its pins to press buttons),
            lgpio's on a Pi; None on a Pi whose factory failed to start
            (``missing_ok``: every seat's buttons then carry its error).
        on_event: Receives every ``InputEvent``, possibly on a gpiozero thread,
            so it should only enqueue. May be set after opening.
        public_error: For a table opened with ``missing_ok``, why the public
            screen did not open, or None.
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
        self.public_error: HardwareError | None = None
        self._owns_factory = owns_factory
        self._closed = False

    @property
    def errors(self) -> list[tuple[str, str, HardwareError]]:
        """Every device that did not open (``missing_ok``): ``(owner, device, error)``.

        The owner is a seat's label (``seat 2 ("Blue")``) or ``public``.
        """
        found = [(seat.config.label, device, error)
                 for seat in self.seats for device, error in seat.errors.items()]
        if self.public_error is not None:
            found.append(("public", "screen", self.public_error))
        return found

    def dispatch(self, event: InputEvent) -> None:
        """Pass a button event to ``on_event``; events before one is set are dropped."""
        sink = self.on_event
        if sink is None:
            _log.debug("no event handler yet; dropped %s", event)
            return
        sink(event)

    def close(self) -> None:
        """Close every device, then a pin factory this table made (a mock one is reset)."""
        if self._closed:
            return
        self._closed = True
        for seat in self.seats:
            seat.close()
        if self.public_screen is not None:
            self.public_screen.close()
        if self._owns_factory and self.pin_factory is not None:
            getattr(self.pin_factory, "reset", self.pin_factory.close)()

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
               pin_factory: Any = None, recording: bool = False, missing_ok: bool = False,
               interfaces: Mapping[int, Any] | None = None) -> Table:
    """Open every seat's devices and the public screen.

    If anything fails, what was already opened is closed again, unless
    ``missing_ok`` is set: then a device that does not open is left out
    (None) and its error kept in ``Seat.errors`` or ``Table.public_error``,
    so a self-test can light every screen that works and say which do not.

    Args:
        config: The table description.
        backend: Overrides ``backend_name(config.backend)``.
        on_event: Initial ``Table.on_event``.
        pin_factory: gpiozero factory to use instead of the backend's choice;
            the caller keeps ownership (it is not reset on close).
        recording: For mock/emulator, drive screens with real luma.oled
            drivers over ``RecordingInterface`` to count bus bytes.
        missing_ok: Keep going when a seat's buttons, screen or link, or the
            public screen, cannot be opened.
        interfaces: Seat index to a luma serial interface that seat's screen
            is driven through instead (its real driver over it, whatever the
            backend), e.g. a ``RecordingInterface`` that fails like a missing
            panel.

    Returns:
        The open table.

    Raises:
        PermanentHardwareError: The pi backend without a pin factory, or on
            a machine gpiozero finds no Pi on (``NotAPiError``); raised even
            with ``missing_ok``, as no device could work.
        HardwareError: A device cannot be opened (``ScreenError`` for screens).
        LinkError: A serial URL or setting is invalid.
    """
    backend = backend or backend_name(config.backend)
    if backend not in BACKENDS:
        raise HardwareError(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    owns_factory = False
    factory_error: HardwareError | None = None
    if pin_factory is None:
        owns_factory = True
        if backend != "pi":
            from hardware.gpio import deferred_imports

            with deferred_imports():
                from gpiozero.pins.mock import MockFactory

            pin_factory = MockFactory()
        else:
            from hardware.pins import pi_pin_factory, start_lgpio

            try:
                start_lgpio()   # luma's SPI helpers import it too
                if any(seat.serial is None for seat in config.seats):
                    pin_factory = pi_pin_factory()
            except PermanentHardwareError:
                raise
            except HardwareError as exc:
                if not missing_ok:
                    raise
                factory_error = exc
    table = Table(config, backend, pin_factory=pin_factory, owns_factory=owns_factory,
                  on_event=on_event)
    opener = _Opener(table, recording=recording, missing_ok=missing_ok,
                     interfaces=interfaces or {}, factory_error=factory_error)
    try:
        for seat_config in config.seats:
            seat = Seat(seat_config)
            table.seats.append(seat)
            opener.seat(seat)
        if config.public_screen is not None:
            opener.public_screen()
    except BaseException:
        table.close()
        raise
    _log.info("opened %s (%s backend, %d seats)", config.name, backend, len(table.seats))
    return table


class _Opener:
    """Opens the devices of one table, sharing what they share (the I2C buses)."""

    def __init__(self, table: Table, *, recording: bool, missing_ok: bool,
                 interfaces: Mapping[int, Any], factory_error: HardwareError | None) -> None:
        self.table = table
        self.recording = recording
        self.missing_ok = missing_ok
        self.interfaces = interfaces
        self.factory_error = factory_error
        self.buses: Any = None
        if table.backend == "pi":
            # Panels behind a multiplexer share one bus per port; imported
            # here because it loads luma's bus interfaces.
            from hardware.mux import I2CBuses

            self.buses = I2CBuses()

    def seat(self, seat: Seat) -> None:
        """Open a seat's devices; with ``missing_ok`` a failure is kept, not raised."""
        config = seat.config
        table = self.table
        if config.bot is not None:
            return  # nobody sits there: nothing to open
        if config.serial is not None:
            from hardware.link import Link  # pyserial: only for a table with serial seats

            url = config.serial.port
            if table.backend != "pi" and "://" not in url:
                url = "loop://"   # a device path from a Pi table; nothing is plugged in here
            seat.link = self._try(seat, "link", lambda: Link(
                url, baudrate=config.serial.baudrate, name=config.label))
            return
        options = {"hold_time": table.config.hold_time, "bounce_time": table.config.bounce_time,
                   "pin_factory": table.pin_factory}
        if self.factory_error is not None:
            # No pins at all (missing_ok): each seat says so, its screen is still tried.
            if config.buttons is not None or config.encoder is not None:
                seat.errors["buttons"] = self.factory_error
        elif config.buttons is not None:
            seat.buttons = self._try(seat, "buttons", lambda: SeatButtons(
                config.index, config.buttons, table.dispatch, **options))
        elif config.encoder is not None:
            seat.buttons = self._try(seat, "buttons", lambda: SeatEncoder(
                config.index, config.encoder, table.dispatch, **options))
        if config.screen is not None:
            seat.screen = self._try(seat, "screen", lambda: self._screen(config))

    def public_screen(self) -> None:
        """Open the public screen; with ``missing_ok`` a failure is kept, not raised."""
        screen_config = self.table.config.public_screen
        assert screen_config is not None
        try:
            self.table.public_screen = open_screen(screen_config, self.table.backend,
                                                   label="public", recording=self.recording,
                                                   buses=self.buses,
                                                   pin_factory=self.table.pin_factory)
        except HardwareError as exc:
            if not self.missing_ok:
                raise
            _log.info("public screen left out: %s", exc)
            self.table.public_error = exc

    def _screen(self, config: SeatConfig) -> Screen:
        assert config.screen is not None
        if config.index in self.interfaces:
            name = f"{config.label} screen {config.screen.describe()}"
            return driver_screen(config.screen, self.interfaces[config.index], name=name)
        return open_screen(config.screen, self.table.backend, label=config.label,
                           recording=self.recording, buses=self.buses)

    def _try(self, seat: Seat, device: str, open_device: Callable[[], Any]) -> Any:
        try:
            return open_device()
        except HardwareError as exc:
            if not self.missing_ok:
                raise
            _log.info("%s %s left out: %s", seat.config.label, device, exc)
            seat.errors[device] = exc
            return None
