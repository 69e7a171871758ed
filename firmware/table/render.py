"""Draw a seat's `Face` into a one-bit image the size of its screen.

Layout: an inverted header bar, the private panel, the question, and the menu
choice between arrows. Latin text is drawn in Pillow's compact 6x11 bitmap
font on 10-pixel lines; a face with any other character (Chinese) is drawn on
12-pixel lines, its Chinese in WenQuanYi Bitmap Song 12 px (a glyph subset
shipped in `fonts/`, made by `tools/make_font.py`). Text is measured in
pixels, never counted in characters, and any character the fonts cannot draw
(a control, a lone surrogate, a combining mark, a script we do not ship) is
drawn as a visible box, so no string can break a screen.

A press redraws a face, and a Pi Zero runs this Python some fifteen times
slower than a desktop, so a face of Latin text is drawn as bands of ten rows
(`Band`), each line of text on integers (`glyphs.BitFont`: the pixels Pillow
draws, in a few integer operations a character) and kept by its text and
place, so an unchanged line costs a look-up; the bands' rows are then joined.
A line whose ink reaches above its band (a few accented capitals do), and a
face on 12-pixel lines, is drawn whole with Pillow (`draw_face`).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from . import glyphs
from .faces import Face

LINE = 10  # row pitch of a screen whose text is all Latin
WIDE_LINE = 12  # row pitch of a screen that shows Chinese: the CJK font is 12 pixels high
WIDTH, HEIGHT = 128, 64
BREAKS = "/.-_"  # where a word longer than a line is broken (a file's path, its name), best first
NOTICE_ROWS = 2  # a notice (a refusal, a fault, how the game began) may take two rows from the panel
FONT_FILE = Path(__file__).with_name("fonts") / "wqy-bitmapsong-12.bdf"
REPLACEMENT = "\ufffd"  # the CJK font draws it (and every character it lacks) as a box
# Characters the compact Latin font draws: printable ASCII and Latin-1.
_LATIN = frozenset(chr(c) for c in [*range(0x20, 0x7F), *range(0xA0, 0x100)])
# Categories no font draws on its own: controls, format characters, surrogates, private use,
# unassigned code points, line and paragraph separators, and combining marks left after NFC.
_UNDRAWABLE = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Mn", "Me"))
# Chinese line breaking: a line never starts with closing punctuation, never ends with an opening one.
NO_LINE_START = frozenset("。，、」』）〕】》〉！？：；．，,.!?:;)]}%…‥・ー～")
NO_LINE_END = frozenset("「『（〔【《〈([{")


class ScreenFont:
    """The seat screens' font: Latin in the compact bitmap font, the rest in the CJK font.

    `getlength` measures in pixels and `draw` draws at the top of a row;
    both take any string: what no font can draw becomes the box at U+FFFD.
    """

    def __init__(self, wide_file: Path = FONT_FILE) -> None:
        # The Latin font twice: as integers (`bits`, from courtier's copy), and Pillow's own (`latin`),
        # loaded when a line is first drawn by Pillow: a table's first faces need only the integers.
        self._latin: ImageFont.ImageFont | None = None
        self.bits = glyphs.load_latin()
        if self.bits is None:
            self._latin, self.bits = glyphs.load_default()
        self._wide_file = wide_file
        self._wide: ImageFont.FreeTypeFont | None = None

    @property
    def latin(self) -> ImageFont.ImageFont:
        """Pillow's default bitmap font (the one `bits` draws), loaded on first use."""
        if self._latin is None:
            self._latin = ImageFont.load_default_imagefont()
        return self._latin

    @property
    def wide(self) -> ImageFont.FreeTypeFont:
        """The CJK font, loaded on first use (an English table never needs it)."""
        if self._wide is None:
            self._wide = ImageFont.truetype(str(self._wide_file), WIDE_LINE)
        return self._wide

    @staticmethod
    def clean(text: str) -> str:
        """`text` composed (NFC) with every character no font can draw replaced by U+FFFD."""
        if text.isascii() and text.isprintable():
            return text
        text = "".join(REPLACEMENT if unicodedata.category(c) == "Cs" else c for c in text)
        text = unicodedata.normalize("NFC", text)
        return "".join(REPLACEMENT if unicodedata.category(c) in _UNDRAWABLE else c for c in text)

    @staticmethod
    def needs_wide(text: str) -> bool:
        """Whether `text` has a character the Latin font lacks (so its line needs the CJK font's height)."""
        return not (text.isascii() and text.isprintable()) and not all(c in _LATIN for c in text)

    def runs(self, text: str) -> list[tuple[bool, str]]:
        """`text`, cleaned, as runs of (wide?, characters): each run is drawn in one font."""
        text = self.clean(text)
        if not self.needs_wide(text):
            return [(False, text)] if text else []
        runs: list[tuple[bool, str]] = []
        for char in text:
            wide = char not in _LATIN
            if runs and runs[-1][0] == wide:
                runs[-1] = (wide, runs[-1][1] + char)
            else:
                runs.append((wide, char))
        return runs

    def getlength(self, text: str) -> float:
        """The width of `text` in pixels."""
        if text.isascii() and text.isprintable():
            return self.latin_length(text)
        return sum(self.wide.getlength(run) if wide else self.latin_length(run) for wide, run in self.runs(text))

    def latin_length(self, text: str) -> float:
        """The width of Latin text in pixels, as Pillow measures it."""
        return self.bits.getlength(text) if self.bits is not None else self.latin.getlength(text)

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill: Any,
             line: int = LINE) -> None:
        """Draw `text` with its row's top at `xy`, on a row `line` pixels high (LINE or WIDE_LINE)."""
        x, y = xy
        for wide, run in self.runs(text):
            if wide:
                draw.text((x, y - 1), run, font=self.wide, fill=fill)
                x += self.wide.getlength(run)
            else:
                # Latin caps sit 3 pixels into the glyph cell: one pixel up on a 10-pixel row,
                # one pixel down on a 12-pixel one, to stand beside the Chinese.
                draw.text((x, y - 1 if line == LINE else y + 1), run, font=self.latin, fill=fill)
                x += self.latin_length(run)


