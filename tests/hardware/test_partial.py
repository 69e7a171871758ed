"""Tests for hardware.partial: the partial-update drivers leave the panel RAM the stock drivers would.

Each test runs a stock luma.oled driver and a partial driver side by side, each
over its own ``RecordingInterface``, and feeds the recorded command and data
bytes into a model of the controller's display RAM. The models interpret the
addressing commands the drivers use (SSD1306: memory mode, 0x21 column window,
0x22 page window, auto-increment in horizontal mode, and page mode's 0xB0
page and column nibbles; SH1106: 0xB0 page and column nibbles, column
auto-increment), so what is compared is what a real panel would show.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from luma.oled import device as oled
from PIL import Image, ImageDraw

from engine.testing import reachable_matches
from firmware.table.faces import seat_face
from firmware.table.menu import Menu
from firmware.table.render import render_face
from firmware.testing import FakeClock, post
from hardware.partial import (DRIVERS, SSD1306_ONE_TRANSFER_COST, SSD1306_WINDOW_COST, TRANSFER_COST,
                              PartialSH1106, PartialSSD1306, PartialSSD1309, changed_runs, pack_pages,
                              pages_of_rows, plan_windows)
from hardware.panel_i2c import window_message, window_overhead
from hardware.recording import RecordingI2C, RecordingInterface


# --- controller RAM models ---------------------------------------------------------

def message_parts(message: bytes) -> list[tuple[str, bytes]]:
    """Split the bytes after the address of one I2C transfer into command and data bytes, as the controller does.

    Each control byte (SSD1306 datasheet 8.1.5.2; the SH1106's is the same)
    has Co in bit 7 and D/C# in bit 6, its other bits 0: Co = 1 means one
    byte follows, then another control byte; Co = 0 that every byte to the
    end of the transfer is of the kind D/C# says.
    """
    parts: list[tuple[str, bytes]] = []
    i = 0
    while i < len(message):
        control = message[i]
        assert control & 0x3F == 0, f"control byte {control:#04x} sets bits the controller does not define"
        kind = "data" if control & 0x40 else "command"
        chunk = message[i + 1:i + 2] if control & 0x80 else message[i + 1:]
        assert chunk or not control & 0x80, f"control byte {control:#04x} ends the transfer before its byte"
        i += 1 + len(chunk)
        if not chunk:
            continue  # a last control byte with nothing after it: the transfer just ends
        if parts and parts[-1][0] == kind:
            parts[-1] = (kind, parts[-1][1] + chunk)
        else:
            parts.append((kind, chunk))
    return parts


def bus_parts(calls: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """Recorded calls as the controller takes them: each window split into its command and data bytes."""
    return [part for kind, payload in calls
            for part in (message_parts(payload) if kind == "window" else [(kind, payload)])]


class _Ram:
    """Feeds recorded bus calls to a controller model's ``command`` and ``data``.

    Both controllers start with the display off (0xAE) and turn it on with
    0xAF; ``power_lost`` puts a model back in its power-on state, as a panel
    that lost its supply comes back: RAM garbage, display off, reset
    addressing.
    """

    on = False

    def feed(self, calls: list[tuple[str, bytes]]) -> None:
        for kind, payload in bus_parts(calls):
            if kind == "command":
                self.command(payload)
            else:
                self.data(payload)

    def power_lost(self, garbage: bytes) -> None:
        self.__init__(garbage)  # type: ignore[misc]
        self.on = False

    def _switch(self, code: int) -> None:
        if code in (0xAE, 0xAF):
            self.on = code == 0xAF


class Ssd1306Ram(_Ram):
    """The SSD1306's 128x64 display RAM (8 pages of 128 column bytes) and its address pointers.

    Starts in page addressing mode, the controller's reset default; luma's
    init switches it to horizontal mode with 0x20 0x00.
    """

    COLUMNS = 128
    PAGES = 8
    # Commands followed by argument bytes (SSD1306 datasheet, section 9); all others are one byte.
    ARGUMENTS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1,
                 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self, garbage: bytes) -> None:
        self.ram = bytearray(garbage[:self.COLUMNS * self.PAGES])
        self.mode = 2                    # 0 horizontal, 1 vertical, 2 page
        self.columns = (0, self.COLUMNS - 1)
        self.pages = (0, self.PAGES - 1)
        self.column = 0
        self.page = 0
        self.written: set[int] = set()   # RAM addresses written, for tests to inspect and clear

    def command(self, payload: bytes) -> None:
        i = 0
        while i < len(payload):
            code = payload[i]
            count = self.ARGUMENTS.get(code, 0)
            args = payload[i + 1:i + 1 + count]
            assert len(args) == count, f"command {code:#04x} lacks its arguments in {payload.hex()}"
            i += 1 + count
            self._switch(code)
            if code == 0x20:
                self.mode = args[0] & 0x03
            elif code == 0x21:
                self.columns = (args[0] & 0x7F, args[1] & 0x7F)
                self.column = self.columns[0]
            elif code == 0x22:
                self.pages = (args[0] & 0x07, args[1] & 0x07)
                self.page = self.pages[0]
            elif 0xB0 <= code <= 0xB7 and self.mode == 2:
                self.page = code & 0x07
            elif code <= 0x0F and self.mode == 2:
                self.column = (self.column & 0xF0) | code
            elif 0x10 <= code <= 0x1F and self.mode == 2:
                self.column = (self.column & 0x0F) | (code & 0x0F) << 4

    def data(self, payload: bytes) -> None:
        for byte in payload:
            address = self.page * self.COLUMNS + self.column
            self.ram[address] = byte
            self.written.add(address)
            self._advance()

    def _advance(self) -> None:
        (c0, c1), (p0, p1) = self.columns, self.pages
        if self.mode == 0:
            if self.column < c1:
                self.column += 1
            else:
                self.column = c0
                self.page = self.page + 1 if self.page < p1 else p0
        elif self.mode == 1:
            if self.page < p1:
                self.page += 1
            else:
                self.page = p0
                self.column = self.column + 1 if self.column < c1 else c0
        else:
            self.column = self.column + 1 if self.column < c1 else c0


class Sh1106Ram(_Ram):
    """The SH1106's 132-column display RAM and its page and column pointers.

    The SH1106 has page addressing only: 0xB0|page picks the page, 0x00|low
    and 0x10|high set the column, and each data byte moves the column one on
    (the page never changes by itself). 16 pages cover luma's 128x128 mode.
    """

    COLUMNS = 132
    PAGES = 16
    # Two-byte commands (SH1106 datasheet, command table); all others are one byte.
    ARGUMENTS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self, garbage: bytes) -> None:
        self.ram = bytearray(garbage[:self.COLUMNS * self.PAGES])
        self.column = 0
        self.page = 0
        self.written: set[int] = set()

    def command(self, payload: bytes) -> None:
        i = 0
        while i < len(payload):
            code = payload[i]
            count = self.ARGUMENTS.get(code, 0)
            assert i + count < len(payload), f"command {code:#04x} lacks its argument"
            i += 1 + count
            self._switch(code)
            if code <= 0x0F:
                self.column = (self.column & 0xF0) | code
            elif code <= 0x1F:
                self.column = (self.column & 0x0F) | (code & 0x0F) << 4
            elif 0xB0 <= code <= 0xBF:
                self.page = code & 0x0F

    def data(self, payload: bytes) -> None:
        for byte in payload:
            assert self.column < self.COLUMNS, "data written past the last column"
            address = self.page * self.COLUMNS + self.column
            self.ram[address] = byte
            self.written.add(address)
            self.column += 1


# --- running both drivers -----------------------------------------------------------

STOCK = {"ssd1306": oled.ssd1306, "ssd1309": oled.ssd1309, "sh1106": oled.sh1106}
RAM = {"ssd1306": Ssd1306Ram, "ssd1309": Ssd1306Ram, "sh1106": Sh1106Ram}


class Pair:
    """A stock and a partial driver of one kind, each with its bus and its panel RAM.

    Both RAMs start from the same garbage, as a panel's does at power-on.
    """

    def __init__(self, driver: str, width: int = 128, height: int = 64, rotate: int = 0,
                 seed: int = 0, bus: str = "i2c") -> None:
        garbage = random.Random(seed).randbytes(132 * 16)
        # luma's stock drivers send commands and data apart on either bus; courtier's drivers send
        # a window in one transfer on an I2C panel's interface, apart where it has no `window` (SPI).
        self.stock_bus = RecordingInterface()
        self.partial_bus = RecordingI2C() if bus == "i2c" else RecordingInterface()
        self.stock_ram, self.partial_ram = RAM[driver](garbage), RAM[driver](garbage)
        self.stock = STOCK[driver](self.stock_bus, width=width, height=height, rotate=rotate)
        self.partial = DRIVERS[driver](self.partial_bus, width=width, height=height, rotate=rotate)
        self.size = self.stock.size
        self._flush()

    def show(self, image: Image.Image) -> None:
        """Display on both, then check both panels hold the same RAM."""
        self.stock.display(image)
        self.partial.display(image)
        self._flush()
        assert self.partial_ram.ram == self.stock_ram.ram

    def _flush(self) -> None:
        for bus, ram in ((self.stock_bus, self.stock_ram), (self.partial_bus, self.partial_ram)):
            ram.feed(bus.calls)
            bus.reset()


def random_image(size: tuple[int, int], rng: random.Random) -> Image.Image:
    return Image.frombytes("1", size, rng.randbytes(size[0] * size[1] // 8))


def drawn(size, boxes) -> Image.Image:
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    for x0, y0, x1, y1, fill in boxes:
        draw.rectangle((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=fill)
    return image


MODES = [("ssd1306", 128, 64), ("ssd1306", 128, 32), ("ssd1306", 64, 48), ("ssd1306", 96, 16),
         ("ssd1309", 128, 64), ("sh1106", 128, 64), ("sh1106", 128, 32), ("sh1106", 128, 128)]
BUSES = ["i2c", "spi"]  # an interface that takes a window in one transfer, and one that takes commands and data apart


# --- packing --------------------------------------------------------------------

@pytest.mark.parametrize("size", [(128, 64), (128, 32), (64, 48), (96, 16)])
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_pack_pages_matches_the_stock_ssd1306_bytes(size, rotate):
    """pack_pages gives exactly the bytes luma's rotation and per-pixel loop send for the same image."""
    rng = random.Random(size[1] + rotate)
    bus = RecordingInterface()
    stock = oled.ssd1306(bus, width=size[0], height=size[1], rotate=rotate)
    for _ in range(5):
        image = random_image(stock.size, rng)
        bus.reset()
        stock.display(image)
        assert pack_pages(image, size[1] // 8, rotate) == bus.calls[-1][1]


def test_pack_pages_puts_the_top_row_in_the_low_bit():
    """Pixel (0, 0) is bit 0 of byte 0; pixel (127, 63) is bit 7 of the last byte."""
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)
    image.putpixel((127, 63), 1)
    image.putpixel((5, 9), 1)       # page 1, column 5, bit 1
    frame = pack_pages(image, 8)
    assert frame[0] == 0x01 and frame[1023] == 0x80 and frame[128 + 5] == 0x02
    assert sum(bin(b).count("1") for b in frame) == 3


@pytest.mark.parametrize("size", [(128, 64), (128, 32), (64, 48), (192, 16), (128, 128)])
def test_pages_of_rows_packs_an_image_as_pack_pages_does(size):
    """The image's bytes (Image.tobytes) packed by integer swaps give exactly pack_pages's bytes."""
    rng = random.Random(size[0] * size[1])
    for _ in range(20):
        image = random_image(size, rng)
        assert pages_of_rows(image.tobytes(), *size) == pack_pages(image, size[1] // 8)


def test_pages_of_rows_refuses_a_width_it_cannot_pack_by_blocks():
    with pytest.raises(ValueError):
        pages_of_rows(bytes(12 * 16), 96, 16)
    with pytest.raises(ValueError):
        pages_of_rows(bytes(100), 128, 64)


@pytest.mark.parametrize("driver,width,height", MODES)
@pytest.mark.parametrize("rotate", [0, 2])
def test_an_image_given_as_its_bytes_sends_what_the_image_sends(driver, width, height, rotate):
    """display_pixels (packed by blocks where it can, else through display) puts the same bytes on the bus."""
    rng = random.Random(f"{driver}{width}{height}{rotate}")
    as_image, as_bytes = RecordingInterface(), RecordingInterface()
    by_image = DRIVERS[driver](as_image, width=width, height=height, rotate=rotate)
    by_bytes = DRIVERS[driver](as_bytes, width=width, height=height, rotate=rotate)
    boxes = []
    for _ in range(12):
        boxes.append((rng.randrange(width), rng.randrange(height), rng.randrange(width), rng.randrange(height),
                      rng.randrange(2)))
        image = drawn(by_image.size, boxes)
        assert by_bytes.display_pixels(image.tobytes()) == by_image.display(image)
        assert as_bytes.calls == as_image.calls
    with pytest.raises(ValueError):
        by_bytes.display_pixels(bytes(3))


# --- same RAM as the stock drivers -----------------------------------------------

@pytest.mark.parametrize("driver,width,height", MODES)
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_init_sends_the_stock_sequence(driver, width, height, rotate):
    """The init sequence and first (blank) frame are byte for byte the stock driver's."""
    stock_bus, partial_bus = RecordingInterface(), RecordingInterface()
    STOCK[driver](stock_bus, width=width, height=height, rotate=rotate)
    DRIVERS[driver](partial_bus, width=width, height=height, rotate=rotate)
    assert partial_bus.calls == stock_bus.calls


@pytest.mark.parametrize("driver,width,height", MODES)
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
@pytest.mark.parametrize("bus", BUSES)
def test_random_frames_leave_the_stock_ram(driver, width, height, rotate, bus):
    """Unrelated random frames in a row leave the panel RAM the stock driver leaves."""
    pair = Pair(driver, width, height, rotate, seed=rotate, bus=bus)
    rng = random.Random(f"{driver}{width}{height}{rotate}")
    for _ in range(20):
        pair.show(random_image(pair.size, rng))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(MODES), rotate=st.sampled_from([0, 2]),
       seed=st.integers(0, 2**16), data=st.data(), bus=st.sampled_from(BUSES))
def test_edited_frames_leave_the_stock_ram(mode, rotate, seed, data, bus):
    """A frame edited a few rectangles at a time, as a screen is, leaves the stock RAM after every frame."""
    driver, width, height = mode
    pair = Pair(driver, width, height, rotate, seed=seed, bus=bus)
    w, h = pair.size
    box = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1), st.integers(0, w - 1),
                    st.integers(0, h - 1), st.integers(0, 1))
    edits = data.draw(st.lists(st.lists(box, min_size=0, max_size=4), min_size=1, max_size=12))
    boxes = []
    for edit in edits:
        boxes.extend(edit)
        pair.show(drawn(pair.size, boxes))


