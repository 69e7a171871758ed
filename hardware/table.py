"""The table description: seats, their pins, screens and serial links.

A table is described by a TOML file, read with the stdlib ``tomllib`` into
frozen dataclasses. The Pi, the mocks and the emulator read the same format
and only ``backend`` differs, so the path from file to device is one. Format::

    [table]
    name = "Kitchen table"    # optional, default "Table"
    backend = "emulator"      # pi | mock | emulator; optional; COURTIER_HARDWARE overrides
    hold_time = 0.8           # seconds ok stays down to count as "back"; default 0.8
    bounce_time = 0.02        # leading-edge debounce, seconds of quiet; absent = none
    language = "zh_Hant"      # the table's language (public screen, console, CLI): en, zh_Hant,
                              # zh_Hans; absent = the system locale; each seat picks its own too

    [[seat]]                  # 1 to 8 of these, in seating order
    name = "Red"              # optional, default "Seat N"; unique
    buttons = { prev = 5, next = 6, ok = 13 }
    screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C }

    [[seat]]
    name = "Blue"
    buttons = { prev = "GPIO16", next = "BOARD38", ok = 21 }
    screen = { driver = "sh1106", bus = "spi", port = 0, device = 0, gpio_dc = 24, gpio_rst = 25 }

    [[seat]]
    name = "Green"            # several 0x3C panels on one bus, behind a TCA9548A
    buttons = { prev = 17, next = 27, ok = 22 }
    screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C, mux = 0x70, channel = 3 }

    [[seat]]
    name = "Purple"           # a rotary encoder with push instead of three buttons
    encoder = { a = 16, b = 20, push = 21 }
    screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C, mux = 0x70, channel = 4 }

    [[seat]]
    name = "Pod"
    serial = { port = "/dev/ttyACM0", baudrate = 115200 }

    [[seat]]
    name = "Black"            # an empty seat the Pi plays itself
    bot = "normal"

    [public_screen]           # optional screen for everyone: the prompt, its steps, the events
    driver = "ili9341"        # a colour TFT; or ssd1322, or any seat screen driver
    bus = "spi"
    port = 0
    device = 1
    gpio_dc = 24
    gpio_rst = false          # the seats' SPI panels already pulse the shared reset
    gpio_light = 12           # optional: the backlight line, switched on by courtier
    width = 320
    height = 240

    [web]                     # optional: the public table as a page on the local network
    port = 8080               # required in the block; off when the block is absent
    host = "lan"              # default: this machine's local-network addresses (never the world)

    [options.quovadis]        # optional: rule options of a game, one block per game
    reveal_laurels = true     # as `courtier play --option reveal_laurels=true` (which wins)

Keys:

- ``buttons``: ``prev``, ``next`` and ``ok``, each a BCM number or a pin name
  gpiozero accepts (``"GPIO5"``, ``"BCM5"``, ``"BOARD29"``, ``"J8:29"``).
  Names are resolved on the standard 40-pin header and stored as BCM numbers,
  so ``5`` and ``"BOARD29"`` are seen as the same pin.
- ``encoder``: instead of ``buttons``, a rotary encoder with a push switch:
  ``a`` and ``b`` (the two quadrature outputs; turning clockwise, A leads, is
  "next", so swap them if the knob runs backwards) and ``push`` (acts as ok,
  held is "back"). Pins as for buttons.
- ``screen``: ``driver`` (ssd1306, sh1106, ssd1309) and ``bus`` (i2c, spi)
  are required. Optional: ``rotate`` (0-3 quarter turns clockwise) and
  ``width``/``height`` (default 128x64; must be a mode the driver supports).
  I2C: ``port`` (default 1, meaning ``/dev/i2c-1``; the channels of a TCA9548A
  behind the kernel's i2c-mux overlay are simply more ports) and ``address``
  (default 0x3C). Behind a TCA9548A that courtier drives itself, add ``mux``
  (the multiplexer's address, 0x70 to 0x77) and ``channel`` (0 to 7); the
  panel then shares the port with every other panel behind that multiplexer.
  SPI: ``port`` (default 0), ``device`` (default 0),
  ``gpio_dc`` (default 24), ``gpio_rst`` (default 25, or ``false`` when no
  reset line is wired or another panel's reset already pulses it; put the one
  with the reset first in the file) and ``gpio_cs`` (a GPIO chip select driven
  by luma's ``gpio_cs_spi``). SPI pins are BCM numbers or names as above.
- ``serial``: ``port`` (a device path or any pyserial URL) and ``baudrate``
  (default 115200). A serial seat has neither ``buttons`` nor ``screen``.
- ``bot``: a seat nobody sits at, played by courtier at a level: ``easy``,
  ``normal`` or ``strong`` (or ``rules``, ``random``). A bot seat has no
  ``buttons``, ``encoder``, ``screen`` or ``serial``: its secrets stay in the
  Pi, and the table is told what to do with its pieces.
- ``public_screen``: the keys of a seat's screen. Besides the one-bit OLEDs
  it may be an SPI panel of luma.oled or luma.lcd: ``ssd1322`` (a 256x64
  OLED, drawn one-bit), ``ili9341`` or ``st7789`` (colour TFTs, 320x240);
  a TFT also takes ``gpio_light``, the pin of its backlight line when that is
  not simply wired to 3.3 V.
- ``options``: ``[options.GAME]`` blocks of rule options (``courtier games
  -v`` lists each game's), as TOML booleans, integers or strings. They are
  kept as written, keyed by game name: the table knows no games, so the
  names and values are checked when a game starts.

Beyond types, the wiring is checked: every pin is used once on the whole
table (SPI screens may share their data/command line, which a panel only
samples while selected), no two I2C screens share an address on one bus
segment, SPI screens share a port and device only when every one of them has
a ``gpio_cs``, and no two seats share a serial port (compared after resolving
links, so ``/dev/ttyACM0`` and a ``/dev/serial/by-id/`` link to it are one
port). Names must not hold control characters, which would reach a terminal
raw.

An I2C segment is a port, or one channel of a multiplexer on that port: two
0x3C panels on channels 1 and 2 of one TCA9548A are fine, on the same
channel they are not. A selected channel is joined to the port, so a panel
wired straight to the port must not share an address with any panel behind a
multiplexer on it, nor with a multiplexer itself.

Seats are numbered from 1 in messages, like the ``[[seat]]`` blocks of the
file, and indexed from 0 in code (``SeatConfig.index``).
"""