@lru_cache(maxsize=None)
def font() -> ScreenFont:
    """The one font every seat screen (and the emulator's picture) is drawn with."""
    return ScreenFont()


def line_height(*texts: str) -> int:
    """The row pitch for these texts together: LINE if all are Latin, else WIDE_LINE."""
    return WIDE_LINE if any(font().needs_wide(t) for t in texts) else LINE


@lru_cache(maxsize=4096)
def fit(text: str, width: int) -> str:
    """Cut `text` to `width` pixels, marking the cut with '~'.

    Latin text is as wide as its glyphs' advances added up (a bitmap font),
    so its cut is found in one pass over the characters.
    """
    f = font()
    text = f.clean(text)
    if f.getlength(text) <= width:
        return text
    if not f.needs_wide(text):
        room = width - f.getlength("~")
        used = 0.0
        for cut, char in enumerate(text):
            used += _advance(char)
            if used > room:
                return text[:cut] + "~"
        return text + "~"
    while text and f.getlength(text + "~") > width:
        text = text[:-1]
    return text + "~"


@lru_cache(maxsize=None)
def _advance(char: str) -> float:
    return font().latin_length(char)


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _atoms(text: str) -> list[tuple[bool, str]]:
    """`text` as unbreakable pieces, each with whether a space stood before it.

    Latin words stay whole, their ASCII marks included; each Chinese character
    is a piece of its own (a line may break between any two), except that
    closing punctuation clings to the piece before it and opening punctuation
    to the piece after it.
    """
    atoms: list[tuple[bool, str]] = []
    space, word, glue = False, "", False  # glue: the next piece joins the last (after an opening mark)

    def push(piece: str, before: bool) -> None:
        nonlocal glue
        if atoms and (glue or (piece[0] in NO_LINE_START and not before)):
            last_space, last = atoms[-1]
            atoms[-1] = (last_space, last + (" " if before else "") + piece)
        else:
            atoms.append((before, piece))
        glue = piece[-1] in NO_LINE_END

    for char in text:
        if char == " ":
            if word:
                push(word, space)
                word = ""
            space = True
            continue
        # A Latin word keeps its own marks (a file's path, "3.", "Köln,"); Chinese punctuation
        # is a piece that clings to its neighbour.
        if _is_wide(char) or (not char.isascii() and (char in NO_LINE_START or char in NO_LINE_END)):
            if word:
                push(word, space)
                word, space = "", False
            push(char, space)
            space = False
            continue
        word += char
    if word:
        push(word, space)
    return atoms


def cells(text: str) -> int:
    """The width of `text` in a terminal's cells: two for a wide (Chinese) character, one for others."""
    return sum(2 if _is_wide(c) else 0 if unicodedata.combining(c) else 1 for c in text)


def ljust_cells(text: str, width: int) -> str:
    """`text` cut to `width` terminal cells and padded with spaces to exactly that many."""
    while cells(text) > width:
        text = text[:-1]
    return text + " " * (width - cells(text))


