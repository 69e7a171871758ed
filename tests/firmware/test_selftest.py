"""Tests for firmware.selftest: every screen lit, every button asked for, failures explained."""

import argparse
import importlib.util
import io
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import luma.core.error
import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from firmware import exits, selftest
from firmware.cli import SELFTEST_TIMEOUT
from firmware.cli import add_selftest_parser as add_parser
from firmware.selftest import DEFAULT_TIMEOUT, run_selftest
from hardware.factory import open_table
from hardware.recording import RecordingInterface
from hardware.table import parse_table

TABLE = """
[table]
name = "Test table"
backend = "mock"

[[seat]]
name = "Red"
buttons = { prev = 4, next = 17, ok = 27 }
screen = { driver = "ssd1306", bus = "i2c", address = 0x3C, mux = 0x70, channel = 0 }

[[seat]]
name = "Blue"
buttons = { prev = 22, next = 5, ok = 6 }
screen = { driver = "ssd1306", bus = "i2c", address = 0x3C, mux = 0x70, channel = 1 }

[[seat]]
name = "Purple"
encoder = { a = 16, b = 20, push = 21 }
screen = { driver = "ssd1306", bus = "i2c", address = 0x3C, mux = 0x70, channel = 6 }
"""

# Long enough for the helper thread to press, short enough for the one dead button.
TIMEOUT = 1.0


class Presser:
    """Presses each button the self-test asks for, on its mock pin, from a helper thread.

    Args:
        table: The open mock table.
        dead: ``(seat, button)`` pairs nobody presses, as a broken wire would.
        swap: ``(seat, button) -> other``: the pin pressed instead, as swapped wires would.
    """

    def __init__(self, table, dead=(), swap=None):
        self.table = table
        self.dead = set(dead)
        self.swap = swap or {}
        self.asked = []
        self._asks = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="presser")
        self._thread.start()

    def __call__(self, seat, button):
        self.asked.append((seat, button))
        self._asks.put((seat, button))

    def close(self):
        self._asks.put(None)
        self._thread.join(5)

    def _run(self):
        while (ask := self._asks.get()) is not None:
            if ask in self.dead:
                continue
            seat, button = ask
            pin = self.table.seats[seat].buttons.pin(self.swap.get(ask, button))
            pin.drive_low()
            pin.drive_high()


def run(table, **presser_options):
    out = io.StringIO()
    presser = Presser(table, **presser_options)
    try:
        code = run_selftest(table, ask_timeout=TIMEOUT, out=out, on_ask=presser)
    finally:
        presser.close()
    return code, out.getvalue(), presser


def test_everything_answering_exits_zero_and_asks_every_button_in_order():
    """All screens lit and all nine inputs pressed: exit 0, each seat's buttons asked prev, next, ok."""
    with open_table(parse_table(TABLE), "mock", missing_ok=True) as table:
        code, text, presser = run(table)
        images = [seat.screen.image for seat in table.seats]
    assert code == 0
    assert presser.asked == [(seat, button) for seat in range(3) for button in ("prev", "next", "ok")]
    assert "Summary: 3 of 3 screens and 9 of 9 buttons answered." in text
    assert "Everything answered" in text
    assert "  Seat 2 Blue: press NEXT ... ok\n" in text
    assert "  Seat 3 Purple: turn the knob RIGHT ... ok\n" in text
    assert ('  ok    seat 3 ("Purple"): ssd1306 on i2c port 1 address 0x3c '
            "behind mux 0x70 channel 6") in text
    # Each screen ends on its own card: big seat number, name, "all answered".
    for number, (name, image) in enumerate(zip(("Red", "Blue", "Purple"), images), start=1):
        expected = selftest._card((128, 64), str(number), name, "all answered")
        assert image.tobytes() == expected.tobytes()
    assert images[0].tobytes() != images[1].tobytes()