from __future__ import annotations

import functools
import logging
import os
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from hardware.errors import T_, TableConfigError, Words

_log = logging.getLogger(__name__)

BACKENDS = ("pi", "mock", "emulator")
MAX_SEATS = 8

# Modes each driver's luma.oled class accepts (luma/oled/device/__init__.py);
# checked here so a table that will fail on the Pi also fails in the emulator.
_SSD1306_MODES = frozenset({(128, 64), (128, 32), (96, 16), (64, 48), (64, 32)})
_MODES = {
    "ssd1306": _SSD1306_MODES,
    "ssd1309": _SSD1306_MODES,
    "sh1106": frozenset({(128, 128), (128, 64), (128, 32)}),
    # luma.oled's ssd1322 and luma.lcd's ili9341 list these; luma.lcd's st7789
    # takes any size, and its ST7789V modules are 240x240 or 320x240 (landscape).
    "ssd1322": frozenset({(256, 64), (256, 48), (256, 32), (128, 64), (128, 48), (128, 32),
                          (64, 64), (64, 48), (64, 32)}),
    "ili9341": frozenset({(320, 240), (240, 240), (320, 180)}),
    "st7789": frozenset({(320, 240), (240, 240)}),
}
# A seat's screen shows a one-bit face; the public screen may be any of them.
SEAT_DRIVERS = ("ssd1306", "ssd1309", "sh1106")
PUBLIC_DRIVERS = tuple(_MODES)
# Panels with no I2C side: luma drives them over SPI only.
_SPI_ONLY = frozenset({"ssd1322", "ili9341", "st7789"})
# Panels that take RGB images (luma.lcd's colour TFTs, with a backlight line).
COLOUR_DRIVERS = frozenset({"ili9341", "st7789"})
_BUSES = ("i2c", "spi")

_TOP_KEYS = ("table", "seat", "public_screen", "web", "options")
_WEB_KEYS = ("port", "host")
_TABLE_KEYS = ("name", "backend", "hold_time", "bounce_time", "language")
_SEAT_KEYS = ("name", "buttons", "encoder", "screen", "serial", "bot")
# The bots a seat may be played by (engine.bots.KINDS; a test keeps the two the same).
BOT_KINDS = ("easy", "normal", "strong", "rules", "random")
# The languages a table may speak (engine.i18n.LANGUAGES; a test keeps the two the same).
TABLE_LANGUAGES = ("en", "zh_Hant", "zh_Hans")
_SCREEN_KEYS = ("driver", "bus", "port", "rotate", "width", "height")
_BUS_KEYS = {"i2c": ("address", "mux", "channel"),
             "spi": ("device", "gpio_dc", "gpio_rst", "gpio_cs", "gpio_light")}
_ENCODER_KEYS = ("a", "b", "push")
_SERIAL_KEYS = ("port", "baudrate")

# A TCA9548A answers at 0x70 plus its A2-A0 jumpers, and switches 8 channels.
MUX_ADDRESSES = range(0x70, 0x78)
MUX_CHANNELS = range(8)
# Addresses a 7-bit I2C device may have (the rest are reserved by the standard).
_I2C_ADDRESSES = range(0x03, 0x78)

# luma.core's spi() defaults, made explicit so pin clashes can be checked.
_SPI_DC = 24
_SPI_RST = 25

# Any 40-pin board: the header layout has not changed since the B+.
_HEADER_REVISION = 0xA02082

# Pins the emulator hands out: every GPIO except the I2C pair, so a generated
# table would still make sense next to I2C screens.
_EMULATOR_PINS = tuple(p for p in range(28) if p not in (2, 3))


@dataclass(frozen=True)
class ButtonPins:
    """BCM numbers of a seat's three buttons."""

    prev: int
    next: int
    ok: int

    def items(self) -> tuple[tuple[str, int], ...]:
        """Return ``(button, pin)`` pairs in prev, next, ok order."""
        return (("prev", self.prev), ("next", self.next), ("ok", self.ok))


