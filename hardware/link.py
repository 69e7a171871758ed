"""A serial link carrying one JSON object per line.

Serial seats (a microcontroller pod on USB or UART) and the host console
speak this framing over pyserial. The port is opened with
``serial.serial_for_url``, so a device path, ``loop://`` (tests),
``socket://`` or ``spy://`` all work. Reads never block (``timeout=0``): the
firmware polls ``receive()`` from its loop.

Bad input never reaches the caller: an oversized line, invalid UTF-8, invalid
JSON (nesting too deep for the parser included) or JSON that is not an object
is dropped and recorded as a ``ProtocolError``; the good lines around it still
arrive. A port that vanishes (a pod unplugged) makes ``send`` and
``receive`` quietly report nothing and ``connected`` go False until
``reopen()`` succeeds; the game goes on meanwhile.

One thread should use a link at a time.
"""

from __future__ import annotations

import json
import logging
import queue
from collections.abc import Callable
from typing import Any

import serial

from hardware.errors import LinkError, ProtocolError

_log = logging.getLogger(__name__)

# Errors kept when no on_error callback is given; a port spewing garbage must
# not grow memory without bound.
_MAX_ERRORS = 100

_JSON_TYPES = {list: "an array", str: "a string", int: "a number", float: "a number",
               bool: "a boolean", type(None): "null"}


def _reject_constant(name: str) -> None:
    # Python's json accepts NaN and Infinity, which are not JSON.
    raise ValueError(f"{name} is not valid JSON")


