"""Screens behind a TCA9548A I2C multiplexer, selected by courtier itself.

An SSD1306 answers at 0x3C or 0x3D only, so one bus holds two panels. A
TCA9548A (at 0x70 to 0x77) joins one of its eight channels to the bus when
its control register is written ``1 << channel`` (luma.core's
``contrib/tca9548a_scan.py`` does the same with ``bus.write_byte``), so
eight 0x3C panels can share a bus, one channel each.

The select has to wrap every transfer, and seats draw from more than one
thread, so each bus gets one lock: a select and the transfer after it never
interleave with another seat's. smbus2 also sets the slave address and then
writes in two separate system calls, so a shared ``SMBus`` needs the lock
anyway. The channel last selected is remembered per multiplexer and not
written again; after a failed transfer it is forgotten, so the next one
selects afresh (the multiplexer may have been reset or unplugged).

The bytes of each transfer are luma's own: ``MuxChannel`` is luma.core's
``i2c`` interface handed the shared bus. Commands go as luma sends them,
``write_i2c_block_data`` after control byte 0x00; display data goes as
luma sends it on a port it opened itself, one ``i2c_rdwr`` message of up to
4,096 bytes after control byte 0x40, rather than in the 32-byte SMBus blocks
luma falls back to on a bus it is handed: each block would be a transfer of
its own (a system call, an interrupt and a wake-up, and its own address and
control byte), 32 of them for a whole frame. courtier's partial drivers send
a window's addressing commands and its data together (``window``, one
message: ``hardware.panel_i2c``).

Layout: one ``SharedBus`` per I2C port (the ``SMBus``, its lock and its
multiplexers), one ``Multiplexer`` per address on it, one ``MuxChannel`` per
panel. ``I2CBuses`` hands them out by port, opening a bus at first use and
closing it when its last panel is cleaned up. Imported only when a Pi screen
behind a multiplexer is opened (it loads luma's interfaces and smbus2).
"""

from __future__ import annotations

import errno
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import luma.core.error
from smbus2 import i2c_msg

from hardware.luma_loading import deferred_multiprocessing
from hardware.panel_i2c import window_message

with deferred_multiprocessing():
    from luma.core.interface.serial import i2c

DATA_CONTROL = 0x40    # the SSD1306/SH1106 control byte before display data
MESSAGE_BYTES = 4096   # data bytes per i2c_rdwr message, as luma's managed i2c sends them

_log = logging.getLogger(__name__)


class SharedBus:
    """One I2C bus shared by every panel behind the multiplexers on it.

    Example::

        bus = SharedBus(smbus2.SMBus(1), port=1)
        panel = bus.mux(0x70).channel(3, address=0x3C)
        device = ssd1306(panel)

    Args:
        smbus: An open smbus2 ``SMBus`` (or anything with its ``write_byte``
            and ``write_i2c_block_data``).
        port: The bus number, for messages.
        lock: The lock every transfer on this bus holds; a new one by default.
        on_idle: Called once the last channel is cleaned up, after the
            multiplexers are switched off; ``I2CBuses`` closes the bus there.
    """

    def __init__(self, smbus: Any, *, port: int, lock: Any = None,
                 on_idle: Callable[[SharedBus], None] | None = None) -> None:
        self.smbus = smbus
        self.port = port
        self.lock = lock if lock is not None else threading.Lock()
        self._on_idle = on_idle
        self._muxes: dict[int, Multiplexer] = {}
        self._users = 0

    def mux(self, address: int = 0x70) -> Multiplexer:
        """Return the multiplexer at ``address`` on this bus, made on first use."""
        if address not in self._muxes:
            self._muxes[address] = Multiplexer(self, address)
        return self._muxes[address]

    @property
    def muxes(self) -> tuple[Multiplexer, ...]:
        """The multiplexers used on this bus so far."""
        return tuple(self._muxes.values())

    def _acquire(self) -> None:
        with self.lock:
            self._users += 1

    def _release(self) -> None:
        with self.lock:
            self._users -= 1
            if self._users > 0:
                return
            # Leave no channel joined to the bus, so an i2cdetect or another
            # program afterwards sees the bus as it is wired.
            for mux in self._muxes.values():
                mux.switch_off()
        if self._on_idle is not None:
            self._on_idle(self)


class Multiplexer:
    """A TCA9548A on a shared bus, remembering which channel it has joined.

    Made by ``SharedBus.mux``. Every method that writes to it expects the
    bus lock to be held by the caller.

    Attributes:
        bus: The bus it hangs on.
        address: Its I2C address (0x70 to 0x77).
        selected: The channel joined now, or None (none joined, or not known).
    """

    def __init__(self, bus: SharedBus, address: int) -> None:
        self.bus = bus
        self.address = address
        self.selected: int | None = None
        self._off = False   # known to have no channel joined

    def channel(self, channel: int, address: int = 0x3C) -> MuxChannel:
        """Return a luma serial interface for the panel at ``address`` on ``channel``."""
        return MuxChannel(self, channel, address)

    def select(self, channel: int) -> None:
        """Join ``channel`` to the bus unless it already is (bus lock held).

        Any other multiplexer on the bus is switched off first, or a panel
        with the same address behind it would answer too.

        Raises:
            luma.core.error.DeviceNotFoundError: The multiplexer did not answer.
        """
        if self.selected == channel:
            return
        for other in self.bus.muxes:
            if other is not self and not other._off:
                other._write(0)
        self._write(1 << channel)

    def switch_off(self) -> None:
        """Join no channel (bus lock held); a multiplexer that does not answer is only logged."""
        if self._off:
            return
        try:
            self._write(0)
        except (luma.core.error.Error, OSError) as exc:
            _log.warning("i2c port %d: mux %#04x: could not switch channels off: %s",
                         self.bus.port, self.address, exc)

    def forget(self) -> None:
        """Stop trusting the remembered channel, so the next transfer selects again."""
        self.selected = None
        self._off = False

    def _write(self, value: int) -> None:
        """Write the control register: bit n joins channel n, 0 joins none."""
        try:
            self.bus.smbus.write_byte(self.address, value)
        except OSError as exc:
            self.forget()
            if exc.errno in (errno.EREMOTEIO, errno.EIO, errno.ENXIO):
                raise luma.core.error.DeviceNotFoundError(
                    f"I2C multiplexer not found on port {self.bus.port} address "
                    f"{self.address:#04x}") from exc
            raise
        self.selected = value.bit_length() - 1 if value else None
        self._off = value == 0


