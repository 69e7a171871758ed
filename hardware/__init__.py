"""Seat devices for courtier: buttons, screens and serial links, and their mocks.

The package knows hardware words only (press, hold, image, line). It wraps
gpiozero, luma and pyserial, and uses their own test doubles for the mock and
emulator backends. Libraries that need a Pi are imported only when a Pi
device is opened, so ``import hardware`` works anywhere.

Each name below is imported from its module on first use (PEP 562), so a
program that needs the errors or the table file alone does not pay for
gpiozero, luma and pyserial at start.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "SeatButtons": "buttons", "SeatEncoder": "buttons",
    "HardwareError": "errors", "LinkError": "errors", "ProtocolError": "errors", "ScreenError": "errors",
    "TableConfigError": "errors",
    "BUTTONS": "events", "GESTURES": "events", "InputEvent": "events",
    "Seat": "factory", "Table": "factory", "backend_name": "factory", "on_raspberry_pi": "factory",
    "open_table": "factory",
    "Link": "link",
    "RecordingInterface": "recording",
    "Screen": "screens", "driver_screen": "screens", "dummy_screen": "screens", "open_screen": "screens",
    "BACKENDS": "table", "MAX_SEATS": "table", "ButtonPins": "table", "EncoderPins": "table",
    "ScreenConfig": "table", "SeatConfig": "table", "SerialSeatConfig": "table", "TableConfig": "table",
    "emulator_table": "table", "header_pin": "table", "load_table": "table", "parse_table": "table",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'hardware' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"hardware.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
