"""The pin factory of a real Raspberry Pi: gpiozero's lgpio, asked for by name, never guessed.

Left to itself, gpiozero tries lgpio, then RPi.GPIO, pigpio and its native
factory, and quietly falls back when one fails: the table would then run on
a factory that does not work on a Pi 5, and the self-test would blame the
wrong thing. courtier asks for lgpio (the only factory that works on every
Pi) unless ``GPIOZERO_PIN_FACTORY`` names another, so the service and every
command run by hand use the same one, and a failure says what it is.

lgpio makes a notification pipe (``.lgd-nfy0``) in its working directory as
it is imported, which fails in a directory the user cannot write (a
root-owned checkout, a home the service user cannot enter). lgpio reads
that directory from ``LG_WD``: courtier points it at a private temporary
directory, removed at exit. lgpio also changes the process's working
directory to it, so the process's own is put back (where the user may enter it).

gpiozero's own factories are known by name (the entry points its package
declares), so the service starts without reading every installed package's
metadata; another name is looked up among the entry points, as gpiozero does.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from typing import Any

from hardware.errors import HardwareError, NotAPiError, PermanentHardwareError
from hardware.gpio import deferred_imports, entry_points

with deferred_imports():
    from gpiozero.exc import PinUnknownPi

ENV_VAR = "GPIOZERO_PIN_FACTORY"
DEFAULT_FACTORY = "lgpio"
LGPIO_DIR_VAR = "LG_WD"
# gpiozero's entry points in the gpiozero_pin_factories group, as its package declares them.
GPIOZERO_FACTORIES = {
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "mock": "gpiozero.pins.mock:MockFactory",
    "native": "gpiozero.pins.native:NativeFactory",
    "pigpio": "gpiozero.pins.pigpio:PiGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
}


def pi_pin_factory() -> Any:
    """Make the gpiozero pin factory for this Pi: lgpio, or the one ``GPIOZERO_PIN_FACTORY`` names.

    Raises:
        NotAPiError: gpiozero finds no Pi revision (not a Pi, or
            ``/proc/device-tree`` and ``/proc/cpuinfo`` hidden).
        PermanentHardwareError: The factory is unknown or not installed.
        HardwareError: The factory cannot open the GPIO chip (no permission:
            the user is not in the gpio group; no such chip).
    """
    name = os.environ.get(ENV_VAR, "").strip() or DEFAULT_FACTORY
    load = factory_loader(name)
    if load is None:
        raise PermanentHardwareError(f"{ENV_VAR}={name!r}: gpiozero has no pin factory of that name")
    start_lgpio()
    try:
        factory_class = load()
    except ImportError as exc:
        raise PermanentHardwareError(f"gpiozero's {name} pin factory is not installed ({exc}): "
                            "install courtier with its pi extra (sudo make install)") from exc
    try:
        return factory_class()
    except PinUnknownPi as exc:
        raise NotAPiError(
            f"{exc}: this is not a Raspberry Pi, or /proc/device-tree is hidden from courtier "
            "(ProcSubset=pid in its unit?); off a Pi, leave COURTIER_HARDWARE unset to use "
            "the emulated table") from exc
    except Exception as exc:  # lgpio.error, OSError, gpiozero's own: all mean no pins
        raise HardwareError(f"gpiozero's {name} pin factory could not start: {exc}") from exc


def factory_loader(name: str) -> Callable[[], Any] | None:
    """What loads the pin factory class called `name` (as given, else in lower case), or None if none is."""
    for key in (name, name.lower()):
        where = GPIOZERO_FACTORIES.get(key)
        if where is not None:
            module, _, attribute = where.partition(":")
            return lambda: getattr(importlib.import_module(module), attribute)
    found = [entry for entry in entry_points(group="gpiozero_pin_factories") if entry.name in (name, name.lower())]
    found.sort(key=lambda entry: entry.name != name)  # the name as given first, as gpiozero looks
    return found[0].load if found else None


def start_lgpio() -> None:
    """Import lgpio (if installed) with its notification pipe in a private directory.

    Done once, before gpiozero or luma's GPIO helpers (rpi-lgpio) import it,
    and keeping the process's working directory.
    """
    if "lgpio" in sys.modules or importlib.util.find_spec("lgpio") is None:
        return
    if not os.environ.get(LGPIO_DIR_VAR):
        import shutil
        import tempfile

        directory = tempfile.mkdtemp(prefix="courtier-lgpio-")
        atexit.register(shutil.rmtree, directory, ignore_errors=True)
        os.environ[LGPIO_DIR_VAR] = directory
    try:
        cwd: str | None = os.getcwd()
    except OSError:
        cwd = None
    try:
        importlib.import_module("lgpio")
    except OSError as exc:
        raise HardwareError(f"lgpio could not make its notification pipe in "
                            f"{os.environ[LGPIO_DIR_VAR]} ({LGPIO_DIR_VAR}): {exc}") from exc
    finally:
        if cwd is not None:
            # A directory this user may not enter (another's home) stays left: no relative
            # path could be opened from it anyway.
            with contextlib.suppress(OSError):
                os.chdir(cwd)
