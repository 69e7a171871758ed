"""Tests for hardware.buttons: gpiozero Buttons on MockFactory pins."""

import threading

import pytest
from gpiozero import Button

from firmware.testing import FakeClock
from hardware.buttons import SeatButtons, SeatEncoder
from hardware.errors import HardwareError
from hardware.events import InputEvent
from hardware.table import ButtonPins, EncoderPins

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


def test_only_ok_has_a_thread_timing_its_hold(mock_pins, sink):
    """prev and next are never held: a seat starts one gpiozero hold thread (ok's), not three."""
    before = set(threading.enumerate())
    with SeatButtons(0, PINS, sink, pin_factory=mock_pins):
        started = set(threading.enumerate()) - before
    assert len(started) == 1


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


def test_hold_time_reaches_gpiozero_and_its_debounce_delay_stays_off(mock_pins, sink):
    """gpiozero times the hold; its pin debounce (a delay on lgpio) stays off: the debounce is ours."""
    with SeatButtons(0, PINS, sink, hold_time=0.3, bounce_time=0.02,
                     pin_factory=mock_pins) as buttons:
        assert buttons.hold_time == 0.3 and buttons.bounce_time == 0.02
        assert [mock_pins.pin(pin).bounce for pin in (5, 6, 13)] == [None, None, None]


# --- debounce on the leading edge, against a bouncing pin -----------------------

@pytest.fixture
def clock(monkeypatch):
    """Stands in for the monotonic clock of gpiozero's mock pins, so a test sets each edge's time."""
    import gpiozero.pins.mock

    fake = FakeClock(1000.0)
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", fake)  # edge times and the factory's ticks
    return fake


def bounce(clock, pin, levels, step=0.001):
    """Drive a pin through `levels` ("0" low, "1" high), one edge every `step` seconds of the clock."""
    for level in levels:
        clock.now += step
        pin.drive_low() if level == "0" else pin.drive_high()


def test_a_bouncing_press_counts_once_at_its_first_edge(mock_pins, sink, clock):
    """next reports at the first falling edge; the contact's bounces after it add nothing."""
    with SeatButtons(0, PINS, sink, bounce_time=0.02, pin_factory=mock_pins) as buttons:
        pin = buttons.pin("next")
        bounce(clock, pin, "0")
        assert sink.events == [InputEvent(0, "next", "press")], "reported at once, not 20 ms later"
        bounce(clock, pin, "1010")  # the contact bounces for 4 ms and settles down
        clock.now += 0.2
        bounce(clock, pin, "10101")  # let go: it bounces on the way up too, and settles up
        clock.now += 0.2
        bounce(clock, pin, "0")  # a second press, well after the first
        assert sink.events == [InputEvent(0, "next", "press")] * 2


def test_a_bouncing_ok_tap_is_one_press(mock_pins, sink, clock):
    """ok reports its press on the release; a bouncing press and release still make exactly one."""
    with SeatButtons(1, PINS, sink, bounce_time=0.02, hold_time=5, pin_factory=mock_pins) as buttons:
        pin = buttons.pin("ok")
        bounce(clock, pin, "01010")
        clock.now += 0.1
        bounce(clock, pin, "1")
        assert sink.events == [InputEvent(1, "ok", "press")], "the release counts at once"
        bounce(clock, pin, "0101")
        assert sink.events == [InputEvent(1, "ok", "press")]


def test_a_change_hidden_in_the_bounces_counts_once_the_line_is_quiet(mock_pins, sink, clock):
    """A tap shorter than the debounce time: its release came during the bounces, and still counts."""
    with SeatButtons(2, PINS, sink, bounce_time=0.02, hold_time=5, pin_factory=mock_pins) as buttons:
        pin = buttons.pin("ok")
        bounce(clock, pin, "0101")  # down, then up for good within 4 ms: only "down" counted so far
        assert sink.events == []
        # The pin's clock stands still: the button waits the debounce time on its own timer (some
        # factories stamp edges with another clock than their ticks), then reads the line again.
        assert sink.arrived.wait(timeout=5), "the settled release was never reported"
        assert sink.events == [InputEvent(2, "ok", "press")]


def test_without_a_debounce_time_every_edge_counts(mock_pins, sink, clock):
    with SeatButtons(0, PINS, sink, pin_factory=mock_pins) as buttons:
        bounce(clock, buttons.pin("prev"), "0101")
        assert sink.events == [InputEvent(0, "prev", "press")] * 2


def test_default_pin_factory_is_gpiozeros(mock_pins, sink):
    """Without a pin_factory the buttons use Device.pin_factory, as gpiozero devices do."""
    with SeatButtons(0, PINS, sink) as buttons:
        mock_pins.pin(6).drive_low()
        mock_pins.pin(6).drive_high()
        assert buttons.pin("next") is mock_pins.pin(6)
        assert sink.events == [InputEvent(0, "next", "press")]