@dataclass(frozen=True)
class EncoderPins:
    """BCM numbers of a seat's rotary encoder: its two outputs and its push switch."""

    a: int
    b: int
    push: int

    def items(self) -> tuple[tuple[str, int], ...]:
        """Return ``(key, pin)`` pairs in a, b, push order."""
        return (("a", self.a), ("b", self.b), ("push", self.push))


@dataclass(frozen=True)
class ScreenConfig:
    """One OLED panel and the bus it hangs on.

    ``address``, ``mux`` and ``channel`` are used on I2C only (``mux`` and
    ``channel`` both set, or neither); ``device`` and the ``gpio_*`` pins
    (BCM) on SPI only. The defaults describe an I2C panel; the file parser
    fills SPI defaults (port 0, DC 24, RST 25), code building an SPI panel
    must set them itself.
    """

    driver: str = "ssd1306"
    bus: str = "i2c"
    port: int = 1
    address: int = 0x3C
    device: int = 0
    gpio_dc: int | None = None
    gpio_rst: int | None = None
    gpio_cs: int | None = None
    rotate: int = 0
    width: int = 128
    height: int = 64
    mux: int | None = None
    channel: int | None = None
    gpio_light: int | None = None

    @property
    def mode(self) -> str:
        """The image mode the panel takes: "RGB" for a colour TFT, else "1"."""
        return "RGB" if self.driver in COLOUR_DRIVERS else "1"

    def describe(self) -> str:
        """Say which panel this is, for messages.

        For example ``ssd1306 on i2c port 1 address 0x3c``, or with a
        multiplexer ``ssd1306 on i2c port 1 address 0x3c behind mux 0x70
        channel 3``.
        """
        if self.bus == "i2c":
            text = f"{self.driver} on i2c port {self.port} address {self.address:#04x}"
            if self.mux is not None:
                text += f" behind mux {self.mux:#04x} channel {self.channel}"
            return text
        text = f"{self.driver} on spi port {self.port} device {self.device}"
        if self.gpio_cs is not None:
            text += f" chip select GPIO{self.gpio_cs}"
        return text

    def pins(self) -> tuple[tuple[str, int], ...]:
        """Return the ``(key, pin)`` pairs of the GPIO lines this panel uses."""
        if self.bus != "spi":
            return ()
        pairs = (("gpio_dc", self.gpio_dc), ("gpio_rst", self.gpio_rst),
                 ("gpio_cs", self.gpio_cs), ("gpio_light", self.gpio_light))
        return tuple((key, pin) for key, pin in pairs if pin is not None)


@dataclass(frozen=True)
class SerialSeatConfig:
    """A seat that is a microcontroller pod on a serial port."""

    port: str
    baudrate: int = 115200