@settings(max_examples=40, deadline=None)
@given(mode=st.sampled_from(MODES), rotate=st.sampled_from([0, 2]),
       frames=st.lists(st.integers(0, 2 ** 32 - 1), min_size=1, max_size=6),
       flips=st.lists(st.lists(st.integers(0, 128 * 128 - 1), max_size=20), max_size=6),
       bus=st.sampled_from(BUSES))
def test_random_bytes_and_pixel_flips_leave_the_stock_ram(mode, rotate, frames, flips, bus):
    """Arbitrary frames, each followed by frames with a few pixels flipped, leave the stock RAM.

    Each frame's bytes come from a drawn seed: 2 KB of drawn bytes per frame
    would pass Hypothesis's entropy limit and fail its health check at random.
    """
    driver, width, height = mode
    pair = Pair(driver, width, height, rotate, bus=bus)
    w, h = pair.size
    for seed in frames:
        image = Image.frombytes("1", (w, h), random.Random(seed).randbytes(w * h // 8))
        pair.show(image)
        for flip in flips:
            image = image.copy()
            for n in flip:
                x, y = n % w, (n // w) % h
                image.putpixel((x, y), 0 if image.getpixel((x, y)) else 1)
            pair.show(image)


@pytest.mark.parametrize("driver,rotate", [("ssd1306", 0), ("ssd1306", 2), ("sh1106", 0),
                                           ("sh1106", 2)])
@pytest.mark.parametrize("game,players,every", [("tenno", 7, 3), ("quovadis", 4, 10)])
@pytest.mark.parametrize("bus", BUSES)
def test_seat_faces_of_a_played_game_leave_the_stock_ram(driver, rotate, game, players, every, bus):
    """Every seat's face through a whole seeded game, menu cursor moves included, leaves the stock RAM."""
    pairs = [Pair(driver, rotate=rotate, seed=seat, bus=bus) for seat in range(players)]
    menus = [Menu() for _ in range(players)]
    shown = 0
    for match in reachable_matches(game, players, seed=3, every=every):
        for seat, (pair, menu) in enumerate(zip(pairs, menus)):
            actions = match.legal_actions(seat)
            menu.reset()
            for move in range(2 if actions else 1):
                if move:
                    menu.move(actions, +1)
                face = seat_face(match.game, match.names, seat, match.view(seat), actions, menu)
                pair.show(render_face(face, pair.size))
                shown += 1
    assert shown > 100


# --- only what changed ------------------------------------------------------------

@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_identical_frame_sends_nothing(driver):
    """Showing the frame the panel already holds puts no byte on the bus."""
    pair = Pair(driver)
    image = drawn(pair.size, [(3, 3, 60, 20, 1)])
    pair.show(image)
    pair.partial.display(image.copy())
    assert pair.partial_bus.calls == []


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_one_pixel_writes_one_byte(driver):
    """Changing one pixel writes exactly the RAM byte holding it, after a short address command."""
    pair = Pair(driver)
    image = drawn(pair.size, [(0, 0, 127, 9, 1)])
    pair.show(image)
    image.putpixel((70, 40), 1)     # page 5, column 70
    pair.partial_ram.written.clear()
    pair.partial.display(image)
    assert pair.partial_bus.data_bytes == 1
    assert pair.partial_bus.command_bytes == (6 if driver == "ssd1306" else 3)
    pair._flush()
    offset = 0 if driver == "ssd1306" else 2
    assert pair.partial_ram.written == {5 * pair.partial_ram.COLUMNS + 70 + offset}
    pair.show(image)  # and the panel holds what the stock driver's does


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_written_bytes_cover_every_change_and_little_else(driver):
    """The bytes written include every changed byte; unchanged ones only in joined gaps or windows."""
    pair = Pair(driver)
    rng = random.Random(7)
    boxes = [(rng.randrange(128), rng.randrange(64), rng.randrange(128), rng.randrange(64), 1)
             for _ in range(6)]
    pair.show(drawn(pair.size, boxes))
    before = bytes(pair.partial_ram.ram)
    boxes.append((100, 50, 110, 60, 0))
    boxes.append((2, 2, 4, 30, 1))
    pair.partial_ram.written.clear()
    pair.show(drawn(pair.size, boxes))
    changed = {a for a, (x, y) in enumerate(zip(before, pair.partial_ram.ram)) if x != y}
    assert changed and changed <= pair.partial_ram.written
    assert len(pair.partial_ram.written) <= 2 * len(changed) + 30


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_menu_line_change_is_a_small_fraction_of_a_frame(driver):
    """Moving a menu cursor on a real seat face sends a small fraction of the stock 1,024 bytes plus commands."""
    pair = Pair(driver)
    match = next(reachable_matches("tenno", 4, seed=1))
    seat = match.pending()[0]
    actions = match.legal_actions(seat)
    menu = Menu()
    face = seat_face(match.game, match.names, seat, match.view(seat), actions, menu)
    pair.show(render_face(face))
    menu.move(actions, +1)
    moved = seat_face(match.game, match.names, seat, match.view(seat), actions, menu)
    assert moved != face
    pair.stock.display(render_face(moved))
    pair.partial.display(render_face(moved))
    stock = pair.stock_bus.data_bytes + pair.stock_bus.command_bytes
    sent = pair.partial_bus.data_bytes + pair.partial_bus.command_bytes
    assert stock == 1024 + (6 if driver == "ssd1306" else 8 * 3)
    assert 0 < sent <= stock // 4
    pair._flush()
    assert pair.partial_ram.ram == pair.stock_ram.ram


def test_failed_send_resends_the_whole_next_frame():
    """After the bus fails mid-update the panel RAM is unknown, so the next frame goes whole."""
    pair = Pair("ssd1306")
    pair.show(drawn(pair.size, [(0, 0, 50, 50, 1)]))
    pair.partial_bus.fail = OSError(121, "Remote I/O error")
    with pytest.raises(OSError):
        pair.partial.display(drawn(pair.size, [(0, 0, 60, 50, 1)]))
    pair.partial_bus.fail = None
    pair.partial.display(drawn(pair.size, [(0, 0, 60, 50, 1)]))
    assert pair.partial_bus.data_bytes == 1024


def test_invalidate_resends_the_whole_frame():
    """invalidate() (after a panel reset) makes the same frame go out whole again."""
    pair = Pair("sh1106")
    image = drawn(pair.size, [(0, 0, 20, 20, 1)])
    pair.show(image)
    pair.partial.invalidate()
    pair.partial.display(image)
    assert pair.partial_bus.data_bytes == 1024
    assert [c[0] for k, c in bus_parts(pair.partial_bus.calls) if k == "command"] == [0xB0 + p for p in range(8)]


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_panel_back_from_a_power_loss_lights_again_with_the_next_frame(driver):
    """A panel whose supply dropped comes back with its reset defaults (display off, page addressing,
    garbage RAM): after the failed send, the retry sends luma's init sequence before the whole frame."""
    pair = Pair(driver)
    pair.show(drawn(pair.size, [(0, 0, 50, 50, 1)]))
    assert pair.partial_ram.on
    # Power-on garbage; the same bytes as at start, so the RAM the panel never shows compares equal.
    pair.partial_ram.power_lost(random.Random(0).randbytes(132 * 16))
    pair.partial_bus.fail = OSError(121, "Remote I/O error")  # nothing answers while it is off
    image = drawn(pair.size, [(0, 0, 60, 50, 1)])
    with pytest.raises(OSError):
        pair.partial.display(image)
    pair.partial_bus.fail = None  # the wire is back
    pair.show(image)  # the same RAM as the stock driver's panel, which never lost power
    assert pair.partial_ram.on
    pair.show(drawn(pair.size, [(0, 0, 60, 50, 1), (90, 10, 100, 20, 1)]))  # and partial updates go on
    assert pair.partial_bus.data_bytes < 1024 / 4


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_frame_after_a_failure_is_wrapped_in_the_init_sequence_luma_sent_at_start(driver):
    pair = Pair(driver)
    start = RecordingInterface()
    DRIVERS[driver](start)
    pair.partial_bus.fail = OSError(121, "Remote I/O error")
    with pytest.raises(OSError):
        pair.partial.display(drawn(pair.size, [(5, 5, 9, 9, 1)]))
    pair.partial_bus.fail = None
    pair.partial.display(drawn(pair.size, [(5, 5, 9, 9, 1)]))
    commands = [payload for kind, payload in bus_parts(pair.partial_bus.calls) if kind == "command"]
    expected = [payload for kind, payload in start.calls if kind == "command"]
    assert commands == expected  # luma's init, the whole frame's addressing, display on: as at start
    assert pair.partial_bus.data_bytes == 1024
    pair.partial.display(drawn(pair.size, [(5, 5, 9, 10, 1)]))
    assert 0 < pair.partial_bus.data_bytes - 1024 < 16  # healthy again: only the change


def test_a_seat_whose_panel_lost_power_lights_again_on_the_retry():
    """Through the runtime: the seat's screen fails, is retried after its back-off, and shows its face again."""
    from engine.match import Match
    from firmware.table.runtime import Runtime
    from hardware.screens import driver_screen
    from hardware.table import ScreenConfig

    bus = RecordingInterface()
    panel = Ssd1306Ram(random.Random(1).randbytes(1024))
    screen = driver_screen(ScreenConfig(driver="ssd1306", bus="i2c"), bus, name="seat 1 screen")
    clock = FakeClock()
    runtime = Runtime(Match.new("tenno", 3, seed=2), [screen, None, None], clock=clock)
    panel.feed(bus.calls)
    bus.reset()
    face = render_face(runtime.seats[0].face)
    assert panel.on and bytes(panel.ram) == pack_pages(face, 8)
    panel.power_lost(random.Random(2).randbytes(1024))
    bus.fail = OSError(121, "Remote I/O error")
    post(runtime, 0, "next")
    assert runtime.seats[0].degraded
    post(runtime, 0, "prev")  # back to the face the panel showed before
    bus.fail = None
    clock.now += runtime.RETRY_MAX
    runtime.tick()
    panel.feed(bus.calls)
    assert not runtime.seats[0].degraded
    assert panel.on and bytes(panel.ram) == pack_pages(render_face(runtime.seats[0].face), 8)
    assert render_face(runtime.seats[0].face).tobytes() == face.tobytes()


def test_sh1106_runs_use_the_column_offset():
    """An SH1106 run starting at column 100 addresses RAM column 102 (luma's offset of 2)."""
    pair = Pair("sh1106")
    image = Image.new("1", pair.size)
    pair.show(image)
    image.putpixel((100, 17), 1)    # page 2
    pair.partial.display(image)
    assert pair.partial_bus.calls == [("window", window_message([0xB2, 102 & 0x0F, 0x10 | 102 >> 4], b"\x02"))]
    assert bus_parts(pair.partial_bus.calls) == [("command", bytes([0xB2, 102 & 0x0F, 0x10 | 102 >> 4])),
                                                 ("data", bytes([0x02]))]


def test_wrong_mode_or_size_is_refused():
    """Only mode "1" images of the device's size are taken."""
    panel = PartialSSD1306(RecordingInterface())
    with pytest.raises(ValueError, match="mode"):
        panel.display(Image.new("L", (128, 64)))
    with pytest.raises(ValueError, match="size"):
        panel.display(Image.new("1", (64, 128)))


def test_drivers_are_the_luma_classes_they_extend():
    """Each partial driver is an instance of its luma class, so code that checks for one still works."""
    assert issubclass(PartialSSD1306, oled.ssd1306)
    assert issubclass(PartialSSD1309, oled.ssd1309)
    assert issubclass(PartialSH1106, oled.sh1106)
    assert set(DRIVERS) == {"ssd1306", "ssd1309", "sh1106"}


# --- planning ---------------------------------------------------------------------

def test_changed_runs_joins_close_runs_and_keeps_far_ones_apart():
    """Runs separated by at most the join gap are one run; wider gaps stay two."""
    old = bytes(256)
    new = bytearray(256)
    new[3] = new[8] = 1             # gap of 4 unchanged columns: joined at gap 10
    new[40] = 1                     # far away: its own run
    new[128 + 127] = 1              # page 1, last column
    runs = changed_runs(old, bytes(new), 128, 2, join_gap=10)
    assert runs == [[(3, 9), (40, 41)], [(127, 128)]]
    assert changed_runs(old, bytes(new), 128, 2, join_gap=3)[0] == [(3, 4), (8, 9), (40, 41)]


def test_plan_windows_merges_stacked_pages_and_splits_distant_ones():
    """Two pages changed over the same columns share one window; far-apart pages do not."""
    stacked = [[], [], [], [], [], [], [(0, 60)], [(0, 60)]]
    assert plan_windows(stacked) == [(6, 7, 0, 60)]
    apart = [[(0, 10)], [], [], [], [], [], [], [(100, 110)]]
    assert plan_windows(apart) == [(0, 0, 0, 10), (7, 7, 100, 110)]
    assert plan_windows([[] for _ in range(8)]) == []


def window_bytes(windows, cost=SSD1306_WINDOW_COST):
    return sum((last - first + 1) * (end - start) + cost for first, last, start, end in windows)


def test_one_window_is_one_six_byte_command_transfer_and_one_data_transfer():
    """What SSD1306_WINDOW_COST counts a window for: 0x21 start end 0x22 first last, then the window's bytes."""
    pair = Pair("ssd1306", bus="spi")
    image = drawn(pair.size, [(10, 9, 19, 14, 1)])  # columns 10-19, rows 9-14: bits 1-6 of page 1
    pair.partial.display(image)
    assert pair.partial_bus.calls == [("command", bytes([0x21, 10, 19, 0x22, 1, 1])), ("data", bytes([0x7E] * 10))]
    pair.stock.display(image)
    pair._flush()
    assert pair.partial_ram.ram == pair.stock_ram.ram


def test_one_window_on_an_i2c_panel_is_one_transfer_each_command_byte_after_its_control_byte():
    """What SSD1306_ONE_TRANSFER_COST counts: 0x80 before each of the six command bytes, 0x40, the window's bytes."""
    pair = Pair("ssd1306", bus="i2c")
    image = drawn(pair.size, [(10, 9, 19, 14, 1)])
    pair.partial.display(image)
    commands = [0x21, 10, 19, 0x22, 1, 1]
    assert pair.partial_bus.calls == [("window", bytes([0x80, c][i % 2] for c in commands for i in range(2))
                                       + bytes([0x40]) + bytes([0x7E] * 10))]
    assert window_overhead(6) + TRANSFER_COST == SSD1306_ONE_TRANSFER_COST == 1 + 12 + 1 + 25
    pair.stock.display(image)
    pair._flush()
    assert pair.partial_ram.ram == pair.stock_ram.ram


def test_a_window_message_decodes_to_its_commands_then_its_data():
    """Read back by the datasheet's rule (Co and D/C# in each control byte), a window is its commands, then its data."""
    for commands, payload in [([0xAF], b""), ([0x21, 0, 127, 0x22, 0, 7], bytes(range(256)) * 4),
                              ([0xB3, 0x02, 0x10], b"\x80\x40\x00")]:
        assert message_parts(window_message(commands, payload)) == (
            [("command", bytes(commands)), ("data", payload)] if payload else [("command", bytes(commands))])
    with pytest.raises(AssertionError):
        message_parts(bytes([0x81, 0xAE]))  # a control byte with a bit the controller does not define


def test_plan_windows_does_not_merge_pages_across_an_unchanged_one_when_that_costs_more():
    """Pages 0 and 2 over the same 64 columns: two windows (2 x 64 + 2 x 60) beat one over pages 0-2 (192 + 60)."""
    runs = [[(0, 64)], [], [(0, 64)], [], [], [], [], []]
    assert plan_windows(runs) == [(0, 0, 0, 64), (2, 2, 0, 64)]
    assert plan_windows([[(0, 20)], [], [(0, 20)]] + [[]] * 5) == [(0, 2, 0, 20)]  # 20 columns: one is cheaper
    assert plan_windows([[(0, 40)], [(0, 40)], [(0, 40)]] + [[]] * 5) == [(0, 2, 0, 40)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 127), st.integers(1, 30)), max_size=3),
                min_size=8, max_size=8))
