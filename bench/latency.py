"""A seeded game played by pressing buttons on a table file's real wiring: courtier's drivers beside luma's stock ones.

Two tables are opened from the same table file, side by side, and differ in
one thing only, the screen drivers:

- courtier: ``hardware.partial``'s drivers (only the changed spans of a
  frame are sent, an identical frame is skipped);
- stock: luma.oled's own driver of the same name, which sends the whole
  frame on every ``display()``: what a careful user of stock luma writes.

Everything else is the same on both: the buttons (gpiozero on a
``MockFactory``, with the table's leading-edge debounce), the runtime
(only the seats whose face changed are redrawn, the pressing seat first)
with the public story every ``courtier play`` table keeps (``PublicTable``),
the journal, and the bus each screen is driven through, opened exactly as
on the Pi (``hardware.screens.pi_interface``: luma's ``i2c`` on a port, or
``hardware.mux`` on the TCA9548A's shared bus, or luma's ``spi``), with the
kernel below smbus2 and spidev recorded (``bench.wire``).

A ``ButtonPlayer`` chooses each seat's next action like the demo's
``RandomBot`` and walks the seat's menu to it; the same press goes to both
tables in turn (which goes first alternates), so machine noise falls on
both alike. A press is a finger's: the pin goes low, and 0.1 s later high
again, 0.25 s after the press before (on the mock pins' clock, which the
player sets: gpiozero's ``MockFactory`` reads ``monotonic`` for each edge).

Each press keeps: the CPU time of the runtime's thread from the press until
the pressing seat's own frame was sent, and until the last frame was sent
(the recorders' own time taken off), and every transfer the buses carried,
in order. ``EventSample.light_s`` turns them into the time a player waits.
"""

from __future__ import annotations

import contextlib
import logging
import math
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import gpiozero.pins.mock
from luma.oled import device as luma_device

from engine.match import Match
from firmware.bots import RandomBot
from firmware.public import PublicTable
from firmware.table.journal import Journal
from firmware.table.runtime import Runtime
from hardware.factory import Table, open_table
from hardware.screens import driver_screen, pi_interface
from hardware.table import TableConfig, load_table

from . import wire
from .boards import HEADLINE, SCANOUT_S, Board

_log = logging.getLogger(__name__)

NEW, STOCK = "courtier", "stock"
PATHS = (NEW, STOCK)
TABLES = Path(__file__).resolve().parents[1] / "hardware" / "tables"

PRESS_S = 0.1   # how long a finger holds a button down
GAP_S = 0.25    # from one press to the next


@dataclass(frozen=True)
class EventSample:
    """One button press and what it cost on one path.

    Attributes:
        seat: The pressing seat.
        button: "prev", "next" or "ok".
        cpu_ns: Runtime CPU from the press until the last frame was sent (all of it when none was).
        own_cpu_ns: ... until the pressing seat's own frame was sent.
        transfers: Everything the buses carried for this press, in order.
        own: How many of ``transfers`` came before the pressing seat's frame
            was complete (all of them when its face did not change).
        frames: Screens that were sent anything.
        debounce_s: What the input adds before the press is reported.
    """

    seat: int
    button: str
    cpu_ns: int
    own_cpu_ns: int
    transfers: tuple[wire.Transfer, ...]
    own: int
    frames: int
    debounce_s: float

    @property
    def is_move(self) -> bool:
        """A menu cursor move (prev or next), as opposed to ok."""
        return self.button != "ok"

    @property
    def wire_transfers(self) -> int:
        return sum(1 for t in self.transfers if t.wire)

    @property
    def wire_bytes(self) -> int:
        return wire.wire_bytes(self.transfers)

    def bus_s(self, own: bool = False) -> float:
        """Bus time (the wire and the kernel's part) of the press, or until the pressing seat's frame."""
        return wire.seconds(self.transfers[:self.own] if own else self.transfers)

    def light_s(self, board: Board = HEADLINE, own: bool = True) -> float:
        """Press to light on `board`: the debounce, the runtime's CPU, the bus, the panel's scan-out.

        `own` ends when the pressing seat's screen shows the answer; else
        when the last changed screen does.
        """
        cpu = (self.own_cpu_ns if own else self.cpu_ns) / 1e9
        return self.debounce_s + cpu * board.factor + self.bus_s(own) + SCANOUT_S


