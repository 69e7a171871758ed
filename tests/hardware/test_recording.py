"""Tests for hardware.recording: the luma serial-interface recorder."""

import pytest

from hardware.recording import RecordingInterface


def test_calls_are_recorded_in_order_and_counted():
    """command and data calls are kept in order as bytes, and their bytes are counted apart."""
    bus = RecordingInterface()
    bus.command(0x21, 0, 127)
    bus.data([1, 2, 3, 4])
    bus.command(0xAF)
    assert bus.calls == [("command", b"\x21\x00\x7f"), ("data", b"\x01\x02\x03\x04"),
                         ("command", b"\xaf")]
    assert (bus.command_bytes, bus.data_bytes) == (4, 4)


def test_reset_forgets_calls_and_counts():
    """reset starts a fresh count, e.g. after a driver's init sequence."""
    bus = RecordingInterface()
    bus.command(0xAE)
    bus.data(bytearray(8))
    bus.reset()
    assert bus.calls == [] and bus.command_bytes == 0 and bus.data_bytes == 0


def test_fail_raises_on_every_send_but_not_on_cleanup():
    """A configured failure is raised by command and data, records nothing, and cleanup still works."""
    bus = RecordingInterface(fail=OSError(121, "Remote I/O error"))
    with pytest.raises(OSError, match="Remote I/O"):
        bus.command(0xAE)
    with pytest.raises(OSError):
        bus.data([0])
    bus.cleanup()
    assert bus.calls == [] and bus.cleaned_up
