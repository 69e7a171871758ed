"""A seat pod's logic, free of MicroPython: lines in, screen rows and button lines out.

The pod (an RP2040 with an SSD1306 and three buttons, see ``main.py``)
speaks the courtier serial protocol: one JSON object per line, ``"v": 1`` on
every message. It sends ``hello`` when it starts (saying it draws frames) and
``button`` for each gesture; the Pi sends it ``face`` (what this seat's screen
says, when the 8x8 ASCII font can draw it), ``frame`` (the seat screen's
pixels, for Chinese and any other script) and ``error`` (a line of ours it
could not use).

Everything here runs unchanged on MicroPython and on CPython, so the tests
drive it against the real Pi side through a pty. That is why the code avoids
f-strings, type annotations, ``str.ljust`` and bytearray slice deletion,
which some MicroPython builds lack. Times are integers in milliseconds from
any clock; MicroPython's ``time.ticks_diff`` can be passed in for a clock
that wraps around.
"""

import json

try:
    from binascii import a2b_base64
except ImportError:  # an older MicroPython
    from ubinascii import a2b_base64

PROTOCOL = 1
VERSION = "1.1"
COLUMNS = 16          # the 8x8 framebuf font across 128 pixels
ROWS = 8              # and down 64
MAX_LINE = 2048       # bytes; a longer line from the Pi is dropped
MAX_ERROR = 120       # characters of an error we send back
BUTTONS = ("prev", "next", "ok")
DEBOUNCE_MS = 20
HOLD_MS = 800

# The framebuf font has ASCII only; a few common letters and signs read better
# transliterated than as '?'.
_ASCII = {
    "ā": "a", "á": "a", "à": "a", "â": "a", "ä": "a", "ē": "e", "é": "e", "è": "e", "ê": "e",
    "ë": "e", "ī": "i", "í": "i", "ï": "i", "ō": "o", "ó": "o", "ô": "o", "ö": "o", "ū": "u",
    "ú": "u", "ü": "u", "ç": "c", "ñ": "n", "ß": "ss", "Ō": "O", "Ū": "U", "É": "E", "Ä": "A",
    "Ö": "O", "Ü": "U", "–": "-", "—": "-", "‘": "'", "’": "'", "“": '"', "”": '"',
    "…": "...", "→": ">", "←": "<", "×": "x", "·": ".", "•": "*", "\u00a0": " ",
}


# --- text ------------------------------------------------------------------------

def to_ascii(text):
    """Text the 8x8 font can draw: known letters transliterated, anything else '?'."""
    out = []
    for char in text:
        if 32 <= ord(char) < 127:
            out.append(char)
        elif char in _ASCII:
            out.append(_ASCII[char])
        elif char in "\t\r\n":
            out.append(" ")
        else:
            out.append("?")
    return "".join(out)


def pad(text, width=COLUMNS):
    """``text`` filled with spaces to ``width`` characters."""
    return text + " " * (width - len(text))


def fit(text, width=COLUMNS):
    """Cut ``text`` to ``width`` characters, marking a cut with '~'."""
    if len(text) <= width:
        return text
    return text[:width - 1] + "~"


def wrap(text, width=COLUMNS):
    """Break ``text`` into rows of at most ``width`` characters, at spaces where possible."""
    rows = []
    current = ""
    for word in text.split(" "):
        trial = (current + " " + word).strip() if current else word
        if len(trial) <= width:
            current = trial
            continue
        if current:
            rows.append(current)
        current = word
        while len(current) > width:   # a word longer than a row: break it anywhere
            rows.append(current[:width])
            current = current[width:]
    if current:
        rows.append(current)
    return rows


