"""The game registry: importing a game module registers it."""

from __future__ import annotations

import importlib
import pkgutil

from ..errors import UnknownGame
from ..game import Game
from ..i18n import _

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The game called `name`, importing its package alone (a table starts faster for it)."""
    if isinstance(name, str) and name not in _GAMES and name.isidentifier() and name in _packages():
        importlib.import_module(f"{__name__}.{name}")
    try:
        return _GAMES[name]
    except KeyError:
        _load_all()
        known = ", ".join(sorted(_GAMES))
        raise UnknownGame(_("no game called {name!r} (known games: {known})").format(name=name, known=known)) from None


def all_games() -> list[Game]:
    _load_all()
    return [_GAMES[k] for k in sorted(_GAMES)]


def _packages() -> list[str]:
    """The game packages in this folder, by name."""
    return [info.name for info in pkgutil.iter_modules(__path__) if info.ispkg]


def _load_all() -> None:
    """Import every game package here; importing one registers it."""
    for name in _packages():
        importlib.import_module(f"{__name__}.{name}")
