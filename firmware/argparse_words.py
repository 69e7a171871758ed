"""argparse's own words ("usage:", "options", "error:", ...) in the command line's language.

argparse asks `gettext.gettext` for every word of its own, that is the process's
text domain in the language `$LANGUAGE` names: `speaking(lang)` points both at
courtier's catalog while the command line is parsed, and puts them back after.
The messages are those a user can meet in CPython 3.11 to 3.13's Lib/argparse.py
(a test compares them with the running Python's), marked here so `make i18n`
puts them in the catalog.
"""

from __future__ import annotations

import contextlib
import gettext
import os
from typing import Iterator

from engine.i18n import DOMAIN, LOCALE_DIR, N_, normalize


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural message for the catalog where it is defined (babel.cfg names this keyword)."""
    return singular, plural


WORDS = (
    N_("usage: "),
    N_("%(heading)s:"),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_(" (default: %(default)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_('argument "-" with mode %r'),
    N_("can't open '%(filename)s': %(error)s"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
)
PLURALS = (N_plural("expected %s argument", "expected %s arguments"),)


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """argparse speaks `lang` (a shipped language, English for None) inside, as it did before after."""
    before = gettext.textdomain(), os.environ.get("LANGUAGE")
    gettext.bindtextdomain(DOMAIN, LOCALE_DIR)
    gettext.textdomain(DOMAIN)
    os.environ["LANGUAGE"] = normalize(lang)
    try:
        yield
    finally:
        gettext.textdomain(before[0])
        if before[1] is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = before[1]
