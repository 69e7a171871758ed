"""gpiozero, loaded without the modules it imports for features courtier never uses.

gpiozero's package imports all its modules as it loads, and they import, for
features a table never touches, modules that cost more on every start of the
table than a bare Python start does:

- ``importlib.metadata`` (with email, zipfile and csv), whose
  ``entry_points`` finds a pin factory or a mock pin class named in the
  environment: a look-up courtier never makes (it names its factory itself,
  ``hardware.pins``). gpiozero asks first for the backport,
  ``importlib_metadata``.
- ``statistics`` (with fractions, decimal and numbers), for the running
  ``median`` and ``mean`` of its smoothed sensors (distance, light, analogue
  inputs).
- ``colorzero``, the ``Color`` of its RGB LEDs.
- ``importlib.resources`` (with tempfile), which finds the fonts of its
  seven-segment displays. gpiozero asks first for the backport,
  ``importlib_resources``.

While gpiozero's modules load, ``deferred_imports`` puts a module of each
of these names in place (``hardware.stand_in``) holding only what gpiozero
takes from it, each of which imports the real module when first used and
answers as it does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from hardware.stand_in import standing_in


def entry_points(**selection: Any) -> Any:
    """``importlib.metadata.entry_points``, imported on the first call."""
    from importlib.metadata import entry_points as standard

    return standard(**selection)


def median(data: Any) -> Any:
    """``statistics.median``, imported on the first call."""
    from statistics import median as standard

    return standard(data)


def mean(data: Any) -> Any:
    """``statistics.mean``, imported on the first call."""
    from statistics import mean as standard

    return standard(data)


class Color:
    """``colorzero.Color``: making one imports colorzero and makes the real one."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        from colorzero import Color as standard

        return standard(*args, **kwargs)


def files(anchor: Any = None) -> Any:
    """``importlib.resources.files``, imported on the first call."""
    from importlib.resources import files as standard

    return standard(anchor)


@contextlib.contextmanager
def deferred_imports() -> Iterator[None]:
    """While gpiozero's modules are imported, the modules above are imported only when first used.

    Nothing changes for a module that is loaded already (or whose standard
    version is, for a backport).
    """
    with standing_in("importlib_metadata", "importlib.metadata's entry_points, imported when first called",
                     already=("importlib.metadata",), entry_points=entry_points), \
            standing_in("statistics", "statistics' median and mean, imported when first called",
                        median=median, mean=mean), \
            standing_in("colorzero", "colorzero's Color, imported when one is made", Color=Color), \
            standing_in("importlib_resources", "importlib.resources' files, imported when first called",
                        already=("importlib.resources",), files=files):
        yield