def test_missing_screen_and_dead_button_are_reported_and_exit_nonzero():
    """A screen that fails at open and a button nobody presses are both named, with what to check."""
    missing = RecordingInterface(fail=luma.core.error.DeviceNotFoundError(
        "I2C device not found on address: 0x3C"))
    with open_table(parse_table(TABLE), "mock", missing_ok=True,
                    interfaces={1: missing}) as table:
        assert table.seats[1].screen is None
        assert "screen" in table.seats[1].errors
        code, text, presser = run(table, dead={(0, "next")})
    assert code == 1
    assert "Summary: 2 of 3 screens and 8 of 9 buttons answered." in text
    assert ('  FAIL  seat 2 ("Blue"): ssd1306 on i2c port 1 address 0x3c '
            "behind mux 0x70 channel 1") in text
    assert ('  - seat 2 ("Blue") screen ssd1306 on i2c port 1 address 0x3c behind mux 0x70 '
            "channel 1: I2C device not found on address: 0x3C: the screen did not answer. "
            "The multiplexer answered, but nothing at 0x3c on its channel 1") in text
    assert "  Seat 1 Red: press NEXT ... no answer in 1 s\n" in text
    assert ('  - seat 1 ("Red") button NEXT on GPIO17 (pin 11) never closed in 1 s: '
            "check the wire from GPIO17 to the button and from the button's other leg "
            "to a ground pin.") in text
    # The seat without a screen still had its buttons asked for, on the terminal.
    assert "  Seat 2 Blue: press OK ... ok\n" in text
    assert len(presser.asked) == 9
    assert text.count("  - ") == 2


def test_screen_failing_at_show_is_reported():
    """A panel that opened but drops off at the first frame is reported as not answering."""
    flaky = RecordingInterface()
    with open_table(parse_table(TABLE), "mock", interfaces={2: flaky}) as table:
        flaky.fail = OSError(121, "Remote I/O error")
        code, text, _ = run(table)
    assert code == 1
    assert '  FAIL  seat 3 ("Purple")' in text
    assert "Remote I/O error: the screen did not answer." in text
    assert "Summary: 2 of 3 screens and 9 of 9 buttons answered." in text


def test_swapped_wires_are_suggested():
    """PREV answering when NEXT was asked (and back) points at swapped wires."""
    swap = {(1, "prev"): "next", (1, "next"): "prev"}
    with open_table(parse_table(TABLE), "mock") as table:
        code, text, _ = run(table, swap=swap)
    assert code == 1
    assert "NEXT answered instead: are the wires of PREV and NEXT swapped?" in text
    assert "PREV answered instead: are the wires of NEXT and PREV swapped?" in text


def test_encoder_turning_backwards_says_swap_a_and_b():
    """A knob whose directions come out reversed is told to swap a and b."""
    swap = {(2, "prev"): "next", (2, "next"): "prev"}
    with open_table(parse_table(TABLE), "mock") as table:
        code, text, _ = run(table, swap=swap)
    assert code == 1
    assert ('seat 3 ("Purple") encoder turned LEFT never answered in 1 s: '
            "check A on GPIO16 (pin 36), B on GPIO20 (pin 38) and C to ground.") in text
    assert text.count("It answered the other way: swap a and b in the table file.") == 2


def test_buttons_that_cannot_be_claimed_are_reported():
    """A pin another program holds leaves that seat's buttons out and says what to check."""
    factory = MockFactory()
    try:
        squatter = Button(22, pin_factory=factory)
        with open_table(parse_table(TABLE), "mock", pin_factory=factory, missing_ok=True) as table:
            assert table.seats[1].buttons is None
            code, text, presser = run(table)
        squatter.close()
    finally:
        factory.reset()
    assert code == 1
    assert '  FAIL  seat 2 ("Blue"): buttons could not be opened' in text
    assert "is courtier.service running?" in text
    assert all(seat != 1 for seat, _ in presser.asked)
    assert "Summary: 3 of 3 screens and 6 of 9 buttons answered." in text


def test_serial_seats_are_skipped_and_previous_handler_restored():
    """A serial seat is listed as skipped, not failed; the table's own handler is back afterwards."""
    text_table = TABLE.split("[[seat]]")[0] + "[[seat]]" + TABLE.split("[[seat]]")[1] + (
        '[[seat]]\nname = "Pod"\nserial = { port = "/dev/ttyACM0" }\n')
    handler = []
    with open_table(parse_table(text_table), "mock", on_event=handler.append) as table:
        code, text, _ = run(table)
        assert table.on_event == handler.append
    assert code == 0
    assert '  skip  seat 2 ("Pod"): serial seat on /dev/ttyACM0' in text
    assert handler == []


def test_the_commands_default_wait_is_the_selftests():
    assert SELFTEST_TIMEOUT == DEFAULT_TIMEOUT


