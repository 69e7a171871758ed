"""The journal: every accepted action, one JSON line each, synced to the disk before the table moves on.

Line 1 is the header (game, players, seed, options, names); each further line
is one action, or an undo that takes the last action back (undo is replay
minus the tail, and is itself journalled), or a seat's choice of language
(kept with the game, no part of its replay). Start-up resumes an unfinished game from it.

What can go wrong, and what the journal does about it:

- A power cut mid-write leaves a torn last line: it is skipped with a warning
  and cut off when the game resumes, never fatal. A complete last line whose
  newline was lost gets its newline (fsynced) before anything is appended.
- A write the disk refuses (full, over a file-size limit, an I/O error) leaves
  no trace: the file is cut back to its last saved record before the error is
  raised, and a cut that failed is made again before the next write. Writes
  go straight to the file descriptor, so nothing refused waits in a buffer to
  be written later.
- Zeros are laid ahead of the records (`lay_ahead`, `AHEAD` bytes at a
  time, synced with the file's new length, once an action's screens are
  drawn), so saving a record overwrites blocks the file already has and
  `fdatasync` writes that data alone: appending to the end would change the
  file's length with every action, and each sync would then also commit the
  file system's journal (on an SD card, more writes and a longer wait for
  every press). A card full before the zeros are laid gets each record
  appended and synced with its new length, as without them; one that fills
  up later still saves into the zeros laid. Nothing after the first zero
  byte was ever saved (JSON text has none), so a reader stops there; a
  closed journal is cut to its records.
- A journal wrong elsewhere raises `BadJournal` naming the line; the caller
  keeps it aside, never overwrites it. A journal that cannot be *read* (no
  permission, an I/O error) raises `Unreadable` instead: the file may be
  perfectly good, so it must be left where it is.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import BadJournal
from engine.i18n import N_, _
from engine.match import Header

_log = logging.getLogger(__name__)
KIND = "courtier-journal"

# What json raises on a line it refuses: bad text, or nesting deeper than its recursion limit.
_REFUSED = (UnicodeDecodeError, ValueError, RecursionError)


class Unreadable(Exception):
    """A journal that could not be read for a reason outside its content (permission, I/O error).

    The file may be intact, so it is left where it is. `errno` says why.
    """

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno


@dataclass(eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Loaded:
    header: Header
    actions: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    good_bytes: int = 0  # length of the file up to the end of its last whole record
    newline_missing: bool = False  # the last record is whole but its newline was lost
    languages: dict[int, str] = field(default_factory=dict)  # each seat's own language, by seat (absent: the table's)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


AHEAD = 1 << 16  # bytes of zeros laid ahead of the records at a time
ROOM = 1 << 12  # zeros left ahead of the records below which more are laid


def _encode(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class Journal:
    """An open journal file, its records saved and synced one at a time.

    `size` is the length of the file up to its last saved record; zeros may
    follow (see the module's docstring). A write that fails is cut back to
    it, so the file never holds a record the table did not accept.
    """

    def __init__(self, path: Path, fd: int, count: int, size: int):
        self.path = path
        self._fd = fd
        self.count = count
        self.size = size
        self._laid = size  # the file's length: records, then the zeros laid ahead of them
        self._uncut = False  # a refused record could not be cut off: cut before the next write

    @classmethod
    def create(cls, path: Path, header: Header) -> "Journal":
        """Start a new journal (the file must not exist: a saved game is never overwritten).

        If the header cannot be written, the file is removed again and the error raised.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        journal = cls(path, fd, 0, 0)
        try:
            journal._write({"type": "header", "kind": KIND, **header.to_data()})
            _fsync_dir(path)
        except OSError:
            journal.close()
            path.unlink(missing_ok=True)
            raise
        return journal

    @classmethod
    def resume(cls, path: Path, loaded: "Loaded") -> "Journal":
        """Open a journal read by `load` for appending.

        A torn last line, and the zeros after it, are cut off first; a whole
        last record without its newline gets it, so the next record starts
        on a line of its own.
        """
        fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.ftruncate(fd, loaded.good_bytes)
            size = loaded.good_bytes
            if loaded.newline_missing:
                os.pwrite(fd, b"\n", size)
                size += 1
            os.fsync(fd)
        except OSError:
            os.close(fd)
            raise
        return cls(path, fd, len(loaded.actions), size)

    def append(self, action: dict[str, Any]) -> None:
        """Save one accepted action; on OSError nothing of it is left in the file."""
        self._write({"type": "action", "n": self.count + 1, "action": action})
        self.count += 1

    def append_undo(self) -> None:
        """Record that the last action was taken back; on OSError nothing of it is left in the file."""
        if self.count == 0:
            raise ValueError("nothing to undo")
        self._write({"type": "undo", "undoes": self.count})
        self.count -= 1

    def append_language(self, seat: int, lang: str | None) -> None:
        """Record that seat `seat` reads `lang` from now on, None the table's language (written as
        null); no action: the game replays the same."""
        self._write({"type": "language", "seat": seat, "lang": lang})

    def _write(self, record: dict[str, Any]) -> None:
        data = _encode(record)
        end = self.size + len(data)
        try:
            if self._uncut:
                # An earlier refused write could not be cut back then: cut it now.
                self._cut(self.size)
            done = 0
            while done < len(data):
                done += os.pwrite(self._fd, data[done:], self.size + done)
            if end <= self._laid:
                os.fdatasync(self._fd)  # over zeros laid already: the file's length did not change
            else:
                os.fsync(self._fd)  # past them (none could be laid yet): the new length is synced too
                self._laid = end
        except OSError:
            self._cut_back()
            raise
        self.size = end

    def lay_ahead(self) -> bool:
        """Lay zeros past the records, `AHEAD` bytes' worth, unless `ROOM` bytes of them are left; False if the card refused.

        Called once an action's screens are drawn, so the press never waits
        for it. A card without room for them saves each record as it comes,
        growing the file, until this succeeds again.
        """
        if self._fd < 0 or self._uncut or self._laid - self.size >= ROOM:
            return True
        laid = ((self.size + ROOM) // AHEAD + 1) * AHEAD  # a multiple of AHEAD with ROOM to spare
        try:
            zeros = bytes(laid - self._laid)
            done = 0
            while done < len(zeros):
                done += os.pwrite(self._fd, zeros[done:], self._laid + done)
            os.fsync(self._fd)
        except OSError as err:
            _log.info("%s: no zeros laid ahead (%s): records grow the file", self.path, err)
            try:
                os.ftruncate(self._fd, self._laid)  # what was laid before it ran out
            except OSError:
                self._uncut = True  # the next write cuts first
            return False
        self._laid = laid
        return True

    def _cut(self, length: int) -> None:
        os.ftruncate(self._fd, length)
        self._laid = length
        os.fsync(self._fd)
        self._uncut = False

    def _cut_back(self) -> None:
        """Remove whatever part of a refused record reached the file (and the zeros laid ahead)."""
        self._uncut = True
        try:
            self._cut(self.size)
        except OSError as err:
            # The next write cuts again before writing.
            _log.error("%s: could not cut a refused record back off: %s", self.path, err)

    def close(self) -> None:
        """Cut the zeros laid ahead off (a closed journal is its records alone) and close the file."""
        if self._fd >= 0:
            try:
                if self._laid != self.size or self._uncut:
                    self._cut(self.size)
            except OSError as err:
                # Zeros left after the records are read as the file's end: nothing is lost.
                _log.warning("%s: could not cut the file to its records: %s", self.path, err)
            os.close(self._fd)
            self._fd = -1


def records_of(data: bytes) -> bytes:
    """A journal file's bytes up to the zeros laid ahead of its records (nothing after the first zero was saved)."""
    laid = data.find(b"\0")
    return data if laid < 0 else data[:laid]


def load(path: Path) -> Loaded:
    """Read a journal.

    Raises:
        Unreadable: The file could not be read (permission, I/O error); it may be intact.
        BadJournal: The file was read and cannot be used; the message names the line.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise Unreadable(_("{path}: cannot read: {reason}").format(path=path, reason=err.strerror or err),
                         err.errno) from err
    data = records_of(data)
    lines = data.split(b"\n")
    # A file that ends without a newline has a last line that may be torn.
    complete, tail = lines[:-1], lines[-1]
    warnings: list[str] = []
    good = len(data) - len(tail)
    newline_missing = False
    if tail.strip():
        try:
            json.loads(tail.decode("utf-8"))
        except _REFUSED:
            warnings.append(_("{path}: line {number} was cut off (power lost while saving?) and is skipped").format(
                path=path, number=len(complete) + 1))
            _log.warning(warnings[-1])
        else:
            complete.append(tail)
            good = len(data)
            newline_missing = True
    if not complete or not complete[0].strip():
        raise BadJournal(N_("{path}: empty, no header line"), path=str(path))
    records = []
    for number, raw in enumerate(complete, 1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw.decode("utf-8"))
        except RecursionError:
            raise BadJournal(N_("{path}: line {number} is nested too deeply to be a journal record"), path=str(path),
                             number=number) from None
        except (UnicodeDecodeError, ValueError) as err:
            raise BadJournal(N_("{path}: line {number} is not valid JSON ({error})"), path=str(path), number=number,
                             error=str(err)) from err
        if not isinstance(record, dict):
            raise BadJournal(N_("{path}: line {number} is not a JSON object"), path=str(path), number=number)
        records.append((number, record))
    number, first = records[0]
    if first.get("type") != "header" or first.get("kind") != KIND:
        raise BadJournal(N_("{path}: line {number} is not a courtier journal header"), path=str(path), number=number)
    header = Header.from_data(first)
    actions = []
    languages: dict[int, str] = {}
    for number, record in records[1:]:
        if record.get("type") == "language":
            seat, lang = record.get("seat"), record.get("lang")
            if type(seat) is int and 0 <= seat < header.players and isinstance(lang, str) and lang:
                languages[seat] = lang
            elif type(seat) is int and 0 <= seat < header.players and "lang" in record and lang is None:
                languages.pop(seat, None)  # back to the table's language
            else:  # a seat's language is no part of the game: a bad record costs only itself
                warnings.append(_("{path}: line {number} is not a seat's language and is skipped").format(
                    path=path, number=number))
                _log.warning(warnings[-1])
            continue
        if record.get("type") == "undo":
            if not _is_count(record.get("undoes"), len(actions)) or not actions:
                raise BadJournal(N_("{path}: line {number} undoes action {undoes}, but the last action is {last}"),
                                 path=str(path), number=number, undoes=str(record.get("undoes")), last=len(actions))
            actions.pop()
            continue
        if record.get("type") != "action" or not isinstance(record.get("action"), dict):
            raise BadJournal(N_("{path}: line {number} is not an action record"), path=str(path), number=number)
        if not _is_count(record.get("n"), len(actions) + 1):
            raise BadJournal(N_("{path}: line {number} is action {n}, expected {expected}"), path=str(path),
                             number=number, n=str(record.get("n")), expected=len(actions) + 1)
        actions.append(record["action"])
    return Loaded(header, actions, warnings, good, newline_missing, languages)


def _is_count(value: Any, expected: int) -> bool:
    """Whether a record's number is that integer (JSON `true` equals 1 in Python, but is no count)."""
    return type(value) is int and value == expected


def keep_aside(path: Path) -> Path:
    """Rename an unusable journal to a new name beside it (never overwriting) and return it."""
    for n in range(1, 10_000):
        target = path.with_name(f"{path.stem}.unreadable-{n}{path.suffix}")
        if not target.exists():
            os.replace(path, target)
            _fsync_dir(target)
            return target
    raise OSError(f"no free name to keep {path} aside")
