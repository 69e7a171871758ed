"""The seat screens' Latin font as integers: a line of text in a few integer operations a character.

Pillow draws a line of its bitmap font (``ImageFont.load_default_imagefont``)
in C, but a line costs some 35 us on a desktop core, and a Pi Zero runs it
fifteen times slower: the drawing was the largest part of the time from an
ok press to its answer on the screen. Here a line is drawn on a Python
integer, one bit a pixel, exactly as Pillow draws it:

- Pillow makes a mask as wide as the line's advances and as high as the
  font, and pastes each glyph's box into it in order, at the pen plus the
  glyph's offsets. A box may reach a column into the cells beside it, and a
  later box overwrites an earlier one where they overlap (it is a paste, not
  an OR). Here each glyph's box is cleared and its pixels set, both shifted
  to the pen.
- Pillow then inks the image wherever the mask is set; the mask is cut to
  the line's own width, the image to its own.

The boxes and pixels are read from Pillow's font as it ships in courtier
(``fonts/pillow-default.pil`` and its sheet ``.pbm``, written from Pillow's
own by ``tools/make_latin_font.py``; a test holds them equal), so the seat
screens draw their first words without Pillow loading its font (which
decodes a PNG, and so imports every image plugin Pillow registers first);
a glyph's bits are made when it is first drawn. ``load_latin`` returns None
when that copy cannot be read, and the font is then read from Pillow.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image, ImageFont

# Pillow's default bitmap font, as shipped: the PIL font file (metrics) and its sheet beside it (PBM).
LATIN_FILE = Path(__file__).with_name("fonts") / "pillow-default.pil"

# Columns kept free left and right of a line while it is drawn: a box reaches at most a few
# columns out of its cell, and what lands there is cut off at the end.
_PAD = 8


@dataclass(frozen=True)
class Metrics:
    """One glyph of a PIL font: its advance, its box from the pen, and where its bitmap is on the sheet."""

    dx: int
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 from the pen (y from the baseline)
    source: tuple[int, int, int, int]  # on the sheet


_INVERTED = bytes(255 - value for value in range(256))


class Sheet:
    """A font's bitmap sheet, one bit a pixel, rows of whole bytes, the leftmost pixel the highest bit."""

    def __init__(self, width: int, height: int, bits: bytes) -> None:
        self.width, self.height, self.bits = width, height, bits

    def ink(self, x: int, y: int) -> bool:
        return bool(self.bits[y * ((self.width + 7) // 8) + (x >> 3)] & (0x80 >> (x & 7)))

    @classmethod
    def from_image(cls, image: Image.Image) -> Sheet:
        """A sheet from Pillow's image of it (mode "1" or "L": a pixel is ink when not 0)."""
        inked = image.convert("L").point(lambda value: 255 if value else 0).convert("1")
        return cls(image.width, image.height, inked.tobytes())

    @classmethod
    def from_pbm(cls, data: bytes) -> Sheet:
        """A sheet from a binary PBM file (P4), as Pillow reads and writes a font's sheet.

        PBM's 1 is black, and Pillow reads it as 0: a glyph's ink, which is
        not 0 in Pillow's image, is a 0 bit in the file.
        """
        fields: list[bytes] = []
        at = 0
        while len(fields) < 3:
            while data[at:at + 1].isspace():
                at += 1
            if data[at:at + 1] == b"#":
                at = data.index(b"\n", at)
                continue
            end = at
            while end < len(data) and not data[end:end + 1].isspace():
                end += 1
            fields.append(data[at:end])
            at = end
        if fields[0] != b"P4":
            raise ValueError("not a binary PBM")
        width, height = int(fields[1]), int(fields[2])
        bits = data[at + 1:]
        if len(bits) != (width + 7) // 8 * height:
            raise ValueError("a PBM cut short")
        return cls(width, height, bits.translate(_INVERTED))


class BitFont:
    """A PIL bitmap font's glyphs as integers, drawn as Pillow's ``ImageFont.getmask`` draws them.

    Args:
        table: The 256 glyphs' metrics, by character code.
        sheet: The font's bitmap sheet.
    """

    def __init__(self, table: list[Metrics], sheet: Sheet) -> None:
        width, height = sheet.width, sheet.height
        self._sheet = sheet
        clamped = []
        for glyph in table:
            # As Pillow does on loading: a source box past the sheet is cut, and its box with it.
            (x0, y0, x1, y1), (sx0, sy0, sx1, sy1) = glyph.box, glyph.source
            if sx0 < 0:
                x0, sx0 = x0 - sx0, 0
            if sy0 < 0:
                y0, sy0 = y0 - sy0, 0
            if sx1 > width:
                x1, sx1 = x1 - (sx1 - width), width
            if sy1 > height:
                y1, sy1 = y1 - (sy1 - height), height
            clamped.append(Metrics(glyph.dx, (x0, y0, x1, y1), (sx0, sy0, sx1, sy1)))
        self._table = clamped
        self.baseline = -min(0, *(g.box[1] for g in clamped))
        self.height = max(0, *(g.box[3] for g in clamped)) - min(0, *(g.box[1] for g in clamped))
        # How far a box reaches out of its cell, left or right; the drawing room beside a line.
        self._reach = max(0, *(-g.box[0] for g in clamped), *(g.box[2] - g.dx for g in clamped))
        if self._reach > _PAD:
            raise ValueError(f"a glyph reaches {self._reach} columns out of its cell")
        self._right = max(0, *(g.box[2] - g.dx for g in clamped))
        self._spills = [g.box[2] > g.dx for g in clamped]
        self._drawn: dict[int, list[tuple[int, bool, int, int] | None]] = {}  # by row width: `_glyphs`

    def _glyphs(self, stride: int) -> list[tuple[int, bool, int, int] | None]:
        """The glyphs drawn so far as ``(advance, clears, box, pixels)`` on rows of `stride` bits (see `_glyph`),
        by character code; None for one not yet drawn."""
        found = self._drawn.get(stride)
        if found is None:
            found = self._drawn[stride] = [None] * 256
        return found

    def _glyph(self, code: int, stride: int) -> tuple[int, bool, int, int]:
        """A glyph on rows of `stride` bits, the font's top row the highest, its pen column at bit
        ``advance - 1 + right reach`` of its row, so that shifting the line drawn so far left by the advance
        and ORing the glyph in draws it next; `clears`: its box reaches back into the cell before it, so that
        column is cleared first (a paste overwrites)."""
        glyph = self._table[code]
        x0, y0, x1, y1 = glyph.box
        sx0, sy0, _, _ = glyph.source
        box = pixels = 0
        rows = self.height
        for row in range(max(0, y0 + self.baseline), min(rows, y1 + self.baseline)):
            source_row = sy0 + row - (y0 + self.baseline)
            for column in range(x0, x1):
                bit = 1 << ((rows - 1 - row) * stride + glyph.dx - 1 - column + self._right)
                box |= bit
                if self._sheet.ink(sx0 + column - x0, source_row):
                    pixels |= bit
        return glyph.dx, x0 < 0, box, pixels

    def getlength(self, text: str) -> int:
        """The width of `text` (Latin-1) in pixels: its advances added up, as Pillow measures a bitmap font."""
        table = self._table
        return sum(table[ord(char)].dx for char in text)

    def line_bits(self, text: str, x: int, width: int) -> tuple[int, int] | None:
        """Draw `text` with its pen starting at column `x` of a line `width` columns wide.

        Returns:
            ``(top, rows)``: the ink of the font's top row, and of the rows
            below it, as integers of ``(width + 7) // 8 * 8`` bits a row,
            the leftmost column the highest bit of its row, as Pillow packs
            a one-bit image; None for a character outside Latin-1.
        """
        if x < 0:
            return None
        row_bits = (width + 7) // 8 * 8
        # Drawn on rows as wide as the image's when the line and its boxes fit in them (a line cut to
        # the screen does); else on wider rows, which are then cut down.
        drawn = self._draw(text, row_bits, width - x)
        if drawn is None:
            return None
        line, pen = drawn
        stride = row_bits
        if pen + self._reach + self._right > row_bits:
            stride = row_bits + 2 * _PAD
            line, pen = self._draw(text, stride, width - x)  # type: ignore[misc]
        end = min(pen, width - x)
        if end <= 0:
            return 0, 0
        # Column c of the text is bit pen - 1 - c + right reach of each row: keep columns 0 to `end`
        # (Pillow's mask is as wide as the advances, the image cuts at its edge), then move them to x.
        line &= _columns(pen - end + self._right, pen + self._right, stride, self.height)
        shift = row_bits - x - pen - self._right
        line = line << shift if shift >= 0 else line >> -shift
        if stride != row_bits:
            line = self._narrow(line, stride, row_bits)
        below = row_bits * (self.height - 1)
        return line >> below, line & ((1 << below) - 1)

    def _draw(self, text: str, stride: int, room: int) -> tuple[int, int] | None:
        """The glyphs of `text` on rows of `stride` bits, up to the first past `room` columns, and their advance."""
        glyphs = self._glyphs(stride)
        spills = self._spills
        reach = self._reach
        line = pen = 0
        spilled = False  # the glyph before reached into this one's cell
        for char in text:
            code = ord(char)
            if code > 0xFF:
                return None
            if pen - reach >= room:
                break  # every column from here on is past the right edge, where Pillow cuts the line
            glyph = glyphs[code]
            if glyph is None:
                glyph = glyphs[code] = self._glyph(code, stride)
            dx, clears, box, pixels = glyph
            line <<= dx
            if clears or spilled:
                line &= ~box
            line |= pixels
            pen += dx
            spilled = spills[code]
        return line, pen

    def _narrow(self, line: int, stride: int, row_bits: int) -> int:
        """Rows of `stride` bits cut down to their last `row_bits`, the image's width."""
        step, keep = stride // 8, row_bits // 8
        packed = line.to_bytes(step * self.height, "big")
        return int.from_bytes(b"".join(packed[row * step + step - keep:(row + 1) * step]
                                       for row in range(self.height)), "big")


@lru_cache(maxsize=1024)
def _columns(low: int, high: int, stride: int, rows: int) -> int:
    """Bits `low` to `high` (exclusive) of every row of `stride` bits."""
    row = ((1 << (high - low)) - 1) << low
    mask = 0
    for _ in range(rows):
        mask = (mask << stride) | row
    return mask


def load_latin(path: Path = LATIN_FILE) -> BitFont | None:
    """The shipped copy of Pillow's default bitmap font as a ``BitFont``, read without Pillow; None if it cannot be."""
    try:
        return BitFont(_metrics(path.read_bytes()), Sheet.from_pbm(path.with_suffix(".pbm").read_bytes()))
    except (OSError, ValueError, IndexError, struct.error):
        return None


def load_default() -> tuple[ImageFont.ImageFont, BitFont | None]:
    """Pillow's default bitmap font, and the same font as a ``BitFont`` (None if its data could not be read)."""
    latin, files = pillow_default()
    try:
        return latin, BitFont(_metrics(files["data"]), Sheet.from_image(files["sheet"]))
    except (KeyError, ValueError, struct.error):
        return latin, None  # another Pillow: drawn with Pillow, as before


def pillow_default() -> tuple[ImageFont.ImageFont, dict[str, Any]]:
    """Pillow's default bitmap font, and what it was read from: ``data``, the PIL font file; ``sheet``, its image."""
    from PIL import ImageFont

    seen: dict[str, Any] = {}
    loader = ImageFont.ImageFont._load_pilfont_data

    def keep(self: ImageFont.ImageFont, file: IO[bytes], image: Image.Image) -> None:
        start = file.tell()
        seen["data"] = file.read()
        file.seek(start)
        seen["sheet"] = image.copy()
        loader(self, file, image)

    ImageFont.ImageFont._load_pilfont_data = keep  # type: ignore[method-assign]
    try:
        latin = ImageFont.load_default_imagefont()
    finally:
        ImageFont.ImageFont._load_pilfont_data = loader  # type: ignore[method-assign]
    return latin, seen


def _metrics(data: bytes) -> list[Metrics]:
    """The glyph table of a PIL font file: a header of lines up to "DATA", then 256 records of ten shorts."""
    if not data.startswith(b"PILfont\n"):
        raise ValueError("not a PIL font")
    start = data.index(b"\nDATA\n") + len(b"\nDATA\n")
    table = []
    for code in range(256):
        dx, _, x0, y0, x1, y1, sx0, sy0, sx1, sy1 = struct.unpack_from(">10h", data, start + code * 20)
        table.append(Metrics(dx, (x0, y0, x1, y1), (sx0, sy0, sx1, sy1)))
    return table
