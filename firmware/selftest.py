"""`courtier selftest`: light every screen, ask for every button, say plainly what is wrong.

Run on the Pi after wiring (and with the service stopped, since it holds the
pins and buses). Each screen shows its seat's number and name in big
digits; then each seat's screen asks for its buttons one at a time ("press
NEXT"), and the terminal says the same. A screen that does not answer, a
button that never closes, and a seat whose pins cannot be claimed are listed
at the end with what to check; the exit status is non-zero if anything failed.

On an emulated table (a laptop) the seat keys of `courtier play` stand in
for the buttons: each ask names its key, and the keys typed in the terminal
press the table's mock pins as on the Pi.

The table is opened with ``missing_ok`` so that one dead screen does not
hide the state of all the others. An SPI panel cannot answer back, so a dark
SPI screen only shows on the table itself: the report reminds the user to look.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from PIL import Image, ImageDraw

from .table.render import WIDE_LINE, fit
from .table.render import font as screen_font

from engine.i18n import N_, _, ngettext, set_language
from hardware.errors import HardwareError, ScreenError
from hardware.events import BUTTONS, InputEvent
from hardware.table import ScreenConfig, SeatConfig, header_pin

if TYPE_CHECKING:
    from hardware.factory import Seat, Table

_log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 10.0

# What the user is asked to do, per input kind.
_BUTTON_ASKS = {"prev": N_("press PREV"), "next": N_("press NEXT"), "ok": N_("press OK")}
_ENCODER_ASKS = {"prev": N_("turn the knob LEFT"), "next": N_("turn the knob RIGHT"),
                 "ok": N_("press the knob")}
_MAX_SCALE = 6   # the bitmap font's digits, up to six times larger


@dataclass
class _Report:
    """What the self-test found: counts and one paragraph per problem."""

    screens: int = 0
    screens_ok: int = 0
    inputs: int = 0
    inputs_ok: int = 0
    problems: list[str] = field(default_factory=list)


class _Asker:
    """Waits for one seat's one button, fed by the table's events from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._wanted: tuple[int, str] | None = None
        self._answered = threading.Event()
        self._others: list[str] = []

    def ask(self, seat: int, button: str) -> None:
        with self._lock:
            self._wanted = (seat, button)
            self._others = []
            self._answered.clear()

    def wait(self, timeout: float) -> tuple[bool, list[str]]:
        """Return whether the button answered, and which others of that seat did meanwhile."""
        answered = self._answered.wait(timeout)
        with self._lock:
            self._wanted = None
            return answered, list(self._others)

    def __call__(self, event: InputEvent) -> None:
        with self._lock:
            if self._wanted is None or event.seat != self._wanted[0]:
                return
            if event.button == self._wanted[1]:
                self._answered.set()
            elif event.button not in self._others:
                self._others.append(event.button)


def run_selftest(table: Table, *, ask_timeout: float = DEFAULT_TIMEOUT, out: TextIO | None = None,
                 on_ask: Callable[[int, str], Any] | None = None, keys: Sequence[str] = ()) -> int:
    """Light every screen, ask for every button, and report what failed.

    Args:
        table: An open table, best opened with ``open_table(..., missing_ok=True)``
            so that devices that failed to open are reported, not fatal.
        ask_timeout: Seconds to wait for each button.
        out: Where the report goes; standard output by default.
        on_ask: Called as ``on_ask(seat_index, button)`` once a button has
            been asked for, before waiting (tests press the mock pin there).
        keys: Each seat's prev, ok and next keys, when typed keys press the
            buttons (an emulated table): every ask names its key.

    Returns:
        0 if every screen and button answered, 1 otherwise.
    """
    return _SelfTest(table, ask_timeout, out if out is not None else sys.stdout, on_ask, keys).run()


def cmd_selftest(args: argparse.Namespace) -> int:
    """Open the table file's devices, keeping going past missing ones, and test them."""
    from hardware.factory import open_table
    from hardware.table import load_table

    config = load_table(Path(args.table))
    if not getattr(args, "lang", None) and config.language:
        set_language(config.language)  # the screens ask in the table's language
    with open_table(config, missing_ok=True) as table:
        if table.backend != "emulator":
            return run_selftest(table, ask_timeout=args.timeout, out=sys.stdout)
        from .emulator import KEYS
        with typed_keys(table, sys.stdin):
            return run_selftest(table, ask_timeout=args.timeout, out=sys.stdout, keys=KEYS)


