"""Lay the public snapshot out for one screen: pages of the prompt and its steps, and the events.

A public screen shows three things: the round/phase line (always, in a bar
at the top), the table prompt with the physical steps to make now, and the
public events of the latest actions (many of which are moves of real pieces
too). A screen rarely holds all of that at once, so the layout cuts it into
pages that the display turns by the clock:

- Lines are wrapped with the seat screens' own ``wrap`` and ``font`` (so a
  new screen font changes the public screen too), at spaces (or between
  hanzi): a step or an event is never cut mid-word. Rows are ``LINE`` pixels
  apart, ``WIDE_LINE`` when the snapshot shows Chinese, as on a seat screen. A block (the prompt, one step, one event)
  goes whole onto the page that has room for it; only a block taller than a
  whole page is split, between lines.
- A screen with fewer than ``REGION_MIN_ROWS`` rows (every 64-pixel-high
  panel) shows the prompt and steps, then the events, on pages one after
  the other. A taller one keeps its lower third for the events, whose pages
  turn beside those of the steps.
- A screen of at least twice ``SCALE_UNIT`` each way (a 320x240 TFT) draws
  every pixel of the font as a square of two, so it reads from across the
  table; its layout is that of a screen half its size.
- On a colour screen each seat's name is drawn in the seat's colour (the
  snapshot's, `colours`), and the top bar takes the colour of the seat
  that must decide.
- While the table page is served, its address and QR code get a page of
  their own after the others: before the first action (the start page) and
  while a seat reads the table menu's rules help. It is one more page to
  turn to, so it never covers a prompt; it is held ``ADDRESS_SECONDS``, the
  time to take a phone out and point it.

Each page is held for the time it takes to read it (``hold_seconds``).
Adults read English prose silently at about 238 words a minute on average
(Brysbaert, "How many words do we read per minute? A review and
meta-analysis of reading rate", Journal of Memory and Language 109, 2019).
A table reads a small screen at arm's length between moves, so a page gets
``GLANCE_SECONDS`` to look up and find it, then ``READING_WPM`` words a
minute, well below that average, and never less than ``MIN_HOLD_SECONDS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence
from urllib.parse import urlsplit

from PIL import Image, ImageDraw

from engine.i18n import _

from ..table.render import LINE, fit, font, line_height, wrap
from . import qr
from .colours import seat_colour
from .snapshot import Snapshot

READING_WPM = 200
GLANCE_SECONDS = 1.5
MIN_HOLD_SECONDS = 3.0
ADDRESS_SECONDS = 10.0

REGION_MIN_ROWS = 8  # rows from which the events get a region of their own
RULE_GAP = 3  # pixels between the steps and the events region: a rule, clear of descenders and accents
SCALE_UNIT = (120, 60)  # a screen this many times over each way draws the font that many times larger

TEXT = (255, 255, 255)
DIM = (170, 170, 180)
BAR = (90, 90, 105)
RULE = (80, 80, 95)

# Words of Chinese, Japanese and Korean are not split by spaces: count each character as one.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def count_words(text: str) -> int:
    """Words to read in `text`: space-separated words, each CJK character as one more."""
    cjk = len(_CJK.findall(text))
    return len(_CJK.sub(" ", text).split()) + cjk


def drawable(text: str) -> str:
    """`text` as the screen font draws it: control characters become spaces, glyphs it lacks a box.

    No string from a game, a seat name or a journal may stop the public screen,
    and what is measured is what is drawn (composed, as the font composes it).
    """
    return font().clean("".join(char if char.isprintable() else " " for char in text))


def hold_seconds(words: int) -> float:
    """How long a page of `words` words stays up."""
    return max(MIN_HOLD_SECONDS, GLANCE_SECONDS + 60.0 * words / READING_WPM)


@dataclass(frozen=True)
class Row:
    """One line of text on a page. `kind`: "prompt", "step" or "event"."""

    text: str
    kind: str
    mark: str = ""  # drawn before the text: a step's number, "-" before an event
    indent: int = 0  # pixels left of the text, the same for every line of a block


@dataclass(frozen=True)
class Page:
    """What one turn of the screen shows below the top bar."""

    main: tuple[Row, ...]  # the prompt and steps (or, on a screen without an events region, events)
    events: tuple[Row, ...] = ()  # the events region, on screens that have one
    hold: float = MIN_HOLD_SECONDS
    line: int = LINE  # row pitch: WIDE_LINE when the page's snapshot shows Chinese
    address: str = ""  # the table page's address: this page shows it and its QR code instead of rows

    @property
    def rows(self) -> tuple[Row, ...]:
        return self.main + self.events


class Layout:
    """The layout of the public snapshot for one screen size and image mode.

    Args:
        size: The screen's ``(width, height)`` in pixels.
        mode: "1" (one-bit) or "RGB" (colour).
    """

    def __init__(self, size: tuple[int, int], mode: str) -> None:
        if mode not in ("1", "RGB"):
            raise ValueError(f"a public screen is one-bit or RGB, not {mode!r}")
        self.size, self.mode = size, mode
        width, height = size
        self.scale = max(1, min(width // SCALE_UNIT[0], height // SCALE_UNIT[1]))
        self.width, self.height = width // self.scale, height // self.scale
        self.main_rows, self.event_rows = self.rows(LINE)

    def rows(self, line: int) -> tuple[int, int]:
        """Rows below the top bar for the steps, and for the events region (0: none), at this row pitch."""
        rows = max(2, self.height // line)
        event_rows = 0
        if rows >= REGION_MIN_ROWS:
            rows = (self.height - RULE_GAP) // line
            event_rows = rows // 3
        return rows - 1 - event_rows, event_rows

    @staticmethod
    def line(snapshot: Snapshot, events: Sequence[str] = ()) -> int:
        """The row pitch for this snapshot and these events: LINE, or WIDE_LINE if any shows Chinese."""
        return line_height(snapshot.header, snapshot.line, *snapshot.steps, *snapshot.names, *events)

    @property
    def colour(self) -> bool:
        return self.mode == "RGB"

    # --- text into pages ----------------------------------------------------
    def pages(self, snapshot: Snapshot, events: Sequence[str]) -> list[Page]:
        """Cut the prompt, its steps and `events` (lines of words, oldest first) into pages."""
        line = self.line(snapshot, events)
        main_pages = self.step_pages(snapshot, line)
        event_pages = self.event_pages(events, line)
        if not self.rows(line)[1]:
            pages = [Page(main=chunk, hold=_hold(chunk), line=line) for chunk in main_pages + event_pages]
        else:
            event_pages = event_pages or [()]
            pages = []
            for index in range(max(len(main_pages), len(event_pages))):
                rows, region = main_pages[index % len(main_pages)], event_pages[index % len(event_pages)]
                pages.append(Page(main=rows, events=region, hold=max(_hold(rows), _hold(region)), line=line))
        if snapshot.address and (snapshot.actions == 0 or snapshot.helping):
            pages.append(Page(main=(), hold=ADDRESS_SECONDS, line=line, address=snapshot.address))
        return pages

    def step_pages(self, snapshot: Snapshot, line: int = LINE) -> list[tuple[Row, ...]]:
        """The rows of the prompt and its steps (and the scores, once over), page by page."""
        return _paginate(self._blocks(snapshot), self.rows(line)[0])

    def event_pages(self, events: Sequence[str], line: int = LINE) -> list[tuple[Row, ...]]:
        """The rows of `events`, page by page (in the events region, if the screen has one); none for none."""
        told = [self._block(text, "event", "-", self._indent("-")) for text in events]
        main_rows, event_rows = self.rows(line)
        return _paginate(told, event_rows or main_rows) if told else []

    def _blocks(self, snapshot: Snapshot) -> list[list[Row]]:
        blocks = []
        if snapshot.line:
            blocks.append(self._block(snapshot.line, "prompt"))
        indent = self._indent(f"{len(snapshot.steps)}.")  # the widest number, so the steps line up
        for number, step in enumerate(snapshot.steps, 1):
            blocks.append(self._block(step, "step", f"{number}.", indent))
        if snapshot.result is not None:
            scores = snapshot.result.get("scores", {})
            named = ", ".join(f"{snapshot.names[int(seat)]} {score}" for seat, score in scores.items()
                              if int(seat) < len(snapshot.names))
            if named:
                blocks.append(self._block(_("Scores: {scores}").format(scores=named), "prompt"))
        return blocks or [[Row("", "prompt")]]

    def _block(self, text: str, kind: str, mark: str = "", indent: int = 0) -> list[Row]:
        lines = wrap(drawable(text), self.width - indent) or [""]
        return [Row(lines[0], kind, mark, indent)] + [Row(line, kind, "", indent) for line in lines[1:]]

    @staticmethod
    def _indent(mark: str) -> int:
        return int(font().getlength(mark + " "))

    # --- pages into pixels --------------------------------------------------
    def draw(self, snapshot: Snapshot, page: Page, number: int = 0, count: int = 1) -> Image.Image:
        """Draw page `number` of `count` (from 0) for this screen, in its size and mode."""
        mode = "RGB" if self.colour else "1"
        image = Image.new(mode, (self.width, self.height))
        draw = ImageDraw.Draw(image)
        line = page.line
        if page.address:
            self._bar(draw, replace(snapshot, header=_("Table page")), number, count, line)
            self._address(image, draw, page.address, line)
        else:
            self._bar(draw, snapshot, number, count, line)
            self._prompt_and_events(image, draw, snapshot, page, line)
        if self.scale > 1:
            image = image.resize((self.width * self.scale, self.height * self.scale), Image.Resampling.NEAREST)
        if image.size != self.size:
            whole = Image.new(mode, self.size)
            whole.paste(image, (0, 0))
            image = whole
        return image

    def _prompt_and_events(self, image: Image.Image, draw: ImageDraw.ImageDraw, snapshot: Snapshot, page: Page,
                          line: int) -> None:
        y = line
        for row in page.main:
            self._row(image, draw, snapshot, row, y, line)
            y += line
        main_rows, event_rows = self.rows(line)
        if event_rows:
            top = line * (main_rows + 1)
            draw.line((0, top + 1, self.width - 1, top + 1), fill=RULE if self.colour else 1)
            y = top + RULE_GAP
            for row in page.events:
                self._row(image, draw, snapshot, row, y, line)
                y += line

    def address_place(self, url: str, line: int = LINE) -> tuple[tuple[int, int], qr.Fit | None, list[str],
                                                                 tuple[int, int]]:
        """Where the address page puts the code and the address (in this layout's unscaled pixels).

        The code goes left, as large as whole pixels allow, the address in
        words to its right (whole, without "http://", or host and port on
        two lines, whichever leaves the code larger); where words beside it
        would shrink the code, they go below it instead.

        Returns:
            The code's corner, its fit (None: no room, words alone), the address's lines and where they start.
        """
        modules = len(qr.matrix(url))
        top, room = line, self.height - line
        best: tuple[tuple[int, int, int], qr.Fit, list[str], bool] | None = None
        for words in _address_choices(url):
            width = max(int(font().getlength(text)) for text in words)
            for below in (False, True):
                if below and width > self.width:
                    continue
                box = (self.width, room - line * len(words)) if below else (self.width - width - 2, room)
                how = qr.fit(modules, *box)
                if how is None:
                    continue
                rank = (how.scale, -len(words), 0 if below else 1)  # larger, then fewer lines, then beside
                if best is None or rank > best[0]:
                    best = (rank, how, words, below)
        if best is None:
            return (0, top), None, _address_choices(url)[-1], (0, top)
        _rank, how, words, below = best
        side = how.side(modules)
        if below:
            width = max(int(font().getlength(text)) for text in words)
            return ((self.width - side) // 2, top), how, words, ((self.width - width) // 2, top + side)
        text_top = top + max(0, (room - line * len(words)) // 2)
        return (0, top + (room - side) // 2), how, words, (side + 2, text_top)

    def _address(self, image: Image.Image, draw: ImageDraw.ImageDraw, url: str, line: int) -> None:
        corner, how, words, (x, y) = self.address_place(url, line)
        if how is not None:
            qr.draw(image, corner, qr.matrix(url), how)
        ink = TEXT if self.colour else 1
        for text in words:
            font().draw(draw, (x, y), fit(text, self.width - x), fill=ink, line=line)
            y += line

    def _bar(self, draw: ImageDraw.ImageDraw, snapshot: Snapshot, number: int, count: int,
             line: int = LINE) -> None:
        f = font()
        fill: tuple[int, int, int] | int = 1
        ink: tuple[int, int, int] | int = 0
        if self.colour:
            fill = BAR
            if len(snapshot.pending) == 1 and snapshot.pending[0] < len(snapshot.names):
                seat = snapshot.pending[0]
                fill = seat_colour(snapshot.colours, seat).screen
            ink = (0, 0, 0) if sum(fill) > 380 else TEXT
        draw.rectangle((0, 0, self.width - 1, line - 1), fill=fill)
        counter = f"{number + 1}/{count}" if count > 1 else ""
        room = self.width - 2 - (int(f.getlength(counter)) + 4 if counter else 0)
        f.draw(draw, (1, 0), fit(drawable(snapshot.header), room), fill=ink, line=line)
        if counter:
            f.draw(draw, (self.width - 1 - int(f.getlength(counter)), 0), counter, fill=ink, line=line)

    def _row(self, image: Image.Image, draw: ImageDraw.ImageDraw, snapshot: Snapshot, row: Row,
             y: int, line: int = LINE) -> None:
        if row.mark:
            font().draw(draw, (0, y), row.mark, fill=DIM if self.colour else 1, line=line)
        base = (DIM if row.kind == "event" else TEXT) if self.colour else 1
        self._text(image, draw, (row.indent, y), row.text, base, snapshot, line)

    def _text(self, image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str,
              fill: tuple[int, int, int] | int, snapshot: Snapshot, line: int = LINE) -> None:
        """Draw `text`, each seat name in its seat's colour on a colour screen.

        The line is drawn whole, as one mask, and coloured by column spans:
        drawn piece by piece, a glyph that reaches into its left neighbour's
        cell (the bitmap font's "B") would move by a pixel.
        """
        f = font()
        spans = _name_spans(text, [drawable(name) for name in snapshot.names]) if self.colour else []
        if not spans:
            f.draw(draw, xy, text, fill=fill, line=line)
            return
        # The mask's top is the row's, one pixel higher: a glyph may rise a pixel above its row.
        x, y = xy
        mask = Image.new("1", (int(f.getlength(text)) + 2, line + 3))
        f.draw(ImageDraw.Draw(mask), (0, 1), text, fill=1, line=line)
        colours = Image.new("RGB", mask.size, fill)
        paint = ImageDraw.Draw(colours)
        for start, end, seat in spans:
            # One pixel to the left too: a name's first glyph may reach into the cell before it.
            left, right = int(f.getlength(text[:start])) - 1, int(f.getlength(text[:end]))
            paint.rectangle((max(0, left), 0, right - 1, mask.height - 1),
                            fill=seat_colour(snapshot.colours, seat).screen)
        image.paste(colours, (x, y - 1), mask)


def _address_choices(url: str) -> list[list[str]]:
    """The address in words, as a phone's browser takes it: whole, without "http://", host and port."""
    parts = urlsplit(url)
    host, _colon, port = parts.netloc.rpartition(":")
    return [[url], [parts.netloc]] + ([[host, ":" + port]] if host else [])


def _name_spans(text: str, names: Sequence[str]) -> list[tuple[int, int, int]]:
    """Where seat names stand in `text`: ``(start, end, seat)``, as whole words, the longest name first."""
    order = sorted((n for n in set(names) if n.strip()), key=len, reverse=True)
    if not order:
        return []
    pattern = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in order))
    return [(found.start(), found.end(), list(names).index(found.group())) for found in pattern.finditer(text)]


def _hold(rows: Sequence[Row]) -> float:
    return hold_seconds(sum(count_words(row.text) for row in rows))


def _paginate(blocks: Sequence[Sequence[Row]], rows: int) -> list[tuple[Row, ...]]:
    """Fill pages of `rows` rows with whole blocks; only a block taller than a page is split, between lines."""
    pages: list[list[Row]] = [[]]
    for block in blocks:
        if pages[-1] and len(pages[-1]) + len(block) > rows:
            pages.append([])
        rest = list(block)
        while len(pages[-1]) + len(rest) > rows:
            room = rows - len(pages[-1])
            pages[-1] += rest[:room]
            rest = rest[room:]
            pages.append([])
        pages[-1] += rest
    return [tuple(page) for page in pages if page] or [()]
