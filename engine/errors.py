"""Errors the rules raise: one root, each leaf also a builtin so callers can catch either.

`read_toml` reads a game's data file, so that a file that cannot be read or parsed is
a BadData naming it, like a file that breaks one of its rules.
"""

import tomllib
from pathlib import Path
from typing import Any


class EngineError(Exception):
    """Anything the engine refuses."""


class IllegalAction(EngineError, ValueError):
    """An action that is not legal in the current state; the state is unchanged."""


class UnknownGame(EngineError, KeyError):
    """No game is registered under that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


class BadOptions(EngineError, ValueError):
    """Rule options or player count a game cannot be set up with."""


class BadJournal(EngineError, ValueError):
    """A saved game (header or action list) that cannot be replayed."""


class BadData(EngineError, ValueError):
    """A data file (cards, board) that breaks one of its rules."""


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a data file; raise BadData naming it when it cannot be read or is no TOML."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, RecursionError) as err:  # RecursionError: nested too deeply
        raise BadData(f"{path.name}: {err}") from err
