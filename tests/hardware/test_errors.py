"""Tests for hardware.errors: one root, a builtin second parent, clear messages."""

import pytest

from hardware.errors import (
    HardwareError,
    LinkError,
    ProtocolError,
    ScreenError,
    TableConfigError,
)


@pytest.mark.parametrize(("error", "builtin"), [
    (TableConfigError, ValueError), (ScreenError, OSError),
    (LinkError, OSError), (ProtocolError, ValueError),
])
def test_every_error_has_the_root_and_a_builtin_parent(error, builtin):
    """Each error is caught by HardwareError and by the builtin it resembles."""
    assert issubclass(error, HardwareError)
    assert issubclass(error, builtin)


def test_table_config_error_message_names_file_line_and_key():
    """TableConfigError prefixes file and line, and keeps them as attributes."""
    error = TableConfigError('seat 2 ("Blue"): buttons.ok: bad', source="table.toml", line=14,
                             key="seat[2].buttons.ok")
    assert str(error) == 'table.toml:14: seat 2 ("Blue"): buttons.ok: bad'
    assert (error.source, error.line, error.key) == ("table.toml", 14, "seat[2].buttons.ok")


def test_table_config_error_without_line_names_only_the_file():
    """Without a known line the message starts with the file name alone."""
    assert str(TableConfigError("no [[seat]]", source="t.toml")) == "t.toml: no [[seat]]"