@contextlib.contextmanager
def typed_keys(table: Table, source: TextIO) -> Iterator[None]:
    """Press an emulated table's buttons with the keys typed on `source`, as `courtier play` does.

    A terminal is put in cbreak mode (each key counts at once, none echoed)
    and restored after; a pipe is read as it comes.
    """
    from .emulator import Keyboard

    keyboard = Keyboard(table)
    try:
        fd = source.fileno()
    except (OSError, ValueError):  # no file under it (a test's captured input): nothing to read
        yield
        return
    saved = None
    if os.isatty(fd):
        import termios
        import tty

        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)

    def feed() -> None:
        while True:
            try:
                data = os.read(fd, 64)
            except OSError:
                return
            if not data:
                return
            for key in data.decode("utf-8", "ignore"):
                keyboard.press(key)

    threading.Thread(target=feed, daemon=True, name="self-test keys").start()
    try:
        yield
    finally:
        if saved is not None:
            import termios

            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        keyboard.close()


# --- the run -------------------------------------------------------------------


class _SelfTest:
    """One run: the table, where the report goes, and what has failed so far."""

    def __init__(self, table: Table, timeout: float, out: TextIO,
                 on_ask: Callable[[int, str], Any] | None, keys: Sequence[str] = ()) -> None:
        self.table = table
        self.keys = keys
        self.timeout = timeout
        self.out = out
        self.on_ask = on_ask
        self.report = _Report()
        self.dark: set[int] = set()   # seats whose screen failed: no more prompts on it

    def say(self, text: str, end: str = "\n") -> None:
        print(text, end=end, file=self.out)
        flush = getattr(self.out, "flush", None)
        if flush is not None:
            flush()

    def run(self) -> int:
        table, config, report = self.table, self.table.config, self.report
        self.say(_("Self-test of {name}: {seats} seats, {backend} backend, table file {source}").format(
            name=config.name, seats=len(table.seats), backend=table.backend, source=config.source))
        self.say(_("Screens:"))
        for seat in table.seats:
            self.check_screen(seat)
        if config.public_screen is not None:
            self.check_public_screen()
        if any(s.screen is not None and s.config.screen is not None
               and s.config.screen.bus == "spi" for s in table.seats):
            self.say(_("  An SPI panel cannot answer back: if one stays dark although it says "
                       "ok here, check its wiring."))

        self.say(_("Buttons: press each one when asked ({seconds:g} s each).").format(seconds=self.timeout))
        if self.keys:
            self.say(_("  On this emulated table the keys stand in for the buttons: {keys}.").format(
                keys="; ".join(_("seat {n} {prev} prev, {ok} ok, {next} next").format(
                    n=i + 1, prev=prev, ok=ok, next=nxt)
                    for i, (prev, ok, nxt) in enumerate(self.keys[:len(table.seats)]))))
        asker = _Asker()
        previous = table.on_event
        table.on_event = asker
        try:
            for seat in table.seats:
                self.check_inputs(seat, asker)
        finally:
            table.on_event = previous

        self.say(_("Summary: {screens_ok} of {screens} screens and {inputs_ok} of {inputs} buttons answered.")
                 .format(screens_ok=report.screens_ok, screens=report.screens, inputs_ok=report.inputs_ok,
                         inputs=report.inputs))
        if not report.problems:
            self.say(_("Everything answered: the table is wired as its file says."))
            return 0
        self.say(ngettext("{n} problem:", "{n} problems:", len(report.problems)).format(n=len(report.problems)))
        for problem in report.problems:
            self.say(f"  - {problem}")
        return 1

    # -- screens --

    def check_screen(self, seat: Seat) -> None:
        config = seat.config
        if config.bot is not None:
            self.say(_("  skip  {seat}: played by a bot ({bot}), no screen or buttons").format(
                seat=config.label, bot=config.bot))
            return
        if config.serial is not None:
            error = seat.errors.get("link")
            if error is None:
                self.say(_("  skip  {seat}: serial seat on {port} (this test covers seats wired to the Pi)")
                         .format(seat=config.label, port=config.serial.port))
                return
            self.say(_("  FAIL  {seat}: serial seat on {port}").format(seat=config.label, port=config.serial.port))
            self.report.problems.append(
                _("{seat}: could not open {port}: {error}. Check the cable, and that the user is in the dialout "
                  "group.").format(seat=config.label, port=config.serial.port, error=error))
            return
        assert config.screen is not None
        self.report.screens += 1
        error = seat.errors.get("screen")
        if error is None:
            error = self.show(seat, _("self-test"))
        if error is not None:
            self.dark.add(config.index)
        self.record_screen(config.label, config.screen, error)

    def check_public_screen(self) -> None:
        table = self.table
        screen_config = table.config.public_screen
        assert screen_config is not None
        self.report.screens += 1
        error: HardwareError | None = table.public_error
        if error is None and table.public_screen is not None:
            image = _card(table.public_screen.size, "", table.config.name, _("self-test"))
            try:
                table.public_screen.show(image)
            except ScreenError as exc:
                error = exc
        self.record_screen(_("public screen"), screen_config, error)

    def record_screen(self, label: str, config: ScreenConfig, error: HardwareError | None) -> None:
        """Say how one screen did, and keep its problem and what to check for the summary."""
        if error is not None:
            self.say(_("  FAIL  {seat}: {screen}").format(seat=label, screen=config.describe()))
            self.report.problems.append(f"{_screen_problem(error)} {_screen_hint(config, error)}")
            return
        self.report.screens_ok += 1
        self.say(_("  ok    {seat}: {screen}").format(seat=label, screen=config.describe()))

    def show(self, seat: Seat, line: str) -> ScreenError | None:
        """Show the seat's card with one line of text, unless its screen already failed."""
        if seat.screen is None or seat.config.index in self.dark:
            return None
        image = _card(seat.screen.size, str(seat.config.index + 1), seat.config.name, line)
        try:
            seat.screen.show(image)
        except ScreenError as exc:
            return exc
        return None

    # -- buttons --

    def check_inputs(self, seat: Seat, asker: _Asker) -> None:
        config = seat.config
        if config.serial is not None or config.bot is not None:
            return
        encoder = config.encoder is not None
        self.report.inputs += len(BUTTONS)
        error = seat.errors.get("buttons")
        if error is not None or seat.buttons is None:
            what = _("encoder") if encoder else _("buttons")
            self.say(_("  FAIL  {seat}: {what} could not be opened").format(seat=config.label, what=what))
            self.report.problems.append(
                _("{seat} {what}: {error}. Another program or a kernel driver holds a pin (is courtier.service "
                  "running? `sudo systemctl stop courtier`; GPIO14/15 need the serial console off, GPIO7-11 "
                  "need SPI off), or the user is not in the gpio group.").format(
                      seat=config.label, what=what, error=error))
            return
        asks = _ENCODER_ASKS if encoder else _BUTTON_ASKS
        missing = 0
        for button in BUTTONS:
            ask = _(asks[button])
            key = self._key(config, button)
            self.say(_("  Seat {n} {name}: {ask} ... ").format(n=config.index + 1, name=config.name, ask=ask + key),
                     end="")
            self.prompt(seat, ask)
            asker.ask(config.index, button)
            if self.on_ask is not None:
                self.on_ask(config.index, button)
            answered, others = asker.wait(self.timeout)
            if answered:
                self.report.inputs_ok += 1
                self.say(_("ok"))
                continue
            missing += 1
            self.say(_("no answer in {seconds:g} s").format(seconds=self.timeout))
            self.report.problems.append(_input_problem(config, button, others, self.timeout))
        if missing == len(BUTTONS):
            self.report.problems.append(
                (_("Nothing at all answered on {seat}: check the ground wire its encoder and switch share, and "
                   "that the table file's pins are the ones wired.") if encoder else
                 _("Nothing at all answered on {seat}: check the ground wire its buttons share, and that the "
                   "table file's pins are the ones wired.")).format(seat=config.label))
        self.prompt(seat, _("all answered") if not missing else _("see the report"))

    def _key(self, config: SeatConfig, button: str) -> str:
        """" (key e)": the key that presses this button on an emulated table, else nothing."""
        if not self.keys or config.encoder is not None or config.index >= len(self.keys):
            return ""
        prev, ok, nxt = self.keys[config.index]
        return _(" (key {key})").format(key=dict(prev=prev, ok=ok, next=nxt)[button])

    def prompt(self, seat: Seat, line: str) -> None:
        """Show a line on a seat's card; a screen that stops answering now is reported once."""
        error = self.show(seat, line)
        if error is not None and seat.config.screen is not None:
            self.dark.add(seat.config.index)
            self.report.screens_ok -= 1
            self.report.problems.append(
                f"{_screen_problem(error)} {_screen_hint(seat.config.screen, error)}")


