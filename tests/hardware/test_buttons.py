"""Tests for hardware.buttons: gpiozero Buttons on MockFactory pins."""

import threading

import pytest
from gpiozero import Button

from hardware.buttons import SeatButtons
from hardware.errors import HardwareError
from hardware.events import InputEvent
from hardware.table import ButtonPins

PINS = ButtonPins(prev=5, next=6, ok=13)


class Sink:
    """Collects events and signals each arrival, as the firmware's queue would."""

    def __init__(self):
        self.events = []
        self.arrived = threading.Event()

    def __call__(self, event):
        self.events.append(event)
        self.arrived.set()


@pytest.fixture
def sink():
    return Sink()


def test_prev_and_next_report_a_press_when_pushed(mock_pins, sink):
    """prev and next emit "press" as the line goes low, with the seat index."""
    with SeatButtons(2, PINS, sink, pin_factory=mock_pins) as buttons:
        buttons.pin("prev").drive_low()
        buttons.pin("prev").drive_high()
        buttons.pin("next").drive_low()
        buttons.pin("next").drive_high()
        assert sink.events == [InputEvent(2, "prev", "press"), InputEvent(2, "next", "press")]


def test_pins_idle_high_with_pull_up(mock_pins, sink):
    """The buttons use pull-ups: an idle mock pin reads high and is not pressed."""
    with SeatButtons(0, PINS, sink, pin_factory=mock_pins) as buttons:
        assert mock_pins.pin(13).state == 1
        assert buttons.pin("ok") is mock_pins.pin(13)
        assert sink.events == []


def test_ok_short_press_reports_press_on_release(mock_pins, sink):
    """A short ok press reports one "press", when the button comes back up."""
    with SeatButtons(1, PINS, sink, hold_time=5, pin_factory=mock_pins) as buttons:
        buttons.pin("ok").drive_low()
        assert sink.events == []
        buttons.pin("ok").drive_high()
        assert sink.events == [InputEvent(1, "ok", "press")]


def test_ok_held_reports_hold_and_no_press(mock_pins, sink):
    """Keeping ok down for hold_time reports "hold" once, and the release adds nothing."""
    with SeatButtons(3, PINS, sink, hold_time=0.05, pin_factory=mock_pins) as buttons:
        buttons.pin("ok").drive_low()
        assert sink.arrived.wait(timeout=2), "gpiozero never fired when_held"
        buttons.pin("ok").drive_high()
        assert sink.events == [InputEvent(3, "ok", "hold")]


def test_a_hold_does_not_leak_into_the_next_press(mock_pins, sink):
    """After a hold, the next short ok press is a plain "press" again."""
    with SeatButtons(0, PINS, sink, hold_time=0.05, pin_factory=mock_pins) as buttons:
        ok = buttons.pin("ok")
        ok.drive_low()
        assert sink.arrived.wait(timeout=2)
        ok.drive_high()
        buttons.hold_time = 5
        ok.drive_low()
        ok.drive_high()
        assert sink.events == [InputEvent(0, "ok", "hold"), InputEvent(0, "ok", "press")]


def test_hold_time_and_bounce_time_reach_gpiozero(mock_pins, sink):
    """The table's hold and debounce times are handed to gpiozero, not re-timed here."""
    with SeatButtons(0, PINS, sink, hold_time=0.3, bounce_time=0.02,
                     pin_factory=mock_pins) as buttons:
        assert buttons.hold_time == 0.3
        assert mock_pins.pin(13).bounce == 0.02


def test_default_pin_factory_is_gpiozeros(mock_pins, sink):
    """Without a pin_factory the buttons use Device.pin_factory, as gpiozero devices do."""
    with SeatButtons(0, PINS, sink) as buttons:
        mock_pins.pin(6).drive_low()
        mock_pins.pin(6).drive_high()
        assert buttons.pin("next") is mock_pins.pin(6)
        assert sink.events == [InputEvent(0, "next", "press")]


def test_close_releases_the_pins(mock_pins, sink):
    """After close the same pins can be claimed again."""
    buttons = SeatButtons(0, PINS, sink, pin_factory=mock_pins)
    buttons.close()
    assert buttons.closed
    with Button(13, pin_factory=mock_pins):
        pass


def test_pin_in_use_is_a_hardware_error_and_releases_the_rest(mock_pins, sink):
    """A pin already claimed fails with HardwareError naming it, and the pins taken so far are freed."""
    with Button(13, pin_factory=mock_pins):
        with pytest.raises(HardwareError, match="seat 1 buttons: pin 13"):
            SeatButtons(0, PINS, sink, pin_factory=mock_pins)
    with SeatButtons(0, PINS, sink, pin_factory=mock_pins):
        pass


def test_a_failing_handler_does_not_break_later_presses(mock_pins, caplog):
    """An exception in on_event is logged and the next press still arrives."""
    seen = []

    def handler(event):
        seen.append(event)
        if len(seen) == 1:
            raise RuntimeError("queue full")

    with SeatButtons(0, PINS, handler, pin_factory=mock_pins) as buttons:
        buttons.pin("prev").drive_low()
        buttons.pin("prev").drive_high()
        buttons.pin("prev").drive_low()
    assert len(seen) == 2
    assert "event handler failed" in caplog.text
