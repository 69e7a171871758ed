"""The Latin font drawn on integers gives exactly the pixels Pillow draws."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from firmware.table.glyphs import load_default

LATIN = [chr(c) for c in [*range(0x20, 0x7F), *range(0xA0, 0x100)]]
LATIN_FONT, BITS = load_default()


def pillow_rows(text: str, x: int, width: int) -> tuple[int, int]:
    """The line as Pillow draws it on a one-bit image as high as the font: its top row, and the rows below."""
    image = Image.new("1", (width, BITS.height))
    ImageDraw.Draw(image).text((x, 0), text, font=LATIN_FONT, fill=1)
    raw, step = image.tobytes(), (width + 7) // 8
    return int.from_bytes(raw[:step], "big"), int.from_bytes(raw[step:], "big")


def test_the_font_is_read():
    assert BITS is not None and BITS.height == 11


def test_every_pair_of_characters():
    """A glyph's box reaches into its neighbours' cells and overwrites them: every ordered pair, as Pillow."""
    wrong = [a + b for a in LATIN for b in LATIN if BITS.line_bits(a + b, 3, 128) != pillow_rows(a + b, 3, 128)]
    assert wrong == []


@pytest.mark.parametrize("width", [128, 100, 64, 30])
def test_lines_cut_at_the_edge(width):
    """Lines of any length from any column, cut by the right edge as Pillow cuts them (rows not whole bytes too)."""
    rng = random.Random(width)
    for _ in range(400):
        text = "".join(rng.choice(LATIN) for _ in range(rng.randint(0, 30)))
        x = rng.randint(0, width + 3)
        assert BITS.line_bits(text, x, width) == pillow_rows(text, x, width), (text, x)


def test_a_character_outside_latin_1_is_left_to_pillow():
    assert BITS.line_bits("Kai 甲", 0, 128) is None
