"""The game registry: importing a game module registers it."""

from __future__ import annotations

import importlib
import pkgutil

from ..errors import UnknownGame
from ..game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    _load_all()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGame(f"no game called {name!r} (known games: {known})") from None


def all_games() -> list[Game]:
    _load_all()
    return [_GAMES[k] for k in sorted(_GAMES)]


def _load_all() -> None:
    """Import every game package here; importing one registers it."""
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            importlib.import_module(f"{__name__}.{info.name}")
