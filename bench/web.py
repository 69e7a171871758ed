"""What the table page costs a button press: press-to-light with the page open and three browsers
connected, beside the same table without the page.

Two tables play the same seeded game on courtier's screen path and ``pi-7.toml``'s wiring
(``bench.latency``'s ``TableSide``, the buses recorded by ``bench.wire``), both with the public
snapshot attached as ``courtier play`` does. One also
serves the LAN page (``firmware.public.web``) on a loopback port, with three clients reading
its event stream on threads of their own, as three phones would. The same press goes to
both tables in turn (which goes first alternates). Per press: wall time and CPU time of the
runtime's thread from the press to the last frame sent. The page renders and sends on its
own thread, so what it costs a press is what it takes from the runtime's thread (the GIL,
the snapshot handed over) and nothing else.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import wire
from .latency import NEW, ButtonPlayer, TableSide, finger_clock, table_config

PAGE, BARE = "page", "bare"
CLIENTS = 3
CATCH_UP_S = 30.0  # how long the clients may take to read the last snapshot once the game stops


@dataclass
class WebRun:
    """Per press, on each table: wall and runtime-thread CPU nanoseconds; and what the clients got."""

    wall_ns: dict[str, list[int]] = field(default_factory=lambda: {PAGE: [], BARE: []})
    cpu_ns: dict[str, list[int]] = field(default_factory=lambda: {PAGE: [], BARE: []})
    events: list[int] = field(default_factory=list)  # snapshots each client received
    last: list[int] = field(default_factory=list)  # the serial of the newest snapshot each client read
    snapshots: int = 0  # snapshots the table made
    actions: int = 0


class Client(threading.Thread):
    """A browser stand-in: reads the page's event stream, counts the snapshots and keeps the newest's serial."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.response = urllib.request.urlopen(url + "events", timeout=30)
        self.snapshots = 0
        self.serial = 0
        self._read = threading.Condition()

    def run(self) -> None:
        event = b""
        try:
            for line in self.response:
                if line.startswith(b"event: "):
                    event = line[7:].strip()
                elif line.startswith(b"data: ") and event == b"snapshot":
                    with self._read:
                        self.snapshots += 1
                        self.serial = json.loads(line[6:])["serial"]
                        self._read.notify_all()
        except (OSError, ValueError, AttributeError):
            pass  # the page closed; http.client drops its file (None) when closed mid-read

    def wait_for(self, serial: int, timeout: float) -> bool:
        """Wait until this client has read the snapshot `serial` (or a later one); False if it did not in time."""
        with self._read:
            return self._read.wait_for(lambda: self.serial >= serial, timeout)

    def close(self) -> None:
        self.response.close()


def _timed_press(side: TableSide, seat: int, button: str, record: bool) -> tuple[int, int]:
    """Press as `bench.latency` does (its sample: the runtime thread's CPU to the last frame); and the wall time."""
    wall = time.perf_counter_ns()
    side.press(seat, button, record=record)
    return time.perf_counter_ns() - wall, side.run.samples[-1].cpu_ns if record else 0


def play_with_page(game: str, seats: int, *, seed: int = 1, max_events: int = 5000, warmup: int = 10,
                   clients: int = CLIENTS, wiring: str = "pi-7") -> WebRun:
    """Play one seeded game on two tables on `wiring`'s first `seats` seats, one serving the page to `clients` readers."""
    with wire.KernelRecorder() as kernel, finger_clock() as clock, tempfile.TemporaryDirectory() as tmp:
        sides = {}
        for name in (PAGE, BARE):
            (Path(tmp) / name).mkdir()
            sides[name] = TableSide(NEW, game, table_config(wiring, seats), seed, kernel, clock, Path(tmp) / name)
        return _play(game, seats, seed, sides, max_events=max_events, warmup=warmup, clients=clients)


def _play(game: str, seats: int, seed: int, sides: dict[str, TableSide], *, max_events: int, warmup: int,
          clients: int) -> WebRun:
    from firmware.public.web import TablePage

    publics = {name: side.public for name, side in sides.items()}  # each table's own (`TableSide`)
    page = TablePage(publics[PAGE], sides[PAGE].runtime, "127.0.0.1", 0)
    readers: list[Client] = []
    run = WebRun()
    player = ButtonPlayer(seed, seats)
    try:
        url = page.start()[0]
        readers = [Client(url) for _ in range(clients)]
        for reader in readers:
            reader.start()
        for count in range(max_events + warmup):
            press = player.next_press(sides[BARE].runtime)
            if press is None:
                break
            order = (PAGE, BARE) if count % 2 == 0 else (BARE, PAGE)
            for name in order:
                wall, cpu = _timed_press(sides[name], *press, record=count >= warmup)
                if count >= warmup:
                    run.wall_ns[name].append(wall)
                    run.cpu_ns[name].append(cpu)
            if sides[PAGE].runtime.match.actions != sides[BARE].runtime.match.actions:
                raise RuntimeError(f"{game}: the two tables diverged at press {count}")
        run.actions = len(sides[PAGE].runtime.match.actions)
        run.snapshots = publics[PAGE].latest().serial
        for reader in readers:  # each client reads the last snapshot before the counts are taken
            reader.wait_for(run.snapshots, CATCH_UP_S)
        run.events = [reader.snapshots for reader in readers]
        run.last = [reader.serial for reader in readers]
    finally:
        page.close()
        for reader in readers:
            reader.close()
        for side in sides.values():
            side.close()
    return run


def rows(game: str, seats: int, settings: Any, seed: int = 1) -> list[Any]:
    """The bench table's rows for the page's cost (with the page beside without)."""
    from .latency import percentile
    from .run import Row

    run = play_with_page(game, seats, seed=seed, max_events=settings.max_presses, warmup=settings.warmup)
    name = f"{game} {seats} seats, page + {CLIENTS} clients vs none"

    def both(values: dict[str, list[int]], share: float) -> tuple[float, float]:
        return percentile([v / 1e6 for v in values[PAGE]], share), percentile([v / 1e6 for v in values[BARE]], share)

    return [
        Row(f"{name}: presses measured ({run.actions} actions)", len(run.wall_ns[PAGE]), len(run.wall_ns[BARE]),
            digits=0),
        Row(f"{name}: wall press -> frames sent, p50", *both(run.wall_ns, 0.5), "ms", 2),
        Row(f"{name}: wall press -> frames sent, p99", *both(run.wall_ns, 0.99), "ms", 2),
        Row(f"{name}: CPU (runtime thread) press -> frames sent, p50", *both(run.cpu_ns, 0.5), "ms", 2),
        Row(f"{name}: CPU (runtime thread) press -> frames sent, p99", *both(run.cpu_ns, 0.99), "ms", 2),
        Row(f"{name}: snapshots received per client (of {run.snapshots} made), min",
            min(run.events) if run.events else 0, digits=0),
    ]
