"""The table's public channel: what the whole table may know, for every device that shows it.

`PublicTable` keeps the public story of the match (events in words) and a
`Snapshot` of the public side of the table, built on the runtime's thread
after each change; the host console, the emulator's table log, the public
screen and the LAN page all read that one snapshot, so none of them can show
more than the others, and none reads the match from another thread.

`PublicDisplay` draws the snapshots on the table file's ``[public_screen]``
with a `Layout` made for that screen's size and mode.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Layout", "PublicDisplay", "PublicTable", "Snapshot"]

# Each name from its module, loaded at first use: a table without a public screen never loads
# the screen's drawing (display, layout), which would only lengthen its start.
_HOMES = {"Layout": ".layout", "PublicDisplay": ".display", "PublicTable": ".snapshot", "Snapshot": ".snapshot"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value
