"""Player-facing text goes through the standard gettext catalog, in the reader's language.

Language is per reader: each seat reads its own, the public channels and the
CLI read the table's. `set_language` sets the table's language; `reading`
makes one reader's language current for the words made inside it (a seat's
screen), and `_` looks each message up in the current reader's catalog on
every call. The reader is a context variable, so a seat's screen built on
one thread never leaks its language into another thread's words.

Catalogs live in `engine/locale/<lang>/LC_MESSAGES/courtier.mo` (Babel
compiles them from the `.po` files beside them: `make i18n`); a language
without a catalog falls back to the English source strings.
"""

from __future__ import annotations

import contextlib
import functools
import contextvars
import gettext
import locale
from pathlib import Path
from typing import Iterable, Iterator

DOMAIN = "courtier"
LOCALE_DIR = Path(__file__).with_name("locale")
ENGLISH = "en"
# The languages courtier ships, each with the name a reader of it knows it by (never translated).
LANGUAGES = {"en": "English", "zh_Hant": "繁體中文", "zh_Hans": "简体中文"}
# What a system locale or a user may call them.
_ALIASES = {
    "zh_tw": "zh_Hant", "zh_hk": "zh_Hant", "zh_mo": "zh_Hant", "zh_hant": "zh_Hant",
    "zh_cn": "zh_Hans", "zh_sg": "zh_Hans", "zh_my": "zh_Hans", "zh_hans": "zh_Hans", "zh": "zh_Hans",
}

_SOURCE = gettext.NullTranslations()  # English: the source strings themselves (one, so it can key a cache)
_current: gettext.NullTranslations = _SOURCE  # the table's language
_table_language = ENGLISH
_reader: contextvars.ContextVar[gettext.NullTranslations | None] = contextvars.ContextVar("reader", default=None)
_catalogs: dict[str, gettext.NullTranslations] = {}


def normalize(lang: str | None) -> str:
    """The shipped language `lang` names ("zh_TW.UTF-8", "zh-Hant", "zh_CN" ...), else `lang` as given, else English.

    Unknown names are kept, so a catalog added later (or in a test) is found by its own name.
    """
    if not lang:
        return ENGLISH
    base = lang.split(".")[0].split("@")[0].replace("-", "_")
    if base.lower() in ("c", "posix", "en") or base.lower().startswith("en_"):
        return ENGLISH
    if base in LANGUAGES:
        return base
    lowered = base.lower()
    for alias, name in _ALIASES.items():
        if lowered == alias or lowered.startswith(alias + "_"):
            return name
    return base


def system_language() -> str:
    """The language of the system locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English when unset."""
    import os

    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            return normalize(value.split(":")[0])
    try:
        found = locale.getlocale()[0]
    except ValueError:
        found = None
    return normalize(found)


def catalog(lang: str | None) -> gettext.NullTranslations:
    """The translations of `lang` (loaded once), or the English source strings when it has no catalog."""
    name = normalize(lang)
    if name == ENGLISH:
        return _SOURCE
    found = _catalogs.get(name)
    if found is None:
        found = _catalogs[name] = gettext.translation(DOMAIN, LOCALE_DIR, languages=[name], fallback=True)
    return found


def set_language(lang: str | None) -> None:
    """Set the table's language (e.g. "zh_Hant", "zh_Hans"); English when None or when no catalog exists."""
    global _current, _table_language
    _table_language = normalize(lang)
    _current = catalog(lang) if lang else _SOURCE


def table_language() -> str:
    """The table's language, as `set_language` set it."""
    return _table_language


@contextlib.contextmanager
def reading(lang: str | None) -> Iterator[None]:
    """Make `lang` the reader's language for the words made inside; None keeps the table's."""
    token = _reader.set(catalog(lang) if lang else None)
    try:
        yield
    finally:
        _reader.reset(token)


def _translations() -> gettext.NullTranslations:
    return _reader.get() or _current


def _(message: str) -> str:
    """Translate one message into the current reader's language."""
    return _translations().gettext(message)


def N_(message: str) -> str:
    """Mark a string for the catalog where it is defined; `_` translates it where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translations().ngettext(singular, plural, n)


def reader_names(names: "Iterable[str]") -> tuple[str, ...]:
    """Seat names in the current reader's language: a game's colour translated, a name a table gave as given.

    Every seat's face asks for them on every redraw, so they are kept per catalog.
    """
    return _names_in(_translations(), tuple(names))


@functools.lru_cache(maxsize=64)
def _names_in(translations: gettext.NullTranslations, names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(translations.gettext(name) if name else name for name in names)
