"""Seat devices for courtier: buttons, screens and serial links, and their mocks.

The package knows hardware words only (press, hold, image, line). It wraps
gpiozero, luma and pyserial, and uses their own test doubles for the mock and
emulator backends. Libraries that need a Pi are imported only when a Pi
device is opened, so ``import hardware`` works anywhere.
"""

from hardware.buttons import SeatButtons, SeatEncoder
from hardware.errors import (
    HardwareError,
    LinkError,
    ProtocolError,
    ScreenError,
    TableConfigError,
)
from hardware.events import BUTTONS, GESTURES, InputEvent
from hardware.factory import Seat, Table, backend_name, on_raspberry_pi, open_table
from hardware.link import Link
from hardware.recording import RecordingInterface
from hardware.screens import Screen, driver_screen, dummy_screen, open_screen
from hardware.table import (
    BACKENDS,
    MAX_SEATS,
    ButtonPins,
    EncoderPins,
    ScreenConfig,
    SeatConfig,
    SerialSeatConfig,
    TableConfig,
    emulator_table,
    header_pin,
    load_table,
    parse_table,
)

__all__ = [
    "BACKENDS",
    "BUTTONS",
    "GESTURES",
    "MAX_SEATS",
    "ButtonPins",
    "EncoderPins",
    "HardwareError",
    "InputEvent",
    "Link",
    "LinkError",
    "ProtocolError",
    "RecordingInterface",
    "Screen",
    "ScreenConfig",
    "ScreenError",
    "Seat",
    "SeatButtons",
    "SeatEncoder",
    "SeatConfig",
    "SerialSeatConfig",
    "Table",
    "TableConfig",
    "TableConfigError",
    "backend_name",
    "driver_screen",
    "dummy_screen",
    "emulator_table",
    "header_pin",
    "load_table",
    "on_raspberry_pi",
    "open_screen",
    "open_table",
    "parse_table",
]
