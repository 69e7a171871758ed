"""A luma serial interface that records what a real bus would carry.

A luma.oled driver talks to its panel only through a serial interface with
three verbs: ``command(*cmd)``, ``data(data)`` and ``cleanup()``. Giving a
real driver (``ssd1306``, ``sh1106``, ...) this recorder instead of an
``i2c`` or ``spi`` runs the driver's own code unchanged and keeps every call,
so tests can check the bytes and benchmarks can count them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

_log = logging.getLogger(__name__)


class RecordingInterface:
    """Stands in for luma's ``i2c``/``spi`` and records each call in order.

    Example::

        bus = RecordingInterface()
        panel = ssd1306(bus)           # the init sequence is recorded
        bus.reset()
        panel.display(image)
        assert bus.data_bytes == 1024

    Args:
        fail: If set, every ``command`` and ``data`` call raises it, as a
            panel that has dropped off the bus would. May be set later too.

    Attributes:
        calls: ``("command", bytes)`` and ``("data", bytes)`` in call order.
        command_bytes: Number of command bytes sent since the last reset.
        data_bytes: Number of data bytes sent since the last reset.
        cleaned_up: True once the driver has called ``cleanup()``.
        fail: The exception to raise, or None.
    """

    def __init__(self, fail: BaseException | None = None) -> None:
        self.fail = fail
        self.calls: list[tuple[str, bytes]] = []
        self.command_bytes = 0
        self.data_bytes = 0
        self.cleaned_up = False

    def command(self, *cmd: int) -> None:
        """Record a burst of command bytes."""
        self._check()
        self.calls.append(("command", bytes(cmd)))
        self.command_bytes += len(cmd)

    def data(self, data: Iterable[int]) -> None:
        """Record a burst of display data bytes."""
        self._check()
        payload = bytes(data)
        self.calls.append(("data", payload))
        self.data_bytes += len(payload)

    def cleanup(self) -> None:
        """Note that the driver released the bus."""
        self.cleaned_up = True

    def reset(self) -> None:
        """Forget the calls and counts so far, e.g. after a driver's init sequence."""
        self.calls.clear()
        self.command_bytes = 0
        self.data_bytes = 0

    def _check(self) -> None:
        if self.fail is not None:
            raise self.fail


class RecordingI2C(RecordingInterface):
    """A ``RecordingInterface`` that also takes a window in one transfer, as an I2C panel's does.

    ``window`` records ``("window", message)``: the bytes after the address
    that ``hardware.panel_i2c.window_message`` makes, as the panel gets them.
    """

    def window(self, commands: Sequence[int], payload: bytes) -> None:
        """Record the commands and data of one window as the single I2C message they go in."""
        from hardware.panel_i2c import window_message

        self._check()
        self.calls.append(("window", window_message(commands, payload)))
        self.command_bytes += len(commands)
        self.data_bytes += len(payload)
