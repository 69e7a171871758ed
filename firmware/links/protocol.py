"""The serial line protocol spoken by seat pods and the host console.

Every message is one JSON object on one line (the framing is
``hardware.link.Link``), and every message carries ``"v": 1`` so that a pod
flashed with another protocol version is told so instead of misread.

Down to a seat pod (``face``, ``frame``, ``error``) and up from it
(``hello``, ``button``); down to the host console (``table``, ``reply``,
``error``) and up from it (``hello``, ``command``). A seat pod is sent its own
face and nothing else; the console is sent the public side of the table and
nothing else.

A pod draws a face's words in its own 8x8 ASCII font. A face it cannot draw
(Chinese, and any other text beyond ASCII) goes to a pod that said
``"frames": true`` in its hello as a ``frame`` instead: the seat screen's
one-bit image (rows of pixels, the leftmost in each byte's top bit, as
framebuf's MONO_HLSB), base64 in ``bits``: 1,368 characters for 128x64.

The functions here are pure: ``encode_*`` build message dicts, ``decode``
checks one received dict and returns a small record, raising
``ProtocolError`` with a message that says exactly what is wrong.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.physical import bare
from hardware.errors import ProtocolError
from hardware.events import BUTTONS, GESTURES, InputEvent

from ..table.faces import Face

_log = logging.getLogger(__name__)

VERSION = 1
TYPES = ("button", "command", "error", "face", "frame", "hello", "reply", "table")
MAX_FRAME = (256, 128)  # the largest frame a message may carry, in pixels
# An error message is cut to this many characters: it must fit a pod's small line buffer.
MAX_ERROR = 200
_MAX_NAME = 64

_KINDS = {str: "a string", bool: "true or false", int: "an integer", float: "a number",
          list: "an array", dict: "an object", type(None): "null"}


# --- records ------------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    """A pod or console saying who it is (``"name/version"``), on start or reconnect.

    ``frames``: the pod draws ``frame`` messages (so its face may be any script).
    """

    peer: str
    frames: bool = False


@dataclass(frozen=True)
class PodEvent:
    """A button gesture made on a seat pod."""

    button: str
    gesture: str

    def for_seat(self, seat: int) -> InputEvent:
        """The runtime's event for this gesture on ``seat``."""
        return InputEvent(seat, self.button, self.gesture)


@dataclass(frozen=True)
class ConsoleCommand:
    """A table command from the host console (``new_game``, ``undo``, ``end_game``)."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FaceUpdate:
    """What a seat pod is told to show."""

    seat: int
    face: Face


@dataclass(frozen=True)
class FrameUpdate:
    """A seat's screen as pixels: ``bits`` holds ``height`` rows of ``ceil(width / 8)`` bytes."""

    seat: int
    width: int
    height: int
    bits: bytes


@dataclass(frozen=True)
class TableUpdate:
    """The public side of the table, as the host console receives it."""

    public: dict[str, Any]
    line: str
    steps: tuple[str, ...]
    names: tuple[str, ...]
    over: bool
    result: dict[str, Any] | None = None
    log: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reply:
    """The outcome of a console command, in words."""

    message: str


@dataclass(frozen=True)
class ErrorReport:
    """The other end could not use a line we sent."""

    message: str


Message = Hello | PodEvent | ConsoleCommand | FaceUpdate | FrameUpdate | TableUpdate | Reply | ErrorReport


# --- encoding -------------------------------------------------------------------

def encode_line(message: dict[str, Any]) -> bytes:
    """The exact bytes ``Link.send`` puts on the wire for ``message`` (compact UTF-8 JSON, newline)."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8") + b"\n"


def encode_face(seat: int, face: Face) -> dict[str, Any]:
    """A ``face`` message for one seat, built from that seat's face alone."""
    return {"v": VERSION, "type": "face", "seat": seat, "name": face.seat_name,
            "header": face.header, "panel": list(face.panel), "ask": face.ask,
            "choice": face.choice, "position": face.position, "back": face.can_go_back,
            "notice": face.notice}