def layout(face, columns=COLUMNS, rows=ROWS):
    """Lay a face out as the pod's rows, the way the Pi's own screens do.

    Row 0 is "name|header"; then the seat's private panel, the question
    (which takes what the panel leaves, at least one row), a notice, and on
    the last row the menu choice ("<" and the position when there are
    several, ">" when there is one).

    Args:
        face: The fields of a ``face`` message (name, header, panel, ask,
            choice, position, notice).

    Returns:
        ``rows`` strings of exactly ``columns`` characters.
    """
    name = to_ascii(face.get("name", ""))
    header = to_ascii(face.get("header", ""))
    top = fit(name + "|" + header if name else header, columns)
    panel = [to_ascii(line) for line in face.get("panel", [])]
    ask = wrap(to_ascii(face.get("ask", "")), columns) if face.get("ask") else []
    bottom = ["! " + to_ascii(face["notice"])] if face.get("notice") else []
    choice = to_ascii(face.get("choice", ""))
    menu_rows = 1 if choice else 0
    free = rows - 1 - menu_rows - len(bottom)
    ask = ask[:max(1, free - len(panel))]
    panel_rows = max(0, free - len(ask))
    body = [fit(line, columns) for line in panel[:panel_rows]] + [fit(line, columns) for line in ask]
    out = ([top] + body + [fit(line, columns) for line in bottom])[:rows - menu_rows]
    while len(out) < rows - menu_rows:
        out.append("")
    out = [pad(row, columns) for row in out]
    if choice:
        out.append(choice_row(choice, to_ascii(face.get("position", "")), columns))
    return out


def choice_row(choice, position, columns=COLUMNS):
    """The menu row: an arrow, the choice cut to fit, the position at the right."""
    right = " " + position if position else ""
    middle = columns - 1 - len(right)
    return ("<" if position else ">") + pad(fit(choice, middle), middle) + right


def waiting_rows(columns=COLUMNS, rows=ROWS):
    """What the pod shows before the Pi has sent a face."""
    out = [pad("courtier", columns), "", pad("waiting for", columns), pad("the table...", columns)]
    while len(out) < rows:
        out.append("")
    return [pad(row, columns) for row in out]


# --- lines ------------------------------------------------------------------------

def encode(message):
    """One protocol line (bytes, newline included)."""
    return json.dumps(message).encode("utf-8") + b"\n"


def hello_line(name, version=VERSION):
    """The ``hello`` a pod sends when it starts: ``"name/version"``, and that it draws frames."""
    return encode({"v": PROTOCOL, "type": "hello", "pod": name + "/" + version, "frames": True})


def button_line(button, gesture):
    """A ``button`` line for one gesture."""
    return encode({"v": PROTOCOL, "type": "button", "button": button, "gesture": gesture})


def error_line(message):
    """An ``error`` line answering a line from the Pi that the pod could not use."""
    if len(message) > MAX_ERROR:
        message = message[:MAX_ERROR - 3] + "..."
    return encode({"v": PROTOCOL, "type": "error", "message": message})


class LineReader:
    """Split bytes from the Pi into JSON objects; keep partial lines; drop oversized ones.

    Args:
        max_line: Longest line accepted, in bytes, newline excluded.
    """

    def __init__(self, max_line=MAX_LINE):
        self.max_line = max_line
        self._buffer = b""
        self._discarding = False   # inside an oversized line, until its newline
        self.lines = 0

    def feed(self, data):
        """Take bytes; return what the complete lines held, oldest first.

        Returns:
            A list whose items are dicts (messages) or strings (why a line
            was dropped).
        """
        self._buffer += data
        out = []
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                break
            raw = self._buffer[:end]
            self._buffer = self._buffer[end + 1:]
            if self._discarding:
                self._discarding = False
                continue
            item = self._decode(raw)
            if item is not None:
                out.append(item)
        if self._discarding:
            self._buffer = b""
        elif len(self._buffer) > self.max_line:
            self.lines += 1
            out.append("line " + str(self.lines) + " is longer than " + str(self.max_line)
                       + " bytes; dropped")
            self._buffer = b""
            self._discarding = True
        return out

    def _decode(self, raw):
        self.lines += 1
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw.strip():
            return None
        where = "line " + str(self.lines)
        if len(raw) > self.max_line:
            return where + " is longer than " + str(self.max_line) + " bytes; dropped"
        try:
            message = json.loads(raw.decode("utf-8"))
        except Exception:   # UnicodeError or ValueError, named differently on MicroPython
            return where + " is not JSON; dropped"
        if not isinstance(message, dict):
            return where + " is not a JSON object; dropped"
        return message


