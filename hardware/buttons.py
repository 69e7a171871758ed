"""A seat's three buttons, or its rotary encoder, turned into press and hold events.

Wiring: each button connects its GPIO to ground; the internal pull-up holds
the line high, so a press pulls it low (``pin.drive_low()`` on a gpiozero
``MockPin``). prev and next report "press" as they go down. ok reports
"hold" once it has stayed down for ``hold_time`` (gpiozero's ``when_held``
does the timing), and "press" when it comes up without having been held, so
every press of ok gives exactly one event.

Debounce is on the leading edge (``DebouncedButton``): the first edge of a
press counts at once, and the bounces after it are ignored. gpiozero's own
``bounce_time`` is left off, because the lgpio pin factory applies it as a
delay before an edge is reported (``lgpio.gpio_set_debounce_micros``: the
level must hold for the whole time first), which would add the table's
20 ms to every press a player makes.

A seat may have a rotary encoder with a push switch instead
(``SeatEncoder``): gpiozero's ``RotaryEncoder`` decodes the two outputs, one
detent clockwise is a "next" press and one counter-clockwise a "prev" press,
and the push switch is ok, with the same press and hold rule as the button.

gpiozero calls these handlers on its own threads on a real pin factory, so
they do nothing but call ``on_event``, which must only enqueue.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from hardware.errors import HardwareError
from hardware.gpio import deferred_imports

with deferred_imports():
    from gpiozero import Button, DigitalInputDevice, RotaryEncoder
    from gpiozero.exc import GPIOZeroError

from hardware.events import InputEvent
from hardware.table import ButtonPins, EncoderPins

_log = logging.getLogger(__name__)


class SeatButtons:
    """The prev, next and ok buttons of one seat.

    Example::

        buttons = SeatButtons(0, ButtonPins(5, 6, 13), queue.put,
                              hold_time=0.8, bounce_time=0.02, pin_factory=None)
        ...
        buttons.close()

    Args:
        seat: Seat index put in every event.
        pins: BCM pins of the three buttons.
        on_event: Called with each ``InputEvent``, possibly from a gpiozero thread.
        hold_time: Seconds ok must stay down to report "hold".
        bounce_time: Leading-edge debounce in seconds (``DebouncedButton``), or None for none.
        pin_factory: gpiozero pin factory; None uses gpiozero's default.

    Raises:
        HardwareError: A pin cannot be claimed (in use, unknown, no GPIO access).
    """

    def __init__(self, seat: int, pins: ButtonPins, on_event: Callable[[InputEvent], Any],
                 *, hold_time: float = 0.8, bounce_time: float | None = None,
                 pin_factory: Any = None) -> None:
        self.seat = seat
        self._on_event = on_event
        self._buttons: dict[str, DebouncedInput | DebouncedButton] = {}
        try:
            for name, pin in pins.items():
                if name == "ok":
                    self._buttons[name] = DebouncedButton(pin, pull_up=True, bounce_time=bounce_time,
                                                          hold_time=hold_time, pin_factory=pin_factory)
                else:  # prev and next are never held: no hold thread of their own
                    self._buttons[name] = DebouncedInput(pin, pull_up=True, bounce_time=bounce_time,
                                                         pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            self.close()
            raise HardwareError(f"seat {seat + 1} buttons: pin {pin}: {exc}") from exc
        self._buttons["prev"].when_activated = self._prev_pressed
        self._buttons["next"].when_activated = self._next_pressed
        self._ok = _OkGestures(self._buttons["ok"], lambda gesture: self._emit("ok", gesture))

    @property
    def hold_time(self) -> float:
        """Seconds ok must stay down to report "hold"; gpiozero's own setting."""
        return float(self._buttons["ok"].hold_time)

    @hold_time.setter
    def hold_time(self, value: float) -> None:
        self._buttons["ok"].hold_time = value

    def pin(self, button: str) -> Any:
        """Return the gpiozero pin of a button; a ``MockPin`` can be driven by tests."""
        return self._buttons[button].pin

    @property
    def bounce_time(self) -> float:
        """The buttons' leading-edge debounce, seconds (0 for none)."""
        return self._buttons["ok"].debounce_time

    @property
    def ok_held(self) -> threading.Event:
        """Set once a hold of ok has been reported, cleared when ok goes down again."""
        return self._ok.held

    def close(self) -> None:
        """Release the pins and stop gpiozero's hold threads."""
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return not self._buttons

    def __enter__(self) -> SeatButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _emit(self, button: str, gesture: str) -> None:
        _emit(self._on_event, InputEvent(self.seat, button, gesture))

    def _prev_pressed(self) -> None:
        self._emit("prev", "press")

    def _next_pressed(self) -> None:
        self._emit("next", "press")


def _emit(on_event: Callable[[InputEvent], Any], event: InputEvent) -> None:
    try:
        on_event(event)
    except Exception:
        # An exception here would end gpiozero's event thread and with it
        # every later press, so it is logged instead.
        _log.exception("seat %d: event handler failed on %s %s",
                       event.seat + 1, event.button, event.gesture)