def test_plan_windows_is_the_cheapest_split_into_page_groups(raw):
    """No split of the changed pages into consecutive groups costs fewer bytes than the plan."""
    runs = []
    for page_raw in raw:            # sorted, non-overlapping runs, as changed_runs makes them
        page, edge = [], 0
        for gap, length in page_raw:
            start = edge + gap + (11 if page else 0)
            if start + length > 128:
                break
            page.append((start, start + length))
            edge = start + length
        runs.append(page)
    plan = plan_windows(runs)
    covered = {(p, c) for first, last, start, end in plan
               for p in range(first, last + 1) for c in range(start, end)}
    assert all((p, c) in covered for p, page in enumerate(runs) for s, e in page
               for c in range(s, e))
    changed = [p for p, page in enumerate(runs) if page]
    best = None
    for cuts in range(2 ** max(len(changed) - 1, 0)):
        groups, group = [], [changed[0]] if changed else []
        for i, page in enumerate(changed[1:]):
            if cuts >> i & 1:
                groups.append(group)
                group = [page]
            else:
                group.append(page)
        if group:
            groups.append(group)
        windows = []
        for group in groups:
            if len(group) == 1:
                windows += [(group[0], group[0], s, e) for s, e in runs[group[0]]]
            else:
                windows.append((group[0], group[-1], min(runs[p][0][0] for p in group),
                                max(runs[p][-1][1] for p in group)))
        cost = window_bytes(windows)
        best = cost if best is None or cost < best else best
    assert window_bytes(plan) == (best or 0)


