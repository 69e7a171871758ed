"""Errors the rules raise: one root, each leaf also a builtin so callers can catch either."""


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