class _LeadingEdge:
    """A leading-edge debounce on a gpiozero input's pin events (mixed in before the gpiozero class).

    An edge that comes after the line has been quiet for ``bounce_time``
    counts at once; an edge sooner than that after the last one is a bounce
    and is ignored. When the bouncing is over, the line is read once more
    (from a timer) and, if it has settled at the other level, that change
    counts then, so a tap shorter than ``bounce_time`` is not lost either.

    Args:
        pin: As for the gpiozero class.
        bounce_time: Seconds of quiet that make the next edge count, or None
            for no debounce. gpiozero's own ``bounce_time`` stays off (see the
            module docstring).
        **kwargs: As for the gpiozero class (``pull_up``, ``pin_factory``; ``hold_time`` for a ``Button``).
    """

    def __init__(self, pin: Any = None, *, bounce_time: float | None = None, **kwargs: Any) -> None:
        self._quiet = float(bounce_time or 0.0)
        self._edges_lock = threading.Lock()
        self._last_edge: float | None = None  # ticks of the last edge seen, counted or not
        self._settle_timer: threading.Timer | None = None
        super().__init__(pin, bounce_time=None, **kwargs)

    @property
    def debounce_time(self) -> float:
        """Seconds of quiet after which an edge counts (0 for none)."""
        return self._quiet

    def _fire_events(self, ticks: Any, new_active: bool) -> None:
        # gpiozero calls this for every edge of the pin (and once at start-up,
        # while _last_active is still None, to set the initial state).
        if self._quiet and getattr(self, "_last_active", None) is not None:
            with self._edges_lock:
                last, self._last_edge = self._last_edge, ticks
                if last is not None and self.pin_factory.ticks_diff(ticks, last) < self._quiet:
                    self._settle_later()
                    return
        super()._fire_events(ticks, new_active)

    def _settle_later(self) -> None:
        """Look at the line again once it has been quiet for the debounce time (edges lock held).

        Each ignored edge starts the wait afresh. The wait is the timer's own
        (real time), not a difference of ticks: some pin factories stamp
        edges with another clock than their ``ticks()``.
        """
        if self._settle_timer is not None:
            self._settle_timer.cancel()
        self._settle_timer = threading.Timer(self._quiet, self._settle)
        self._settle_timer.daemon = True
        self._settle_timer.start()

    def _settle(self) -> None:
        with self._edges_lock:
            if threading.current_thread() is not self._settle_timer or self.closed:
                return  # a later edge started another wait, or the button is closed
            self._settle_timer = None
            active = self.is_active
            changed = active != self._last_active
            ticks = self.pin_factory.ticks()
        if changed:
            super()._fire_events(ticks, active)

    def close(self) -> None:
        with self._edges_lock:
            if self._settle_timer is not None:
                self._settle_timer.cancel()
                self._settle_timer = None
        # gpiozero's hold thread polls for a press every 0.1 s and its close waits for it to see
        # the stop: woken now, it ends at once, and a table's buttons close in no time rather
        # than up to 0.1 s each (a seven-seat table has 21).
        hold = getattr(self, "_hold_thread", None)
        if hold is not None:
            hold.stopping.set()
            hold.holding.set()
        super().close()


class DebouncedButton(_LeadingEdge, Button):
    """gpiozero's ``Button`` with the leading-edge debounce: ok and an encoder's push, which can be held.

    gpiozero gives every ``Button`` a thread of its own that times a hold.
    """


class DebouncedInput(_LeadingEdge, DigitalInputDevice):
    """gpiozero's ``DigitalInputDevice`` with the leading-edge debounce: prev and next, which are never held.

    A ``Button`` without its hold thread: a table of seven seats starts
    fourteen threads fewer, and none of them wakes ten times a second to
    look for a hold that cannot come.
    """


class _OkGestures:
    """Turns one gpiozero Button into ok's "press" (on release) or "hold" events.

    ``held`` is set once a hold has been reported and cleared when ok goes
    down again; the emulator's keyboard lets a held key go at that moment.
    """

    def __init__(self, button: Button, emit: Callable[[str], None]) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self._down = False
        self._held = False
        self.held = threading.Event()
        button.when_pressed = self._pressed
        button.when_held = self._held_down
        button.when_released = self._released

    def _pressed(self) -> None:
        with self._lock:
            self._down = True
            self._held = False
            self.held.clear()

    def _held_down(self) -> None:
        # The hold thread can fire just after a release it has not seen yet;
        # that press was already reported, so it must not also be a hold.
        with self._lock:
            if not self._down:
                return
            self._held = True
        self._emit("hold")
        self.held.set()

    def _released(self) -> None:
        with self._lock:
            was_down, was_held = self._down, self._held
            self._down = self._held = False
        if was_down and not was_held:
            self._emit("press")