def test_changed_runs_join_across_exactly_join_gap_unchanged_columns_and_split_one_past_it():
    """Resending up to `join_gap` unchanged columns is cheaper than a new window; one more is not."""
    old = bytes(128)
    new = bytearray(128)
    new[10] = new[14] = 1  # three unchanged columns between them
    assert changed_runs(old, bytes(new), 128, 1, join_gap=3) == [[(10, 15)]]
    assert changed_runs(old, bytes(new), 128, 1, join_gap=2) == [[(10, 11), (14, 15)]]


def test_a_panel_of_unknown_ram_is_sent_the_whole_frame_and_says_so_in_the_log(caplog):
    with caplog.at_level("DEBUG", logger="hardware.partial"):
        pair = Pair("ssd1306")  # the driver clears the panel as it starts: the first frame goes whole
        pair.show(drawn(pair.size, [(3, 3, 60, 20, 1)]))  # the RAM is known from then on
    assert [r.getMessage() for r in caplog.records] == ["PartialSSD1306: panel RAM unknown, sending the whole frame"]


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_whole_first_frame_goes_in_windows_on_an_i2c_panel(driver):
    """luma's clear() at start sends a whole frame: on an interface with `window`, as windows, never apart."""
    bus = RecordingI2C()
    DRIVERS[driver](bus)
    kinds = [kind for kind, _ in bus.calls]
    assert "data" not in kinds and kinds.count("window") == (1 if driver == "ssd1306" else 8)
    assert sum(len(chunk) for kind, chunk in bus_parts(bus.calls) if kind == "data") == 1024


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_planner_counts_what_a_window_costs_on_the_interface_it_goes_through(driver):
    """Two changes 45 columns apart on one page: apart they cost a second window; on SPI (two transfers a
    window) resending the 45 columns between is cheaper, on I2C (one transfer) the second window is."""
    image = Image.new("1", (128, 64))
    for bus in ("spi", "i2c"):
        pair = Pair(driver, bus=bus)
        pair.show(image)
        changed = image.copy()
        for x in (2, 57):
            changed.putpixel((x, 3), 1)
        pair.partial_bus.reset()
        pair.partial.display(changed)
        data = [len(chunk) for kind, chunk in bus_parts(pair.partial_bus.calls) if kind == "data"]
        assert data == ([56] if bus == "spi" else [1, 1]), bus
        pair.stock.display(changed)
        pair._flush()
        assert pair.partial_ram.ram == pair.stock_ram.ram
