"""gpiozero, loaded without ``importlib.metadata`` until a pin factory is looked up by name.

gpiozero's modules import ``entry_points`` as they load, to find a pin
factory or a mock pin class named in the environment, and the standard
``importlib.metadata`` brings email, zipfile and csv with it: more than a
bare Python start costs, on every start of the table, for a look-up courtier
never makes (it names its factory itself, ``hardware.pins``). gpiozero asks
first for ``importlib_metadata`` (the backport); while its modules load,
``deferred_metadata`` puts a module of that name in place whose
``entry_points`` imports the standard one on its first call and answers
as it does. Afterwards the name is gone again, so nothing else sees it.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator
from typing import Any

BACKPORT = "importlib_metadata"


def entry_points(**selection: Any) -> Any:
    """``importlib.metadata.entry_points``, imported on the first call."""
    from importlib.metadata import entry_points as standard

    return standard(**selection)


@contextlib.contextmanager
def deferred_metadata() -> Iterator[None]:
    """While gpiozero's modules are imported, their ``entry_points`` imports ``importlib.metadata`` only when called.

    Nothing changes when the standard module or the backport is loaded already.
    """
    if BACKPORT in sys.modules or "importlib.metadata" in sys.modules:
        yield
        return
    stand_in = types.ModuleType(BACKPORT, "importlib.metadata's entry_points, imported when first called")
    stand_in.entry_points = entry_points  # type: ignore[attr-defined]
    sys.modules[BACKPORT] = stand_in
    try:
        yield
    finally:
        if sys.modules.get(BACKPORT) is stand_in:
            del sys.modules[BACKPORT]
