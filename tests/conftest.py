"""Shared fixtures: hardware test doubles."""

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_pins():
    """Install a fresh gpiozero MockFactory for one test, then reset and restore.

    gpiozero keeps pins reserved on a factory until it is reset (gpiozero
    issue #1087), so each test gets its own and the previous default returns
    in ``finally``.
    """
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
