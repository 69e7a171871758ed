"""How long the bytes a driver sent would take on a real bus.

The recording interface keeps every ``command`` and ``data`` call a luma
driver makes; each call is one transfer on the wire. The model, per transfer
of ``n`` payload bytes:

- I2C (luma's ``i2c`` opened on a port, which writes through smbus2's
  ``i2c_rdwr``): START, the address byte, the control byte (0x00 for
  commands, 0x40 for data), the ``n`` bytes, STOP. Every byte is 9 clocks
  (8 bits and the ACK); START and STOP are counted as one clock each. Data
  longer than 4,096 bytes goes in several transfers, as luma splits it. A
  luma ``i2c`` handed a bus (as ``hardware.mux`` does) writes data in blocks
  of 32 bytes instead: pass ``block=32``. The multiplexer's channel select
  (one more short transfer when the channel changes) is not counted.
  So a full SSD1306 frame (one 6-byte command, 1,024 data bytes) is
  9 * (6 + 2) + 2 + 9 * (1024 + 2) + 2 = 9,310 clocks: 23.3 ms at 400 kHz.
- SPI: 8 clocks per byte and nothing else on the wire (the data/command line
  is a GPIO); the per-transfer system-call time is CPU time, not modelled.

Clock stretching, bus arbitration, and the gaps the kernel leaves between
transfers are not modelled: real buses are slower, never faster.
"""

from __future__ import annotations

from collections.abc import Iterable

I2C_HZ = 400_000
SPI_HZ = 8_000_000
I2C_CLOCKS_PER_BYTE = 9
I2C_FRAMING_BYTES = 2          # address and control byte
I2C_START_STOP_CLOCKS = 2
I2C_MAX_TRANSFER = 4096        # luma's block size with smbus2's i2c_rdwr

Calls = Iterable[tuple[str, bytes]]


def payload_bytes(calls: Calls) -> int:
    """Command and data bytes the driver handed to the interface."""
    return sum(len(payload) for _, payload in calls)


def i2c_clocks(calls: Calls, block: int = I2C_MAX_TRANSFER) -> int:
    """SCL clocks the calls take on I2C, framing included.

    Args:
        calls: ``(kind, payload)`` as ``RecordingInterface.calls`` keeps them.
        block: Most data bytes in one transfer (4,096 on a port luma opened,
            32 on a bus handed to luma).
    """
    clocks = 0
    for kind, payload in calls:
        size = block if kind == "data" else I2C_MAX_TRANSFER
        transfers = max(1, -(-len(payload) // size))
        clocks += (I2C_CLOCKS_PER_BYTE * (len(payload) + I2C_FRAMING_BYTES * transfers)
                   + I2C_START_STOP_CLOCKS * transfers)
    return clocks


def i2c_seconds(calls: Calls, hz: int = I2C_HZ, block: int = I2C_MAX_TRANSFER) -> float:
    """Seconds the calls take on an I2C bus clocked at ``hz`` (``block`` as for ``i2c_clocks``)."""
    return i2c_clocks(calls, block) / hz


def spi_seconds(calls: Calls, hz: int = SPI_HZ) -> float:
    """Seconds the calls take on an SPI bus clocked at ``hz``."""
    return 8 * payload_bytes(calls) / hz
