"""A panel's commands and display data in one I2C transfer.

luma sends a partial update as two transfers: the addressing commands after
control byte 0x00, then the data after 0x40, each with its own START,
address, STOP and system call. The SSD1306 and SH1106 also take both in one
transfer (SSD1306 datasheet 8.1.5.2, SH1106 datasheet "I2C-bus interface"):
a control byte with Co = 1 says that one byte follows and then another
control byte, so each command byte goes as 0x80 and the byte, and the last
control byte, 0x40 (Co = 0, D/C# = 1), says that every byte after it is
display data. ``window_message`` makes that message; an I2C interface with
a ``window(commands, payload)`` verb sends it (a panel on a port,
``PanelI2C``, or behind a multiplexer, ``hardware.mux.MuxChannel``), and
``hardware.partial`` uses that verb where the interface has it, luma's two
where it has not (SPI).
"""

from __future__ import annotations

from collections.abc import Sequence
from smbus2 import i2c_msg

from hardware.luma_loading import deferred_multiprocessing

with deferred_multiprocessing():
    from luma.core.interface.serial import i2c

ONE_COMMAND = 0x80  # control byte, Co = 1, D/C# = 0: one command byte, then another control byte
DATA_FOLLOWS = 0x40  # control byte, Co = 0, D/C# = 1: display data to the end of the transfer


def window_message(commands: Sequence[int], payload: bytes) -> bytes:
    """The bytes after the address of one transfer that sends `commands`, then `payload` as display data."""
    count = len(commands)
    message = bytearray(2 * count + 1 + len(payload))
    message[0:2 * count:2] = bytes([ONE_COMMAND]) * count
    message[1:2 * count:2] = bytes(commands)
    message[2 * count] = DATA_FOLLOWS
    message[2 * count + 1:] = payload
    return bytes(message)


def window_overhead(commands: int) -> int:
    """Bytes a window of `commands` command bytes puts on the bus beside its data (the address byte included)."""
    return 1 + 2 * commands + 1


class PanelI2C(i2c):
    """luma's ``i2c`` on a port of its own, which can also send a window in one transfer."""

    def window(self, commands: Sequence[int], payload: bytes) -> None:
        """Send the addressing `commands`, then `payload` as display data, in one I2C transfer."""
        self._bus.i2c_rdwr(i2c_msg.write(self._addr, window_message(commands, payload)))
