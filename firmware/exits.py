"""Exit statuses of the `courtier` command that mean something to whoever started it, and the errors that choose them.

systemd restarts the service after any failure except the statuses its unit
lists in ``RestartPreventExitStatus=``: those are the start-up errors that
no restart can mend, so the unit fails at once with the message in its log
instead of failing ten times in a row.
"""

from __future__ import annotations

CONFIG = 78
"""EX_CONFIG from sysexits.h: the table file, the state directory or the machine
itself is not what courtier needs (a bad table file, an unusable state
directory, an unreadable journal, a machine that is not a Raspberry Pi). The
message says what to change; restarting will not help."""

TEMPFAIL = 75
"""EX_TEMPFAIL from sysexits.h: another courtier runs the table on this state
directory; starting again once it has stopped will work."""


class StartupError(Exception):
    """A start-up problem a restart cannot cure: one line saying what is wrong and what to do."""

    status = CONFIG


class TableBusy(Exception):
    """Another process runs a table on this state directory (the message names it)."""

    status = TEMPFAIL
