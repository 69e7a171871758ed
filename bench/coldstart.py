"""Cold start: from starting the process to READY=1 (every face drawn), against a bare ``python -c pass``.

The start measured is the one the Pi has. ``systemd/install.sh`` installs
courtier into a venv with pip (a regular install, not the editable one of
``make``'s .venv: no setuptools finder hook is imported by every start, and
every module's bytecode is compiled as it is installed), and the unit starts
the console script ``courtier`` with ``PYTHONUNBUFFERED=1``. ``installed``
lays out the same: a venv made from the same Python, courtier's packages
copied into its site-packages and compiled, the script pip writes, and the
``.pth`` files a Pi's venv has (setuptools' ``distutils-precedence.pth``);
the libraries courtier needs are reached through one more ``.pth`` line
that names the running environment's site-packages, where a Pi's venv has
them in its own. The bare start is that venv's ``python -c pass``, which
reads the same ``.pth`` files.

``courtier play GAME --table pi-7.toml --ui none`` is started as systemd
starts it (``Type=notify``: ``NOTIFY_SOCKET`` names a datagram socket the
bench listens on), on the mock backend (gpiozero's ``MockFactory`` pins and
luma's ``dummy`` screens: there are no real pins here), in a fresh state
directory (the unit's working directory), so it starts a new game. The time
runs from ``Popen`` to the ``READY=1`` datagram, which the table sends once
its runtime has drawn every seat's face; then the table is stopped with
SIGINT, as Ctrl-C would.

The baseline is the same interpreter running ``-c pass``, started and
reaped in turn with the table (A B A B ...), so a slow moment of this shared
machine falls on both; the figure is the median of the per-pair ratios.
Beside them, in the same turns, the libraries a table loads before READY=1
are imported on their own (``LIBRARIES``): the part of the start no change
of courtier's own code can take away.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import venv
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class ColdStart:
    """Seconds to READY=1, of the libraries alone, and of ``python -c pass``, per run, in the order they ran."""

    ready_s: list[float]
    bare_s: list[float]
    libraries_s: list[float]

    @property
    def ratio(self) -> float:
        """Median of the per-pair ratios."""
        return statistics.median(a / b for a, b in zip(self.ready_s, self.bare_s))

    @property
    def libraries_ratio(self) -> float:
        """Median of the per-pair ratios of the libraries' own start to the bare one."""
        return statistics.median(a / b for a, b in zip(self.libraries_s, self.bare_s))

    @property
    def ready_median_s(self) -> float:
        return statistics.median(self.ready_s)

    @property
    def bare_median_s(self) -> float:
        return statistics.median(self.bare_s)


PACKAGES = ("engine", "hardware", "firmware")  # pyproject.toml's [tool.setuptools.packages.find]

# The script pip writes for pyproject.toml's [project.scripts] entry (pip's own text).
SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from firmware.__main__ import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""


@dataclass(frozen=True)
class Install:
    """A venv holding courtier as ``systemd/install.sh`` leaves it: its Python and its ``courtier`` script."""

    python: Path
    script: Path


