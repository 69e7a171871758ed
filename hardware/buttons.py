"""A seat's three buttons, turned into press and hold events.

Wiring: each button connects its GPIO to ground; the internal pull-up holds
the line high, so a press pulls it low (``pin.drive_low()`` on a gpiozero
``MockPin``). prev and next report "press" as they go down. ok reports
"hold" once it has stayed down for ``hold_time`` (gpiozero's ``when_held``
does the timing), and "press" when it comes up without having been held, so
every press of ok gives exactly one event.

gpiozero calls these handlers on its own threads on a real pin factory, so
they do nothing but call ``on_event``, which must only enqueue.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from gpiozero import Button
from gpiozero.exc import GPIOZeroError

from hardware.errors import HardwareError
from hardware.events import InputEvent
from hardware.table import ButtonPins

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
        bounce_time: gpiozero debounce in seconds, or None for none.
        pin_factory: gpiozero pin factory; None uses gpiozero's default.

    Raises:
        HardwareError: A pin cannot be claimed (in use, unknown, no GPIO access).
    """

    def __init__(self, seat: int, pins: ButtonPins, on_event: Callable[[InputEvent], Any],
                 *, hold_time: float = 0.8, bounce_time: float | None = None,
                 pin_factory: Any = None) -> None:
        self.seat = seat
        self._on_event = on_event
        self._lock = threading.Lock()
        self._ok_down = False
        self._ok_held = False
        self._buttons: dict[str, Button] = {}
        try:
            for name, pin in pins.items():
                self._buttons[name] = Button(pin, pull_up=True, bounce_time=bounce_time,
                                             hold_time=hold_time, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            self.close()
            raise HardwareError(f"seat {seat + 1} buttons: pin {pin}: {exc}") from exc
        self._buttons["prev"].when_pressed = self._prev_pressed
        self._buttons["next"].when_pressed = self._next_pressed
        ok = self._buttons["ok"]
        ok.when_pressed = self._ok_pressed
        ok.when_held = self._ok_held_down
        ok.when_released = self._ok_released

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
        try:
            self._on_event(InputEvent(self.seat, button, gesture))
        except Exception:
            # An exception here would end gpiozero's event thread and with it
            # every later press, so it is logged instead.
            _log.exception("seat %d: event handler failed on %s %s",
                           self.seat + 1, button, gesture)

    def _prev_pressed(self) -> None:
        self._emit("prev", "press")

    def _next_pressed(self) -> None:
        self._emit("next", "press")

    def _ok_pressed(self) -> None:
        with self._lock:
            self._ok_down = True
            self._ok_held = False

    def _ok_held_down(self) -> None:
        # The hold thread can fire just after a release it has not seen yet;
        # that press was already reported, so it must not also be a hold.
        with self._lock:
            if not self._ok_down:
                return
            self._ok_held = True
        self._emit("ok", "hold")

    def _ok_released(self) -> None:
        with self._lock:
            was_down, was_held = self._ok_down, self._ok_held
            self._ok_down = self._ok_held = False
        if was_down and not was_held:
            self._emit("ok", "press")