class SeatEncoder:
    """A seat's rotary encoder with push switch, giving the same events as three buttons.

    Wiring: the encoder's A and B outputs to two GPIOs and its common (C) to
    ground; the push switch between a third GPIO and ground. Internal
    pull-ups hold every line high. On a KY-040 module, which has its own
    pull-ups, power "+" from 3.3 V.

    Example::

        encoder = SeatEncoder(6, EncoderPins(a=16, b=20, push=21), queue.put)
        ...
        encoder.close()

    Args:
        seat: Seat index put in every event.
        pins: BCM pins of A, B and the push switch.
        on_event: Called with each ``InputEvent``, possibly from a gpiozero thread.
        hold_time: Seconds the push must stay down to report ok "hold".
        bounce_time: Leading-edge debounce in seconds for the push switch, or None.
            A and B are not debounced (gpiozero's decoder copes with chatter).
        pin_factory: gpiozero pin factory; None uses gpiozero's default.

    Raises:
        HardwareError: A pin cannot be claimed (in use, unknown, no GPIO access).
    """

    def __init__(self, seat: int, pins: EncoderPins, on_event: Callable[[InputEvent], Any],
                 *, hold_time: float = 0.8, bounce_time: float | None = None,
                 pin_factory: Any = None) -> None:
        self.seat = seat
        self._on_event = on_event
        self._encoder: RotaryEncoder | None = None
        self._push: Button | None = None
        what = f"pins a {pins.a}, b {pins.b}"
        try:
            # max_steps=0: count without limit, so turning never stops at an end.
            # No bounce_time: RotaryEncoder's state machine already rides out
            # contact chatter, a 20 ms button debounce would drop edges of a
            # quick turn, and gpiozero 2.0.1 stores the argument as
            # pin.bounce_time rather than pin.bounce, so it never applies.
            self._encoder = RotaryEncoder(pins.a, pins.b, max_steps=0, pin_factory=pin_factory)
            what = f"push pin {pins.push}"
            self._push = DebouncedButton(pins.push, pull_up=True, bounce_time=bounce_time,
                                         hold_time=hold_time, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            self.close()
            raise HardwareError(f"seat {seat + 1} encoder: {what}: {exc}") from exc
        self._encoder.when_rotated_clockwise = self._turned_forward
        self._encoder.when_rotated_counter_clockwise = self._turned_back
        self._ok = _OkGestures(self._push, lambda gesture: self._emit("ok", gesture))

    @property
    def hold_time(self) -> float:
        """Seconds the push must stay down to report "hold"; gpiozero's own setting."""
        assert self._push is not None
        return float(self._push.hold_time)

    @hold_time.setter
    def hold_time(self, value: float) -> None:
        assert self._push is not None
        self._push.hold_time = value

    @property
    def bounce_time(self) -> float:
        """The push switch's leading-edge debounce, seconds (0 for none)."""
        assert self._push is not None
        return self._push.debounce_time

    @property
    def ok_held(self) -> threading.Event:
        """Set once a hold of the push has been reported, cleared when it goes down again."""
        return self._ok.held

    def pin(self, name: str) -> Any:
        """Return a gpiozero pin by key ("a", "b", "push"), or a button's stand-in.

        "ok" is the push switch. "prev" and "next" have no pin of their own:
        they return a ``_DetentPin`` whose ``drive_low()`` turns a mock
        encoder one detent that way, so code that presses buttons on mock
        pins (tests, the emulator's keyboard) works on an encoder seat too.
        """
        if self._encoder is None or self._push is None:
            raise HardwareError(f"seat {self.seat + 1} encoder is closed")
        if name in ("a", "b"):
            return getattr(self._encoder, name).pin
        if name in ("push", "ok"):
            return self._push.pin
        if name in ("prev", "next"):
            return _DetentPin(self._encoder.a.pin, self._encoder.b.pin, forward=name == "next")
        raise KeyError(f"no encoder pin {name!r} (expected a, b, push, or prev, next, ok)")

    def turn(self, steps: int) -> None:
        """Turn a mock encoder ``steps`` detents: positive clockwise ("next"), negative back."""
        for _ in range(abs(steps)):
            self.pin("next" if steps > 0 else "prev").drive_low()

    def close(self) -> None:
        """Release the pins and stop gpiozero's hold thread."""
        for device in (self._encoder, self._push):
            if device is not None:
                device.close()
        self._encoder = self._push = None

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return self._encoder is None

    def __enter__(self) -> SeatEncoder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _emit(self, button: str, gesture: str) -> None:
        _emit(self._on_event, InputEvent(self.seat, button, gesture))

    def _turned_forward(self) -> None:
        self._emit("next", "press")

    def _turned_back(self) -> None:
        self._emit("prev", "press")


class _DetentPin:
    """Drives a mock encoder's A and B through one detent, as a pressed button pin would.

    Clockwise, A falls first: with both lines pulled up, A low, B low, A
    high, B high (gpiozero's ``RotaryEncoder`` reads that as one step).
    ``drive_high()`` does nothing: the step is complete once low.
    """

    def __init__(self, a: Any, b: Any, *, forward: bool) -> None:
        self._first, self._second = (a, b) if forward else (b, a)

    @property
    def state(self) -> int:
        """Idle high, like a released button's pin."""
        return 1

    def drive_low(self) -> None:
        """Turn the encoder one detent."""
        self._first.drive_low()
        self._second.drive_low()
        self._first.drive_high()
        self._second.drive_high()

    def drive_high(self) -> None:
        """Nothing to do: a detent has no "released" half."""
