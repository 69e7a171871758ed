"""The journal: every accepted action, one JSON line each, fsynced before the table moves on.

Line 1 is the header (game, players, seed, options, names); each further line
is one action, or an undo that takes the last action back (undo is replay
minus the tail, and is itself journalled). Start-up resumes an unfinished game from it. A torn last line
(a power cut mid-write) is skipped with a warning and cut off, never fatal; a
journal that is wrong elsewhere raises `BadJournal` naming the line, and is
never overwritten.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import BadJournal
from engine.match import Header

_log = logging.getLogger(__name__)
KIND = "courtier-journal"


@dataclass
class Loaded:
    header: Header
    actions: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    good_bytes: int = 0  # length of the file up to its last whole line


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Journal:
    """An open journal file, appended to and fsynced one action at a time."""

    def __init__(self, path: Path, handle: Any, count: int):
        self.path = path
        self._file = handle
        self.count = count

    @classmethod
    def create(cls, path: Path, header: Header) -> "Journal":
        """Start a new journal (the file must not exist: a saved game is never overwritten)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "x", encoding="utf-8")
        journal = cls(path, handle, 0)
        journal._write({"type": "header", "kind": KIND, **header.to_data()})
        _fsync_dir(path)
        return journal

    @classmethod
    def resume(cls, path: Path, loaded: "Loaded") -> "Journal":
        """Open a journal read by `load` for appending; a torn last line is cut off first.

        A last line that was written whole but lost its newline to a power cut
        gets it back, so the next action starts a line of its own.
        """
        with open(path, "r+b") as raw:
            raw.truncate(loaded.good_bytes)
            if loaded.good_bytes:
                raw.seek(loaded.good_bytes - 1)
                if raw.read(1) != b"\n":
                    raw.write(b"\n")
            raw.flush()
            os.fsync(raw.fileno())
        handle = open(path, "a", encoding="utf-8")
        return cls(path, handle, len(loaded.actions))

    def append(self, action: dict[str, Any]) -> None:
        self._write({"type": "action", "n": self.count + 1, "action": action})
        self.count += 1

    def append_undo(self) -> None:
        """Record that the last action was taken back."""
        if self.count == 0:
            raise ValueError("nothing to undo")
        self._write({"type": "undo", "undoes": self.count})
        self.count -= 1

    def _write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def load(path: Path) -> Loaded:
    """Read a journal; raise BadJournal naming the file and line when it cannot be used."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise BadJournal(f"{path}: cannot read: {err.strerror or err}") from err
    lines = data.split(b"\n")
    # A file that ends without a newline has a last line that may be torn.
    complete, tail = lines[:-1], lines[-1]
    warnings: list[str] = []
    good = len(data) - len(tail)
    if tail.strip():
        try:
            json.loads(tail.decode("utf-8"))
            complete.append(tail)
            good = len(data)
        except (UnicodeDecodeError, ValueError):
            warnings.append(f"{path}: line {len(complete) + 1} was cut off (power lost while saving?) and is skipped")
            _log.warning(warnings[-1])
    if not complete or not complete[0].strip():
        raise BadJournal(f"{path}: empty, no header line")
    records = []
    for number, raw in enumerate(complete, 1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as err:
            raise BadJournal(f"{path}: line {number} is not valid JSON ({err})") from err
        if not isinstance(record, dict):
            raise BadJournal(f"{path}: line {number} is not a JSON object")
        records.append((number, record))
    number, first = records[0]
    if first.get("type") != "header" or first.get("kind") != KIND:
        raise BadJournal(f"{path}: line {number} is not a courtier journal header")
    header = Header.from_data(first)
    actions = []
    for number, record in records[1:]:
        if record.get("type") == "undo":
            if type(record.get("undoes")) is not int or record["undoes"] != len(actions) or not actions:
                raise BadJournal(f"{path}: line {number} undoes action {record.get('undoes')}, "
                                 f"but the last action is {len(actions)}")
            actions.pop()
            continue
        if record.get("type") != "action" or not isinstance(record.get("action"), dict):
            raise BadJournal(f"{path}: line {number} is not an action record")
        if type(record.get("n")) is not int or record["n"] != len(actions) + 1:  # true is not 1
            raise BadJournal(f"{path}: line {number} is action {record.get('n')}, expected {len(actions) + 1}")
        actions.append(record["action"])
    return Loaded(header, actions, warnings, good)


def keep_aside(path: Path) -> Path:
    """Rename an unusable journal to a new name beside it (never overwriting) and return it."""
    for n in range(1, 10_000):
        target = path.with_name(f"{path.stem}.unreadable-{n}{path.suffix}")
        if not target.exists():
            os.replace(path, target)
            _fsync_dir(target)
            return target
    raise OSError(f"no free name to keep {path} aside")
