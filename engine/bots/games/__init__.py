"""Each game's bot knowledge (`knowledge.Knowledge`), by game name; a game without any gets the default.

A game's knowledge is imported when a bot first plays that game, so a table
loads the rules of the game it plays alone.
"""

from __future__ import annotations

import importlib

from ..knowledge import Knowledge

# Game name -> (module in this package, its Knowledge class).
_MODULES = {
    "tenno": ("tenno", "TennoKnowledge"),
    "quovadis": ("quovadis", "QuoVadisKnowledge"),
    "shadow": ("shadow", "ShadowKnowledge"),
}
_KNOWLEDGE: dict[str, Knowledge] = {}
_DEFAULT = Knowledge()


def knowledge_for(game: str) -> Knowledge:
    found = _KNOWLEDGE.get(game)
    if found is None:
        where = _MODULES.get(game)
        if where is None:
            return _DEFAULT
        module = importlib.import_module(f"{__name__}.{where[0]}")
        found = _KNOWLEDGE[game] = getattr(module, where[1])()
    return found
