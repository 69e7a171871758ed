"""One table per state directory: an exclusive lock held while a table runs.

Two `courtier play` on one directory (the service, and someone starting it
by hand) would both resume the game and both append to its journal. The
first takes an exclusive `flock` on `table.lock` in the state directory and
keeps it until it exits; the kernel drops it when the process dies, however
it dies, so a stale lock never blocks a restart. The file says who holds it
(pid and command line), so the second process can name the first.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sys
from pathlib import Path

from engine.i18n import _

from ..exits import TableBusy

LOCK = "table.lock"


class TableLock:
    """The lock of one state directory, held from `acquire` until `release` (or the process ends)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd = fd

    @classmethod
    def acquire(cls, directory: Path) -> "TableLock":
        """Take the lock, or raise `TableBusy` naming the process that holds it.

        Raises:
            TableBusy: Another process holds it.
            OSError: The lock file cannot be opened (the directory is not writable).
        """
        path = directory / LOCK
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                raise
            raise TableBusy(_("another courtier is running the table in {directory} ({holder}); stop it "
                              "first (the service: sudo systemctl stop courtier)").format(
                                  directory=directory, holder=holder(path))) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {' '.join(sys.argv)}\n".encode("utf-8", "replace"), 0)
        return cls(path, fd)

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the only descriptor drops the flock
            self._fd = -1

    def __enter__(self) -> "TableLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder(path: Path) -> str:
    """Who holds the lock, as its file says ("pid 1234: courtier play"), or why that is unknown."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError as err:
        return _("its lock file cannot be read: {reason}").format(reason=err.strerror)
    pid, _sep, command = text.partition(" ")
    if not pid.isdigit():
        return _("a process that has not yet said who it is")
    return f"pid {pid}: {command}" if command else f"pid {pid}"
