"""What the real call path puts on the wire, recorded where it meets the kernel, and how long that takes.

A table's screens are opened exactly as on the Pi (``hardware.screens``:
luma's ``i2c`` on a port, or courtier's ``hardware.mux.MuxChannel`` on the bus
a TCA9548A shares, or luma's ``spi`` / ``gpio_cs_spi``), with two things
swapped for recorders at the kernel's edge:

- I2C: smbus2's ``SMBus`` opens no device, and smbus2's ``ioctl`` is
  answered by ``KernelRecorder``, which decodes each request as the kernel
  would: ``I2C_SMBUS`` (one transfer: ``write_byte`` is a multiplexer
  channel select, ``write_i2c_block_data`` a command or a 32-byte data
  block, as luma sends them on a bus it is handed), ``I2C_RDWR`` (one
  transfer per message: luma's managed path sends up to 4,096 data bytes in
  one), and ``I2C_SLAVE`` (no transfer: smbus2 sets the address whenever it
  changes, so between the multiplexer and a panel).
- SPI: luma's ``spi`` is handed a recording ``spidev`` and ``RPi.GPIO``
  (``SpiRecorder``), so each ``writebytes`` is one transfer.

The time model, per transfer of ``n`` bytes after the address byte:

- I2C: START, the address byte, the ``n`` bytes, STOP: ``9 * (1 + n) + 2``
  SCL clocks (8 bits and the ACK per byte; START and STOP one clock each),
  plus ``KERNEL_TRANSFER_S`` for the ioctl round trip; an ``I2C_SLAVE``
  ioctl costs ``KERNEL_CALL_S``.
- SPI: 8 clocks per byte plus ``KERNEL_TRANSFER_S``; the data/command and
  chip-select lines are GPIO writes (``KERNEL_CALL_S`` each).

``KERNEL_TRANSFER_S`` (50 us) is an estimate, not a measurement on a Pi: a
transfer is an ioctl system call, the driver's set-up of the controller, at
least one interrupt at its end and the wake-up of the thread waiting on it.
Martin Sperl measured the last three for the BCM2835 SPI driver on a Pi 2
(github.com/msperl/spi-bcm2835, issue 11: 4-5 us to enter the interrupt,
4-8 us in it, 19-25 us to wake the waiting thread), 27-38 us together; the
system call and the copy of the request add some 10 us more. The I2C driver
(i2c-bcm2835) works the same way (an interrupt per FIFO refill and at the
end, ``wait_for_completion``), so 50 us is used for both buses. Clock
stretching and the slower real clocks of some boards (REFERENCES.md 3.3)
are not modelled: real buses are slower, never faster.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import types
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import smbus2
import smbus2.smbus2 as smbus2_module

I2C_HZ = 400_000
SPI_HZ = 8_000_000
KERNEL_TRANSFER_S = 50e-6
KERNEL_CALL_S = 5e-6


@dataclass(frozen=True)
class Transfer:
    """One transaction on a bus, or one system call that puts nothing on it.

    Attributes:
        bus: Which bus ("i2c-1", "spi0").
        address: The I2C address, or the chip-select line, of whom it is for.
        size: Bytes after the address byte (I2C) or bytes clocked (SPI); 0 for a call.
        wire: False for a call that moves nothing on the wire (setting the
            slave address, a GPIO write).
    """

    bus: str
    address: int
    size: int
    wire: bool = True

    @property
    def spi(self) -> bool:
        return self.bus.startswith("spi")

    def seconds(self, i2c_hz: int = I2C_HZ, spi_hz: int = SPI_HZ) -> float:
        """How long this transfer holds the runtime: the wire, then the kernel's part."""
        if not self.wire:
            return KERNEL_CALL_S
        if self.spi:
            return 8 * self.size / spi_hz + KERNEL_TRANSFER_S
        return (9 * (1 + self.size) + 2) / i2c_hz + KERNEL_TRANSFER_S


def seconds(transfers: Iterable[Transfer], i2c_hz: int = I2C_HZ, spi_hz: int = SPI_HZ) -> float:
    """Total time of transfers made one after another (the runtime waits for each)."""
    return sum(t.seconds(i2c_hz, spi_hz) for t in transfers)


def wire_bytes(transfers: Iterable[Transfer]) -> int:
    """Bytes on the wire, address bytes included."""
    return sum(t.size + (0 if t.spi else 1) for t in transfers if t.wire)


class Log:
    """Every transfer, in order, and the CPU time the recording itself took (to subtract)."""

    def __init__(self) -> None:
        self.transfers: list[Transfer] = []
        self.overhead_ns = 0
        self._lock = threading.Lock()

    def add(self, transfer: Transfer) -> None:
        with self._lock:
            self.transfers.append(transfer)

    def mark(self) -> int:
        """A position in the log, for `since`."""
        return len(self.transfers)

    def since(self, mark: int) -> list[Transfer]:
        return self.transfers[mark:]


