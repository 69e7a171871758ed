"""Resident memory of a running table, measured in a fresh process per path.

A child process (``python -m bench.memory PATH GAME SEATS PRESSES WIRING``)
opens the table file's wiring with the path's screen drivers as
``bench.latency`` does (buttons with their debounce, the runtime, the
journal, the recorded buses), plays ``PRESSES`` button presses of a seeded
game, and prints its ``VmRSS`` (resident now) and ``VmHWM`` (peak resident)
from ``/proc/self/status`` as JSON. Where there is no ``/proc``,
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
                presses: int = 200, wiring: str = "pi-7") -> dict[str, int]:
    """Run a table in a child process and return its resident memory in kB.

    Args:
        path: ``bench.latency.NEW`` or ``STOCK``.
        game: Registered game name.
        seats: Seats at the table.
        presses: Button presses to play before measuring.
        wiring: The shipped table file whose wiring is opened.

    Returns:
        ``{"rss_kb": ..., "peak_kb": ..., "presses": ...}``.

    Raises:
        RuntimeError: The child failed.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "bench.memory", path, game, str(seats), str(presses), wiring],
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


def _child(path: str, game: str, seats: int, presses: int, wiring: str) -> dict[str, int]:
    import tempfile

    from bench import wire
    from bench.latency import ButtonPlayer, TableSide, finger_clock, table_config

    config = table_config(wiring, seats)
    player = ButtonPlayer(1, seats)
    played = 0
    with wire.KernelRecorder() as kernel, finger_clock() as clock, tempfile.TemporaryDirectory() as tmp:
        side = TableSide(path, game, config, 1, kernel, clock, Path(tmp))
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
    print(json.dumps(_child(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])))