def wrap(text: str, width: int, measure: Callable[[str], float] | None = None) -> list[str]:
    """Break `text` into lines of at most `width` pixels: at spaces, between Chinese characters,
    never before closing or after opening punctuation; a piece longer than a line breaks anywhere.

    `measure` measures a line in other units (a terminal's cells: `cells`).
    """
    return list(_wrapped(text, width, measure))


@lru_cache(maxsize=1024)
def _wrapped(text: str, width: int, measure: Callable[[str], float] | None) -> tuple[str, ...]:
    f = font()
    text = f.clean(text)
    length = measure or f.getlength
    lines: list[str] = []
    current = ""
    for space, atom in _atoms(text):
        trial = f"{current} {atom}" if current and space else current + atom
        if length(trial) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        current = atom
        while length(current) > width:  # a piece longer than a line (a file's path): break it
            end = len(current)
            while end > 1 and length(current[:end]) > width:
                end -= 1
            # After a path's last '/' that fits, else a name's '.', '-' or '_', else where it must.
            joints = [current.rfind(mark, 0, end - 1) + 1 for mark in BREAKS]
            end = next((joint for joint in joints if joint > 1), end)
            lines.append(current[:end])
            current = current[end:]
    if current:
        lines.append(current)
    return tuple(lines)


def cut(lines: list[str], rows: int, width: int) -> list[str]:
    """The first `rows` of wrapped `lines`, the last marked with '~' when some were left out."""
    if len(lines) <= rows:
        return lines
    f = font()
    last = lines[rows - 1]
    while last and f.getlength(last + "~") > width:
        last = last[:-1]
    return lines[: rows - 1] + [last + "~"]


class Layout(NamedTuple):
    """Exactly what a screen shows of a face: each row's text, already cut to the width in pixels.

    A tuple: every seat's face is laid out on every redraw, and a tuple is made at C speed.
    """

    header: str
    body: tuple[str, ...]
    choice: str = ""  # the menu choice, "" when there is none
    position: str = ""  # e.g. "2/5", drawn at the right end of the choice bar
    line: int = LINE  # the row pitch in pixels

    def rows(self) -> list[str]:
        """The rows as plain text, top to bottom (what the terminal table prints for a seat)."""
        rows = [self.header, *self.body]
        if self.choice:
            rows.append(f"{'<' if self.position else '>'} {self.choice} {self.position}".rstrip())
        return rows


def face_line(face: Face) -> int:
    """The row pitch of a face: wide when any of its words needs the CJK font (looked for in them all at once)."""
    return line_height("".join((face.seat_name, face.header, *face.panel, face.ask, face.choice, face.notice)))