def installed(place: Path) -> Install:
    """Install this tree's courtier into a new venv under `place`, as pip would, with no network.

    pip would build a wheel (which needs its build backend from the index)
    and unpack it: here the packages are copied, compiled as pip compiles
    them, and given pip's script. The libraries come from this environment.
    """
    home = place / "venv"
    venv.EnvBuilder(symlinks=True).create(home)
    python = home / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    for package in PACKAGES:
        shutil.copytree(ROOT / package, site / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    libraries = Path(sysconfig.get_paths()["purelib"])
    (site / "courtier-libraries.pth").write_text(f"{libraries}\n")
    for pth in libraries.glob("distutils-precedence.pth"):  # setuptools' own, in every venv it is in
        shutil.copy(pth, site / pth.name)
    # pip compiles what it unpacked with the venv's Python, so a start reads bytecode, not sources.
    subprocess.run([str(python), "-m", "compileall", "-q", *(str(site / p) for p in PACKAGES)],
                   check=True, stdout=subprocess.DEVNULL)
    script = home / "bin" / "courtier"
    script.write_text(SCRIPT.format(python=python))
    script.chmod(0o755)
    return Install(python, script)


def table_command(script: Path, state_dir: str, game: str = "tenno", seats: int = 7,
                  wiring: str = "pi-7") -> list[str]:
    return [str(script), "play", game, "--players", str(seats),
            "--table", str(ROOT / "hardware" / "tables" / f"{wiring}.toml"),
            "--ui", "none", "--state-dir", state_dir, "--new"]


def time_to_ready(command: list[str], env: dict[str, str], cwd: str | Path = ROOT,
                  timeout: float = 120.0) -> float:
    """Start `command` with a notify socket and return the seconds until it says READY=1.

    Raises:
        RuntimeError: It exited, or said nothing, before READY=1.
    """
    with tempfile.TemporaryDirectory() as tmp, socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        address = os.path.join(tmp, "notify")
        sock.bind(address)
        sock.settimeout(timeout)
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=dict(env, NOTIFY_SOCKET=address),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   preexec_fn=_interruptible)
        try:
            while True:
                try:
                    message = sock.recv(4096).decode(errors="replace")
                except socket.timeout:
                    raise RuntimeError(f"no READY=1 within {timeout:g} s") from None
                if "READY=1" in message.split("\n"):
                    return time.perf_counter() - started
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
            try:
                _, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                _, err = process.communicate()
            if process.returncode not in (0, -signal.SIGINT, None):
                raise RuntimeError(f"the table exited with {process.returncode}: "
                                   f"{err.decode(errors='replace').strip()[-300:]}")


def _interruptible() -> None:
    """In the child before it starts: Ctrl-C stops it, even when the bench itself was started in the background.

    A shell starts a background job with SIGINT ignored, a child inherits
    that, and Python then installs no KeyboardInterrupt handler: the table
    would not stop when told.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# What the table timed here imports before READY=1 besides courtier's own code, as courtier imports it
# (gpiozero without the modules `hardware.gpio` defers, luma without multiprocessing): the pip script's
# `re`, gpiozero and its mock pins (lgpio's on a Pi), luma's devices (its dummy here, which loads Pillow's
# Image, ImageDraw and ImageFont; on a Pi the luma.oled drivers, which load more), transitions (the phase
# machines), tomllib (the table file) and the systemd notifier. A floor no change of courtier's own start
# goes under (`tests/test_bench.py` holds it to what the table has loaded at READY=1).
LIBRARIES = """\
import re
from hardware.gpio import deferred_imports
from hardware.luma_loading import deferred_multiprocessing
with deferred_imports():
    import gpiozero
    from gpiozero.pins.mock import MockFactory
with deferred_multiprocessing():
    import luma.core.device
import transitions, tomllib, systemd_watchdog
"""


def time_to_exit(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def service_environment() -> dict[str, str]:
    """This environment as the unit leaves it for courtier: its settings, the mock backend, nothing of Python's own."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    return dict(env, COURTIER_HARDWARE="mock", PYTHONUNBUFFERED="1")


def measure(runs: int = 7, warmup: int = 1) -> ColdStart:
    """Time `runs` cold starts of an installed courtier, of its libraries alone (`LIBRARIES`) and of
    ``python -c pass``, in turn, after `warmup` of each."""
    env = service_environment()
    ready: list[float] = []
    bare: list[float] = []
    libraries: list[float] = []
    with tempfile.TemporaryDirectory() as place:
        install = installed(Path(place))
        for count in range(warmup + runs):
            with tempfile.TemporaryDirectory() as state:
                a = time_to_ready(table_command(install.script, state), env, cwd=state)
            c = time_to_exit([str(install.python), "-c", LIBRARIES], env)
            b = time_to_exit([str(install.python), "-c", "pass"], env)
            if count >= warmup:
                ready.append(a)
                bare.append(b)
                libraries.append(c)
    return ColdStart(ready, bare, libraries)