def _screen_problem(error: HardwareError) -> str:
    text = str(error).rstrip(".")
    return _("{error}: the screen did not answer.").format(error=text) if isinstance(error, ScreenError) else f"{text}."


def _screen_hint(screen: ScreenConfig, error: HardwareError) -> str:
    """Say what to check for a screen that did not answer, from its bus and the error."""
    text = str(error)
    if "I2C bus not found" in text or "I2C device not found: /dev/" in text:
        return _("/dev/i2c-{port} does not exist: turn I2C on (raspi-config > Interface Options > I2C, or "
                 "dtparam=i2c_arm=on in /boot/firmware/config.txt) and reboot.").format(port=screen.port)
    if "permission denied" in text.lower():
        return _("Run the self-test as a user in the i2c (and spi, gpio) groups, e.g. sudo -u courtier.")
    if screen.bus == "spi":
        wires = (f"DC GPIO{screen.gpio_dc}"
                 + (f", RST GPIO{screen.gpio_rst}" if screen.gpio_rst is not None else "")
                 + (f", CS GPIO{screen.gpio_cs}" if screen.gpio_cs is not None else f", CE{screen.device}"))
        return _("Check SPI is on (dtparam=spi=on), and the panel's wires: MOSI GPIO10, SCLK GPIO11, {wires}, "
                 "VCC 3.3 V and GND.").format(wires=wires)
    wires = (_("SDA to GPIO2 (pin 3), SCL to GPIO3 (pin 5)") if screen.port == 1
             else _("SDA and SCL to the pins of I2C bus {port}").format(port=screen.port))
    if screen.mux is not None and "multiplexer not found" in text:
        return _("The TCA9548A itself did not answer at {mux}: check its VIN (3.3 V), GND, {wires}, its A0-A2 "
                 "jumpers ({mux} = 0x70 + A2A1A0) and that RST is not held low. `i2cdetect -y {port}` must list "
                 "{mux}.").format(mux=f"{screen.mux:#04x}", wires=wires, port=screen.port)
    if screen.mux is not None:
        return _("The multiplexer answered, but nothing at {address} on its channel {channel}: check the panel's "
                 "SDA to SD{channel} and SCL to SC{channel}, its VCC (3.3 V) and GND, and its address jumper "
                 "({address}). Channels with no pull-ups on the panel need 10 kOhm from SD/SC to 3.3 V.").format(
                     address=f"{screen.address:#04x}", channel=screen.channel)
    return _("Check its VCC (3.3 V), GND, {wires}, and its address jumper ({address}); `i2cdetect -y {port}` must "
             "list it.").format(wires=wires, address=f"{screen.address:#04x}", port=screen.port)


