"""The words in the games' data files, for the gettext catalog.

Card names, short names and abbreviations, electorate and privilege names and
seat colours live in TOML beside the rules; the text functions pass them
through `_`. `extract_toml` is the Babel extraction method that puts them in
the catalog (babel.cfg names it), so `make i18n` and the catalog tests see
them as they see the `_("...")` of the code.
"""

from __future__ import annotations

import tomllib
from typing import Any, BinaryIO, Iterator

# Keys whose string values a screen shows; a list under `colours` holds the default seat names.
WORD_KEYS = frozenset(("name", "short", "abbr", "colours"))


def words(data: Any, key: str = "") -> Iterator[str]:
    """Every string under a word key of parsed TOML, in file order."""
    if isinstance(data, dict):
        for k, value in data.items():
            yield from words(value, k)
    elif isinstance(data, list):
        for item in data:
            yield from words(item, key)
    elif isinstance(data, str) and key in WORD_KEYS and data.strip():
        yield data


def extract_toml(fileobj: BinaryIO, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """Babel extraction method: (line, funcname, message, comments) for each word of a TOML file."""
    text = fileobj.read().decode("utf-8")
    lines = text.splitlines()
    for word in dict.fromkeys(words(tomllib.loads(text))):
        quoted = f'"{word}"'
        line = next((i for i, row in enumerate(lines, 1) if quoted in row), 0)
        yield line, None, word, []
