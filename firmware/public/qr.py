"""The table page's address as a QR code (made by segno), for a phone to find the page.

The code holds the address with its scheme and host in capitals
("HTTP://192.168.1.20:8080/"): both are case-insensitive, and capitals,
digits and ``:/.`` are QR's alphanumeric mode, which packs a LAN address
into the smallest symbol (21×21 modules), so each module gets more pixels on
a small panel. segno raises the error correction as far as the symbol
allows.

A code is drawn dark on light, with a light quiet zone of ``BORDER`` modules
(``MIN_BORDER`` where a panel has no room for more), each module a square of
whole pixels, so it reads as printed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from PIL import Image

BORDER = 2  # modules of quiet zone around the code: phones read it at 2; ISO 18004 asks 4 of print
MIN_BORDER = 1


def scannable(url: str) -> str:
    """`url` with its scheme and host in capitals, the same address in QR's compact alphanumeric mode."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.upper(), parts.netloc.upper(), parts.path, parts.query, parts.fragment))


@functools.lru_cache(maxsize=4)
def code(url: str) -> Any:
    """The segno code of `url`, made once per address: the public screen draws it on every page it shows,
    and the terminal prints it when the page starts (`segno.QRCode.terminal`)."""
    import segno  # the page's own dependency: only a table that serves its page draws one

    return segno.make(scannable(url), error="l", boost_error=True, micro=False)


@functools.lru_cache(maxsize=4)
def matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The code's modules for `url`, row by row, True for a dark one (no quiet zone)."""
    return tuple(tuple(bool(module) for module in row) for row in code(url).matrix)


@dataclass(frozen=True)
class Fit:
    """How a code sits in a box: `scale` pixels a module, `border` modules of quiet zone."""

    scale: int
    border: int

    def side(self, modules: int) -> int:
        """The code's side in pixels, quiet zone included."""
        return (modules + 2 * self.border) * self.scale


def fit(modules: int, width: int, height: int) -> Fit | None:
    """The largest whole-pixel code of `modules` that fits `width` × `height`, or None if none does."""
    for border in (BORDER, MIN_BORDER):
        scale = min(width, height) // (modules + 2 * border)
        if scale >= 1:
            return Fit(scale, border)
    return None


def draw(image: Image.Image, xy: tuple[int, int], modules: tuple[tuple[bool, ...], ...], how: Fit) -> None:
    """Draw the code at `xy` (its quiet zone's corner) into a one-bit or RGB image: dark on lit."""
    count = len(modules)
    code = Image.new("1", (count + 2 * how.border,) * 2, 1)
    code.putdata([0 if dark else 1 for row in _bordered(modules, how.border) for dark in row])
    code = code.resize((how.side(count),) * 2, Image.Resampling.NEAREST)
    image.paste(code.convert(image.mode), xy)


def _bordered(modules: tuple[tuple[bool, ...], ...], border: int) -> list[tuple[bool, ...]]:
    count = len(modules)
    blank = (False,) * (count + 2 * border)
    side = (False,) * border
    return [blank] * border + [side + row + side for row in modules] + [blank] * border
