"""Cold start: from starting the process to READY=1 (every face drawn), against a bare ``python -c pass``.

``courtier play GAME --table pi-7.toml --ui none`` is started as systemd
starts it (``Type=notify``: ``NOTIFY_SOCKET`` names a datagram socket the
bench listens on), on the mock backend (gpiozero's ``MockFactory`` pins and
luma's ``dummy`` screens: there are no real pins here), with a fresh state
directory, so it starts a new game. The time runs from ``Popen`` to the
``READY=1`` datagram, which the table sends once its runtime has drawn every
seat's face; then the table is stopped with SIGINT, as Ctrl-C would.

The baseline is the same interpreter running ``-c pass``, started and
reaped in turn with the table (A B A B ...), so a slow moment of this shared
machine falls on both; the figure is the median of the per-pair ratios.
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class ColdStart:
    """Seconds to READY=1 and seconds of ``python -c pass``, per run, in the order they ran."""

    ready_s: list[float]
    bare_s: list[float]

    @property
    def ratio(self) -> float:
        """Median of the per-pair ratios."""
        return statistics.median(a / b for a, b in zip(self.ready_s, self.bare_s))

    @property
    def ready_median_s(self) -> float:
        return statistics.median(self.ready_s)

    @property
    def bare_median_s(self) -> float:
        return statistics.median(self.bare_s)


def table_command(state_dir: str, game: str = "tenno", seats: int = 7, wiring: str = "pi-7") -> list[str]:
    return [sys.executable, "-m", "firmware", "play", game, "--players", str(seats),
            "--table", str(ROOT / "hardware" / "tables" / f"{wiring}.toml"),
            "--ui", "none", "--state-dir", state_dir, "--new"]


def time_to_ready(command: list[str], env: dict[str, str], timeout: float = 120.0) -> float:
    """Start `command` with a notify socket and return the seconds until it says READY=1.

    Raises:
        RuntimeError: It exited, or said nothing, before READY=1.
    """
    with tempfile.TemporaryDirectory() as tmp, socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        address = os.path.join(tmp, "notify")
        sock.bind(address)
        sock.settimeout(timeout)
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=dict(env, NOTIFY_SOCKET=address),
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


def time_to_exit(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def measure(runs: int = 7, warmup: int = 1) -> ColdStart:
    """Time `runs` cold starts and as many ``python -c pass``, in turn, after `warmup` of each."""
    env = dict(os.environ, COURTIER_HARDWARE="mock", PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    # As installed: pip compiles the bytecode once, so a start reads it rather than the sources.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    ready: list[float] = []
    bare: list[float] = []
    for count in range(warmup + runs):
        with tempfile.TemporaryDirectory() as state:
            a = time_to_ready(table_command(state), env)
        b = time_to_exit([sys.executable, "-c", "pass"])
        if count >= warmup:
            ready.append(a)
            bare.append(b)
    return ColdStart(ready, bare)
