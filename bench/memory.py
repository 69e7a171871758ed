"""Resident memory of a running table, measured in a fresh process per path.

A child process (``python -m bench.memory PATH GAME SEATS PRESSES``) opens a
mock table with the path's screens, plays ``PRESSES`` button presses of a
seeded game, and prints its ``VmRSS`` (resident now) and ``VmHWM`` (peak
resident) from ``/proc/self/status`` as JSON. Where there is no ``/proc``,
both are the peak from ``resource.getrusage``. A fresh process per path keeps
one path's allocations out of the other's figure.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

_log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]


def measure_rss(path: str, game: str = "tenno", seats: int = 7,
                presses: int = 200) -> dict[str, int]:
    """Run a table in a child process and return its resident memory in kB.

    Args:
        path: ``"new"`` or ``"stock"``.
        game: Registered game name.
        seats: Seats at the table.
        presses: Button presses to play before measuring.

    Returns:
        ``{"rss_kb": ..., "peak_kb": ..., "presses": ...}``.

    Raises:
        RuntimeError: The child failed.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "bench.memory", path, game, str(seats), str(presses)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"memory child for {path} failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _resident_kb() -> tuple[int, int]:
    """Return (resident now, peak resident) of this process in kB."""
    try:
        fields = dict(line.split(":", 1) for line in
                      Path("/proc/self/status").read_text().splitlines() if ":" in line)
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])
    except (OSError, KeyError, ValueError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak, peak


def _child(path: str, game: str, seats: int, presses: int) -> dict[str, int]:
    from bench.latency import ButtonPlayer, TableSide

    side = TableSide(path, game, seats, seed=1)
    player = ButtonPlayer(1, seats)
    played = 0
    try:
        while played < presses:
            press = player.next_press(side.runtime)
            if press is None:
                break
            side.press(*press, record=False)
            played += 1
        rss, peak = _resident_kb()
    finally:
        side.close()
    return {"rss_kb": rss, "peak_kb": peak, "presses": played}


if __name__ == "__main__":
    print(json.dumps(_child(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
