"""Helpers for tests that drive a runtime through a mock table's real gpiozero buttons and read its panels.

Public so that a new game's runtime tests are written the way the shipped
games' are (see `engine.testing` for the rules side).
"""

from __future__ import annotations

import functools
import os
import resource
import select
import shutil
import site
import socket
import subprocess
import sys
import tty
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

from PIL import Image, ImageChops, ImageDraw

from hardware.events import InputEvent

from .table.faces import lines_of
from .table.journal import records_of
from .table.render import WIDE_LINE, font, line_height, render_face
from .table.runtime import Runtime


def run_on(table: Any, match: Any, journal: Any = None) -> Runtime:
    """A runtime for `match` on the seats' screens of an open mock table, its buttons wired in."""
    runtime = Runtime(match, [seat.screen for seat in table.seats], journal)
    table.on_event = runtime.post
    return runtime


def post(runtime: Runtime, seat: int, button: str = "ok", gesture: str = "press", times: int = 1) -> None:
    """Hand the runtime a seat's button gesture, as the button reports it, then let the runtime handle it.

    For tests without pins (a seat with no buttons, or a gesture like a hold
    that a pin would need a clock for); `press` goes through the real button.
    """
    for _ in range(times):
        runtime.post(InputEvent(seat, button, gesture))
    runtime.drain()


def face_text(runtime: Runtime, seat: int) -> str:
    """The seat's face as text, one line of the screen a line."""
    return "\n".join(lines_of(runtime.seats[seat].face))


def press(table: Any, runtime: Runtime, seat: int, button: str, times: int = 1) -> None:
    """Press a seat's real gpiozero button on its mock pin, then let the runtime handle the events."""
    pin = table.seats[seat].buttons.pin(button)
    for _ in range(times):
        pin.drive_low()
        pin.drive_high()
    runtime.drain()


def screen_text(table: Any, runtime: Runtime, seat: int) -> str:
    """The seat's face as text, after checking its screen shows exactly that face, pixel for pixel."""
    shown = table.seats[seat].screen
    assert shown.image.tobytes() == render_face(runtime.seats[seat].face, shown.size).tobytes()
    return face_text(runtime, seat)


class FakeClock:
    """A monotonic clock that stands still until a test moves `now`, for the code that takes a `clock`."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def unscaled(image: Image.Image, scale: int) -> Image.Image:
    """The panel's image at the layout's own resolution (each font pixel one pixel again)."""
    if scale > 1:
        image = image.resize((image.width // scale, image.height // scale), Image.Resampling.NEAREST)
    return image


def lit(image: Image.Image) -> Image.Image:
    """Every pixel that differs from black (in any colour) as 255."""
    if image.mode == "RGB":
        red, green, blue = image.split()
        image = ImageChops.lighter(red, ImageChops.lighter(green, blue))
    return image.convert("L").point(lambda v: 255 if v else 0)


def rendered(text: str) -> Image.Image | None:
    """`text` drawn alone with the screen font, cut to its ink; None for a line with no ink."""
    image = Image.new("L", (int(font().getlength(text)) + 4, WIDE_LINE + 4))
    font().draw(ImageDraw.Draw(image), (0, 2), text, fill=255, line=line_height(text))
    box = image.getbbox()
    return image.crop(box) if box else None


def found(frame: Image.Image, pattern: Image.Image) -> bool:
    """Whether `pattern`'s pixels appear exactly somewhere in `frame` (both "L", 0 or 255)."""
    width, height = frame.size
    w, h = pattern.size
    pixels, rows = frame.tobytes(), [pattern.tobytes()[r * w:(r + 1) * w] for r in range(h)]
    for y in range(height - h + 1):
        line = pixels[y * width:(y + 1) * width]
        x = line.find(rows[0])
        while x != -1:
            if x + w <= width and all(pixels[(y + r) * width + x:(y + r) * width + x + w] == rows[r]
                                      for r in range(1, h)):
                return True
            x = line.find(rows[0], x + 1)
    return False


# A Pi table's seats in the tests' table files: name and button pins (prev, next, ok), clear of the
# pins their SPI screens take (DC 24, reset 25 or 27, chip select 17 or 22, a backlight on 12).
PI_SEATS = (("Red", (5, 6, 13)), ("Blue", (19, 26, 16)), ("Green", (20, 21, 23)))
PI_SCREENS = (("ssd1306", 0x3C), ("ssd1306", 0x3D), ("sh1106", 0x3E))  # each seat's OLED on I2C bus 1
SPI_SCREEN = ('screen = { driver = "sh1106", bus = "spi", port = 0, device = 0, '
              'gpio_dc = 24, gpio_rst = 25, gpio_cs = 17 }')


