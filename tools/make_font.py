"""Make the seat screens' CJK font: a glyph subset of WenQuanYi Bitmap Song 12 px, as BDF.

The source is the font Debian ships as `xfonts-wqy` (`wenquanyi_9pt.pcf`, 12
pixels); FreeType reads it through Pillow, and each glyph kept is written
back, pixel for pixel, into `firmware/table/fonts/wqy-bitmapsong-12.bdf`,
which courtier ships, so no machine needs the font installed to draw Chinese.

Kept: printable ASCII and Latin-1, Latin Extended-A (Tennō's ō), common
punctuation, arrows and shapes, CJK and full-width punctuation, the
frequently used hanzi of GB 2312 (level 1) and Big5 (level 1), and every
character of the shipped catalogs and glossaries. Glyphs the source lacks, and
glyphs that draw nothing (combining marks), are left out: the screen draws
them as the box at U+FFFD, the font's default character.

    make font                   # or: python tools/make_font.py [SOURCE.pcf [TARGET.bdf]]
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path("/usr/share/fonts/X11/misc/wenquanyi_9pt.pcf")
TARGET = ROOT / "firmware" / "table" / "fonts" / "wqy-bitmapsong-12.bdf"
SIZE = 12
REPLACEMENT = 0xFFFD
RANGES = [(0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2027), (0x2030, 0x205E), (0x2190, 0x2199),
          (0x2460, 0x2473), (0x25A0, 0x25FF), (0x2600, 0x2606), (0x3000, 0x303F), (0xFF01, 0xFF5E)]


def double_byte(codec: str, firsts: range, seconds: list[range]) -> set[str]:
    """Every character a double-byte codec decodes from these lead and trail bytes."""
    found = set()
    for first in firsts:
        for trail in seconds:
            for second in trail:
                try:
                    found.add(bytes((first, second)).decode(codec))
                except UnicodeDecodeError:
                    pass
    return found


def catalog_text() -> str:
    """The characters of every shipped catalog and glossary."""
    parts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "engine" / "locale").rglob("*.po"))]
    parts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "engine").rglob("glossary*.toml"))]
    return "".join(parts)


def wanted() -> list[int]:
    chars = {chr(c) for lo, hi in RANGES for c in range(lo, hi + 1)}
    chars |= double_byte("gb2312", range(0xB0, 0xD8), [range(0xA1, 0xFF)])  # GB 2312 level 1
    chars |= double_byte("big5", range(0xA4, 0xC7), [range(0x40, 0x7F), range(0xA1, 0xFF)])  # Big5 level 1
    chars |= set(catalog_text())
    keep = {c for c in chars if unicodedata.category(c)[0] in "LNPSZ" and unicodedata.category(c) not in ("Zl", "Zp")}
    return sorted(ord(c) for c in keep)


def glyph(font: ImageFont.FreeTypeFont, char: str) -> tuple[int, tuple[int, int, int, int], list[str]] | None:
    """(advance, (width, height, x offset, y offset), hex rows) of one glyph, or None if it draws nothing."""
    canvas = Image.new("1", (48, 48), 0)
    origin = (8, 32)
    ImageDraw.Draw(canvas).text(origin, char, font=font, fill=1, anchor="ls")
    advance = round(font.getlength(char))
    box = canvas.getbbox()
    if box is None:
        return (advance, (0, 0, 0, 0), []) if char.isspace() and advance else None
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    rows = []
    for y in range(y0, y1):
        bits = "".join("1" if canvas.getpixel((x, y)) else "0" for x in range(x0, x1))
        bits += "0" * (-len(bits) % 8)
        rows.append(f"{int(bits, 2):0{len(bits) // 4}X}")
    return advance, (width, height, x0 - origin[0], origin[1] - y1), rows


def replacement() -> tuple[int, tuple[int, int, int, int], list[str]]:
    """A hollow box, 10 by 10 on the baseline: what the screen draws for a character the font lacks."""
    rows = ["FFC0"] + ["8040"] * 8 + ["FFC0"]
    return 12, (10, 10, 1, 0), rows


def write(path: Path, glyphs: dict[int, tuple[int, tuple[int, int, int, int], list[str]]], ascent: int,
          descent: int) -> None:
    width = max(g[1][0] for g in glyphs.values())
    height = ascent + descent
    lines = [
        "STARTFONT 2.1",
        "COMMENT A glyph subset of WenQuanYi Bitmap Song 12px (GPL-2 with font embedding exception),",
        "COMMENT made by tools/make_font.py from Debian's xfonts-wqy; see wqy-bitmapsong.COPYING.",
        f"FONT -WenQuanYi-WenQuanYi Bitmap Song-Medium-R-Normal--{SIZE}-{SIZE * 10}-75-75-P-120-ISO10646-1",
        f"SIZE {SIZE} 75 75",
        f"FONTBOUNDINGBOX {width} {height} 0 {-descent}",
        "STARTPROPERTIES 8",
        'FAMILY_NAME "WenQuanYi Bitmap Song"',
        'WEIGHT_NAME "Medium"',
        f"PIXEL_SIZE {SIZE}",
        f"FONT_ASCENT {ascent}",
        f"FONT_DESCENT {descent}",
        'CHARSET_REGISTRY "ISO10646"',
        'CHARSET_ENCODING "1"',
        f"DEFAULT_CHAR {REPLACEMENT}",
        "ENDPROPERTIES",
        f"CHARS {len(glyphs)}",
    ]
    for code in sorted(glyphs):
        advance, (w, h, x, y), rows = glyphs[code]
        lines += [f"STARTCHAR U+{code:04X}", f"ENCODING {code}", f"SWIDTH {advance * 1000 // SIZE} 0",
                  f"DWIDTH {advance} 0", f"BBX {w} {h} {x} {y}", "BITMAP", *rows, "ENDCHAR"]
    lines.append("ENDFONT")
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else SOURCE
    target = Path(argv[2]) if len(argv) > 2 else TARGET
    if not source.exists():
        print(f"make_font: {source} is missing; install it with: sudo apt-get install xfonts-wqy", file=sys.stderr)
        return 1
    font = ImageFont.truetype(str(source), SIZE)
    ascent, descent = font.getmetrics()
    glyphs = {}
    for code in wanted():
        found = glyph(font, chr(code))
        if found is not None:
            glyphs[code] = found
    glyphs[REPLACEMENT] = replacement()
    write(target, glyphs, ascent, descent)
    print(f"{target}: {len(glyphs)} glyphs from {source}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
