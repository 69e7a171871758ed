"""Laptop keys as seat buttons, pressed on the table's gpiozero mock pins.

A key drives the same ``MockPin`` a finger would pull low on the Pi, so the
events come out of gpiozero and ``hardware.buttons`` exactly as on a real
table: prev and next on the way down, ok on release, and "hold" from
gpiozero's own hold thread when ok stays down for the hold time.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

_log = logging.getLogger(__name__)

# Seat i's prev, ok and next keys; the upper-case ok key holds ok down ("back").
KEYS = ["qwe", "asd", "zxc", "rty", "fgh", "vbn", "uio"]

# How much longer than the hold time a held key keeps ok down, so gpiozero's
# hold thread has seen the hold before the release.
HOLD_MARGIN = 1.5


class Keyboard:
    """Turns key presses into button activity on an open mock or emulator table.

    Args:
        table: An open ``hardware.Table`` whose buttons are on gpiozero mock pins.
    """

    def __init__(self, table: Any) -> None:
        self.table = table
        self._lock = threading.Lock()
        self._holds: dict[int, threading.Timer] = {}
        self._keys: dict[str, tuple[int, str, bool]] = {}
        for seat, (prev, ok, nxt) in enumerate(KEYS):
            for key, button in ((prev, "prev"), (nxt, "next")):
                # Shift (or caps lock) on prev and next still means prev and next.
                self._keys[key] = self._keys[key.upper()] = (seat, button, False)
            self._keys[ok] = (seat, "ok", False)
            self._keys[ok.upper()] = (seat, "ok", True)

    def press(self, key: str) -> bool:
        """Press the button a key stands for.

        Args:
            key: One character; a lower-case key presses, the upper-case ok key holds.

        Returns:
            True if a button was driven; False for a key that is no seat's, a
            seat this table lacks or has no buttons for, or ok while a hold of
            that seat is still under way.
        """
        found = self._keys.get(key)
        if found is None:
            return False
        seat, button, hold = found
        seats = self.table.seats
        if seat >= len(seats) or seats[seat].buttons is None or seats[seat].buttons.closed:
            return False
        buttons = seats[seat].buttons
        pin = buttons.pin(button)
        if button == "ok":
            with self._lock:
                if seat in self._holds:
                    _log.debug("seat %d: ok is still held; %r ignored", seat + 1, key)
                    return False
                if hold:
                    # Down now; up later, from a timer, so gpiozero's own hold thread reports the hold.
                    pin.drive_low()
                    timer = threading.Timer(buttons.hold_time * HOLD_MARGIN, self._release, (seat, buttons))
                    timer.daemon = True
                    timer.start()
                    self._holds[seat] = timer
                    return True
        pin.drive_low()
        pin.drive_high()
        return True

    def holding(self) -> list[int]:
        """Seats whose ok key is being held down now."""
        with self._lock:
            return sorted(self._holds)

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every held ok has been released; return False if some still are after ``timeout``."""
        with self._lock:
            timers = list(self._holds.values())
        for timer in timers:
            timer.join(timeout)
        return not self.holding()

    def close(self) -> None:
        """Let every held ok finish its hold (at most the hold time x 1.5), so no pin stays down.

        Releasing early instead would turn a hold into an ok press: a choice
        the player never made.
        """
        self.settle()

    def _release(self, seat: int, buttons: Any) -> None:
        with self._lock:
            self._holds.pop(seat, None)
        if buttons.closed:
            return  # the table closed first; its pins are gone
        buttons.pin("ok").drive_high()
