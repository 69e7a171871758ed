"""Errors the rules raise: one root, each leaf also a builtin so callers can catch either.

`read_toml` reads a game's data file, so that a file that cannot be read or parsed is
a BadData naming it, like a file that breaks one of its rules.
"""

import tomllib
from pathlib import Path
from typing import Any, Callable

from .i18n import _


class EngineError(Exception):
    """Anything the engine refuses.

    Raised with a template marked `N_` and its fields (``IllegalAction(N_("{name} cannot pass now"),
    name=...)``), it reads in English as a str and in the reader's language where a person sees it
    (`render`). A field that is a catalog word (a seat's colour) is translated too, a list of them
    joined; anything else is shown as given.
    """

    def __init__(self, message: str = "", /, **fields: Any) -> None:
        self.template, self.fields = message, fields
        if fields:
            message = message.format(**{key: _joined(value) for key, value in fields.items()})
        super().__init__(*((message,) if message != "" else ()))  # no message: no args, as Exception()

    def render(self) -> str:
        """The message in the current reader's language (`engine.i18n.reading`)."""
        if not self.template or not isinstance(self.template, str):
            return str(self)
        text = _(self.template)
        return text.format(**{key: _joined(value, _) for key, value in self.fields.items()}) if self.fields else text


def _joined(value: Any, translate: Callable[[str], str] = lambda word: word) -> Any:
    """A field as shown: a word translated, a list of words translated and joined."""
    if isinstance(value, EngineError):
        return value.render() if translate is _ else str(value)  # an error it wraps: in the same words
    if isinstance(value, str):
        return translate(value) if value else value
    if isinstance(value, (list, tuple)):
        return ", ".join(_joined(item, translate) for item in value)
    return value


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