def layout(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Layout:
    """Lay a face out on a screen of `size`: what fits, cut where it must be, and nothing more.

    The header bar holds the seat's name and the table state; then the private
    panel, the question (at least one line, marked with '~' where cut), a
    notice, and the menu choice on the bottom bar.
    """
    width, height = size
    f = font()
    line = face_line(face)
    rows = height // line
    bottom = cut(wrap("! " + face.notice, width), NOTICE_ROWS, width) if face.notice else []
    ask = wrap(face.ask, width) if face.ask else []
    menu_rows = 1 if face.choice else 0
    free = rows - 1 - menu_rows - len(bottom)
    # The panel comes first; the question takes what is left, at least one line, marked if cut.
    room = max(1, free - len(face.panel))
    ask = cut(ask, room, width)
    panel_rows = max(0, free - len(ask))
    body = [fit(row, width) for row in face.panel[:panel_rows]] + [fit(a, width) for a in ask]
    body += [fit(b, width) for b in bottom]
    body = body[: max(0, rows - 1 - menu_rows)]
    position = fit(face.position, width // 2) if face.choice else ""
    right_w = int(f.getlength(position)) + 2 if position else 0
    return Layout(header=fit(f"{face.seat_name}|{face.header}", width - 2), body=tuple(body),
                  choice=fit(face.choice, width - 10 - right_w) if face.choice else "",
                  position=position, line=line)


def screen_rows(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> list[str]:
    """The text rows a screen of `size` shows for `face`, exactly as `render_face` draws them."""
    return layout(face, size).rows()


class Band(NamedTuple):
    """Ten rows of a face of Latin text: the header bar, a line of text, or the menu bar (a tuple, as `Layout`).

    Attributes:
        y: Its first row.
        bar: True for a white band with black text.
        texts: ``(x, text)`` drawn with their tops on row ``y - 1`` (the font's
            first row is blank for almost every glyph).
    """

    y: int
    bar: bool
    texts: tuple[tuple[int, str], ...]


def bands(shown: Layout, size: tuple[int, int] = (WIDTH, HEIGHT)) -> list[Band]:
    """The bands a laid-out face is drawn as: the header bar, each row of the body, the menu bar."""
    width, height = size
    line = shown.line
    found = [Band(0, True, ((1, shown.header),))]
    y = line
    for row in shown.body:
        found.append(Band(y, False, ((0, row),)))
        y += line
    if shown.choice:
        right = shown.position
        right_w = int(font().getlength(right)) + 2 if right else 0
        texts = [(1, "<" if right else ">"), (8, shown.choice)]
        if right:
            texts.append((width - right_w, right))
        found.append(Band(height - line, True, tuple(texts)))
    return found


def draw_face(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """Draw a face with Pillow, band by band, in order."""
    shown = layout(face, size)
    return _draw(bands(shown, size), size, shown.line)


def _draw(drawn: list[Band], size: tuple[int, int], line: int = LINE) -> Image.Image:
    width, height = size
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    f = font()
    for band in drawn:
        if band.bar:
            # The header and the menu bar: black text on white.
            draw.rectangle((0, band.y, width - 1, min(height, band.y + line) - 1), fill=1)
        for x, text in band.texts:
            f.draw(draw, (x, band.y), text, fill=0 if band.bar else 1, line=line)
    return image


def render_face(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """The face's image (see `face_pixels`)."""
    drawn = _drawn(face, size)
    return drawn if isinstance(drawn, Image.Image) else Image.frombytes("1", size, drawn)


def face_pixels(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> bytes:
    """The face's image as its bytes, as ``Image.tobytes()`` packs a one-bit image (what a seat's screen is sent)."""
    drawn = _drawn(face, size)
    return drawn.tobytes() if isinstance(drawn, Image.Image) else drawn


def _drawn(face: Face, size: tuple[int, int]) -> Image.Image | bytes:
    """A face of Latin text band by band from the lines' bits, as bytes; any other drawn by Pillow."""
    width, height = size
    shown = layout(face, size)
    drawn = bands(shown, size)
    pixels = _band_pixels(drawn, width, height) if shown.line == LINE else None
    if pixels is None:
        # Chinese on 12-pixel lines, or a glyph reaching into the band above it: drawn whole by Pillow.
        return _draw(drawn, size, shown.line)
    return pixels


def _band_pixels(drawn: list[Band], width: int, height: int) -> bytes | None:
    """The image's bytes (as Pillow packs a one-bit image) of bands of Latin text, each drawn on its own rows.

    None when a band is not on rows of its own: one cut by the bottom edge or
    overlapping the band before, or a line that Pillow would draw on the row
    above its band (a few accented capitals reach it), or one it would draw
    with the other font.
    """
    step = (width + 7) // 8
    frame = bytearray(step * height)
    below = 0
    for band in drawn:
        if band.y < below or band.y + LINE > height:
            return None
        ink = 0
        for x, text in band.texts:
            bits = _line_bits(text, x, width)
            if bits is None:
                return None
            ink |= bits
        if band.bar:
            ink ^= _bar(width)  # white with the text in black: the bar's rectangle spans the width
        below = band.y + LINE
        frame[band.y * step:below * step] = ink.to_bytes(LINE * step, "big")
    return bytes(frame)


@lru_cache(maxsize=4096)
def _line_bits(text: str, x: int, width: int) -> int | None:
    """The ten rows of a band with `text` at column `x`, as one integer; None when it cannot be drawn that way.

    ``ScreenFont.draw`` puts the top of the font one row above the band: a
    line whose ink reaches that row, one with a character the Latin font
    lacks, or one Pillow would break at a newline, is drawn by Pillow.
    """
    f = font()
    if f.bits is None or f.bits.height != LINE + 1 or "\n" in text or f.runs(text) not in ([(False, text)], []):
        return None
    drawn = f.bits.line_bits(text, x, width)
    if drawn is None or drawn[0]:
        return None
    return drawn[1]


@lru_cache(maxsize=8)
def _bar(width: int) -> int:
    """Every pixel of a band `width` columns wide, as ``_line_bits`` packs it."""
    step = (width + 7) // 8
    row = ((1 << width) - 1) << (step * 8 - width)
    bar = 0
    for _ in range(LINE):
        bar = (bar << step * 8) | row
    return bar
