"""Exit statuses of the `courtier` command that mean something to whoever started it.

systemd restarts the service after any failure except the statuses its unit
lists in ``RestartPreventExitStatus=``: those are the start-up errors that
no restart can mend, so the unit fails at once with the message in its log
instead of failing ten times in a row.
"""

CONFIG = 78
"""EX_CONFIG from sysexits.h: the table file, the state directory or the machine
itself is not what courtier needs (a bad table file, an unusable state
directory, an unreadable journal, a machine that is not a Raspberry Pi). The
message says what to change; restarting will not help."""
