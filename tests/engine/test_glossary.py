"""Each game's terms are the seed's own words: every message using a term renders it so."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine.games import all_games

from .test_catalogs import SHIPPED, source_messages, translations

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(game.name for game in all_games())


def glossary(game: str) -> list[dict]:
    path = ROOT / "engine" / "games" / game / "glossary.toml"
    with open(path, "rb") as handle:
        terms = tomllib.load(handle)["term"]
    return sorted(terms, key=lambda term: -len(term["en"]))  # "empire city" before "city"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_glossary_with_both_scripts_and_its_choices_marked(game):
    terms = glossary(game)
    assert len(terms) >= 10
    for term in terms:
        assert term["en"] and all(term[lang] for lang in SHIPPED), term
        assert isinstance(term.get("chosen", False), bool)


@pytest.mark.parametrize("lang", SHIPPED)
@pytest.mark.parametrize("game", GAMES)
def test_every_glossary_term_a_message_uses_is_rendered_with_the_glossarys_word(game, lang):
    folder = f"engine/games/{game}/"
    have = translations(lang)
    terms = glossary(game)
    wrong = []
    for message, files in source_messages().items():
        if not any(f.replace("\\", "/").startswith(folder) for f in files):
            continue
        key = message[0] if isinstance(message, tuple) else message
        english = re.sub(r"\{[^}]*\}", " ", key)  # a placeholder's name is no term
        for term in terms:
            pattern = re.compile(r"(?<![A-Za-z])" + re.escape(term["en"]) + r"(?![A-Za-z])")
            if not pattern.search(english):
                continue
            words = [term[lang], *term.get("accept", [])]
            if not any(any(w in text for w in words) for text in have.get(key, ("",))):
                wrong.append(f"{key!r} -> {have.get(key)} lacks {term[lang]} ({term['en']})")
            english = pattern.sub(" ", english)
    assert not wrong, f"{len(wrong)} messages of {game} do not use its glossary's words: {wrong[:5]}"