def _card(size: tuple[int, int], number: str, name: str, line: str) -> Image.Image:
    """Draw a seat's number in big digits, its name, and one line of text."""
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    font = screen_font().latin  # the seat screens' own bitmap font, loaded once for every card
    x = 2
    if number:
        left, top, right, bottom = font.getbbox(number)
        small = Image.new("1", (right - left + 1, bottom - top + 1))
        ImageDraw.Draw(small).text((-left, -top), number, font=font, fill=1)
        scale = max(1, min(_MAX_SCALE, (size[1] - 14) // small.height))
        big = small.resize((small.width * scale, small.height * scale), Image.Resampling.NEAREST)
        image.paste(big, (2, max(0, (size[1] - 12 - big.height) // 2)))
        x = big.width + 8
    # The name and the line may be Chinese (or anything a table file holds): the screen font draws them.
    text = screen_font()
    room = size[0] - x
    text.draw(draw, (x, 3), fit(name, room), fill=1, line=WIDE_LINE)
    text.draw(draw, (x if number else 2, size[1] - 12), fit(line, size[0] - (x if number else 2)),
              fill=1, line=WIDE_LINE)
    return image


# --- messages ------------------------------------------------------------------


def _input_problem(config: SeatConfig, button: str, others: list[str], timeout: float) -> str:
    """Say which input never answered, on which pins, and what that suggests."""
    if config.encoder is not None:
        pins = config.encoder
        if button == "ok":
            return _("{seat} encoder push on {pin} never closed in {seconds:g} s: check the switch's wires to "
                     "GPIO{gpio} and to ground.").format(seat=config.label, pin=_pin(pins.push), seconds=timeout,
                                                         gpio=pins.push)
        turned = (_("{seat} encoder turned LEFT never answered in {seconds:g} s: check A on {a}, B on {b} and C "
                    "to ground.") if button == "prev" else
                  _("{seat} encoder turned RIGHT never answered in {seconds:g} s: check A on {a}, B on {b} and C "
                    "to ground."))
        text = turned.format(seat=config.label, seconds=timeout, a=_pin(pins.a), b=_pin(pins.b))
        if ("next" if button == "prev" else "prev") in others:
            text += " " + _("It answered the other way: swap a and b in the table file.")
        return text
    assert config.buttons is not None
    pin = dict(config.buttons.items())[button]
    text = _("{seat} button {button} on {pin} never closed in {seconds:g} s: check the wire from GPIO{gpio} to the "
             "button and from the button's other leg to a ground pin.").format(
                 seat=config.label, button=button.upper(), pin=_pin(pin), seconds=timeout, gpio=pin)
    swapped = [other.upper() for other in others]
    if swapped:
        text += " " + _("{others} answered instead: are the wires of {button} and {other} swapped?").format(
            others=" / ".join(swapped), button=button.upper(), other=swapped[0])
    return text


def _pin(gpio: int) -> str:
    number = header_pin(gpio)
    return f"GPIO{gpio}" + (f" (pin {number})" if number is not None else "")
