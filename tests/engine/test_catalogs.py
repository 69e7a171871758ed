"""Every message a player or an installer reads is in every shipped catalog, whole.

The messages are extracted from the source as `make i18n` extracts them (Babel, with
babel.cfg: `_`, `N_` and `ngettext` in the code, the words of the games' TOML). A
message added to the code without its translations fails here, and the failure says
which file to fill and which command to run.
"""

from __future__ import annotations

import gettext
import re
import string
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from engine.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [lang for lang in LANGUAGES if lang != "en"]
HOW = ("Run `make i18n` (it adds new messages to every .po file), write each empty msgstr in {po} "
       "(a game's terms: engine/games/GAME/glossary.toml), then run `make i18n` again to compile the .mo.")


@lru_cache(maxsize=None)
def source_messages() -> dict[str | tuple[str, ...], tuple[str, ...]]:
    """Every message of the source (a plural is a tuple), with the files it is in."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: dict[str | tuple[str, ...], set[str]] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
            ROOT, method_map, options_map, keywords=DEFAULT_KEYWORDS):
        found.setdefault(message, set()).add(filename)
    return {message: tuple(sorted(files)) for message, files in found.items()}


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def catalog(lang: str, path: Path | None = None):
    with open(path or po_path(lang), "rb") as handle:
        return read_po(handle, locale=lang)


def translations(lang: str, path: Path | None = None) -> dict[str, tuple[str, ...]]:
    """msgid (the singular of a plural) -> its msgstr(s), for entries translated and not fuzzy."""
    found = {}
    for message in catalog(lang, path):
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if all(strings):
            found[key] = strings
    return found


@pytest.mark.parametrize("game, option, lang, word", [
    ("tenno", "geisha_pair", "zh_Hant", "藝妓對上藝妓"),
    ("tenno", "geisha_pair", "zh_Hans", "艺妓对上艺妓"),
    ("quovadis", "reveal_laurels", "zh_Hant", "亮出月桂"),
    ("quovadis", "reveal_laurels", "zh_Hans", "亮出月桂"),
    ("shadow", "permit_where", "zh_Hant", "選帝侯領"),
    ("shadow", "permit_where", "zh_Hans", "选帝侯领"),
])
def test_every_option_description_is_a_message_of_the_catalog_and_is_read_translated(game, option, lang, word):
    from engine.games import get_game
    from engine.i18n import _, reading

    options = get_game(game).options
    messages = source_messages()
    assert all(each.doc in messages for each in options)  # marked N_: the catalog tests ask for both scripts
    with reading(lang):
        described = {each.name: _(each.doc) for each in options}
    assert word in described[option]
    assert all(text != each.doc for text, each in zip(described.values(), options))


def fields(text: str) -> set[str]:
    """The `{placeholders}` of a format string, with their conversions and specs."""
    return {f"{name}!{conv}:{spec}" for _lit, name, spec, conv in string.Formatter().parse(text) if name is not None}


def test_the_messages_are_found_in_code_and_data():
    messages = source_messages()
    assert "Waiting for {name}" in messages and "Peasant" in messages and "Mainz" in messages
    assert ("{name} ({n} seat)", "{name} ({n} seats)") in messages
    assert len(messages) > 500


def missing_messages(lang: str, messages, path: Path | None = None) -> str:
    """Why the catalog lacks some of `messages` (what to run, which file to fill), or ""."""
    have = translations(lang, path)
    missing = [m for m in messages if (m[0] if isinstance(m, tuple) else m) not in have]
    if not missing:
        return ""
    po = (path or po_path(lang)).relative_to(ROOT) if (path or po_path(lang)).is_relative_to(ROOT) else path
    return (f"{len(missing)} messages have no {LANGUAGES[lang]} ({lang}) translation, e.g. {missing[:5]}. "
            + HOW.format(po=po))


def placeholder_faults(lang: str, path: Path | None = None) -> list[str]:
    """Each translation whose `{placeholders}` differ from its message's."""
    wrong = []
    for message in catalog(lang, path):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set().union(*(fields(i) for i in ids))
        for text in strings:
            if text and fields(text) != wanted:
                wrong.append(f"{ids[0]!r} -> {text!r}")
    return wrong


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_message_has_a_translation(lang):
    problem = missing_messages(lang, source_messages())
    assert not problem, problem


@pytest.mark.parametrize("lang", SHIPPED)
def test_a_translation_keeps_every_placeholder_and_invents_none(lang):
    wrong = placeholder_faults(lang)
    assert not wrong, (f"translations in {po_path(lang).relative_to(ROOT)} that drop or invent a "
                       f"{{placeholder}}: {wrong[:5]}")


def test_a_missing_message_and_a_lost_placeholder_are_caught_and_the_fix_is_named(tmp_path):
    po = tmp_path / "courtier.po"
    po.write_text('''msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"

msgid "Waiting for {name}"
msgstr "等待"

msgid "Scores"
msgstr "分數"

msgid "{who} passes"
msgstr "{who}{extra}弃权"

msgid "Rules"
msgstr ""
''', encoding="utf-8")
    problem = missing_messages("zh_Hant", ["Scores", "Rules", "Peasant"], po)
    assert problem.startswith("2 messages have no 繁體中文 (zh_Hant) translation, e.g. ['Rules', 'Peasant']")
    assert "make i18n" in problem and str(po) in problem and "glossary.toml" in problem
    assert placeholder_faults("zh_Hant", po) == ["'Waiting for {name}' -> '等待'", "'{who} passes' -> '{who}{extra}弃权'"]


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_compiled_catalog_says_what_the_po_file_says(lang):
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    assert mo.exists(), f"{mo.relative_to(ROOT)} is missing: run `make i18n`"
    with open(mo, "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = [key for key, strings in translations(lang).items() if compiled.gettext(key) != strings[0]]
    assert not stale, f"{mo.relative_to(ROOT)} is older than its .po ({stale[:3]}...): run `make i18n`"


def _font_characters() -> set[str]:
    from firmware.table.render import FONT_FILE

    text = FONT_FILE.read_text(encoding="ascii")
    return {chr(int(code)) for code in re.findall(r"^ENCODING (\d+)$", text, flags=re.M)}


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_screen_font_draws_every_character_of_every_translation(lang):
    from firmware.table.render import ScreenFont

    drawn = _font_characters()
    lacking = {c for strings in translations(lang).values() for text in strings for c in text
               if c.isprintable() and ScreenFont.needs_wide(c) and c not in drawn}  # a newline is a break, not a glyph
    assert not lacking, (f"the screen font lacks {''.join(sorted(lacking))} used in {po_path(lang).relative_to(ROOT)}: "
                         "run `make font` (it needs Debian's xfonts-wqy: sudo apt-get install xfonts-wqy)")


def test_the_toml_extractor_yields_each_word_once_with_the_line_it_is_on():
    from io import BytesIO

    from engine.catalog import extract_toml

    toml = '''title = "not a word key"
colours = ["Red", "Blue"]

[cards.shogun]
name = "Shogun"
short = "Sh"
strength = 10

[[privileges]]
name = "Zölle"
abbr = " "

[[privileges]]
name = "Shogun"
note = "Red"
short = 'Sg'
'''.encode("utf-8")
    found = list(extract_toml(BytesIO(toml), keywords=None, comment_tags=None, options={}))
    assert found == [(2, None, "Red", []), (2, None, "Blue", []), (5, None, "Shogun", []),
                     (6, None, "Sh", []), (10, None, "Zölle", []), (0, None, "Sg", [])]
    # (a word in a literal string is not found quoted: its line is unknown, 0 to Babel)
