"""SSD1306 and SH1106 drivers that send only what changed on the panel.

luma.oled's ``ssd1306`` and ``sh1106`` pack every pixel in a Python loop and
send the whole frame on every ``display()`` (1,024 bytes for 128x64, about
23 ms of a 400 kHz I2C bus). The controllers do not need that: their RAM keeps
the last frame, and both can be told where the next bytes go. These
subclasses keep luma's init sequence, rotation and sizes, and change only
``display()``:

- the image is packed into the controller's page format by Pillow in C: one
  transposition applies luma's rotation and makes each panel column a row,
  Pillow packs it with the top pixel in the least significant bit (raw mode
  ``1;R``), and slicing regroups the column-major bytes into pages. No
  per-pixel Python loop.
- the new frame is compared with the last one sent; an identical frame sends
  nothing, otherwise only the changed spans go on the bus:

  * SSD1306 (horizontal addressing): each update is one or more windows, set
    with 0x21 (column range) and 0x22 (page range), then the window's bytes.
    On an interface with ``window`` (an I2C panel's: ``hardware.panel_i2c``)
    the commands and the window's bytes go in one transfer, else apart.
    Within a page, changed runs closer than a window's cost are joined; across
    pages, a small dynamic programme picks, for each group of consecutive
    changed pages, either one bounding window or separate spans, whichever puts
    fewer bytes on the bus (commands and I2C framing included). A one-line
    change is one span; a change of a few stacked lines is usually one window.
  * SH1106 (page addressing only): for each changed run of a page, 0xB0|page,
    the column's low and high nibble (with luma's column offset, 2 on the usual
    128-wide modules), then the run's bytes.

- the first frame (sent by luma's own ``clear()`` at start), and the frame
  after a failed send or ``invalidate()``, is sent whole, exactly as luma
  sends it, because the panel RAM is then unknown.
- a failed send may mean the panel lost power (a loose wire, a hot-plugged
  module): it then comes back with its reset defaults (display off, page
  addressing, garbage RAM), and a frame alone would leave it dark. So the
  frame after a failure is wrapped in luma's own init sequence again: the
  commands luma's ``__init__`` sent before its first frame (recorded as it
  ran), the whole frame, then those it sent after (display on).

Example::

    from hardware.partial import PartialSSD1306
    from hardware.recording import RecordingInterface

    panel = PartialSSD1306(RecordingInterface(), width=128, height=64, rotate=2)
    panel.display(image)     # sends only the changed spans of the frame

``DRIVERS`` maps the driver names of a table file to these classes.
"""

from __future__ import annotations

import logging
import functools
from typing import Any

from PIL import Image

from hardware.luma_loading import deferred_multiprocessing
from hardware.panel_i2c import window_overhead

with deferred_multiprocessing():
    from luma.oled import device as oled

_log = logging.getLogger(__name__)

# Bytes that frame each I2C transfer besides its payload: the address byte and
# the control byte (0x00 before commands, 0x40 before data) luma's i2c sends.
I2C_FRAMING_BYTES = 2

# What one more transfer costs beyond its bytes, counted in bytes of a
# 400 kHz bus (22.5 us each): about 0.55 ms on a Pi Zero 2 W, for the system
# call, the interrupt and the wake-up of the waiting thread (some 50 us) and
# Python's calls through luma, courtier's multiplexer and smbus2's ctypes
# (some 30 us on a desktop core, x15; ``make bench`` measures it).
# Resending up to that many unchanged bytes is cheaper than one more transfer.
TRANSFER_COST = 25

# What starting a new SSD1306 window costs beyond its data: 6 command bytes
# (0x21 start end 0x22 start end) and two transfers (commands, then data).
SSD1306_WINDOW_COST = 6 + 2 * (I2C_FRAMING_BYTES + TRANSFER_COST)

# What starting a new SH1106 run costs beyond its data: 3 command bytes
# (page, column low nibble, column high nibble) and two transfers.
SH1106_RUN_COST = 3 + 2 * (I2C_FRAMING_BYTES + TRANSFER_COST)