def test_close_releases_the_pins_and_ends_the_hold_threads(mock_pins, sink):
    """After close the same pins can be claimed again, and the seat's gpiozero hold thread (ok's: prev and next
    have none) is not left, even when it was woken in the middle of a press."""
    def hold_threads():
        return {t for t in threading.enumerate() if type(t).__name__ == "HoldThread"}

    others = hold_threads()
    buttons = SeatButtons(0, PINS, sink, pin_factory=mock_pins)
    mock_pins.pin(13).drive_low()
    mock_pins.pin(13).drive_high()
    seats = hold_threads() - others
    assert len(seats) == 1
    buttons.close()
    assert buttons.closed
    assert not [t for t in seats if t.is_alive()]
    assert sink.events == [InputEvent(0, "ok", "press")]
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


KNOB = EncoderPins(a=16, b=20, push=21)


def quadrature(factory, first, second):
    """Walk one detent by hand: first line low, second low, first high, second high."""
    a, b = factory.pin(first), factory.pin(second)
    a.drive_low()
    b.drive_low()
    a.drive_high()
    b.drive_high()


def test_encoder_clockwise_is_next_and_counter_clockwise_is_prev(mock_pins, sink):
    """gpiozero's RotaryEncoder decodes A leading as clockwise ("next"), B leading as "prev"."""
    with SeatEncoder(4, KNOB, sink, pin_factory=mock_pins):
        quadrature(mock_pins, 16, 20)
        quadrature(mock_pins, 16, 20)
        quadrature(mock_pins, 20, 16)
    assert sink.events == [InputEvent(4, "next", "press")] * 2 + [InputEvent(4, "prev", "press")]


def test_encoder_half_turn_and_jiggle_give_nothing(mock_pins, sink):
    """A detent not completed, or a wiggle back to rest, is no event."""
    with SeatEncoder(0, KNOB, sink, pin_factory=mock_pins):
        mock_pins.pin(16).drive_low()
        mock_pins.pin(16).drive_high()
        mock_pins.pin(16).drive_low()
        mock_pins.pin(20).drive_low()
        mock_pins.pin(20).drive_high()
        mock_pins.pin(16).drive_high()
    assert sink.events == []


def test_encoder_push_is_ok_with_press_and_hold(mock_pins, sink):
    """The push switch follows ok's rule: press on release, hold once held for hold_time."""
    with SeatEncoder(1, KNOB, sink, hold_time=0.05, pin_factory=mock_pins) as knob:
        push = knob.pin("push")
        assert push is knob.pin("ok") is mock_pins.pin(21)
        push.drive_low()
        assert sink.arrived.wait(timeout=2), "gpiozero never fired when_held"
        push.drive_high()
        knob.hold_time = 5
        push.drive_low()
        push.drive_high()
    assert sink.events == [InputEvent(1, "ok", "hold"), InputEvent(1, "ok", "press")]


def test_encoder_pins_use_pull_ups_and_only_push_is_debounced(mock_pins, sink):
    """A, B and push idle high on pull-ups; the table's bounce time goes to the push switch only."""
    with SeatEncoder(0, KNOB, sink, bounce_time=0.02, pin_factory=mock_pins) as knob:
        assert [mock_pins.pin(n).state for n in (16, 20, 21)] == [1, 1, 1]
        assert [mock_pins.pin(n).bounce for n in (16, 20, 21)] == [None, None, None]  # no lgpio delay
        assert knob.bounce_time == 0.02
        assert knob.pin("a") is mock_pins.pin(16) and knob.pin("b") is mock_pins.pin(20)
        with pytest.raises(KeyError, match="no encoder pin 'c'"):
            knob.pin("c")


def test_encoder_prev_and_next_pins_turn_it_like_buttons(mock_pins, sink):
    """pin("next")/pin("prev") stand in for buttons, so button-pressing code turns the knob."""
    with SeatEncoder(0, KNOB, sink, pin_factory=mock_pins) as knob:
        for button in ("next", "prev", "next"):
            pin = knob.pin(button)
            assert pin.state == 1
            pin.drive_low()
            pin.drive_high()
    assert [e.button for e in sink.events] == ["next", "prev", "next"]


def test_encoder_pin_in_use_is_a_hardware_error_and_releases_the_rest(mock_pins, sink):
    """A taken push pin fails naming it; A and B are released again."""
    with Button(21, pin_factory=mock_pins):
        with pytest.raises(HardwareError, match="seat 3 encoder: push pin 21"):
            SeatEncoder(2, KNOB, sink, pin_factory=mock_pins)
    knob = SeatEncoder(2, KNOB, sink, pin_factory=mock_pins)
    knob.close()
    assert knob.closed
    with pytest.raises(HardwareError, match="closed"):
        knob.pin("a")
    with Button(16, pin_factory=mock_pins):
        pass
