"""Each game's bot knowledge (`knowledge.Knowledge`), by game name; a game without any gets the default."""

from __future__ import annotations

from ..knowledge import Knowledge
from .quovadis import QuoVadisKnowledge
from .shadow import ShadowKnowledge
from .tenno import TennoKnowledge

_KNOWLEDGE: dict[str, Knowledge] = {
    "tenno": TennoKnowledge(),
    "quovadis": QuoVadisKnowledge(),
    "shadow": ShadowKnowledge(),
}
_DEFAULT = Knowledge()


def knowledge_for(game: str) -> Knowledge:
    return _KNOWLEDGE.get(game, _DEFAULT)