# The same on an interface that sends a window's commands and data in one
# transfer (``hardware.panel_i2c``: each command byte after its own control byte).
SSD1306_ONE_TRANSFER_COST = window_overhead(6) + TRANSFER_COST
SH1106_ONE_TRANSFER_COST = window_overhead(3) + TRANSFER_COST

# luma turns an image by ``rotate`` quarter turns (``preprocess``) before packing
# it, and packing starts by transposing it: each pair is one transposition.
_COLUMNS_FIRST = {
    0: Image.Transpose.TRANSPOSE,
    1: Image.Transpose.FLIP_TOP_BOTTOM,
    2: Image.Transpose.TRANSVERSE,
    3: Image.Transpose.FLIP_LEFT_RIGHT,
}


def pack_pages(image: Image.Image, pages: int, rotate: int = 0) -> bytes:
    """Pack a one-bit image into controller RAM order, without a per-pixel loop.

    The controllers take one byte per column per page of eight rows, the top
    row in the least significant bit, pages one after another. One
    transposition turns the image by luma's ``rotate`` and makes each panel
    column a row of pixels; Pillow's ``1;R`` packer puts the first pixel of a
    row in the low bit, so each column comes out as ``pages`` bytes, top page
    first. Slicing every ``pages``-th byte then gathers one page.

    Args:
        image: Mode "1", as given to ``display`` (before rotation).
        pages: Number of eight-row pages of the panel.
        rotate: luma's ``rotate``: quarter turns clockwise, 0 to 3.

    Returns:
        ``pages * width`` bytes: page 0 columns 0..width-1, then page 1, ...
    """
    columns = image.transpose(_COLUMNS_FIRST[rotate]).tobytes("raw", "1;R")
    return b"".join(columns[page::pages] for page in range(pages))


# Each byte with its bits in the other order.
_MIRRORED = bytes(int(f"{value:08b}"[::-1], 2) for value in range(256))


def pages_of_rows(pixels: bytes, width: int, height: int) -> bytes:
    """Pack a one-bit image given as its bytes into controller RAM order, as ``pack_pages`` does unturned.

    ``pixels`` are as Pillow's ``Image.tobytes()`` packs a mode "1" image:
    rows top to bottom, the leftmost pixel in a byte's high bit. Pillow keeps
    such an image a byte a pixel, so packing it costs more than this: the
    bytes are read as one integer, three swaps of bits transpose every 8x8
    block in place (the classic recursive transposition, Hacker's Delight
    7-3, with rows ``width`` bits apart instead of 8), and the blocks' rows,
    their bits in the controller's order, are gathered page by page.

    Args:
        pixels: ``width * height / 8`` bytes.
        width: A multiple of 64 (whole 8-byte units a row).
        height: A multiple of 8 (whole pages).

    Returns:
        What ``pack_pages(image, height // 8, 0)`` returns for that image.
    """
    rows = width // 8
    if width % 64 or height % 8 or len(pixels) != rows * height:
        raise ValueError(f"{len(pixels)} bytes for a {width}x{height} panel that packs by blocks")
    bits = int.from_bytes(pixels, "big")
    for shift, mask in _swaps(width, height):
        swapped = (bits ^ (bits >> shift)) & mask
        bits ^= swapped ^ (swapped << shift)
    blocks = bits.to_bytes(len(pixels), "big").translate(_MIRRORED)
    # Byte `column` of row 8 * page + k now holds column 8 * column + k of that page. Gathered column by
    # column, each page's eight bytes of a column are one 8-byte unit, in (column, page) order; the
    # frame wants them in (page, column) order.
    pages = height // 8
    units = memoryview(b"".join(blocks[column::rows] for column in range(rows))).cast("Q")
    frame = bytearray(len(pixels))
    ordered = memoryview(frame).cast("Q")
    for page in range(pages):
        ordered[page * rows:(page + 1) * rows] = units[page::pages]
    return bytes(frame)


