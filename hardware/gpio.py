"""gpiozero, loaded without ``importlib.metadata`` until a pin factory is looked up by name.

gpiozero's modules import ``entry_points`` as they load, to find a pin
factory or a mock pin class named in the environment, and the standard
``importlib.metadata`` brings email, zipfile and csv with it: more than a
bare Python start costs, on every start of the table, for a look-up courtier
never makes (it names its factory itself, ``hardware.pins``). gpiozero asks
first for ``importlib_metadata`` (the backport); while its modules load,
``deferred_metadata`` puts a module of that name in place
(``hardware.stand_in``) whose ``entry_points`` imports the standard one on
its first call and answers as it does.
"""

from __future__ import annotations

import contextlib
from typing import Any

from hardware.stand_in import standing_in

BACKPORT = "importlib_metadata"


def entry_points(**selection: Any) -> Any:
    """``importlib.metadata.entry_points``, imported on the first call."""
    from importlib.metadata import entry_points as standard

    return standard(**selection)


def deferred_metadata() -> contextlib.AbstractContextManager[None]:
    """While gpiozero's modules are imported, their ``entry_points`` imports ``importlib.metadata`` only when called.

    Nothing changes when the standard module or the backport is loaded already.
    """
    return standing_in(BACKPORT, "importlib.metadata's entry_points, imported when first called",
                       already=("importlib.metadata",), entry_points=entry_points)