@dataclass
class TableRun:
    """Every sample of one path over one game."""

    game: str
    seats: int
    path: str
    wiring: str
    samples: list[EventSample] = field(default_factory=list)
    actions: int = 0
    over: bool = False


class ButtonPlayer:
    """Plays a table by pressing buttons: picks an action, then walks the menu to it.

    The action is chosen as the demo's ``RandomBot`` chooses (a kind, then one
    of that kind, from a seeded generator per seat); the presses are what a
    person would make: prev or next (the shorter way) until the cursor is on
    the wanted value, then ok, level by level.
    """

    def __init__(self, seed: int, seats: int) -> None:
        self._bots = [RandomBot(seed * 1000 + seat) for seat in range(seats)]
        self._targets: dict[int, dict[str, Any]] = {}

    def next_press(self, runtime: Runtime) -> tuple[int, str] | None:
        """Return the next ``(seat, button)`` to press, or None when the game is over."""
        match = runtime.match
        pending = match.pending()
        if not pending:
            return None
        seat = pending[0]
        actions = match.legal_actions(seat)
        target = self._targets.get(seat)
        if target not in actions:
            target = self._bots[seat].choose(actions, match.game.free_actions)
            self._targets[seat] = target
        menu = runtime.seats[seat].menu
        level = menu.level(actions)
        if level is None or level.complete is not None:
            return seat, "ok"
        wanted = level.values.index(target.get(level.key))
        count = len(level.values)
        forward = (wanted - menu.cursor) % count
        if forward == 0:
            return seat, "ok"
        return seat, "next" if forward <= count - forward else "prev"