# --- buttons -----------------------------------------------------------------------

def _minus(later, earlier):
    return later - earlier


class Gestures:
    """Turn raw button levels with timestamps into press and hold gestures.

    A level counts once it has stayed unchanged for ``debounce_ms``, so
    contact bounce and short glitches make no gesture. prev and next give
    "press" when pressed; ok gives "hold" once kept down ``hold_ms`` (and
    nothing on release), or "press" when let go sooner.

    Args:
        debounce_ms: How long a level must stay to count.
        hold_ms: How long ok is kept down to mean "back".
        diff: ``diff(later, earlier)`` in ms; pass ``time.ticks_diff`` on MicroPython.
    """

    def __init__(self, debounce_ms=DEBOUNCE_MS, hold_ms=HOLD_MS, diff=None):
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.diff = diff or _minus
        self.pressed = {}    # the debounced level
        self._raw = {}
        self._since = {}     # when the raw level last changed
        self._down_at = {}
        self._held = {}
        for button in BUTTONS:
            self.pressed[button] = False
            self._raw[button] = False
            self._since[button] = None
            self._down_at[button] = None
            self._held[button] = False

    def edge(self, button, pressed, now):
        """Record the raw level of one button at ``now`` (an edge, or any sample)."""
        if button not in self._raw:
            raise ValueError("unknown button " + repr(button))
        if pressed != self._raw[button]:
            self._raw[button] = pressed
            self._since[button] = now

    def tick(self, now):
        """Return the gestures complete at ``now``: a list of (button, gesture)."""
        out = []
        for button in BUTTONS:
            raw = self._raw[button]
            if raw != self.pressed[button] and self.diff(now, self._since[button]) >= self.debounce_ms:
                self.pressed[button] = raw
                if raw:
                    self._down_at[button] = self._since[button]
                    self._held[button] = False
                    if button != "ok":
                        out.append((button, "press"))
                elif button == "ok" and not self._held[button]:
                    out.append((button, "press"))
            if (button == "ok" and self.pressed[button] and not self._held[button]
                    and self.diff(now, self._down_at[button]) >= self.hold_ms):
                self._held[button] = True
                out.append((button, "hold"))
        return out

    def sample(self, now, levels):
        """Record every button's raw level (a dict button -> pressed), then ``tick``."""
        for button in BUTTONS:
            self.edge(button, bool(levels[button]), now)
        return self.tick(now)


# --- the pod ---------------------------------------------------------------------

