"""Python's cyclic garbage collected while the table waits, not in the middle of a press.

CPython collects its youngest objects whenever some 700 more containers were
made than freed since the last time; a press makes dozens, so about one
press in fifteen paid for a collection before its screen was drawn (0.3 to
1.5 ms on a desktop core, fifteen times that on a Pi Zero 2 W). The runtime
instead calls `while_idle` whenever its queue of events is empty, and
collects there what CPython would have collected; CPython's own collection
stays on, at a threshold a table does not reach between two idle moments,
so a process that never idles still collects.

While the program starts, nothing is collected at all (`hold`): it makes
tens of thousands of objects that live on (modules, classes, the game's
data), so a collection there finds next to nothing, yet took some 3 % of
the instructions a table's start runs up to READY. The runtime's
`take_over` ends the hold; a command without a table ends it as it begins.
What the start made is then frozen (`gc.freeze`): no later collection
walks it again, and the objects made while the collector was held do not
all fall due at once in the first press.
"""

from __future__ import annotations

import gc

YOUNG = 700  # new containers that make a collection due at the next idle moment (CPython's own threshold)
BACKSTOP = 20_000  # CPython's own threshold while a runtime collects when idle

_held = False  # whether `hold` turned CPython's collection off


def hold() -> None:
    """Collect nothing until `release` (or a runtime's `take_over`): the program is loading."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release() -> None:
    """Freeze what the start made and collect again as before `hold`; no change when nothing held the collector."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()


def take_over() -> None:
    """Leave the collections to `while_idle`, with CPython's own as a backstop (and end the start's `hold`)."""
    release()
    young, middle, old = gc.get_threshold()
    if 0 < young < BACKSTOP:
        gc.set_threshold(BACKSTOP, middle, old)


def while_idle() -> None:
    """Collect the generations that are due, as CPython would have, now that nothing waits."""
    young, middle, old = gc.get_count()
    if young < YOUNG or not gc.isenabled():
        return
    _, middle_due, old_due = gc.get_threshold()
    gc.collect(2 if old >= old_due else 1 if middle >= middle_due else 0)
