"""Pictures of the whole emulated table: one image for a window or a recording, text for a terminal.

Every pixel of a seat comes from that seat's own screen image, and those of
the public screen from its own; around them go only public words (seat
names, the table prompt, the public log) and the keys that stand for each
seat's buttons.
"""

from __future__ import annotations

import math
from typing import Sequence

from PIL import Image, ImageDraw

from engine.game import Prompt
from engine.i18n import _

from ..table.render import WIDE_LINE, cells, fit, font, ljust_cells, wrap
from .keyboard import KEYS

SEAT_SIZE = (128, 64)
MARGIN = 6  # around the whole picture (on the right, GAP: a label may run past its screen)
GAP = 14  # between seats, both ways
LABEL = 12  # the name line above a seat
FRAME = 2  # from a seat's pixels to its frame line
LINE = 13  # footer line height: the CJK font is 12 pixels high, one more between lines
FOOTER_LINES = 12  # at least; more for a bigger table (`footer_rows`), fixed per table
PROMPT_LINES = 2
LOG_LINES = 3  # public events under the terminal table

BACKGROUND = (24, 24, 28)
PIXEL_ON = (255, 255, 255)
PIXEL_OFF = (0, 0, 0)
FRAME_COLOUR = (96, 96, 110)
TEXT = (225, 225, 225)
DIM = (150, 150, 160)
HIGHLIGHT = (255, 196, 0)


def keys_label(seat: int) -> str:
    """The keys of a seat as shown beside its name: ``"q/w/e  W=back"`` ("" past the last set)."""
    if not 0 <= seat < len(KEYS):
        return ""
    prev, ok, nxt = KEYS[seat]
    return _("{prev}/{ok}/{next}  {back}=back").format(prev=prev, ok=ok, next=nxt, back=ok.upper())


def seat_label(seat: int, name: str) -> str:
    """What stands above a seat: number, name and keys, e.g. ``"1 Red  q/w/e  W=back"``."""
    keys = keys_label(seat)
    return f"{seat + 1} {name}  {keys}" if keys else f"{seat + 1} {name}"


def default_columns(count: int) -> int:
    """Seats per row: two for up to four seats (reads best), then up to four."""
    if count <= 2:
        return max(count, 1)
    if count <= 4:
        return 2
    return 3 if count <= 6 else 4