class Pod:
    """What a pod knows: its face, its rows, and the lines it owes the Pi.

    Example::

        pod = Pod("courtier-pod")
        write(pod.hello())
        for reply in pod.receive(read()):
            write(reply)
        if pod.dirty:
            draw(pod.rows, pod.inverted)
            pod.dirty = False

    Attributes:
        rows: The ``ROWS`` screen rows, ``COLUMNS`` characters each.
        frame: The screen's pixels when the Pi sent a frame (bytes, rows of
            MONO_HLSB), else None: then ``rows`` is drawn.
        inverted: Indices of the rows drawn white on black (header, choice).
        face: The last face message, or None before the first.
        seat: The seat index the Pi gave, or None.
        alert: The Pi's last error message, shown until the next face.
        dirty: True when the rows changed since the caller last drew them.
    """

    def __init__(self, name="courtier-pod", columns=COLUMNS, rows=ROWS, max_line=MAX_LINE):
        self.name = name
        self.columns = columns
        self.row_count = rows
        self.reader = LineReader(max_line)
        self.face = None
        self.seat = None
        self.alert = ""
        self.rows = waiting_rows(columns, rows)
        self.inverted = (0,)
        self.frame = None
        self.frame_size = (0, 0)
        self.dirty = True

    def hello(self):
        """The line to send on start."""
        return hello_line(self.name)

    def button(self, button, gesture):
        """The line to send for a gesture."""
        return button_line(button, gesture)

    def receive(self, data):
        """Take bytes from the Pi; return the lines to send back (errors), if any."""
        replies = []
        for item in self.reader.feed(data):
            if isinstance(item, str):
                replies.append(error_line(item))
                continue
            problem = self._handle(item)
            if problem:
                replies.append(error_line(problem))
        return replies

    def _handle(self, message):
        if message.get("v") != PROTOCOL:
            return ("protocol version " + repr(message.get("v")) + " is not supported; this pod speaks "
                    + str(PROTOCOL))
        kind = message.get("type")
        if kind == "face":
            problem = _check_face(message)
            if problem:
                return "face message: " + problem
            self.face = message
            self.seat = message["seat"]
            self.alert = ""
            self.frame = None
            self._draw()
            return None
        if kind == "frame":
            problem, bits = _check_frame(message)
            if problem:
                return "frame message: " + problem
            self.face = message
            self.seat = message["seat"]
            self.alert = ""
            self.frame, self.frame_size = bits, (message["width"], message["height"])
            self._draw()
            return None
        if kind == "error":
            self.alert = str(message.get("message", ""))
            self._draw()
            return None
        return "a pod takes face, frame and error messages, not " + repr(kind)

    def _draw(self):
        if self.face is None:
            rows = waiting_rows(self.columns, self.row_count)
            if self.alert:
                rows[-1] = pad(fit("! " + to_ascii(self.alert), self.columns), self.columns)
            self.rows, self.inverted = rows, (0,)
        elif self.frame is not None:
            # The pixels are drawn as they came; an alert takes the bottom row over them.
            rows = [""] * self.row_count
            if self.alert:
                rows[-1] = fit("! Pi: " + to_ascii(self.alert), self.columns)
            self.rows, self.inverted = rows, ()
        else:
            face = self.face
            if self.alert:
                face = dict(face)
                face["notice"] = "Pi: " + self.alert
            self.rows = layout(face, self.columns, self.row_count)
            self.inverted = (0, self.row_count - 1) if face.get("choice") else (0,)
        self.dirty = True


_FACE_TEXT = ("header", "ask", "name", "choice", "position", "notice")


def _check_frame(message):
    """(why a frame message cannot be shown or None, its pixels)."""
    seat, width, height = message.get("seat"), message.get("width"), message.get("height")
    for value in (seat, width, height):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return "'seat', 'width' and 'height' must be integers 0 or more", None
    if width != COLUMNS * 8 or height != ROWS * 8:
        return "this pod's screen is " + str(COLUMNS * 8) + "x" + str(ROWS * 8), None
    bits = message.get("bits")
    if not isinstance(bits, str):
        return "'bits' must be a string", None
    try:
        data = a2b_base64(bits)
    except ValueError:
        return "'bits' is not base64", None
    if len(data) != width // 8 * height:
        return "'bits' must hold " + str(width // 8 * height) + " bytes", None
    return None, data


def _check_face(message):
    """Why a face message cannot be shown, or None."""
    seat = message.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        return "'seat' must be an integer 0 or more"
    for key in _FACE_TEXT:
        if key in message and not isinstance(message[key], str):
            return repr(key) + " must be a string"
    for key in ("header", "ask"):
        if key not in message:
            return "missing field " + repr(key)
    panel = message.get("panel")
    if not isinstance(panel, list):
        return "'panel' must be an array of strings"
    for line in panel:
        if not isinstance(line, str):
            return "'panel' must be an array of strings"
    return None
