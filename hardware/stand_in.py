"""A library loaded without a module it imports only for a feature courtier never uses.

Some libraries import, as they load, a module for one rarely used feature:
gpiozero ``importlib.metadata`` (to look up a pin factory by name), luma
``multiprocessing`` (for its PCA9633 backlight's fades). Each costs more on
every start of the table than the whole feature is worth to it.
``standing_in`` puts a module of that name in place while the library
loads, holding only the names the library takes from it, each of which
imports the real module when it is first used. Afterwards the name is gone
again, so nothing else sees the stand-in.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def standing_in(name: str, why: str, already: tuple[str, ...] = (), **names: Any) -> Iterator[None]:
    """While the block runs, ``import name`` finds a module holding only `names`.

    Nothing changes when `name`, or one of the modules `already` names (the
    real one a stand-in would spare), is loaded already.
    """
    if any(loaded in sys.modules for loaded in (name, *already)):
        yield
        return
    stand_in = types.ModuleType(name, why)
    vars(stand_in).update(names)
    sys.modules[name] = stand_in
    try:
        yield
    finally:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
