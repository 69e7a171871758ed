"""Laptop keys as seat buttons, pressed on the table's gpiozero mock pins.

A key drives the same ``MockPin`` a finger would pull low on the Pi, so the
events come out of gpiozero and ``hardware.buttons`` exactly as on a real
table: prev and next on the way down, ok on release, and "hold" from
gpiozero's own hold thread when ok stays down for the hold time.

A held key (the upper-case ok key) keeps ok down until gpiozero reports the
hold, then lets go. Every key counts: the keys of a seat typed while its ok
is held wait their turn and are pressed, in order, once it is let go, so
``W W W`` goes back three steps.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

_log = logging.getLogger(__name__)

# Seat i's prev, ok and next keys; the upper-case ok key holds ok down ("back").
KEYS = ["qwe", "asd", "zxc", "rty", "fgh", "vbn", "uio"]

# The longest a held key keeps ok down, in hold times, should gpiozero never
# report the hold (a closed table); it lets go as soon as the hold is reported.
HOLD_MARGIN = 1.5


class Keyboard:
    """Turns key presses into button activity on an open mock or emulator table.

    Args:
        table: An open ``hardware.Table`` whose buttons are on gpiozero mock pins.
    """

    def __init__(self, table: Any) -> None:
        self.table = table
        self._lock = threading.Lock()
        self._holds: dict[int, threading.Thread] = {}
        self._waiting: dict[int, list[str]] = {}  # keys of a seat typed while its ok was held
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
            True if a button was driven, or will be once that seat's held ok
            is let go; False for a key that is no seat's, or a seat this
            table lacks or has no buttons for.
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
        with self._lock:
            if seat in self._holds:
                _log.debug("seat %d: ok is held; %r waits its turn", seat + 1, key)
                self._waiting.setdefault(seat, []).append(key)
                return True
            if hold:
                # Down now; up once gpiozero's own hold thread has reported the hold.
                pin.drive_low()
                thread = threading.Thread(target=self._hold, args=(seat, buttons), daemon=True,
                                          name=f"seat {seat + 1} held ok")
                self._holds[seat] = thread
                thread.start()
                return True
        pin.drive_low()
        pin.drive_high()
        return True

    def holding(self) -> list[int]:
        """Seats whose ok key is being held down now."""
        with self._lock:
            return sorted(self._holds)

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every held ok has been let go and every waiting key pressed.

        Returns False if some hold is still under way after ``timeout`` seconds.
        """
        while True:
            with self._lock:
                threads = list(self._holds.values())
            if not threads:
                return True
            for thread in threads:
                thread.join(timeout)
                if thread.is_alive():
                    return False

    def close(self) -> None:
        """Let every held ok finish its hold (each at most the hold time x 1.5), so no pin stays down.

        Releasing early instead would turn a hold into an ok press: a choice
        the player never made.
        """
        self.settle()

    def _hold(self, seat: int, buttons: Any) -> None:
        """Keep ok down until the hold is reported, then press the keys that waited, in order."""
        held = True
        while True:
            if held:
                buttons.ok_held.wait(buttons.hold_time * HOLD_MARGIN)
                if not buttons.closed:  # the table may have closed first; its pins are gone
                    buttons.pin("ok").drive_high()
            with self._lock:
                waiting = self._waiting.get(seat)
                if not waiting or buttons.closed:
                    # Done: this seat's keys go straight to its buttons again.
                    del self._holds[seat]
                    self._waiting.pop(seat, None)
                    return
                key = waiting.pop(0)
            _, button, held = self._keys[key]
            pin = buttons.pin(button)
            pin.drive_low()
            if not held:
                pin.drive_high()
