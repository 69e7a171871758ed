"""Exceptions raised by the hardware package.

Every exception has one root, :class:`HardwareError`, so the firmware can catch
anything a seat device does wrong in one place, and a builtin second parent,
so code that only knows the builtins (``except OSError``) still works.
"""


class HardwareError(Exception):
    """Base class for every error raised by the hardware package."""


class TableConfigError(HardwareError, ValueError):
    """The table description is malformed or describes impossible wiring.

    The message names the file, the line when known, and the key, e.g.
    ``table.toml:14: seat 2 ("Blue"): buttons.ok: pin 17 is already used by
    seat 1 ("Red") buttons.ok``.

    Attributes:
        source: The file name (or ``"<string>"``) the description came from.
        line: The 1-based line the problem was found on, or None.
        key: Dotted path of the offending key (``"seat[2].buttons.ok"``), or None.
    """

    def __init__(self, message: str, *, source: str = "<string>",
                 line: int | None = None, key: str | None = None) -> None:
        self.source = source
        self.line = line
        self.key = key
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


class ScreenError(HardwareError, OSError):
    """A screen could not be opened or did not accept a frame."""


class LinkError(HardwareError, OSError):
    """A serial link is configured with a URL or setting pyserial refuses."""


class ProtocolError(HardwareError, ValueError):
    """A line received on a serial link was not a valid protocol message."""


class PermanentHardwareError(HardwareError):
    """No device of the table can work, and starting again will not change that.

    Unlike a screen or a pin that may come back, this is permanent for the
    process (no pin factory installed, not a Pi): even a self-test that keeps
    going past missing devices stops, the command exits with
    ``firmware.exits.CONFIG`` and the service is not restarted.
    """


class NotAPiError(PermanentHardwareError):
    """gpiozero finds no Raspberry Pi here: not a Pi, or its model hidden from courtier."""
