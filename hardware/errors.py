"""Exceptions raised by the hardware package.

Every exception has one root, :class:`HardwareError`, so the firmware can catch
anything a seat device does wrong in one place, and a builtin second parent,
so code that only knows the builtins (``except OSError``) still works.

The package may not import the engine's gettext (it knows no reader), so a
message meant for the person setting up the table is kept as :class:`Words`,
an English template marked with :func:`T_` and its fields, and the firmware
renders it in the table's language through the catalog (``error.render(_)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


@dataclass(frozen=True, eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Words:
    """A message as a ``str.format`` template and its fields, a field being Words itself or a value."""

    template: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str] = lambda template: template) -> str:
        """The message, each template translated by ``translate`` (the firmware passes its ``_``)."""
        text = translate(self.template)
        if not self.fields:
            return text
        return text.format(**{name: value.render(translate) if isinstance(value, Words) else value
                              for name, value in self.fields.items()})

    def __str__(self) -> str:
        return self.render()


def T_(template: str, /, **fields: Any) -> Words:
    """Mark `template` for the catalog (babel.cfg names this keyword for hardware/) with its fields."""
    return Words(template, fields)


class HardwareError(Exception):
    """Base class for every error raised by the hardware package."""

    def render(self, translate: Callable[[str], str]) -> str:
        """The message in the reader's language, where it has words for one; else as raised."""
        return str(self)


class TableConfigError(HardwareError, ValueError):
    """The table description is malformed or describes impossible wiring.

    The message names the file, the line when known, and the key, e.g.
    ``table.toml:14: seat 2 ("Blue"): buttons.ok: pin 17 is already used by
    seat 1 ("Red") buttons.ok``.

    Attributes:
        source: The file name (or ``"<string>"``) the description came from.
        line: The 1-based line the problem was found on, or None.
        key: Dotted path of the offending key (``"seat[2].buttons.ok"``), or None.
        words: The message without its file and line, for :meth:`render`.
    """

    def __init__(self, message: Words | str, *, source: str = "<string>",
                 line: int | None = None, key: str | None = None) -> None:
        self.source = source
        self.line = line
        self.key = key
        self.words = message if isinstance(message, Words) else Words(message)
        self.where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{self.where}: {self.words}")

    def render(self, translate: Callable[[str], str]) -> str:
        """``file:line: message``, the message in the reader's language."""
        return f"{self.where}: {self.words.render(translate)}"


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
