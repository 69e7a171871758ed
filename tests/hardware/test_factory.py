"""Tests for hardware.factory: backend choice and opening a whole table."""

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from hardware import factory
from hardware.buttons import SeatEncoder
from hardware.errors import HardwareError, ScreenError
from hardware.events import InputEvent
from hardware.factory import backend_name, open_table
from hardware.recording import RecordingInterface
from hardware.table import emulator_table, parse_table

MIXED = """
[table]
name = "Mixed"
hold_time = 0.5
bounce_time = 0.01

[[seat]]
name = "Red"
buttons = { prev = 5, next = 6, ok = 13 }
screen = { driver = "ssd1306", bus = "i2c", address = 0x3C }

[[seat]]
name = "Pod"
serial = { port = "/dev/ttyACM0" }

[[seat]]
name = "Socket"
serial = { port = "loop://" }

[public_screen]
driver = "sh1106"
bus = "i2c"
port = 3
"""


@pytest.fixture(autouse=True)
def no_backend_env(monkeypatch):
    monkeypatch.delenv("COURTIER_HARDWARE", raising=False)


@pytest.fixture
def model_file(tmp_path, monkeypatch):
    path = tmp_path / "model"
    monkeypatch.setattr(factory, "_MODEL_PATH", path)
    return path


def test_environment_variable_wins(monkeypatch, model_file):
    """COURTIER_HARDWARE overrides the table file's backend, in any case and spacing."""
    monkeypatch.setenv("COURTIER_HARDWARE", " Mock ")
    assert backend_name("pi") == "mock"


def test_bad_environment_value_is_refused(monkeypatch):
    """An unknown COURTIER_HARDWARE value raises HardwareError naming the variable."""
    monkeypatch.setenv("COURTIER_HARDWARE", "arduino")
    with pytest.raises(HardwareError, match="COURTIER_HARDWARE='arduino'"):
        backend_name()


def test_table_backend_is_used_without_environment(model_file):
    """Without the variable, the table file's backend decides."""
    assert backend_name("mock") == "mock"


def test_raspberry_pi_defaults_to_pi(model_file):
    """On a machine whose device-tree model says Raspberry Pi the default is pi."""
    model_file.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert backend_name() == "pi"


def test_elsewhere_defaults_to_emulator(model_file):
    """Without a Raspberry Pi model (or with no device tree at all) the default is emulator."""
    assert backend_name() == "emulator"
    model_file.write_bytes(b"Pine64 RockPro64\x00")
    assert backend_name() == "emulator"


def test_emulator_table_presses_reach_on_event():
    """On the emulator backend, driving a seat's mock pin low delivers an InputEvent to on_event."""
    events = []
    with open_table(emulator_table(3), on_event=events.append) as table:
        assert table.backend == "emulator"
        assert isinstance(table.pin_factory, MockFactory)
        pins = table.config.seats[2].buttons
        table.pin_factory.pin(pins.next).drive_low()
        table.pin_factory.pin(pins.next).drive_high()
        table.seats[1].buttons.pin("prev").drive_low()
        table.seats[1].buttons.pin("prev").drive_high()
    assert events == [InputEvent(2, "next", "press"), InputEvent(1, "prev", "press")]


def test_on_event_can_be_set_after_opening():
    """Presses before a handler is set are dropped; after it is set they arrive."""
    events = []
    with open_table(emulator_table(1)) as table:
        pin = table.seats[0].buttons.pin("prev")
        pin.drive_low()
        pin.drive_high()
        table.on_event = events.append
        pin.drive_low()
    assert events == [InputEvent(0, "prev", "press")]


def test_table_settings_reach_the_buttons():
    """hold_time and bounce_time from the file are used by every seat's buttons."""
    with open_table(parse_table(MIXED), "mock") as table:
        buttons = table.seats[0].buttons
        assert buttons.hold_time == 0.5
        assert buttons.bounce_time == 0.01  # ours, on the leading edge
        assert buttons.pin("ok").bounce is None  # gpiozero's (a delay on lgpio) stays off


def test_every_seat_gets_its_devices():
    """Pin seats get buttons and a screen, serial seats a link, and the public screen is opened."""
    with open_table(parse_table(MIXED), "mock") as table:
        red, pod, sock = table.seats
        assert red.buttons and red.screen and red.link is None
        assert pod.link and pod.buttons is None and pod.screen is None
        assert table.public_screen.size == (128, 64)
        assert [s.name for s in table.seats] == ["Red", "Pod", "Socket"]
        assert [s.index for s in table.seats] == [0, 1, 2]


def test_device_path_serial_seat_becomes_loop_off_the_pi():
    """Off the Pi a serial seat's device path is replaced by loop://; a URL is kept."""
    with open_table(parse_table(MIXED), "emulator") as table:
        pod, sock = table.seats[1].link, table.seats[2].link
        assert pod.url == "loop://" and pod.connected
        assert sock.url == "loop://"
        assert pod.name == 'seat 2 ("Pod")'
        pod.send({"hello": 1})
        assert pod.receive() == [{"hello": 1}]


def test_recording_screens_count_bus_bytes():
    """With recording=True, mock screens are real drivers whose bytes can be counted."""
    with open_table(emulator_table(2), "mock", recording=True) as table:
        interface = table.seats[0].screen.interface
        assert isinstance(interface, RecordingInterface)
        assert interface.data_bytes == 1024   # the driver's init clears the panel