class MuxChannel(i2c):
    """luma's I2C interface for one panel behind a multiplexer channel.

    luma.core's ``i2c`` given a bus of ours sends commands as
    ``write_i2c_block_data(address, 0x00, cmd)``; data goes as one
    ``i2c_rdwr`` message per 4,096 bytes after 0x40 (as luma's own managed
    ``i2c`` sends it). Each call holds the bus lock and selects the channel.

    Args:
        mux: The multiplexer the panel is behind.
        channel: Its channel, 0 to 7.
        address: The panel's own address on that channel.

    Raises:
        ValueError: Channel outside 0 to 7.
    """

    def __init__(self, mux: Multiplexer, channel: int, address: int = 0x3C) -> None:
        if not 0 <= channel <= 7:
            raise ValueError(f"a TCA9548A has channels 0 to 7, not {channel}")
        super().__init__(bus=mux.bus.smbus, address=address)
        self.mux = mux
        self.channel = channel
        self.address = address
        self._open = True
        mux.bus._acquire()

    def command(self, *cmd: int) -> None:
        """Select the channel, then send command bytes as luma's ``i2c`` does."""
        with self.mux.bus.lock:
            self._join()
            try:
                super().command(*cmd)
            except BaseException:
                self.mux.forget()  # the multiplexer may have been reset along with the panel
                raise

    def data(self, data: Any) -> None:
        """Select the channel, then send display data in messages of up to 4,096 bytes after 0x40."""
        with self.mux.bus.lock:
            self._join()
            try:
                for start in range(0, len(data), MESSAGE_BYTES):
                    block = [DATA_CONTROL, *data[start:start + MESSAGE_BYTES]]
                    self._bus.i2c_rdwr(i2c_msg.write(self.address, block))
            except BaseException:
                self.mux.forget()
                raise

    def window(self, commands: Sequence[int], payload: bytes) -> None:
        """Select the channel, then send `commands` and `payload` in one transfer (``hardware.panel_i2c``)."""
        with self.mux.bus.lock:
            self._join()
            try:
                self._bus.i2c_rdwr(i2c_msg.write(self.address, window_message(commands, payload)))
            except BaseException:
                self.mux.forget()
                raise

    def cleanup(self) -> None:
        """Release the shared bus; the last panel to go closes it. Safe to repeat."""
        if not self._open:
            return
        self._open = False
        self.mux.bus._release()

    def _join(self) -> None:
        """Join this panel's channel to the bus (bus lock held)."""
        if not self._open:
            raise luma.core.error.DeviceNotFoundError(
                f"I2C port {self.mux.bus.port} mux {self.mux.address:#04x} "
                f"channel {self.channel}: interface is closed")
        self.mux.select(self.channel)


class I2CBuses:
    """The shared buses of one table, opened at first use and closed after last use.

    Example::

        buses = I2CBuses()
        panel = buses.channel(port=1, mux=0x70, channel=3, address=0x3C)

    Args:
        open_bus: Opens a bus by number; smbus2's ``SMBus`` by default.
    """

    def __init__(self, open_bus: Callable[[int], Any] | None = None) -> None:
        self._open_bus = open_bus or _open_smbus
        self._buses: dict[int, SharedBus] = {}
        self._lock = threading.Lock()

    def bus(self, port: int) -> SharedBus:
        """Return the shared bus for ``port``, opening it if no panel uses it yet.

        Raises:
            luma.core.error.DeviceNotFoundError: No such bus (I2C not enabled?).
            luma.core.error.DevicePermissionError: Not allowed to open it.
        """
        with self._lock:
            if port not in self._buses:
                self._buses[port] = SharedBus(self._open_bus(port), port=port,
                                              on_idle=self._forget)
            return self._buses[port]

    def channel(self, port: int, mux: int, channel: int, address: int = 0x3C) -> MuxChannel:
        """Return the interface of the panel at ``address`` on ``channel`` of mux ``mux``."""
        return self.bus(port).mux(mux).channel(channel, address)

    def _forget(self, bus: SharedBus) -> None:
        with self._lock:
            if self._buses.get(bus.port) is bus:
                del self._buses[bus.port]
        close = getattr(bus.smbus, "close", None)
        if close is not None:
            close()


def _open_smbus(port: int) -> Any:
    """Open ``/dev/i2c-<port>`` with smbus2, turning errors into luma's, as its ``i2c`` does."""
    import smbus2

    try:
        return smbus2.SMBus(port)
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            raise luma.core.error.DeviceNotFoundError(
                f"I2C bus not found: {exc.filename or f'/dev/i2c-{port}'} "
                "(is I2C enabled in raspi-config?)") from exc
        if exc.errno in (errno.EPERM, errno.EACCES):
            raise luma.core.error.DevicePermissionError(
                f"I2C bus permission denied: {exc.filename or f'/dev/i2c-{port}'} "
                "(is the user in the i2c group?)") from exc
        raise