def needs_frame(face: Face) -> bool:
    """Whether a face has text a pod's ASCII font cannot draw (Chinese...): it goes as a frame."""
    texts = (face.seat_name, face.header, *face.panel, face.ask, face.choice, face.position, face.notice)
    return not all(text.isascii() for text in texts)


def encode_frame(seat: int, image: Any) -> dict[str, Any]:
    """A ``frame`` message: one seat's screen image (mode "1"), drawn on the Pi from that seat's face alone."""
    width, height = image.size
    bits = image.convert("1").tobytes()
    return {"v": VERSION, "type": "frame", "seat": seat, "width": width, "height": height,
            "bits": base64.b64encode(bits).decode("ascii")}


def encode_error(message: str) -> dict[str, Any]:
    """An ``error`` message answering a line that could not be used."""
    text = str(message)
    if len(text) > MAX_ERROR:
        text = text[:MAX_ERROR - 3] + "..."
    return {"v": VERSION, "type": "error", "message": text}


def encode_hello(peer: str, frames: bool = False) -> dict[str, Any]:
    """A ``hello`` message: ``peer`` is ``"name/version"``; ``frames``: this pod draws frames."""
    message = {"v": VERSION, "type": "hello", "pod": peer}
    if frames:
        message["frames"] = True
    return message


def encode_button(button: str, gesture: str) -> dict[str, Any]:
    """A ``button`` message from a pod."""
    return {"v": VERSION, "type": "button", "button": button, "gesture": gesture}


