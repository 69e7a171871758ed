"""The Latin font drawn on integers gives exactly the pixels Pillow draws."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from firmware.table.glyphs import load_default, load_latin

LATIN = [chr(c) for c in [*range(0x20, 0x7F), *range(0xA0, 0x100)]]
LATIN_FONT, FROM_PILLOW = load_default()
BITS = load_latin()  # courtier's copy, which the seat screens draw with


def pillow_rows(text: str, x: int, width: int) -> tuple[int, int]:
    """The line as Pillow draws it on a one-bit image as high as the font: its top row, and the rows below."""
    image = Image.new("1", (width, BITS.height))
    ImageDraw.Draw(image).text((x, 0), text, font=LATIN_FONT, fill=1)
    raw, step = image.tobytes(), (width + 7) // 8
    return int.from_bytes(raw[:step], "big"), int.from_bytes(raw[step:], "big")


def test_the_font_is_read():
    assert BITS is not None and BITS.height == 11
    assert FROM_PILLOW is not None and FROM_PILLOW.height == 11


def test_the_shipped_copy_is_pillows_font():
    """Every glyph's metrics and every pixel of the sheet (tools/make_latin_font.py writes them anew)."""
    assert BITS._table == FROM_PILLOW._table
    ours, pillows = BITS._sheet, FROM_PILLOW._sheet
    assert (ours.width, ours.height) == (pillows.width, pillows.height)
    assert [ours.ink(x, y) for y in range(ours.height) for x in range(ours.width)] == \
        [pillows.ink(x, y) for y in range(pillows.height) for x in range(pillows.width)]
    assert sum(pillows.ink(x, y) for y in range(pillows.height) for x in range(pillows.width)) > 1000


def test_the_copy_ships_with_pillows_licence():
    """Pillow's MIT-CMU licence asks its notice to go with every copy."""
    from firmware.table.glyphs import LATIN_FILE

    notice = LATIN_FILE.with_suffix(".COPYING").read_text(encoding="utf-8")
    assert "Secret Labs AB" in notice and "Permission to use, copy, modify" in notice


def test_lengths_are_pillows():
    """A line's width is its advances added up, as Pillow measures it: every character, and random lines."""
    assert [BITS.getlength(c) for c in LATIN] == [LATIN_FONT.getlength(c) for c in LATIN]
    rng = random.Random(5)
    for _ in range(300):
        text = "".join(rng.choice(LATIN) for _ in range(rng.randint(0, 40)))
        assert BITS.getlength(text) == LATIN_FONT.getlength(text), text


def test_a_missing_or_broken_copy_is_not_used(tmp_path):
    """None: the screens then read the font from Pillow (`ScreenFont`)."""
    assert load_latin(tmp_path / "none.pil") is None
    (tmp_path / "cut.pil").write_bytes(b"PILfont\n;;;;;;10;\nDATA\n" + bytes(30))
    (tmp_path / "cut.pbm").write_bytes(b"P4\n8 1\n\x00")
    assert load_latin(tmp_path / "cut.pil") is None


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
