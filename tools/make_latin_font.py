"""Ship Pillow's default bitmap font with the seat screens: its PIL font file and its sheet, as Pillow reads them.

The seat screens draw Latin text in Pillow's default bitmap font, on
integers (``firmware.table.glyphs``). Pillow keeps that font inside its
code as a PNG, which it can only decode after importing every image plugin
it registers; a copy in ``firmware/table/fonts/`` (``pillow-default.pil``,
the glyph metrics, and ``pillow-default.pbm``, the sheet: the two files
Pillow's ``ImageFont.load`` reads) lets the table draw its first words
without that. ``tests/firmware/test_glyphs.py`` holds the copy equal to the
installed Pillow's font; run this after a Pillow that changes it.

    python tools/make_latin_font.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware.table.glyphs import LATIN_FILE, pillow_default  # noqa: E402


def main() -> int:
    _font, files = pillow_default()
    LATIN_FILE.write_bytes(files["data"])
    files["sheet"].convert("1").save(LATIN_FILE.with_suffix(".pbm"))
    print(f"{LATIN_FILE} and its .pbm: {len(files['data'])} bytes of metrics, a {files['sheet'].size} sheet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