def test_cli_hook_parses_and_runs_the_selftest(tmp_path, capsys):
    """add_parser adds `selftest --table --timeout`; running it on a table nobody presses exits 1."""
    path = tmp_path / "table.toml"
    path.write_text(TABLE.split("[[seat]]\nname = \"Blue\"")[0], encoding="utf-8")
    parser = argparse.ArgumentParser(prog="courtier")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["selftest", "--table", str(path), "--timeout", "0.01"])
    assert args.timeout == 0.01
    assert args.func(args) == 1
    text = capsys.readouterr().out
    assert "Summary: 1 of 1 screens and 0 of 3 buttons answered." in text
    assert 'Nothing at all answered on seat 1 ("Red"): check the ground wire its buttons share' in text
    with pytest.raises(SystemExit):
        parser.parse_args(["selftest", "--timeout", "0"])
    assert "must be more than 0" in capsys.readouterr().err
    assert parser.parse_args(["selftest"]).table == "/etc/courtier/table.toml"


# --- the pi backend, run as the README prints it ---------------------------------

PI_TABLE = Path(__file__).resolve().parents[2] / "hardware" / "tables" / "pi-4.toml"
LGPIO = importlib.util.find_spec("lgpio") is not None
# A Raspberry Pi 4's /proc/cpuinfo revision, so that gpiozero takes this machine for a Pi.
PI_CPUINFO = "processor\t: 0\nHardware\t: BCM2835\nRevision\t: c03114\nModel\t: Raspberry Pi 4 Model B\n"


def _pi_wrap(tmp_path):
    """As root, a private mount namespace where /proc/cpuinfo names a Pi 4 (None where impossible)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return None
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(PI_CPUINFO, encoding="utf-8")
    cpuinfo.chmod(0o644)
    wrap = ["unshare", "--mount", "sh", "-c", 'mount --bind "$0" /proc/cpuinfo && exec "$@"', str(cpuinfo)]
    probe = subprocess.run([*wrap, "grep", "-q", "c03114", "/proc/cpuinfo"], capture_output=True, timeout=30)
    return wrap if probe.returncode == 0 else None


@pytest.mark.skipif(not LGPIO, reason="lgpio is not installed (courtier[dev] on Linux brings it)")
@pytest.mark.parametrize("machine", ["not a Pi", "a Pi without GPIO access"])
def test_selftest_from_a_directory_its_user_cannot_write_reports_as_from_tmp(unprivileged, tmp_path, machine):
    """lgpio's notification pipe never lands in the working directory, and the factory is lgpio's.

    `sudo -u courtier .../courtier selftest` run from a root-owned checkout
    used to fail in lgpio's import (its pipe made in the current directory),
    then gpiozero fell back to another factory and the report blamed the
    wrong things. The report must be the same from anywhere: a directory the
    user cannot write, one it cannot even enter (a checkout in another's
    home), and /tmp.
    """
    wrap = ()
    if machine != "not a Pi":
        wrap = _pi_wrap(tmp_path)
        if wrap is None:
            pytest.skip("needs root and unshare to show this machine as a Pi")
    command = [sys.executable, "-m", "firmware", "selftest", "--table", str(PI_TABLE), "--timeout", "0.1"]
    env = {"COURTIER_HARDWARE": "pi", "GPIOZERO_PIN_FACTORY": "", "LG_WD": ""}
    places = (unprivileged.unwritable, unprivileged.unenterable(tmp_path), "/tmp")
    runs = [unprivileged.run(command, cwd=cwd, env=env, wrap=wrap) for cwd in places]
    *elsewhere, tmp = runs
    for run in elsewhere:
        assert (run.returncode, run.stdout, run.stderr) == (tmp.returncode, tmp.stdout, tmp.stderr)
    report = tmp.stdout + tmp.stderr
    assert "lgd-nfy" not in report and "Falling back" not in report
    assert not list(Path(unprivileged.unwritable).glob(".lgd-nfy*"))
    if machine == "not a Pi":
        assert tmp.returncode == exits.CONFIG
        assert tmp.stdout == ""
        [line] = tmp.stderr.splitlines()
        assert line.startswith("courtier: unable to locate Pi revision") and "not a Raspberry Pi" in line
    else:
        assert tmp.returncode == 1
        assert "Summary: 0 of 4 screens and 0 of 12 buttons answered." in tmp.stdout
        assert tmp.stdout.count("gpiozero's lgpio pin factory could not start: 'can not open gpiochip'") == 4
        assert "/dev/i2c-1 does not exist" in tmp.stdout   # the screens are still tried


def test_bot_seats_are_skipped():
    """A bot seat has no screen or buttons to test: it is listed as skipped, and the test still passes."""
    text_table = TABLE.split("[[seat]]")[0] + "[[seat]]" + TABLE.split("[[seat]]")[1] + (
        '[[seat]]\nname = "Black"\nbot = "normal"\n')
    with open_table(parse_table(text_table), "mock") as table:
        code, text, _ = run(table)
    assert code == 0
    assert '  skip  seat 2 ("Black"): played by a bot (normal), no screen or buttons' in text


def test_the_self_test_speaks_the_tables_language():
    """The person wiring the table reads the self-test in the table's language, wiring hints included."""
    from engine import i18n

    swap = {(1, "prev"): "next", (1, "next"): "prev"}
    i18n.set_language("zh_Hant")
    with open_table(parse_table(TABLE), "mock") as table:
        code, text, _ = run(table, swap=swap)
    assert code == 1
    assert "螢幕：" in text and "回應的卻是 NEXT：PREV 與 NEXT 的線是否接反了？" in text
    assert "Screens:" not in text and "answered instead" not in text