@functools.lru_cache(maxsize=8)
def _swaps(width: int, height: int) -> tuple[tuple[int, int], ...]:
    """The three bit swaps that transpose each 8x8 block of a ``width`` x ``height`` image read as an integer.

    Pixel (row, column) is bit ``width * height - 1 - (row * width + column)``;
    swap ``size`` exchanges, in every block, the size x size square at rows
    0..size-1 and columns size..2*size-1 of each 2*size square with the one
    at rows size..2*size-1 and columns 0..size-1, which lies
    ``size * (width - 1)`` bits lower; the mask marks the lower square.
    """
    swaps = []
    for size in (1, 2, 4):
        columns = sum(0x80 >> bit for bit in range(8) if bit % (2 * size) < size)  # 0..size-1 of each 2*size
        row = bytes([columns]) * (width // 8)
        lines = [row if line % (2 * size) >= size else bytes(width // 8) for line in range(height)]
        swaps.append((size * (width - 1), int.from_bytes(b"".join(lines), "big")))
    return tuple(swaps)


def changed_runs(old: bytes, new: bytes, width: int, pages: int,
                 join_gap: int) -> list[list[tuple[int, int]]]:
    """Find, page by page, the column runs where two frames differ.

    The frames are XORed as big integers, so a changed byte is a non-zero
    byte of the XOR; the runs are then found with ``bytes`` methods that loop
    in C: stripping zeros finds a page's first and last change, and finding
    ``join_gap + 1`` zeros finds where one run ends. Runs separated by at most
    ``join_gap`` unchanged columns are therefore one run, because resending
    those columns costs less than starting another transfer.

    Args:
        old: The frame the panel holds, from ``pack_pages``.
        new: The frame to show, the same length.
        width: Columns per page.
        pages: Number of pages.
        join_gap: Largest gap of unchanged columns worth resending.

    Returns:
        For each page, a list of ``(start, end)`` column runs, end exclusive;
        an empty list for an unchanged page.
    """
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    split = bytes(join_gap + 1)
    unchanged = bytes(width)
    runs: list[list[tuple[int, int]]] = []
    for page in range(pages):
        row = diff[page * width:(page + 1) * width]
        page_runs: list[tuple[int, int]] = []
        if row == unchanged:
            runs.append(page_runs)
            continue
        start = width - len(row.lstrip(b"\0"))
        last = len(row.rstrip(b"\0"))
        while start < last:
            end = row.find(split, start, last)
            if end < 0:
                end = last
            page_runs.append((start, end))
            start = width - len(row[end:].lstrip(b"\0"))
        runs.append(page_runs)
    return runs


def plan_windows(runs: list[list[tuple[int, int]]],
                 window_cost: int = SSD1306_WINDOW_COST) -> list[tuple[int, int, int, int]]:
    """Choose the SSD1306 windows that carry every changed run for the fewest bytes.

    Each group of consecutive changed pages is sent either as one window
    bounding all its runs (which also resends the unchanged bytes inside it)
    or, for a single page, as one window per run. A dynamic programme over the
    changed pages (at most 8 for a 64-row panel, so at most 36 groups) picks
    the cheapest split, counting ``window_cost`` per window.

    Args:
        runs: From ``changed_runs``.
        window_cost: Bytes a window costs beyond its data.

    Returns:
        Windows as ``(first_page, last_page, start_column, end_column)``,
        pages inclusive, end column exclusive, in page order.
    """
    changed = [page for page, page_runs in enumerate(runs) if page_runs]
    if len(changed) == 1:
        page = changed[0]
        return [(page, page, start, end) for start, end in runs[page]]
    # best[j]: the cheapest (cost, windows) for the first j changed pages.
    best: list[tuple[int, list[tuple[int, int, int, int]]]] = [(0, [])]
    for j, last in enumerate(changed, 1):
        alone = [(last, last, start, end) for start, end in runs[last]]
        cost = sum(end - start + window_cost for start, end in runs[last])
        choice = (best[j - 1][0] + cost, best[j - 1][1] + alone)
        start, end = runs[last][0][0], runs[last][-1][1]
        for i in range(j - 2, -1, -1):        # the group changed[i] .. last
            first = changed[i]
            start, end = min(start, runs[first][0][0]), max(end, runs[first][-1][1])
            cost = best[i][0] + (last - first + 1) * (end - start) + window_cost
            if cost < choice[0]:
                choice = (cost, best[i][1] + [(first, last, start, end)])
        best.append(choice)
    return best[-1][1]


class _PartialUpdates:
    """What both partial drivers share: packing, comparing, and the last frame sent.

    Mixed in before the luma class, so luma's ``__init__`` (whose ``clear()``
    calls ``display()``) already runs through the partial ``display()``.
    """

    _frame: bytes | None = None  # what the panel RAM holds, None when unknown
    _lost = False  # a send failed: the panel may have lost power and its settings with it
    compares_frames = True  # display() skips an identical frame itself (hardware.screens.Screen reads this)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Record luma's init sequence as it runs: the commands before its first frame, and after.
        self._init_script: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = ([], [])
        self._recording: list[tuple[int, ...]] | None = self._init_script[0]
        super().__init__(*args, **kwargs)
        self._recording = None

    def command(self, *cmd: int) -> None:
        """Send command bytes (luma's ``device.command``), noting those of the init sequence."""
        if self._recording is not None:
            self._recording.append(cmd)
        super().command(*cmd)  # type: ignore[misc]

    def display(self, image: Image.Image) -> bool:
        """Show a one-bit image, sending only the bytes that changed since the last frame.

        Args:
            image: Mode "1", the device's ``size`` (turned by ``rotate`` here, as luma does).

        Returns:
            True if anything was sent, False for a frame identical to the last.

        Raises:
            ValueError: Wrong mode or size.
            OSError: Or whatever else the serial interface raises (luma's
                ``DeviceNotFoundError``); the next frame is then sent whole,
                as the panel RAM is no longer known.
        """
        if image.mode != self.mode:
            raise ValueError(f"image mode must be {self.mode!r}, not {image.mode!r}")
        if image.size != self.size:
            raise ValueError(f"image size must be {self.size}, not {image.size}")
        return self._show_frame(pack_pages(image, self._pages, self.rotate))

    def display_pixels(self, pixels: bytes) -> bool:
        """``display`` for a one-bit image given as its bytes (``Image.tobytes()`` of a mode "1" image of ``size``).

        An unturned panel a multiple of 64 pixels wide packs them without
        Pillow (``pages_of_rows``); any other goes through ``display``.

        Raises:
            ValueError: Not as many bytes as the image has.
        """
        width, height = self.size
        if len(pixels) != (width + 7) // 8 * height:
            raise ValueError(f"{len(pixels)} bytes for a {width}x{height} one-bit image")
        if self.rotate or self._w % 64 or self.height % 8:
            return self.display(Image.frombytes("1", self.size, pixels))
        return self._show_frame(pages_of_rows(pixels, self._w, self.height))

    def _show_frame(self, frame: bytes) -> bool:
        """Send what changed from the last frame to `frame` (in controller RAM order); False if nothing did."""
        old = self._frame
        if frame == old:
            return False
        self._frame = None  # until the whole update is on the panel
        recording, self._recording = self._recording, None
        try:
            if self._lost:
                _log.info("%s: sending the init sequence again after a failed send", type(self).__name__)
                self._reinitialise(frame)
            elif old is None:
                _log.debug("%s: panel RAM unknown, sending the whole frame", type(self).__name__)
                self._send_whole(frame)
            else:
                self._send_changes(old, frame)
        except BaseException:
            self._lost = True
            raise
        finally:
            # luma's __init__ sends its first frame through here: what follows it is the rest of the sequence.
            self._recording = self._init_script[1] if recording is not None else None
        self._frame = frame
        return True

    def _reinitialise(self, frame: bytes) -> None:
        """Send luma's init sequence around a whole frame, as at start; the panel is then known again."""
        before, after = self._init_script
        for cmd in before:
            self.command(*cmd)
        self._send_whole(frame)
        for cmd in after:
            self.command(*cmd)
        self._lost = False

    def invalidate(self) -> None:
        """Forget what the panel holds, so the next frame is sent whole (after a panel reset)."""
        self._frame = None

    @property
    def init_sequence(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """luma's init commands as recorded at start: those before the first frame, and those after."""
        return tuple(self._init_script[0]), tuple(self._init_script[1])

    def _send_whole(self, frame: bytes) -> None:
        raise NotImplementedError

    def _send_changes(self, old: bytes, frame: bytes) -> None:
        raise NotImplementedError

    def _one_transfer(self) -> Any:
        """The interface's ``window(commands, payload)``, which sends both in one transfer, or None (SPI)."""
        return getattr(self._serial_interface, "window", None)

    def _send_window(self, window: Any, commands: tuple[int, ...], payload: bytes) -> None:
        """Send addressing `commands`, then `payload` as display data: in one transfer where `window` can."""
        if window is not None:
            window(commands, payload)
        else:
            self.command(*commands)
            self.data(list(payload))


class PartialSSD1306(_PartialUpdates, oled.ssd1306):
    """luma.oled's ``ssd1306`` sending only the changed windows of each frame.

    Takes the same arguments as ``luma.oled.device.ssd1306`` (serial
    interface, width, height, rotate) and sends the same init sequence and
    first frame.
    """

    def __init__(self, serial_interface: Any = None, width: int = 128, height: int = 64,
                 rotate: int = 0, **kwargs: Any) -> None:
        super().__init__(serial_interface, width, height, rotate, **kwargs)
        # The stock packer's lookup tables (8,192 entries each), unused here.
        del self._mask, self._offsets

    def _send_whole(self, frame: bytes) -> None:
        self._send_window(self._one_transfer(), (self._const.COLUMNADDR, self._colstart, self._colend - 1,
                                                 self._const.PAGEADDR, 0, self._pages - 1), frame)

    def _send_changes(self, old: bytes, frame: bytes) -> None:
        width = self._w
        window = self._one_transfer()
        cost = SSD1306_WINDOW_COST if window is None else SSD1306_ONE_TRANSFER_COST
        runs = changed_runs(old, frame, width, self._pages, cost)
        for first, last, start, end in plan_windows(runs, cost):
            payload = b"".join(frame[page * width + start:page * width + end]
                               for page in range(first, last + 1))
            self._send_window(window, (self._const.COLUMNADDR, self._colstart + start, self._colstart + end - 1,
                                       self._const.PAGEADDR, first, last), payload)


class PartialSSD1309(PartialSSD1306, oled.ssd1309):
    """luma.oled's ``ssd1309`` (the SSD1306 command set) with partial updates."""


class PartialSH1106(_PartialUpdates, oled.sh1106):
    """luma.oled's ``sh1106`` sending only the changed runs of each page.

    Takes the same arguments as ``luma.oled.device.sh1106``, including
    ``page_address_offset`` (the first RAM column shown, 2 on the usual
    128-wide modules of this 132-column controller), and sends the same init
    sequence and first frame.
    """

    def _send_whole(self, frame: bytes) -> None:
        width = self._w
        window = self._one_transfer()
        for page in range(self._pages):
            self._send_run(window, page, 0, frame[page * width:(page + 1) * width])

    def _send_changes(self, old: bytes, frame: bytes) -> None:
        width = self._w
        window = self._one_transfer()
        runs = changed_runs(old, frame, width, self._pages,
                            SH1106_RUN_COST if window is None else SH1106_ONE_TRANSFER_COST)
        for page, page_runs in enumerate(runs):
            for start, end in page_runs:
                self._send_run(window, page, start, frame[page * width + start:page * width + end])

    def _send_run(self, window: Any, page: int, start: int, payload: bytes) -> None:
        column = self._page_address_offset + start
        self._send_window(window, (0xB0 | page, column & 0x0F, 0x10 | column >> 4), payload)


DRIVERS: dict[str, type] = {
    "ssd1306": PartialSSD1306,
    "ssd1309": PartialSSD1309,
    "sh1106": PartialSH1106,
}