def test_close_closes_devices_and_resets_its_own_factory():
    """Closing a table closes every device and resets the MockFactory it created."""
    table = open_table(parse_table(MIXED), "mock", recording=True)
    pins_factory = table.pin_factory
    screen = table.seats[0].screen
    link = table.seats[1].link
    table.close()
    table.close()
    assert table.closed
    assert table.seats[0].buttons.closed
    assert screen.interface.cleaned_up
    assert not link.connected
    assert pins_factory.pins == {}


def test_given_pin_factory_is_used_and_not_reset(mock_pins):
    """A caller's pin factory is used as given, and closing the table leaves it to its owner."""
    with open_table(emulator_table(1), "mock", pin_factory=mock_pins) as table:
        assert table.pin_factory is mock_pins
        assert table.seats[0].buttons.pin("ok") is mock_pins.pin(table.config.seats[0].buttons.ok)
    assert mock_pins.pins != {}
    with Button(table.config.seats[0].buttons.ok, pin_factory=mock_pins):
        pass   # the reservation was released by closing the buttons


def test_environment_chooses_backend_for_open_table(monkeypatch):
    """open_table without a backend follows COURTIER_HARDWARE."""
    monkeypatch.setenv("COURTIER_HARDWARE", "mock")
    with open_table(emulator_table(1)) as table:
        assert table.backend == "mock"


def test_failure_midway_closes_what_was_opened(mock_pins):
    """When a screen cannot open on the pi backend, the buttons already made are released."""
    config = emulator_table(1)
    with pytest.raises(ScreenError, match=r'^seat 1 \("Seat 1"\) screen ssd1306 on i2c port 1'):
        open_table(config, "pi", pin_factory=mock_pins)
    with Button(config.seats[0].buttons.prev, pin_factory=mock_pins):
        pass


def test_unknown_backend_is_refused():
    """An explicit backend outside pi, mock, emulator is a HardwareError."""
    with pytest.raises(HardwareError, match="unknown backend 'arduino'"):
        open_table(emulator_table(1), "arduino")


ENCODER_TABLE = """
[table]
hold_time = 0.5

[[seat]]
name = "Knob"
encoder = { a = 16, b = 20, push = 21 }
screen = { driver = "ssd1306", bus = "i2c", address = 0x3C }
"""


def test_encoder_seat_gets_a_seat_encoder_giving_button_events():
    """An encoder seat opens a SeatEncoder on the table's pins; turning and pushing reach on_event."""
    events = []
    with open_table(parse_table(ENCODER_TABLE), "mock", on_event=events.append) as table:
        knob = table.seats[0].buttons
        assert isinstance(knob, SeatEncoder)
        assert knob.hold_time == 0.5
        knob.turn(1)
        knob.turn(-2)
        knob.pin("push").drive_low()
        knob.pin("push").drive_high()
    assert events == [InputEvent(0, "next", "press"), InputEvent(0, "prev", "press"),
                      InputEvent(0, "prev", "press"), InputEvent(0, "ok", "press")]


def test_missing_ok_keeps_going_and_records_each_failure():
    """With missing_ok, a screen that fails and a public screen that fails are kept as errors, the rest opens."""
    broken = RecordingInterface(fail=OSError(121, "Remote I/O error"))
    with open_table(emulator_table(3), "mock", missing_ok=True, interfaces={1: broken}) as table:
        assert table.seats[1].screen is None
        assert isinstance(table.seats[1].errors["screen"], ScreenError)
        assert table.seats[1].buttons is not None
        assert table.seats[0].screen is not None and table.seats[2].screen is not None
        assert table.seats[0].errors == {}
        [(owner, device, error)] = table.errors
        assert (owner, device) == ('seat 2 ("Seat 2")', "screen")
        assert str(error) == ('seat 2 ("Seat 2") screen ssd1306 on i2c port 1 address 0x3d: '
                              "[Errno 121] Remote I/O error")


def test_without_missing_ok_a_failing_screen_still_raises(mock_pins):
    """The default stays strict: the first device that fails stops opening, and what opened is closed."""
    broken = RecordingInterface(fail=OSError(121, "Remote I/O error"))
    config = emulator_table(2)
    with pytest.raises(ScreenError, match="Remote I/O error"):
        open_table(config, "mock", pin_factory=mock_pins, interfaces={1: broken})
    with Button(config.seats[0].buttons.prev, pin_factory=mock_pins):
        pass


def test_missing_ok_records_buttons_and_public_screen(mock_pins):
    """Pins already taken and a public screen that cannot open are recorded, not raised."""
    text = MIXED.replace('serial = { port = "loop://" }', 'serial = { port = "nosuch://x" }')
    with Button(6, pin_factory=mock_pins):
        with open_table(parse_table(text), "pi", pin_factory=mock_pins, missing_ok=True) as table:
            red, pod, sock = table.seats
            assert red.buttons is None and "buttons" in red.errors
            assert "pin 6" in str(red.errors["buttons"])
            assert red.screen is None and "screen" in red.errors
            assert "link" in sock.errors
            assert table.public_screen is None
            assert "port 3" in str(table.public_error)
            assert [(owner, device) for owner, device, _ in table.errors] == [
                ('seat 1 ("Red")', "buttons"), ('seat 1 ("Red")', "screen"),
                ('seat 3 ("Socket")', "link"), ("public", "screen")]