def pi_table_text(*, seats: int = 3, table: str = "", spi_seat: int | None = None,
                  wiring: Mapping[int, str] | None = None, extra: str = "") -> str:
    """A table file for a Pi (backend "pi"), as its owner would write one: Red, Blue and Green (the first `seats`).

    Each seat has its three buttons and an OLED on I2C bus 1 (`PI_SCREENS`), but for `spi_seat`,
    whose SH1106 is on SPI with a GPIO chip select, and the seats in `wiring` (by index: the lines that
    wire that seat instead, such as a serial port or a bot). `table` adds lines to the [table] block;
    `extra` adds blocks after the seats ([public_screen], [web], [options.GAME], another seat).
    """
    lines = ["[table]", 'name = "Test table"', 'backend = "pi"', *table.strip().splitlines(), ""]
    for index, (name, (prev, next_, ok)) in enumerate(PI_SEATS[:seats]):
        lines += ["[[seat]]", f'name = "{name}"']
        if wiring is not None and index in wiring:
            lines.append(wiring[index].strip())
        else:
            driver, address = PI_SCREENS[index]
            lines.append(f"buttons = {{ prev = {prev}, next = {next_}, ok = {ok} }}")
            lines.append(SPI_SCREEN if index == spi_seat else
                         f'screen = {{ driver = "{driver}", bus = "i2c", port = 1, address = 0x{address:X} }}')
        lines.append("")
    return "\n".join(lines) + "\n" + extra


class PtyPort:
    """A serial device for tests: the master end of a pty pair, whose slave the Pi opens by name.

    `path` is a symlink to the slave, as /dev/serial/by-id names a real
    device, so `unplug` makes the device vanish under the Pi's link and
    `plug` brings a fresh one back under the same name.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.master = self.slave = -1
        self.plug()

    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        if os.path.lexists(self.path):
            os.unlink(self.path)
        os.symlink(os.ttyname(self.slave), self.path)

    def unplug(self) -> None:
        os.unlink(self.path)
        self.close()

    def close(self) -> None:
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1

    def write(self, data: bytes) -> None:
        os.write(self.master, data)


def read_until(fd: int, output: bytearray, marker: bytes | None = None, timeout: float = 60.0) -> bytearray:
    """Read a child's pipe or pty into `output` until `marker` shows up, or to its end when `marker` is None.

    It waits with select, so a child that falls silent fails the test
    (`timeout` seconds without a byte) instead of hanging it.
    """
    while marker is None or marker not in output:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            raise AssertionError(f"{marker!r} not seen; output so far: {bytes(output[-500:])!r}")
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # Linux: a pty's master reads EIO once the child has gone
            chunk = b""
        if not chunk:
            if marker is None:
                return output
            raise AssertionError(f"{marker!r} not seen before exit: {bytes(output[-500:])!r}")
        output.extend(chunk)
    return output


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, for a table page a test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Lower this process's file-size limit (RLIMIT_FSIZE), as a full card refuses writes, then restore it.

    A write past the limit fails with EFBIG ("File too large"); Python
    ignores the SIGXFSZ the kernel also sends. Only the soft limit moves, so
    an unprivileged process can raise it back.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def journal_end(path: Any) -> int:
    """The length of a journal file's records, the zeros laid ahead of them left out: where a full card stops it."""
    return len(records_of(Path(path).read_bytes()))


NOBODY = 65534  # the conventional unprivileged uid and gid


def unprivileged() -> dict[str, Any]:
    """`subprocess` arguments that run a child without root's power to read any file.

    Root reads a file whatever its mode, so a test of a permission problem
    runs its process as nobody when it runs as root; any other user already
    meets file modes as a table's user does.
    """
    if os.geteuid() != 0:
        return {}
    return {"user": NOBODY, "group": NOBODY, "extra_groups": []}


@functools.cache
def unprivileged_python(root: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """A Python command that `unprivileged()` may run, and the environment it needs to import courtier.

    The running interpreter may sit where nobody may go (a pyenv under
    /root): then another interpreter of the same version is tried, given
    this one's site-packages and `root` (the checkout) on its path.

    Raises:
        RuntimeError: No interpreter runs for that user; the message says why (tests skip with it).
    """
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    paths = [root, *site.getsitepackages()]
    env = (("PYTHONPATH", os.pathsep.join(paths)), ("PYTHONDONTWRITEBYTECODE", "1"))
    tried = []
    for python in dict.fromkeys([sys.executable, shutil.which(version) or "", f"/usr/bin/{version}"]):
        if not python:
            continue
        try:
            result = subprocess.run([python, "-c", "import engine, firmware, hardware, gpiozero, luma.oled"],
                                    env=dict(os.environ, **dict(env)), capture_output=True, text=True,
                                    timeout=60, **unprivileged())
        except OSError as err:
            tried.append(f"{python}: {err.strerror}")
            continue
        if result.returncode == 0:
            return (python,), env
        tried.append(f"{python}: {result.stderr.strip().splitlines()[-1:]}")
    raise RuntimeError(f"no {version} the unprivileged user can run ({'; '.join(tried)})")
