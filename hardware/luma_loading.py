"""luma, loaded without ``multiprocessing`` until something makes a process.

``luma.core.interface.serial``, which every luma device module imports,
defines for its PCA9633 backlight driver a fade class whose body imports
``multiprocessing.Process``: multiprocessing, pickle and their modules on
every start of the table (some 3 % of the instructions a start runs up to
READY), for a backlight courtier never drives. While luma's modules load,
``deferred_multiprocessing`` puts a module of that name in place
(``hardware.stand_in``) whose ``Process`` imports the real one when the
first process is made.
"""

from __future__ import annotations

import contextlib
from typing import Any

from hardware.stand_in import standing_in


class Process:
    """``multiprocessing.Process``: making one imports multiprocessing and makes the real one."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        from multiprocessing import Process as real

        return real(*args, **kwargs)


def deferred_multiprocessing() -> contextlib.AbstractContextManager[None]:
    """While luma's modules are imported, their ``multiprocessing.Process`` imports the real module when called."""
    return standing_in("multiprocessing", "multiprocessing's Process, imported when one is made", Process=Process)