class PinClock:
    """The clock gpiozero's mock pins stamp each edge with, moved on by the player like a hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def finger_clock() -> Iterator[PinClock]:
    """Give gpiozero's mock pins (and the MockFactory's ticks) a clock the player sets."""
    clock = PinClock()
    saved = gpiozero.pins.mock.monotonic
    gpiozero.pins.mock.monotonic = clock
    try:
        yield clock
    finally:
        gpiozero.pins.mock.monotonic = saved


def table_config(wiring: str, seats: int) -> TableConfig:
    """The first `seats` seats of a shipped table file (``hardware/tables/NAME.toml``)."""
    config = load_table(TABLES / f"{wiring}.toml")
    if len(config.seats) < seats:
        raise ValueError(f"{wiring}.toml has {len(config.seats)} seats, not {seats}")
    return replace(config, seats=config.seats[:seats])


class TableSide:
    """One path's open table, its runtime and recorded screens, and how it handles a press.

    Args:
        path: ``NEW`` or ``STOCK``.
        game: Registered game name.
        config: The table (its seats' buttons and screens).
        seed: The match seed.
        kernel: The active ``wire.KernelRecorder``.
        clock: The mock pins' clock.
        journal_dir: Where this side's journal goes.
    """

    def __init__(self, path: str, game: str, config: TableConfig, seed: int, kernel: wire.KernelRecorder,
                 clock: PinClock, journal_dir: Path) -> None:
        from hardware.mux import I2CBuses

        self.path = path
        self.kernel = kernel
        self.clock = clock
        self.log = kernel.current = wire.Log()
        seats = len(config.seats)
        match = Match.new(game, seats, seed=seed)
        self.table: Table = open_table(config, "mock")
        self.buses = I2CBuses()
        stock = path == STOCK
        self.screens = [
            driver_screen(seat.screen, pi_interface(seat.screen, self.buses),
                          name=f"{seat.label} screen", driver=getattr(luma_device, seat.screen.driver) if stock else None)
            for seat in config.seats]
        self.journal = Journal.create(journal_dir / f"{path}.jsonl", match.header)
        self.runtime = Runtime(match, self.screens, self.journal)
        # The public story and snapshots every `courtier play` table keeps (the public screen, page and console read them).
        self.public = PublicTable().attach(self.runtime)
        self.table.on_event = self.runtime.post
        # lgpio applies gpiozero's bounce_time as a delay before an edge is
        # reported: the stock input waits it out on every press; courtier's
        # debounce reports the first edge at once.
        self.debounce_s = (config.bounce_time or 0.0) if stock else 0.0
        self.run = TableRun(game, seats, path, config.name)

    def press(self, seat: int, button: str, record: bool = True) -> None:
        """Press one button, let the runtime handle it, and (if ``record``) keep its sample."""
        self.kernel.current = self.log
        pin = self.table.seats[seat].buttons.pin(button)
        pressing = self.screens[seat].device
        log = self.log
        sent_at: dict[str, int] = {}  # CPU and transfers when the pressing seat's frame, and the last frame, were sent
        start = log.mark()

        def timed(device: Any, method: str) -> Any:
            send = getattr(type(device), method)

            def timed_send(frame: Any) -> Any:
                sent = send(device, frame)
                now = time.thread_time_ns() - log.overhead_ns
                if device is pressing and "own" not in sent_at:  # the pressing seat's frame is on the bus
                    sent_at["own"], sent_at["own_count"] = now, log.mark() - start
                sent_at["last"] = now  # what comes after the last frame (the idle moment's work) lights nothing
                return sent
            return timed_send

        # The runtime sends a frame through display(), or display_pixels() where the driver has it.
        hooked = [(screen.device, name) for screen in self.screens
                  for name in ("display", "display_pixels") if hasattr(type(screen.device), name)]
        for device, method in hooked:
            setattr(device, method, timed(device, method))
        frames = sum(screen.frames for screen in self.screens)
        overhead = log.overhead_ns
        cpu = time.thread_time_ns()
        try:
            self.clock.now += GAP_S
            pin.drive_low()
            self.clock.now += PRESS_S
            pin.drive_high()
            self.runtime.drain()
        finally:
            for device, method in hooked:
                delattr(device, method)
        end = time.thread_time_ns() - (log.overhead_ns - overhead)
        if not record:
            return
        transfers = tuple(log.since(start))
        began = cpu - overhead
        self.run.samples.append(EventSample(
            seat=seat, button=button, cpu_ns=sent_at["last"] - began if sent_at else end - cpu,
            own_cpu_ns=sent_at["own"] - began if "own" in sent_at else end - cpu,
            transfers=transfers, own=sent_at.get("own_count", len(transfers)),
            frames=sum(screen.frames for screen in self.screens) - frames, debounce_s=self.debounce_s))

    def close(self) -> None:
        """Note how far the game got and close the screens, the journal and the table."""
        self.run.actions = len(self.runtime.match.actions)
        self.run.over = self.runtime.match.is_over
        for screen in self.screens:
            screen.close()
        self.journal.close()
        self.table.close()


def play_both(game: str, seats: int, wiring: str, *, seed: int = 1, max_events: int = 5000,
              warmup: int = 10) -> dict[str, TableRun]:
    """Play one seeded game on courtier's and the stock drivers with the same presses.

    Args:
        game: Registered game name.
        seats: Seats at the table (and players).
        wiring: A shipped table file, by name ("pi-7").
        seed: The match seed and the button player's seed.
        max_events: Stop after this many presses even if the game is not over.
        warmup: Presses at the start that are made but not recorded (first
            font loads and caches).

    Returns:
        ``{NEW: TableRun, STOCK: TableRun}``.

    Raises:
        RuntimeError: The two paths diverged, or the player stopped making progress.
    """
    config = table_config(wiring, seats)
    sides: dict[str, TableSide] = {}
    player = ButtonPlayer(seed, seats)
    with wire.KernelRecorder() as kernel, finger_clock() as clock, tempfile.TemporaryDirectory() as tmp:
        try:
            for path in PATHS:
                sides[path] = TableSide(path, game, config, seed, kernel, clock, Path(tmp))
            for count in range(max_events + warmup):
                press = player.next_press(sides[NEW].runtime)
                if press is None:
                    break
                order = PATHS if count % 2 == 0 else PATHS[::-1]
                for path in order:
                    sides[path].press(*press, record=count >= warmup)
                if sides[NEW].runtime.match.actions != sides[STOCK].runtime.match.actions:
                    raise RuntimeError(f"{game}: the two tables diverged at press {count}")
                stuck = sides[NEW].runtime.seats[press[0]].notice
                if stuck:
                    raise RuntimeError(f"{game}: press {count} was refused: {stuck}")
        finally:
            for side in sides.values():
                side.close()
    return {path: side.run for path, side in sides.items()}


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` 0.5 for the median, 0.99 for p99); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