def encode_command(name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """A ``command`` message from the host console."""
    return {"v": VERSION, "type": "command", "name": name, "args": dict(args or {})}


def encode_reply(message: str) -> dict[str, Any]:
    """A ``reply`` message telling the console how its command went."""
    return {"v": VERSION, "type": "reply", "message": str(message)}


def encode_table(public: dict[str, Any], line: str, steps: Sequence[str], names: Sequence[str],
                 result: dict[str, Any] | None = None, log: Sequence[str] = ()) -> dict[str, Any]:
    """A ``table`` message: public view, table prompt, seat names, result once over, public log.

    The public view's events go without the physical steps they carry as
    data: `steps` says them in words, and a line stays short.

    Args:
        public: ``match.public_view()``; never a seat's view.
        line: The table prompt's line.
        steps: The physical steps to make on the board.
        names: The seat names.
        result: ``Result.to_data()`` once the game is over, else None.
        log: Recent public events in words, oldest first.
    """
    return {"v": VERSION, "type": "table", "public": without_moves(public),
            "prompt": {"line": line, "steps": list(steps)}, "names": list(names),
            "over": result is not None, "result": result, "log": list(log)}


def without_moves(public: dict[str, Any]) -> dict[str, Any]:
    """The public view with its lists of events stripped of their ``moves`` (the prompt's steps say them)."""
    return {key: bare(value) if isinstance(value, list) else value for key, value in public.items()}


# --- decoding -------------------------------------------------------------------

def decode(message: Any) -> Message:
    """Check one received message and return its record.

    Args:
        message: A dict as ``Link.receive`` returns it.

    Returns:
        ``Hello``, ``PodEvent``, ``ConsoleCommand``, ``FaceUpdate``,
        ``TableUpdate``, ``Reply`` or ``ErrorReport``. Which of them a
        receiver accepts is its own business.

    Raises:
        ProtocolError: Wrong or missing version, unknown type, or a missing
            or ill-typed field; the message says which.
    """
    if not isinstance(message, dict):
        raise ProtocolError(f"a message is a JSON object, not {_kind(message)}")
    if "v" not in message:
        raise ProtocolError(f"message has no 'v' (protocol version); this side speaks version {VERSION}")
    version = message["v"]
    if version != VERSION or isinstance(version, bool):
        raise ProtocolError(f"protocol version {version!r} is not supported; this side speaks version {VERSION}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("message has no 'type' string" if kind is None
                            else f"'type' must be a string, not {_kind(kind)}")
    if kind not in TYPES:
        raise ProtocolError(f"unknown message type {kind!r}; known: {', '.join(TYPES)}")
    fields = _Fields(kind, message)
    if kind == "hello":
        peer = fields.text("pod")
        if not peer.strip() or len(peer) > _MAX_NAME:
            raise ProtocolError(f"hello message: 'pod' must be 1 to {_MAX_NAME} characters")
        return Hello(peer, fields.get("frames", bool, default=False))
    if kind == "button":
        return PodEvent(fields.choice("button", BUTTONS), fields.choice("gesture", GESTURES))
    if kind == "command":
        name = fields.text("name")
        if not name:
            raise ProtocolError("command message: 'name' must not be empty")
        args = fields.get("args", dict, default={})
        return ConsoleCommand(name, dict(args))
    if kind == "face":
        seat = fields.get("seat", int)
        if seat < 0:
            raise ProtocolError(f"face message: 'seat' must be 0 or more, not {seat}")
        face = Face(seat_name=fields.text("name", default=""), header=fields.text("header"),
                    panel=fields.texts("panel"), ask=fields.text("ask"),
                    choice=fields.text("choice", default=""),
                    position=fields.text("position", default=""),
                    can_go_back=fields.get("back", bool, default=False),
                    notice=fields.text("notice", default=""))
        return FaceUpdate(seat, face)
    if kind == "frame":
        seat = fields.get("seat", int)
        width, height = fields.get("width", int), fields.get("height", int)
        if seat < 0 or not (0 < width <= MAX_FRAME[0] and 0 < height <= MAX_FRAME[1]):
            raise ProtocolError(f"frame message: seat must be 0 or more and the size at most "
                                f"{MAX_FRAME[0]}x{MAX_FRAME[1]}, not seat {seat}, {width}x{height}")
        try:
            bits = base64.b64decode(fields.text("bits"), validate=True)
        except (binascii.Error, ValueError):
            raise ProtocolError("frame message: 'bits' is not base64") from None
        if len(bits) != (width + 7) // 8 * height:
            raise ProtocolError(f"frame message: {width}x{height} needs {(width + 7) // 8 * height} bytes "
                                f"of 'bits', not {len(bits)}")
        return FrameUpdate(seat, width, height, bits)
    if kind == "table":
        prompt = _Fields("table message 'prompt'", fields.get("prompt", dict), label=True)
        result = fields.get("result", dict, default=None, nullable=True)
        return TableUpdate(public=fields.get("public", dict), line=prompt.text("line"),
                           steps=prompt.texts("steps", default=()), names=fields.texts("names"),
                           over=fields.get("over", bool), result=result,
                           log=fields.texts("log", default=()))
    if kind == "reply":
        return Reply(fields.text("message"))
    return ErrorReport(fields.text("message"))


class _Fields:
    """Typed access to a message's fields, failing with the message type and field name."""

    _MISSING = object()

    def __init__(self, kind: str, message: dict[str, Any], label: bool = False) -> None:
        self.where = kind if label else f"{kind} message"
        self.message = message

    def get(self, name: str, kind: type, default: Any = _MISSING, nullable: bool = False) -> Any:
        if name not in self.message:
            if default is self._MISSING:
                raise ProtocolError(f"{self.where}: missing field {name!r}")
            return default
        value = self.message[name]
        if value is None and nullable:
            return None
        # bool is an int in Python but not in the protocol.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ProtocolError(f"{self.where}: {name!r} must be {_KINDS[kind]}, not {_kind(value)}")
        return value

    def text(self, name: str, default: Any = _MISSING) -> str:
        return self.get(name, str, default)

    def texts(self, name: str, default: Any = _MISSING) -> tuple[str, ...]:
        items = self.get(name, list, default)
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise ProtocolError(f"{self.where}: {name}[{index}] must be a string, not {_kind(item)}")
        return tuple(items)

    def choice(self, name: str, choices: Sequence[str]) -> str:
        value = self.text(name)
        if value not in choices:
            raise ProtocolError(f"{self.where}: {name!r} must be one of {', '.join(choices)}, not {value!r}")
        return value


def _kind(value: Any) -> str:
    return _KINDS.get(type(value), type(value).__name__)
