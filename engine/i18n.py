"""Player-facing text goes through the standard gettext catalog.

`_` looks the message up in the current language each time it is called, so
the table can switch language between games. Catalogs live in
`engine/locale/<lang>/LC_MESSAGES/courtier.mo`; a missing catalog falls back
to the English source strings.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "courtier"
LOCALE_DIR = Path(__file__).with_name("locale")
_current: gettext.NullTranslations = gettext.NullTranslations()


def set_language(lang: str | None) -> None:
    """Use `lang` (e.g. "zh_TW", "zh_CN"), or English when None or when no catalog exists."""
    global _current
    languages = [lang] if lang else None
    _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=languages, fallback=True) if lang else gettext.NullTranslations()


def _(message: str) -> str:
    """Translate one message into the current language."""
    return _current.gettext(message)


def N_(message: str) -> str:
    """Mark a string for the catalog where it is defined; `_` translates it where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)
