"""Draw a seat's `Face` into a one-bit image the size of its screen.

Layout (128x64, 10-pixel lines): an inverted header bar, the private panel,
the question, and the menu choice between arrows. Text is measured with the
font, never counted in bytes, so the same layout serves Chinese glyphs.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .faces import Face

LINE = 10
WIDTH, HEIGHT = 128, 64


@lru_cache(maxsize=None)
def font() -> ImageFont.ImageFont:
    """The built-in 6x11 bitmap font: crisp on a one-bit panel and identical on every machine."""
    return ImageFont.load_default_imagefont()


def drawable(text: str) -> str:
    """`text` as the screen font can draw it, so no string ever crashes a screen.

    The bitmap font has Latin-1 only: a character it lacks is drawn as its
    base letter where it has one ("Tennō" as "Tenno"), else as "?".
    """
    f = font()
    try:
        f.getlength(text)
        return text
    except UnicodeError:
        pass
    out = []
    for char in text:
        for candidate in (char, unicodedata.normalize("NFKD", char)[:1], "?"):
            try:
                f.getlength(candidate)
            except UnicodeError:
                continue
            out.append(candidate)
            break
    return "".join(out)


def fit(text: str, width: int) -> str:
    """Cut `text` to `width` pixels, marking the cut with '~'."""
    f = font()
    text = drawable(text)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "~") > width:
        text = text[:-1]
    return text + "~"


def wrap(text: str, width: int) -> list[str]:
    """Break `text` into lines of at most `width` pixels, at spaces where possible."""
    f = font()
    text = drawable(text)
    lines, current = [], ""
    for word in text.split(" "):
        trial = f"{current} {word}".strip()
        if f.getlength(trial) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        current = word
        while f.getlength(current) > width:  # a word longer than a line: break it anywhere
            cut = len(current)
            while cut > 1 and f.getlength(current[:cut]) > width:
                cut -= 1
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    return lines


@dataclass(frozen=True)
class Layout:
    """Exactly what a screen shows of a face: each row's text, already cut to the width in pixels."""

    header: str
    body: tuple[str, ...]
    choice: str = ""  # the menu choice, "" when there is none
    position: str = ""  # e.g. "2/5", drawn at the right end of the choice bar

    def rows(self) -> list[str]:
        """The rows as plain text, top to bottom (what the terminal table prints for a seat)."""
        rows = [self.header, *self.body]
        if self.choice:
            rows.append(f"{'<' if self.position else '>'} {self.choice} {self.position}".rstrip())
        return rows


def layout(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Layout:
    """Lay a face out on a screen of `size`: what fits, cut where it must be, and nothing more.

    The header bar holds the seat's name and the table state; then the private
    panel, the question (at least one line, marked with '~' where cut), a
    notice, and the menu choice on the bottom bar.
    """
    width, height = size
    f = font()
    rows = height // LINE
    bottom: list[str] = []
    if face.notice:
        bottom.append("! " + face.notice)
    ask = wrap(face.ask, width) if face.ask else []
    menu_rows = 1 if face.choice else 0
    free = rows - 1 - menu_rows - len(bottom)
    # The panel comes first; the question takes what is left, at least one line, marked if cut.
    room = max(1, free - len(face.panel))
    if len(ask) > room:
        last = ask[room - 1]
        while last and f.getlength(last + "~") > width:
            last = last[:-1]
        ask = ask[: room - 1] + [last + "~"]
    panel_rows = max(0, free - len(ask))
    body = [fit(line, width) for line in face.panel[:panel_rows]] + [fit(a, width) for a in ask]
    body += [fit(b, width) for b in bottom]
    body = body[: max(0, rows - 1 - menu_rows)]
    right_w = int(f.getlength(face.position)) + 2 if face.position else 0
    return Layout(header=fit(f"{face.seat_name}|{face.header}", width - 2), body=tuple(body),
                  choice=fit(face.choice, width - 10 - right_w) if face.choice else "",
                  position=face.position if face.choice else "")


def screen_rows(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> list[str]:
    """The text rows a screen of `size` shows for `face`, exactly as `render_face` draws them."""
    return layout(face, size).rows()


def render_face(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    width, height = size
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    f = font()
    shown = layout(face, size)
    # Header bar: the seat's name, then the table state, white on black inverted.
    draw.rectangle((0, 0, width - 1, LINE - 1), fill=1)
    draw.text((1, -1), shown.header, font=f, fill=0)
    y = LINE
    for line in shown.body:
        draw.text((0, y - 1), line, font=f, fill=1)
        y += LINE
    if shown.choice:
        y = height - LINE
        draw.rectangle((0, y, width - 1, height - 1), fill=1)
        right = shown.position
        right_w = int(f.getlength(right)) + 2 if right else 0
        draw.text((1, y - 1), "<" if right else ">", font=f, fill=0)
        draw.text((8, y - 1), shown.choice, font=f, fill=0)
        if right:
            draw.text((width - right_w, y - 1), right, font=f, fill=0)
    return image