def seat_positions(count: int, columns: int | None = None,
                   size: tuple[int, int] = SEAT_SIZE) -> list[tuple[int, int]]:
    """Top-left corner of each seat's pixels in the composed picture, in seat order."""
    columns = columns or default_columns(count)
    width, height = size
    cell_w, cell_h = width + 2 * FRAME, LABEL + height + 2 * FRAME
    return [(MARGIN + (i % columns) * (cell_w + GAP) + FRAME,
             MARGIN + (i // columns) * (cell_h + GAP) + LABEL + FRAME)
            for i in range(count)]


def panel_pixels(image: Image.Image) -> Image.Image:
    """A screen's image as RGB pixels: a one-bit panel lit white on black, a colour one as it is."""
    if image.mode != "1":
        return image.convert("RGB")
    lit = Image.new("RGB", image.size, PIXEL_ON)
    panel = Image.new("RGB", image.size, PIXEL_OFF)
    panel.paste(lit, mask=image)
    return panel


def compose(images: Sequence[Image.Image], names: Sequence[str], prompt: Prompt | None = None,
            log: Sequence[str] = (), columns: int | None = None,
            highlight: Sequence[int] = (), public: Image.Image | None = None) -> Image.Image:
    """Draw the whole table as one RGB picture.

    The size depends only on the number and size of the seat images and on
    ``columns``, never on the words, so a window or a GIF can keep it.

    Args:
        images: Each seat's screen image (mode "1"), in seat order.
        names: Each seat's name.
        prompt: The public line and steps, shown below the seats.
        log: Public log lines; the last few are shown.
        columns: Seats per row; default from ``default_columns``.
        highlight: Seats whose decision is pending; they get a yellow frame and marker.
        public: The public screen's image, shown under the seats, or None.

    Returns:
        An RGB image (luma.emulator devices take RGB and show colour).
    """
    count = len(images)
    columns = min(columns or default_columns(count), max(count, 1))
    width = max((im.width for im in images), default=SEAT_SIZE[0])
    height = max((im.height for im in images), default=SEAT_SIZE[1])
    rows = max(1, math.ceil(count / columns))
    cell_w, cell_h = width + 2 * FRAME, LABEL + height + 2 * FRAME
    picture_w = MARGIN + columns * (cell_w + GAP)
    grid_h = rows * cell_h + (rows - 1) * GAP
    footer_h = footer_rows(count)
    public_h = 0
    if public is not None:
        picture_w = max(picture_w, 2 * MARGIN + public.width + 2 * FRAME)
        public_h = LABEL + public.height + 2 * FRAME + GAP
    picture_h = 2 * MARGIN + grid_h + GAP + public_h + footer_h * LINE
    picture = Image.new("RGB", (picture_w, picture_h), BACKGROUND)
    draw = ImageDraw.Draw(picture)
    f = font()
    for seat, ((x, y), image) in enumerate(zip(seat_positions(count, columns, (width, height)), images)):
        pending = seat in highlight
        colour = HIGHLIGHT if pending else TEXT
        label_x = x - FRAME
        if pending:  # a small triangle before the name: this seat has a decision to make
            top = y - FRAME - LABEL + 2
            draw.polygon([(label_x, top), (label_x + 3, top + 3), (label_x, top + 6)], fill=HIGHLIGHT)
            label_x += 6
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        room = x - FRAME + cell_w + GAP - 2 - label_x
        f.draw(draw, (label_x, y - FRAME - LABEL - 1), fit(seat_label(seat, name), room), fill=colour, line=WIDE_LINE)
        picture.paste(panel_pixels(image if image.mode == "RGB" else image.convert("1")), (x, y))
        box = (x - FRAME, y - FRAME, x + image.width + FRAME - 1, y + image.height + FRAME - 1)
        draw.rectangle(box, outline=HIGHLIGHT if pending else FRAME_COLOUR, width=2 if pending else 1)
    y = MARGIN + grid_h + GAP
    if public is not None:
        x = MARGIN + FRAME
        f.draw(draw, (x - FRAME, y - 1), fit(_("Public screen"), picture_w - 2 * MARGIN), fill=TEXT, line=WIDE_LINE)
        top = y + LABEL + FRAME
        picture.paste(panel_pixels(public), (x, top))
        draw.rectangle((x - FRAME, top - FRAME, x + public.width + FRAME - 1, top + public.height + FRAME - 1),
                       outline=FRAME_COLOUR)
        y += public_h
    footer = footer_lines(prompt, log, picture_w - 2 * MARGIN, footer_h)
    for text, colour in footer:
        f.draw(draw, (MARGIN, y), text, fill=colour, line=WIDE_LINE)
        y += LINE
    return picture


def footer_rows(count: int) -> int:
    """Rows below the seats: enough for the longest prompt a table of `count` seats is shown (at
    Tennō's end, a line per pile and per score), fixed per table so a window or a GIF keeps its size."""
    return max(FOOTER_LINES, 2 * count + 5)


def footer_lines(prompt: Prompt | None, log: Sequence[str], width: int,
                 rows: int = FOOTER_LINES) -> list[tuple[str, tuple[int, int, int]]]:
    """The prompt, its steps and the last log lines, wrapped to ``width`` pixels, in ``rows`` lines.

    The current instruction is never hidden: when the steps do not fit, the
    first ones (what the last action changed) give way to "...", and the
    last ones (what the table does now) stay whole. The log takes the rows left, whole events only, newest last.
    """
    head = wrap(prompt.line, width)[:PROMPT_LINES] if prompt is not None else []
    groups = []
    for step in (prompt.steps if prompt is not None else ()):
        wrapped = wrap(step, width - 12) or [""]
        groups.append(["- " + wrapped[0]] + ["  " + more for more in wrapped[1:]])
    room = rows - len(head) - (1 if log else 0)  # a row for the newest event, when there is one
    steps = [line for group in groups for line in group]
    if len(steps) > room and groups:
        kept = groups[-1][: max(room - 1, 1)]  # what the table does now comes last: it stays
        for group in reversed(groups[:-1]):
            if len(kept) + len(group) + 1 > room:
                break
            kept = group + kept
        steps = ["  ..."] + kept
    tail: list[str] = []
    for entry in reversed(log):
        wrapped = wrap(entry, width)
        left = rows - len(head) - len(steps) - len(tail)
        if len(wrapped) > left:
            if not tail:  # the newest event, as much of it as there is room for, from its start
                tail = wrapped[:left]
            break
        tail = wrapped + tail
    return ([(line, TEXT) for line in head] + [(line, TEXT) for line in steps]
            + [(line, DIM) for line in tail])[:rows]


# Bits of the Unicode braille cell (U+2800 + bits), by pixel row and column in the 2x4 cell.
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def braille(image: Image.Image) -> list[str]:
    """Turn a one-bit image into lines of braille characters, 2x4 pixels each.

    A 128x64 screen becomes 16 lines of 64 characters, small enough to show
    two seats side by side in an ordinary terminal.
    """
    bits = image if image.mode == "1" else image.convert("L").point(lambda v: 255 if v >= 128 else 0, "1")
    width, height = bits.size
    pixels = bits.load()
    lines = []
    for top in range(0, height, 4):
        chars = []
        for left in range(0, width, 2):
            code = 0
            for dy in range(4):
                for dx in range(2):
                    x, y = left + dx, top + dy
                    if x < width and y < height and pixels[x, y]:
                        code |= _DOTS[dy][dx]
            chars.append(chr(0x2800 + code))
        lines.append("".join(chars))
    return lines


FACE_WIDTH = 24  # characters of a seat's text face in the terminal


SCREEN_ROWS = 6  # text rows of a 128x64 seat screen


def face_rows(lines: Sequence[str]) -> list[str]:
    """A seat's screen rows (already laid out as its pixels show them) as a fixed-width text block."""
    rows = list(lines)
    return [ljust_cells(row, FACE_WIDTH) for row in rows + [""] * max(0, SCREEN_ROWS - len(rows))]


def terminal_lines(images: Sequence[Image.Image], names: Sequence[str], prompt: Prompt | None = None,
                   log: Sequence[str] = (), width: int = 80, highlight: Sequence[int] = (),
                   faces: Sequence[Sequence[str]] | None = None,
                   public: Image.Image | None = None) -> list[str]:
    """Lay the table out as terminal text: the seats, the public screen, then prompt, steps, log and key help.

    Each seat is its screen's pixels in braille, or, when ``faces`` gives each
    seat's face as text (what its screen says, line by line), that text,
    which reads far better in a terminal. Seats go side by side as the width
    allows. A pending seat has a heavy frame and "> " before its name. The
    public screen's pixels follow in braille (every lit pixel, whatever its
    colour) when the terminal is wide enough for them.
    """
    blocks = []
    for seat, image in enumerate(images):
        rows = face_rows(faces[seat]) if faces is not None else braille(image)
        inner = cells(rows[0]) if rows else 0
        heavy = seat in highlight
        tl, tr, bl, br, h, v = "┏┓┗┛━┃" if heavy else "┌┐└┘─│"
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        label = ("> " if heavy else "") + seat_label(seat, name)
        blocks.append([ljust_cells(label, inner + 2), tl + h * inner + tr,
                       *(v + row + v for row in rows), bl + h * inner + br])
    lines: list[str] = []
    block_w = max((cells(b[0]) for b in blocks), default=0)
    columns = max(1, min(len(blocks), 4, (width + 2) // (block_w + 2)))
    for start in range(0, len(blocks), columns):
        group = blocks[start:start + columns]
        for row in range(max(len(b) for b in group)):
            lines.append("  ".join(ljust_cells(b[row], block_w) if row < len(b) else " " * block_w
                                   for b in group).rstrip())
    text_w = max(20, width - 1)
    if public is not None:
        lit = public.convert("L").point(lambda v: 255 if v else 0, "1")
        rows = braille(lit)
        inner = len(rows[0]) if rows else 0
        lines.append("")
        if inner + 2 <= width:
            lines += [_("Public screen"), "┌" + "─" * inner + "┐", *("│" + row + "│" for row in rows),
                      "└" + "─" * inner + "┘"]
        else:
            lines.append(_("(The public screen needs a terminal {columns} columns wide.)").format(
                columns=inner + 2))
    lines.append("")
    if prompt is not None:
        lines += wrap(prompt.line, text_w, cells)
        for step in prompt.steps:
            wrapped = wrap(step, text_w - 4, cells)
            lines += ["  - " + line if i == 0 else "    " + line for i, line in enumerate(wrapped)]
    if log:
        lines.append("")
        lines += [line for entry in log[-LOG_LINES:] for line in wrap(entry, text_w, cells)]
    seats = "   ".join(f"{i + 1}:{'/'.join(KEYS[i])}" for i in range(min(len(images), len(KEYS))))
    lines.append("")
    lines += wrap(_("Keys prev/ok/next: {seats}.  Upper-case ok key (W, S, X...) = back.  "
                    "Esc or Ctrl-C quits.").format(seats=seats), text_w, cells)
    return lines
