"""Tests for hardware.events: the neutral button event."""

import dataclasses

import pytest

from hardware.events import InputEvent


def test_event_is_a_frozen_value():
    """Events compare by value, hash, and cannot be changed after creation."""
    event = InputEvent(1, "ok", "hold")
    assert event == InputEvent(1, "ok", "hold")
    assert len({event, InputEvent(1, "ok", "hold")}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seat = 2


@pytest.mark.parametrize(("button", "gesture"), [("back", "press"), ("ok", "release"), ("OK", "hold")])
def test_unknown_button_or_gesture_is_refused(button, gesture):
    """Only prev/next/ok and press/hold exist, so a typo fails where it is made."""
    with pytest.raises(ValueError):
        InputEvent(0, button, gesture)