# --- the emulated table: the seat keys stand in for the buttons ---------------------------------

EMULATED = TABLE.replace('backend = "mock"', 'backend = "emulator"').split('[[seat]]\nname = "Purple"')[0]


def test_on_the_emulated_table_each_ask_names_its_key_and_typed_keys_press_the_buttons():
    from firmware.emulator import KEYS
    from firmware.selftest import typed_keys

    read, write = os.pipe()
    keyboard_in = os.fdopen(read, "r")
    typed = []

    def type_key(seat, button):  # the user types the key the line names
        key = dict(zip(("prev", "ok", "next"), KEYS[seat]))[button]
        typed.append(key)
        os.write(write, key.encode())

    out = io.StringIO()
    with open_table(parse_table(EMULATED), "mock", missing_ok=True) as table:
        with typed_keys(table, keyboard_in):
            code = run_selftest(table, ask_timeout=5.0, out=out, on_ask=type_key, keys=KEYS)
    os.close(write)
    text = out.getvalue()
    assert code == 0, text
    assert typed == ["q", "e", "w", "a", "d", "s"]  # prev, next, ok of seat 1, then seat 2
    assert "Seat 1 Red: press NEXT (key e) ... ok" in text and "Seat 2 Blue: press OK (key s) ... ok" in text
    assert "seat 1 q prev, w ok, e next; seat 2 a prev, s ok, d next." in text


def test_the_selftest_command_on_an_emulated_table_says_which_key_to_press(tmp_path, capsys, monkeypatch):
    path = tmp_path / "table.toml"
    path.write_text(EMULATED, encoding="utf-8")
    read, write = os.pipe()
    os.close(write)  # nobody types
    monkeypatch.setattr(sys, "stdin", os.fdopen(read, "r"))
    parser = argparse.ArgumentParser(prog="courtier")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["selftest", "--table", str(path), "--timeout", "0.01"])
    assert args.func(args) == 1
    text = capsys.readouterr().out
    assert "Seat 1 Red: press PREV (key q) ... no answer" in text


@pytest.mark.parametrize("block", [
    'driver = "ili9341"\nbus = "spi"\ngpio_light = 12\nwidth = 320\nheight = 240\n',
    'driver = "ssd1322"\nbus = "spi"\nwidth = 256\nheight = 64\n',
])
def test_a_larger_public_screen_is_lit_with_the_tables_card(block):
    """The self-test's one-bit card shows on an SSD1322 and, white on black, on a colour TFT."""
    with open_table(parse_table(TABLE + "\n[public_screen]\n" + block), "mock", recording=True) as table:
        code, text, _presser = run(table)
        shown = table.public_screen.image
        card = selftest._card(table.public_screen.size, "", "Test table", "self-test")
    assert code == 0 and "Summary: 4 of 4 screens" in text
    assert "  ok    public screen: " in text
    assert shown.tobytes() == card.convert(shown.mode).tobytes()