class Link:
    """One JSON object per line over a pyserial port.

    Example::

        link = Link("/dev/ttyACM0", baudrate=115200, name="seat 5")
        link.send({"v": 1, "view": {...}})
        for message in link.receive():
            ...

    Args:
        url: A device path or pyserial URL.
        baudrate: Line speed.
        write_timeout: Seconds a write may block before it is given up.
            pyserial's ``loop://`` also fails any write that would take
            longer than this at ``baudrate``, so keep it above the time of
            one ``max_line`` line.
        max_line: Longest line accepted or sent, in bytes, newline excluded.
        on_error: Called with each ``ProtocolError``; if None, errors are
            kept in ``errors`` (the last 100).
        name: Says which link this is in messages; defaults to the URL.

    Raises:
        LinkError: pyserial refuses the URL or a setting (a configuration
            mistake, unlike a port that is merely absent).
    """

    def __init__(self, url: str, *, baudrate: int = 115200, write_timeout: float = 1.0,
                 max_line: int = 4096, on_error: Callable[[ProtocolError], Any] | None = None,
                 name: str | None = None) -> None:
        self.url = url
        self.baudrate = baudrate
        self.write_timeout = write_timeout
        self.max_line = max_line
        self.on_error = on_error
        self.name = name or url
        self.errors: list[ProtocolError] = []
        self.port: Any = None
        self._buffer = bytearray()
        self._discarding = False     # inside an oversized line, until its newline
        self._torn = False           # a timed-out write may have left half a line
        self._lines = 0
        self._open()

    @property
    def connected(self) -> bool:
        """True while the port is open."""
        return self.port is not None

    def send(self, message: dict[str, Any]) -> bool:
        """Write one message as a compact JSON line.

        Args:
            message: A JSON-serialisable dict.

        Returns:
            True if written; False if the port is gone or the write timed out.

        Raises:
            TypeError: ``message`` is not a dict, or holds a value JSON lacks.
            ValueError: ``message`` holds NaN or infinity.
            ProtocolError: The line would exceed ``max_line``.
        """
        if not isinstance(message, dict):
            raise TypeError(f"{self.name}: a message is a dict, not {type(message).__name__}")
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        line = text.encode("utf-8")
        if len(line) > self.max_line:
            raise ProtocolError(f"{self.name}: message of {len(line)} bytes is longer "
                                f"than the {self.max_line}-byte line limit")
        if self.port is None:
            return False
        # After a torn write, a newline first ends the fragment, so the peer
        # drops one bad line instead of merging it with this one.
        payload = (b"\n" if self._torn else b"") + line + b"\n"
        try:
            self.port.write(payload)
        except (serial.SerialTimeoutException, queue.Full):
            # loop:// raises queue.Full, not a timeout, when its buffer stays full.
            _log.warning("%s: write timed out; message dropped", self.name)
            self._torn = True
            return False
        except OSError as exc:   # SerialException is an OSError
            self._lost(exc)
            return False
        self._torn = False
        return True

    def receive(self) -> list[dict[str, Any]]:
        """Return the complete, valid messages that have arrived.

        A partial line stays buffered until its newline comes. Blank lines
        are ignored; bad lines are dropped and recorded.

        Returns:
            The messages, oldest first; [] if none or the port is gone.
        """
        if self.port is None:
            return []
        try:
            # Read at least one byte even when nothing is waiting: pyserial
            # notices a hung-up port only when a read finds it "ready" but empty.
            chunk = self.port.read(max(self.port.in_waiting, 1))
        except OSError as exc:
            self._lost(exc)
            return []
        self._buffer += chunk
        messages = []
        while (end := self._buffer.find(b"\n")) >= 0:
            raw = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            if self._discarding:
                self._discarding = False   # the tail of a line already reported
                continue
            message = self._decode(raw)
            if message is not None:
                messages.append(message)
        if self._discarding:
            self._buffer.clear()           # still inside the oversized line
        elif len(self._buffer) > self.max_line:
            self._lines += 1
            self._error(f"line {self._lines} is longer than {self.max_line} bytes; dropped")
            self._buffer.clear()
            self._discarding = True
        return messages

    def reopen(self) -> bool:
        """Try to open the port again if it is closed.

        Returns:
            Whether the link is connected now.
        """
        if self.port is None:
            self._open()
        return self.connected

    def close(self) -> None:
        """Close the port; ``reopen()`` may open it again."""
        if self.port is not None:
            try:
                self.port.close()
            except OSError as exc:
                _log.debug("%s: close failed: %s", self.name, exc)
            self.port = None

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _open(self) -> None:
        try:
            self.port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0,
                                              write_timeout=self.write_timeout)
        except OSError as exc:
            _log.warning("%s: cannot open: %s", self.name, exc)
            return
        except ValueError as exc:
            raise LinkError(f"{self.name}: {exc}") from exc
        self._buffer.clear()
        self._discarding = False
        self._torn = False
        _log.info("%s: open", self.name)

    def _lost(self, exc: OSError) -> None:
        _log.warning("%s: port lost: %s", self.name, exc)
        self.close()
        self._buffer.clear()
        self._discarding = False

    def _decode(self, raw: bytes) -> dict[str, Any] | None:
        self._lines += 1
        raw = raw.removesuffix(b"\r")
        if not raw.strip():
            return None
        if len(raw) > self.max_line:
            self._error(f"line {self._lines} is longer than {self.max_line} bytes; dropped")
            return None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self._error(f"line {self._lines} is not UTF-8 (byte {exc.start}); dropped")
            return None
        try:
            message = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            # Deeper than the parser's recursion limit: refused like any other bad line.
            self._error(f"line {self._lines} is nested too deeply; dropped")
            return None
        except ValueError as exc:
            self._error(f"line {self._lines} is not JSON ({exc}); dropped")
            return None
        if not isinstance(message, dict):
            kind = _JSON_TYPES.get(type(message), type(message).__name__)
            self._error(f"line {self._lines} is {kind}, not a JSON object; dropped")
            return None
        return message

    def _error(self, detail: str) -> None:
        error = ProtocolError(f"{self.name}: {detail}")
        _log.warning("%s", error)
        if self.on_error is not None:
            self.on_error(error)
            return
        self.errors.append(error)
        del self.errors[:-_MAX_ERRORS]