@dataclass(frozen=True, eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class SeatConfig:
    """One seat: buttons (or an encoder) and a screen, a serial pod, or a bot (the kind of bot)."""

    index: int
    name: str
    buttons: ButtonPins | None = None
    screen: ScreenConfig | None = None
    serial: SerialSeatConfig | None = None
    encoder: EncoderPins | None = None
    bot: str | None = None

    @property
    def label(self) -> str:
        """The seat as messages name it: ``seat 2 ("Blue")``."""
        return f'seat {self.index + 1} ("{self.name}")'


@dataclass(frozen=True, eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class WebConfig:
    """Where the table's LAN page is served: ``host`` "lan" is every local-network address of the Pi."""

    port: int
    host: str = "lan"

    @property
    def listen(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True, eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class TableConfig:
    """The whole table as described by one file."""

    seats: tuple[SeatConfig, ...]
    name: str = "Table"
    backend: str | None = None
    hold_time: float = 0.8
    bounce_time: float | None = None
    public_screen: ScreenConfig | None = None
    web: WebConfig | None = None
    source: str = "<string>"
    language: str | None = None  # the table's language; None: the system locale
    # Rule options by game name, as the file wrote them ({"quovadis": {"reveal_laurels": True}}).
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def load_table(path: str | Path) -> TableConfig:
    """Read and check a table file.

    Args:
        path: The TOML file.

    Returns:
        The table.

    Raises:
        TableConfigError: The file cannot be read or is not a valid table.
    """
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise TableConfigError(T_("cannot read: {reason}", reason=exc.strerror or exc), source=source) from exc
    except UnicodeDecodeError as exc:
        raise TableConfigError(T_("not UTF-8 text (byte {byte})", byte=exc.start), source=source) from exc
    return parse_table(text, source=source)


def parse_table(text: str, source: str = "<string>") -> TableConfig:
    """Check a table description given as TOML text.

    Args:
        text: The TOML text.
        source: Name used in error messages, usually the file name.

    Returns:
        The table.

    Raises:
        TableConfigError: The text is not TOML or not a valid table.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(exc, text, source) from None
    except RecursionError:
        # Arrays or inline tables nested past the parser's recursion limit.
        raise TableConfigError(T_("invalid TOML: values nested too deeply"), source=source) from None
    return _Parser(text, source).table(data)


# The emulated table's public screen (``courtier play`` and ``demo`` without a
# table file): a 256x64 SSD1322, wide enough to read from every seat. Its SPI
# lines are left unset, as nothing is wired on the emulated table.
EMULATOR_PUBLIC_SCREEN = ScreenConfig(driver="ssd1322", bus="spi", port=0, device=0,
                                      width=256, height=64)


def emulator_table(seats: int, names: list[str] | None = None,
                   public_screen: ScreenConfig | None = None) -> TableConfig:
    """Build an emulator table for a number of seats without a file.

    Pins are handed out in order, three per seat, and the (dummy) screens get
    distinct I2C addresses, so the result passes the same checks as a file.

    Args:
        seats: Number of seats, 1 to 8.
        names: Seat names; default "Seat 1", "Seat 2", ...
        public_screen: The table's public screen, if any (e.g. ``EMULATOR_PUBLIC_SCREEN``).

    Returns:
        The table, with backend "emulator".

    Raises:
        TableConfigError: Bad seat count or names.
    """
    source = "<emulator>"
    if not 1 <= seats <= MAX_SEATS:
        raise TableConfigError(T_("a table has 1 to {most} seats, not {seats}", most=MAX_SEATS, seats=seats),
                               source=source, key="seat")
    if names is None:
        names = [f"Seat {n + 1}" for n in range(seats)]
    if len(names) != seats:
        raise TableConfigError(T_("{seats} seats but {names} names", seats=seats, names=len(names)), source=source,
                               key="seat")
    seat_configs = []
    for index, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise TableConfigError(T_("seat {n}: name must be a non-empty string", n=index + 1),
                                   source=source, key=f"seat[{index + 1}].name")
        if unprintable(name):
            raise TableConfigError(T_("seat {n}: name must not hold control characters ({found})", n=index + 1,
                                      found=unprintable(name)), source=source, key=f"seat[{index + 1}].name")
        prev, nxt, ok = _EMULATOR_PINS[3 * index:3 * index + 3]
        screen = ScreenConfig(port=1 + index // 2, address=0x3C + index % 2)
        seat_configs.append(SeatConfig(index=index, name=name,
                                       buttons=ButtonPins(prev, nxt, ok), screen=screen))
    config = TableConfig(seats=tuple(seat_configs), name="Emulated table",
                         backend="emulator", public_screen=public_screen, source=source)
    _Parser("", source).check_wiring(config)
    return config


def header_pin(gpio: int) -> int | None:
    """Give the physical header pin (1-40) of a BCM GPIO, for wiring messages.

    People wire by header position, while the table file speaks BCM numbers;
    a message naming both ("GPIO26, pin 37") saves counting pins.

    Returns:
        The pin number, or None for a GPIO not on the 40-pin header.
    """
    found = list(_header().find_pin(f"GPIO{gpio}"))
    return found[0][1].number if found else None


def _syntax_error(exc: tomllib.TOMLDecodeError, text: str, source: str) -> TableConfigError:
    """Turn tomllib's message, which carries the position as text, into our error."""
    message = str(exc)
    found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if found:
        detail = message[:found.start()]
        return TableConfigError(T_("invalid TOML at column {column}: {detail}", column=found[2], detail=detail),
                                source=source, line=int(found[1]))
    detail = message.removesuffix(" (at end of document)")
    return TableConfigError(T_("invalid TOML near the end: {detail}", detail=detail), source=source,
                            line=max(len(text.splitlines()), 1))


@functools.cache
def _header() -> Any:
    # Imported here: only pin names need it, and it is pure data.
    from hardware.gpio import deferred_imports

    with deferred_imports():
        from gpiozero.pins.pi import PiBoardInfo

    return PiBoardInfo.from_revision(_HEADER_REVISION)


def _kind(value: object) -> Words:
    """Name a TOML value's type the way the TOML spec does."""
    if isinstance(value, bool):
        return T_("a boolean")
    if isinstance(value, int):
        return T_("an integer")
    if isinstance(value, float):
        return T_("a float")
    if isinstance(value, str):
        return T_("a string")
    if isinstance(value, dict):
        return T_("a table")
    if isinstance(value, list):
        return T_("an array")
    return T_("a date or time")


@dataclass(frozen=True, eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class _Place:
    """Where in the file a value sits: for messages, keys and line numbers."""

    where: Words    # 'seat 2 ("Blue")' or '[table]'
    prefix: str     # 'seat[2]' or 'table'
    line: int | None


class _Parser:
    """Checks decoded TOML and builds the dataclasses, one error at a time."""

    def __init__(self, text: str, source: str) -> None:
        self._text = text
        self._source = source

    # -- where things are ------------------------------------------------

    def _line(self, pattern: str, occurrence: int = 0) -> int | None:
        """Find the line of the n-th match of a header pattern (tomllib gives none)."""
        for count, found in enumerate(re.finditer(pattern, self._text, re.M)):
            if count == occurrence:
                return self._text.count("\n", 0, found.start()) + 1
        return None

    def _section(self, name: str) -> _Place:
        line = self._line(rf"^[ \t]*(\[[ \t]*{name}[ \t]*\]|{name}[ \t]*=)")
        return _Place(Words("[{name}]", {"name": name}), name, line)

    def _seat_place(self, index: int, name: str | None) -> _Place:
        line = self._line(r"^[ \t]*\[\[[ \t]*seat[ \t]*\]\]", index)
        where = T_('seat {n} ("{name}")', n=index + 1, name=name) if name else T_("seat {n}", n=index + 1)
        return _Place(where, f"seat[{index + 1}]", line)

    def _fail(self, place: _Place, key: str | None, detail: Words) -> TableConfigError:
        # The frame is punctuation and names from the file, so not for the catalog.
        message = (Words("{where}: {key}: {detail}", {"where": place.where, "key": key, "detail": detail}) if key
                   else Words("{where}: {detail}", {"where": place.where, "detail": detail}))
        full_key = f"{place.prefix}.{key}" if key else place.prefix
        return TableConfigError(message, source=self._source, line=place.line, key=full_key)

    # -- values ------------------------------------------------------------

    def _keys(self, place: _Place, key: str | None, raw: object,
              allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise self._fail(place, key, T_("must be a table of keys, not {kind}", kind=_kind(raw)))
        for name in raw:
            if name not in allowed:
                raise self._fail(place, _join(key, name),
                                 T_("unknown key (expected one of: {keys})", keys=", ".join(allowed)))
        for name in required:
            if name not in raw:
                raise self._fail(place, key, T_("missing key {key!r}", key=name))
        return raw

    def _int(self, place: _Place, key: str, value: object, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(place, key, T_("must be an integer, not {kind}", kind=_kind(value)))
        if not low <= value <= high:
            raise self._fail(place, key, T_("must be {low} to {high}, not {value}", low=low, high=high, value=value))
        return value

    def _address(self, place: _Place, key: str, value: object, allowed: range,
                  what: Words) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(place, key, T_("must be an integer, not {kind}", kind=_kind(value)))
        if value not in allowed:
            low, high = allowed.start, allowed.stop - 1
            raise self._fail(place, key,
                             T_("must be {low:#04x} to {high:#04x}, not {value:#04x} ({what})", low=low,
                                high=high, value=value, what=what))
        return value

    def _seconds(self, place: _Place, key: str, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self._fail(place, key, T_("must be a number of seconds, not {kind}", kind=_kind(value)))
        if not 0 <= value <= 60:
            raise self._fail(place, key, T_("must be 0 to 60 seconds, not {value}", value=value))
        return float(value)

    def _text_value(self, place: _Place, key: str, value: object,
                    choices: tuple[str, ...] = ()) -> str:
        if not isinstance(value, str):
            raise self._fail(place, key, T_("must be a string, not {kind}", kind=_kind(value)))
        if not value.strip():
            raise self._fail(place, key, T_("must not be empty"))
        if choices and value not in choices:
            raise self._fail(place, key,
                             T_("unknown value {value!r} (expected one of: {choices})", value=value,
                                choices=", ".join(choices)))
        return value

    def _name(self, place: _Place, key: str, value: object) -> str:
        text = self._text_value(place, key, value)
        bad = unprintable(text)
        if bad:
            raise self._fail(place, key, T_("must not hold control characters ({found})", found=bad))
        return text

    def _pin(self, place: _Place, key: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self._fail(place, key,
                             T_("must be a BCM number or a pin name, not {kind}", kind=_kind(value)))
        found = list(_header().find_pin(value))
        if not found:
            raise self._fail(place, key, T_("{value!r} is not a pin gpiozero knows "
                                            "(use a BCM number like 17, or 'GPIO17' or 'BOARD11')", value=value))
        name = found[0][1].name
        if not name.startswith("GPIO"):
            raise self._fail(place, key, T_("{value!r} is a {name} pin, not a GPIO", value=value, name=name))
        return int(name.removeprefix("GPIO"))

    # -- sections ------------------------------------------------------------

    def table(self, data: dict[str, Any]) -> TableConfig:
        """Build and check the whole table."""
        top = _Place(T_("table file"), "", None)
        for key in data:
            if key not in _TOP_KEYS:
                line = self._line(rf"^[ \t]*\[?[ \t]*{re.escape(key)}\b")
                raise self._fail(_Place(top.where, key, line), None,
                                 T_("unknown key {key!r} (expected one of: {keys})", key=key,
                                    keys=", ".join(_TOP_KEYS)))
        place = self._section("table")
        raw = self._keys(place, None, data.get("table", {}), _TABLE_KEYS)
        name = self._name(place, "name", raw.get("name", "Table"))
        backend = None
        if "backend" in raw:
            backend = self._text_value(place, "backend", raw["backend"], BACKENDS)
        hold_time = self._seconds(place, "hold_time", raw.get("hold_time", 0.8))
        if hold_time == 0:
            raise self._fail(place, "hold_time", T_("must be more than 0 seconds"))
        bounce_time = None
        if "bounce_time" in raw:
            bounce_time = self._seconds(place, "bounce_time", raw["bounce_time"])
        language = None
        if "language" in raw:
            language = self._text_value(place, "language", raw["language"], TABLE_LANGUAGES)

        seats_raw = data.get("seat", [])
        if not isinstance(seats_raw, list):
            raise self._fail(self._section("seat"), None,
                             T_("must be [[seat]] blocks, not {kind}", kind=_kind(seats_raw)))
        if not seats_raw:
            raise self._fail(_Place(top.where, "seat", None), None,
                             T_("no [[seat]]: a table has 1 to {most} seats", most=MAX_SEATS))
        if len(seats_raw) > MAX_SEATS:
            raise self._fail(self._seat_place(MAX_SEATS, None), None,
                             T_("a table has at most {most} seats, this file has {seats}", most=MAX_SEATS,
                                seats=len(seats_raw)))
        seats = tuple(self._seat(index, raw) for index, raw in enumerate(seats_raw))

        public = None
        if "public_screen" in data:
            public = self._screen(self._section("public_screen"), None, data["public_screen"],
                                  PUBLIC_DRIVERS)

        web = None
        if "web" in data:
            place = self._section("web")
            raw = self._keys(place, None, data["web"], _WEB_KEYS, required=("port",))
            web = WebConfig(port=self._int(place, "port", raw["port"], 1, 65535),
                            host=self._text_value(place, "host", raw.get("host", "lan")))

        options = self._options(data["options"]) if "options" in data else {}
        config = TableConfig(seats=seats, name=name, backend=backend, hold_time=hold_time,
                             bounce_time=bounce_time, public_screen=public, web=web, source=self._source,
                             language=language, options=options)
        self.check_wiring(config)
        return config

    def _options(self, raw: object) -> dict[str, dict[str, Any]]:
        """The ``[options.GAME]`` blocks as plain data; the games check them where they are known."""
        if not isinstance(raw, dict):
            raise self._fail(self._section("options"), None,
                             T_("must be [options.GAME] blocks, not {kind}", kind=_kind(raw)))
        options = {}
        for game, block in raw.items():
            line = self._line(rf"^[ \t]*\[[ \t]*options[ \t]*\.[ \t]*{re.escape(game)}[ \t]*\]")
            place = _Place(Words("[{name}]", {"name": f"options.{game}"}), f"options.{game}", line)
            if not isinstance(block, dict):
                raise self._fail(place, None, T_("must be a table of rule options, not {kind}", kind=_kind(block)))
            for name, value in block.items():
                if not isinstance(value, (bool, int, str)):
                    raise self._fail(place, name, T_("must be a boolean, an integer or a string, not {kind}",
                                                     kind=_kind(value)))
            options[game] = dict(block)
        return options

    def _seat(self, index: int, raw: object) -> SeatConfig:
        place = self._seat_place(index, None)
        raw = self._keys(place, None, raw, _SEAT_KEYS)
        name = self._name(place, "name", raw.get("name", f"Seat {index + 1}"))
        place = self._seat_place(index, name)
        if "bot" in raw:
            for key in ("buttons", "encoder", "screen", "serial"):
                if key in raw:
                    raise self._fail(place, "bot", T_("a bot seat has no buttons, encoder, screen or serial "
                                                      "port (nobody sits there); remove {key!r} or 'bot'", key=key))
            return SeatConfig(index=index, name=name, bot=self._text_value(place, "bot", raw["bot"], BOT_KINDS))
        if "serial" in raw:
            for key in ("buttons", "encoder", "screen"):
                if key in raw:
                    raise self._fail(place, "serial", T_("a serial seat has no buttons, encoder or screen "
                                                         "(its pod has its own); remove {key!r} or 'serial'", key=key))
            return SeatConfig(index=index, name=name, serial=self._serial(place, raw["serial"]))
        if "buttons" in raw and "encoder" in raw:
            raise self._fail(place, "encoder", T_("a seat has three buttons or an encoder, "
                                                  "not both; remove one or the other"))
        if "buttons" not in raw and "encoder" not in raw:
            raise self._fail(place, None, T_("missing key 'buttons' "
                                             "(or an 'encoder', a 'serial' port, or a 'bot')"))
        if "screen" not in raw:
            raise self._fail(place, None, T_("missing key 'screen' (or give a 'serial' port)"))
        buttons = encoder = None
        if "buttons" in raw:
            pins = self._keys(place, "buttons", raw["buttons"], ("prev", "next", "ok"),
                              required=("prev", "next", "ok"))
            buttons = ButtonPins(**{key: self._pin(place, f"buttons.{key}", pins[key])
                                    for key in ("prev", "next", "ok")})
        else:
            pins = self._keys(place, "encoder", raw["encoder"], _ENCODER_KEYS,
                              required=_ENCODER_KEYS)
            encoder = EncoderPins(**{key: self._pin(place, f"encoder.{key}", pins[key])
                                     for key in _ENCODER_KEYS})
        screen = self._screen(place, "screen", raw["screen"], SEAT_DRIVERS)
        return SeatConfig(index=index, name=name, buttons=buttons, encoder=encoder,
                          screen=screen)

    def _screen(self, place: _Place, key: str | None, raw: object,
                drivers: tuple[str, ...]) -> ScreenConfig:
        every_key = _SCREEN_KEYS + _BUS_KEYS["i2c"] + _BUS_KEYS["spi"]
        raw = self._keys(place, key, raw, every_key, required=("driver", "bus"))
        driver = self._text_value(place, _join(key, "driver"), raw["driver"])
        if driver not in drivers:
            detail = T_("unknown value {value!r} (expected one of: {choices})", value=driver,
                        choices=", ".join(drivers))
            if driver in _MODES:
                detail = T_("a seat's screen is a one-bit OLED ({drivers}); {driver} may be the public screen",
                            drivers=", ".join(drivers), driver=driver)
            raise self._fail(place, _join(key, "driver"), detail)
        bus = self._text_value(place, _join(key, "bus"), raw["bus"], _BUSES)
        if driver in _SPI_ONLY and bus != "spi":
            raise self._fail(place, _join(key, "bus"), T_('{driver} is an SPI panel; set bus = "spi"', driver=driver))
        if "gpio_light" in raw and driver not in COLOUR_DRIVERS:
            raise self._fail(place, _join(key, "gpio_light"),
                             T_("{driver} has no backlight; only {drivers} do", driver=driver,
                                drivers=", ".join(sorted(COLOUR_DRIVERS))))
        for name in raw:
            if name not in _SCREEN_KEYS + _BUS_KEYS[bus]:
                other = "spi" if bus == "i2c" else "i2c"
                raise self._fail(place, _join(key, name),
                                 T_("is an {other} setting but this screen is on {bus}", other=other, bus=bus))
        rotate = self._int(place, _join(key, "rotate"), raw.get("rotate", 0), 0, 3)
        width = self._int(place, _join(key, "width"), raw.get("width", 128), 1, 1024)
        height = self._int(place, _join(key, "height"), raw.get("height", 64), 1, 1024)
        if (width, height) not in _MODES[driver]:
            modes = ", ".join(f"{w}x{h}" for w, h in sorted(_MODES[driver], reverse=True))
            raise self._fail(place, _join(key, "width"),
                             T_("{driver} supports {modes}, not {width}x{height}", driver=driver, modes=modes,
                                width=width, height=height))
        if bus == "i2c":
            mux = channel = None
            if ("mux" in raw) != ("channel" in raw):
                given, missing = ("mux", "channel") if "mux" in raw else ("channel", "mux")
                raise self._fail(place, _join(key, given),
                                 T_("a screen behind a multiplexer needs both 'mux' (its address) "
                                    "and 'channel'; {missing!r} is missing", missing=missing))
            if "mux" in raw:
                mux = self._address(place, _join(key, "mux"), raw["mux"], MUX_ADDRESSES,
                                    T_("a TCA9548A answers at 0x70 plus its A0-A2 jumpers"))
                channel = self._int(place, _join(key, "channel"), raw["channel"],
                                    MUX_CHANNELS.start, MUX_CHANNELS.stop - 1)
            return ScreenConfig(
                driver=driver, bus=bus, rotate=rotate, width=width, height=height,
                port=self._int(place, _join(key, "port"), raw.get("port", 1), 0, 255),
                address=self._address(place, _join(key, "address"), raw.get("address", 0x3C),
                                      _I2C_ADDRESSES, T_("the 7-bit I2C addresses")),
                mux=mux, channel=channel)
        rst = raw.get("gpio_rst", _SPI_RST)
        if rst is True:
            raise self._fail(place, _join(key, "gpio_rst"), T_("must be a pin or false"))
        light = raw.get("gpio_light")
        if light is not None:
            light = self._pin(place, _join(key, "gpio_light"), light)
        cs = raw.get("gpio_cs")
        if cs is not None:
            cs = self._pin(place, _join(key, "gpio_cs"), cs)
            if cs == 0:
                # luma's gpio_cs_spi tests the pin for truth and would skip GPIO0.
                raise self._fail(place, _join(key, "gpio_cs"),
                                 T_("GPIO0 cannot be a chip select for luma; use another pin"))
        return ScreenConfig(
            driver=driver, bus=bus, rotate=rotate, width=width, height=height,
            port=self._int(place, _join(key, "port"), raw.get("port", 0), 0, 255),
            device=self._int(place, _join(key, "device"), raw.get("device", 0), 0, 255),
            gpio_dc=self._pin(place, _join(key, "gpio_dc"), raw.get("gpio_dc", _SPI_DC)),
            gpio_rst=None if rst is False else self._pin(place, _join(key, "gpio_rst"), rst),
            gpio_cs=cs, gpio_light=light)

    def _serial(self, place: _Place, raw: object) -> SerialSeatConfig:
        raw = self._keys(place, "serial", raw, _SERIAL_KEYS, required=("port",))
        return SerialSeatConfig(
            port=self._text_value(place, "serial.port", raw["port"]),
            baudrate=self._int(place, "serial.baudrate", raw.get("baudrate", 115200),
                               1, 10_000_000))

    # -- wiring ------------------------------------------------------------

    def check_wiring(self, config: TableConfig) -> None:
        """Reject tables whose devices would fight over a pin, address or port."""
        pins: dict[int, tuple[Words, str]] = {}        # BCM -> (owner, key)
        # (port, mux, channel, address) -> owner; mux and channel None on the port itself.
        i2c: dict[tuple[int, int | None, int | None, int], Words] = {}
        muxes: dict[tuple[int, int], Words] = {}       # (port, mux address) -> first user
        behind: dict[tuple[int, int], Words] = {}      # (port, address) behind any mux -> owner
        spi: dict[tuple[int, int], tuple[Words, int | None]] = {}
        serial_ports: dict[str, tuple[Words, str]] = {}
        names: dict[str, Words] = {}

        def owner_of(place: _Place, key: str) -> Words:
            return Words("{where} {key}", {"where": place.where, "key": key or "screen"})

        def claim_pin(place: _Place, key: str, pin: int) -> None:
            if pin in pins:
                owner, owner_key = pins[pin]
                if key.endswith("gpio_dc") and owner_key.endswith("gpio_dc"):
                    return  # a shared data/command line is normal SPI wiring
                if key.endswith("gpio_rst") and owner_key.endswith("gpio_rst"):
                    raise self._fail(place, key, T_(
                        "pin {pin} is already used by {owner} {key} (a shared reset line resets the panels "
                        "already set up; set gpio_rst = false on all but the first)", pin=pin, owner=owner,
                        key=owner_key))
                raise self._fail(place, key, T_("pin {pin} is already used by {owner} {key}", pin=pin,
                                                owner=owner, key=owner_key))
            pins[pin] = (place.where, key)

        def claim_i2c(place: _Place, key: str, screen: ScreenConfig) -> None:
            owner = owner_of(place, key)
            port, address, mux = screen.port, screen.address, screen.mux
            if mux is not None and (port, mux) not in muxes:
                if (port, None, None, mux) in i2c:
                    raise self._fail(place, _join(key, "mux"),
                                     T_("i2c port {port} address {address:#04x} is already used by {owner}, "
                                        "not a multiplexer", port=port, address=mux,
                                        owner=i2c[port, None, None, mux]))
                if (port, mux) in behind:
                    raise self._fail(place, _join(key, "mux"),
                                     T_("i2c port {port} address {address:#04x} is already used by {owner} "
                                        "behind another multiplexer; a selected channel joins the port, so "
                                        "both would answer", port=port, address=mux, owner=behind[port, mux]))
                muxes[port, mux] = owner
            if (port, address) in muxes:
                raise self._fail(place, _join(key, "address"),
                                 T_("i2c port {port} address {address:#04x} is the multiplexer that {owner} "
                                    "is behind", port=port, address=address, owner=muxes[port, address]))
            if mux is None:
                if (port, address) in behind:
                    raise self._fail(place, _join(key, "address"),
                                     T_("i2c port {port} address {address:#04x} is already used behind a "
                                        "multiplexer by {owner}; a selected channel joins the port, so both "
                                        "would answer", port=port, address=address, owner=behind[port, address]))
            elif (port, None, None, address) in i2c:
                raise self._fail(place, _join(key, "address"),
                                 T_("i2c port {port} address {address:#04x} is already used by {owner}, wired "
                                    "straight to the port; a selected channel joins the port, so both would "
                                    "answer", port=port, address=address, owner=i2c[port, None, None, address]))
            spot = (port, mux, screen.channel, address)
            if spot in i2c:
                if mux is not None:
                    raise self._fail(place, _join(key, "address"), T_(
                        "i2c port {port} address {address:#04x} behind mux {mux:#04x} channel {channel} is already "
                        "used by {owner}", port=port, address=address, mux=mux, channel=screen.channel,
                        owner=i2c[spot]))
                raise self._fail(place, _join(key, "address"),
                                 T_("i2c port {port} address {address:#04x} is already used by {owner}",
                                    port=port, address=address, owner=i2c[spot]))
            i2c[spot] = owner
            if mux is not None:
                behind.setdefault((port, address), owner)

        def claim_screen(place: _Place, key: str, screen: ScreenConfig) -> None:
            for pin_key, pin in screen.pins():
                claim_pin(place, _join(key, pin_key), pin)
            if screen.bus == "i2c":
                claim_i2c(place, key, screen)
                return
            spot = (screen.port, screen.device)
            if spot in spi:
                owner, owner_cs = spi[spot]
                if owner_cs is None or screen.gpio_cs is None:
                    raise self._fail(place, _join(key, "device"),
                                     T_("spi port {port} device {device} is already used by {owner}; panels "
                                        "sharing it need a gpio_cs each", port=screen.port, device=screen.device,
                                        owner=owner))
            spi[spot] = (owner_of(place, key), screen.gpio_cs)

        for seat in config.seats:
            place = self._seat_place(seat.index, seat.name)
            if seat.name.casefold() in names:
                raise self._fail(place, "name", T_("{owner} has that name", owner=names[seat.name.casefold()]))
            names[seat.name.casefold()] = place.where
            if seat.buttons is not None:
                for button, pin in seat.buttons.items():
                    claim_pin(place, f"buttons.{button}", pin)
            if seat.encoder is not None:
                for key, pin in seat.encoder.items():
                    claim_pin(place, f"encoder.{key}", pin)
            if seat.screen is not None:
                claim_screen(place, "screen", seat.screen)
            if seat.serial is not None:
                port = seat.serial.port
                device = serial_device(port)
                if device in serial_ports:
                    other, name = serial_ports[device]
                    if name != port:
                        raise self._fail(place, "serial.port", T_("{port} is already used by {owner} (both are "
                                                                  "{device})", port=port, owner=other, device=device))
                    raise self._fail(place, "serial.port", T_("{port} is already used by {owner}", port=port,
                                                              owner=other))
                serial_ports[device] = (place.where, port)
        if config.public_screen is not None:
            claim_screen(self._section("public_screen"), "", config.public_screen)


def serial_device(port: str) -> str:
    """The device a serial port names: a path with its links resolved (a /dev/serial/by-id/ link is
    its /dev/ttyACM0), or a pyserial URL as it is."""
    if "://" in port:
        return port
    return os.path.realpath(port)


# Characters that would reach a terminal raw or reorder the text around them.
_BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unprintable(text: str) -> str:
    """The control characters in a name (as escapes, e.g. ``'\\x1b'``), or "" when there is none."""
    found = [c for c in text if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in _BIDI_CONTROLS]
    return ", ".join(dict.fromkeys(ascii(c) for c in found))


def _join(prefix: str | None, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
