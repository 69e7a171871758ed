"""The table's public channel: what the whole table may know, for every device that shows it.

`PublicTable` keeps the public story of the match (events in words) and a
`Snapshot` of the public side of the table, built on the runtime's thread
after each change; the host console, the emulator's table log, the public
screen and the LAN page all read that one snapshot, so none of them can show
more than the others, and none reads the match from another thread.

`PublicDisplay` draws the snapshots on the table file's ``[public_screen]``
with a `Layout` made for that screen's size and mode.
"""

from .display import PublicDisplay
from .layout import Layout
from .snapshot import PublicTable, Snapshot

__all__ = ["Layout", "PublicDisplay", "PublicTable", "Snapshot"]