class KernelRecorder:
    """Stands in for the kernel's i2c-dev below smbus2, and for spidev and RPi.GPIO below luma.

    Use as a context manager: while it is active, ``smbus2.SMBus(port)``
    (as luma's ``i2c`` and ``hardware.mux`` call it) opens a recorded bus,
    and ``import spidev`` / ``import RPi.GPIO`` give the recorders. A bus
    or SPI device writes to the log that was ``current`` when it was opened
    (so two tables can be recorded side by side); GPIO writes go to the
    ``current`` log.

    Attributes:
        current: The log new buses are bound to.
    """

    def __init__(self) -> None:
        self.current = Log()
        self._fds: dict[int, tuple[str, Log]] = {}
        self._addresses: dict[int, int] = {}
        self._stack = contextlib.ExitStack()
        self._real_ioctl = smbus2_module.ioctl

    def __enter__(self) -> KernelRecorder:
        recorder = self

        class RecordedSMBus(smbus2.SMBus):
            """smbus2's SMBus on a recorded descriptor: every ioctl goes to the recorder."""

            def open(self, bus: int | str) -> None:
                self.fd = recorder._descriptor(f"i2c-{bus}")
                self.funcs = smbus2.I2cFunc(0)

            def close(self) -> None:
                if self.fd is not None:
                    recorder._fds.pop(self.fd, None)
                    os.close(self.fd)
                    self.fd = None

        patches = self._stack
        patches.enter_context(_patched(smbus2, "SMBus", RecordedSMBus))
        patches.enter_context(_patched(smbus2_module, "ioctl", self._ioctl))
        patches.enter_context(_patched_modules(spi_modules(self)))
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stack.close()

    def _descriptor(self, name: str) -> int:
        fd = os.open(os.devnull, os.O_RDWR)  # a real descriptor number, so nothing else can take it
        self._fds[fd] = (name, self.current)
        return fd

    def _ioctl(self, fd: int, request: int, arg: Any = 0) -> int:
        found = self._fds.get(fd)
        if found is None:
            return self._real_ioctl(fd, request, arg)
        started = time.thread_time_ns()
        bus, log = found
        if request in (smbus2_module.I2C_SLAVE, smbus2_module.I2C_SLAVE_FORCE):
            self._addresses[fd] = int(arg)
            log.add(Transfer(bus, int(arg), 0, wire=False))
        elif request == smbus2_module.I2C_SMBUS:
            log.add(Transfer(bus, self._addresses.get(fd, -1), _smbus_size(arg)))
        elif request == smbus2_module.I2C_RDWR:
            for index in range(arg.nmsgs):
                message = arg.msgs[index]
                log.add(Transfer(bus, message.addr, message.len))
        elif request != smbus2_module.I2C_FUNCS:
            raise OSError(f"{bus}: ioctl {request:#x} is not recorded")
        log.overhead_ns += time.thread_time_ns() - started
        return 0


def _smbus_size(message: Any) -> int:
    """Bytes after the address of an I2C_SMBUS write: the command byte and its data."""
    if message.read_write != smbus2_module.I2C_SMBUS_WRITE:
        raise OSError("a read: screens are only written to")
    size = message.size
    if size == smbus2_module.I2C_SMBUS_BYTE:
        return 1
    if size == smbus2_module.I2C_SMBUS_BYTE_DATA:
        return 2
    if size == smbus2_module.I2C_SMBUS_I2C_BLOCK_DATA:
        return 1 + message.data.contents.block[0]
    raise OSError(f"SMBus transfer size {size} is not recorded")


def spi_modules(recorder: KernelRecorder) -> dict[str, types.ModuleType]:
    """Recording stand-ins for ``spidev`` and ``RPi.GPIO``, as luma's ``spi`` imports them."""

    class SpiDev:
        """spidev's SpiDev: each ``writebytes`` is one transfer on the wire."""

        def __init__(self) -> None:
            self.log = recorder.current
            self.bus = "spi"
            self.mode = 0
            self.max_speed_hz = SPI_HZ
            self.no_cs = False
            self.device = 0

        def open(self, port: int, device: int) -> None:
            self.bus, self.device = f"spi{port}", device

        def writebytes(self, data: list[int]) -> None:
            started = time.thread_time_ns()
            self.log.add(Transfer(self.bus, self.device, len(data)))
            self.log.overhead_ns += time.thread_time_ns() - started

        writebytes2 = writebytes

        def close(self) -> None:
            pass

    spidev = types.ModuleType("spidev")
    spidev.SpiDev = SpiDev  # type: ignore[attr-defined]

    gpio = types.ModuleType("RPi.GPIO")
    for name, value in {"BCM": 11, "BOARD": 10, "OUT": 0, "IN": 1, "LOW": 0, "HIGH": 1}.items():
        setattr(gpio, name, value)

    def output(pin: int, value: int) -> None:
        started = time.thread_time_ns()
        recorder.current.add(Transfer("gpio", pin, 0, wire=False))
        recorder.current.overhead_ns += time.thread_time_ns() - started

    def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    gpio.output = output  # type: ignore[attr-defined]
    gpio.setmode = gpio.setwarnings = gpio.setup = gpio.cleanup = nothing  # type: ignore[attr-defined]
    rpi = types.ModuleType("RPi")
    rpi.GPIO = gpio  # type: ignore[attr-defined]
    return {"spidev": spidev, "RPi": rpi, "RPi.GPIO": gpio}


@contextlib.contextmanager
def _patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, saved)


@contextlib.contextmanager
def _patched_modules(modules: dict[str, types.ModuleType]) -> Iterator[None]:
    saved = {name: sys.modules.get(name) for name in modules}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
