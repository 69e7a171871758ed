"""Where courtier keeps its saved games.

Under systemd, `StateDirectory=courtier` sets `$STATE_DIRECTORY`
(/var/lib/courtier); `$COURTIER_STATE_DIR` overrides; elsewhere the XDG state
directory of the user.
"""

from __future__ import annotations

import os
from pathlib import Path

CURRENT = "current.jsonl"
NEXT = "current.next.jsonl"  # a new game's journal, until the old game is moved under games/


def state_dir() -> Path:
    for var in ("COURTIER_STATE_DIR", "STATE_DIRECTORY"):
        value = os.environ.get(var)
        if value:
            return Path(value.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "courtier"


def archive_name(directory: Path, stem: str) -> Path:
    """A new file name under `games/` that does not exist yet."""
    folder = directory / "games"
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, 100_000):
        path = folder / f"{stem}-{n:03d}.jsonl"
        if not path.exists():
            return path
    raise OSError(f"no free name under {folder}")
