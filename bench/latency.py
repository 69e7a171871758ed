"""A seeded game played by pressing mock buttons, on the new and the stock screen path at once.

Two tables are opened on the mock backend (``open_table``, for the buttons),
and each seat's screen is a real driver over a ``RecordingInterface``, so
every byte a bus would carry is counted:

- new: ``hardware.partial`` drivers in ``hardware.screens.Screen``; the
  runtime redraws only the seats whose face changed, ``Screen.show`` skips an
  identical image, and the driver sends only the changed spans.
- stock: luma.oled's own driver class of the same name (what
  ``open_table(..., recording=True)`` builds until ``hardware.screens`` uses
  the partial drivers; built here by name so the stock path stays stock after
  that). After every event every seat's face is rendered and sent with
  luma's full-frame ``display()``, with no skipping. The runtime is given no
  screens, so it only builds faces and rendering is done once, by the stock loop.

A ``ButtonPlayer`` chooses each seat's next action like the demo's
``RandomBot`` and walks the seat's menu to it with prev/next/ok presses. The
same press goes to both tables in turn (which goes first alternates), so
machine noise falls on both alike. Each press is measured from driving the
mock pin low to the last frame sent: CPU time of the runtime's thread (``time.thread_time_ns``: the gpiozero hold threads idle beside it are not counted),
wall time, the bytes on every bus, and their modelled transfer time.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field
from typing import Any

from luma.oled import device as luma_device
from PIL import Image

from engine.match import Match
from firmware.bots import RandomBot
from firmware.table.render import render_face
from firmware.table.runtime import Runtime
from hardware.factory import Table, open_table
from hardware.partial import DRIVERS
from hardware.recording import RecordingInterface
from hardware.screens import Screen
from hardware.table import emulator_table

from . import bus

_log = logging.getLogger(__name__)

NEW, STOCK = "new", "stock"
PATHS = (NEW, STOCK)

# A Pi Zero 2 W (Cortex-A53 at 1 GHz) runs this Python about ten times slower
# than the machine the bench runs on (REFERENCES.md section 5.2 assumes 5-15x).
PI_ZERO_SLOWDOWN = 10


@dataclass(frozen=True)
class EventSample:
    """One button press and what it cost on one path."""

    seat: int
    button: str
    cpu_ns: int
    wall_ns: int
    frames: int          # screens that put anything on their bus
    bytes: int           # command and data bytes, all screens
    i2c_s: float         # modelled time of those bytes on one 400 kHz I2C bus
    spi_s: float         # ... and on an 8 MHz SPI bus
    own_cpu_ns: int = 0  # CPU time until the pressing seat's own frame was sent
    own_i2c_s: float = 0.0  # I2C time of every frame sent up to and including that one

    @property
    def is_move(self) -> bool:
        """A menu cursor move (prev or next), as opposed to ok."""
        return self.button != "ok"

    def light_s(self, slowdown: int = PI_ZERO_SLOWDOWN) -> float:
        """Modelled time until every changed screen is lit: CPU time scaled to the Pi, then the bus."""
        return self.cpu_ns * slowdown / 1e9 + self.i2c_s

    def own_light_s(self, slowdown: int = PI_ZERO_SLOWDOWN) -> float:
        """Modelled button-to-light time: until the pressing seat's own screen shows the answer."""
        return self.own_cpu_ns * slowdown / 1e9 + self.own_i2c_s


@dataclass
class TableRun:
    """Every sample of one path over one game."""

    game: str
    seats: int
    path: str
    samples: list[EventSample] = field(default_factory=list)
    actions: int = 0
    over: bool = False
    # New path only: per seat, every image whose frame went on the bus, in order.
    frames: list[list[Image.Image]] = field(default_factory=list)


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


class TableSide:
    """One path's open table, its runtime and screens, and how it handles a press.

    Args:
        path: ``NEW`` or ``STOCK``.
        game: Registered game name.
        seats: Seats at the table (and players).
        seed: The match seed.
    """

    def __init__(self, path: str, game: str, seats: int, seed: int) -> None:
        self.path = path
        match = Match.new(game, seats, seed=seed)
        self.table: Table = open_table(emulator_table(seats), "mock")
        self.screens = [recording_screen(seat.config.screen, seat.config.label, path)
                        for seat in self.table.seats]
        if path == NEW:
            self.runtime = Runtime(match, self.screens)
        else:
            self.runtime = Runtime(match, [None] * seats)
            self.redraw_all()
        self.table.on_event = self.runtime.post
        self.buses: list[RecordingInterface] = [screen.interface for screen in self.screens]
        self.run = TableRun(game, seats, path, frames=[[] for _ in range(seats)])

    def redraw_all(self) -> None:
        """The stock path: every seat rendered and sent whole, changed or not."""
        for state, screen in zip(self.runtime.seats, self.screens):
            screen.device.display(render_face(state.face, screen.size))

    def press(self, seat: int, button: str, record: bool = True) -> None:
        """Press one button, let the runtime handle it, and (if ``record``) keep its sample."""
        for interface in self.buses:
            interface.reset()
        pin = self.table.seats[seat].buttons.pin(button)
        device = self.screens[seat].device
        own: dict[str, Any] = {}

        def timed_display(image: Image.Image) -> None:
            # The pressing seat's frame: note when it left and what the bus carried until then.
            type(device).display(device, image)
            if not own:
                own["cpu"] = time.thread_time_ns()
                own["calls"] = [call for interface in self.buses for call in interface.calls]

        device.display = timed_display
        wall = time.perf_counter_ns()
        cpu = time.thread_time_ns()
        try:
            pin.drive_low()
            pin.drive_high()
            self.runtime.drain()
            if self.path == STOCK:
                self.redraw_all()
        finally:
            del device.display
        end = time.thread_time_ns()
        wall = time.perf_counter_ns() - wall
        if not record:
            return
        if self.path == NEW:
            for seat_frames, screen in zip(self.run.frames, self.screens):
                if screen.interface.calls:
                    seat_frames.append(screen.image)
        calls = [call for interface in self.buses for call in interface.calls]
        own_calls = own.get("calls", calls)  # a press that did not change its own screen: all frames
        self.run.samples.append(EventSample(
            seat=seat, button=button, cpu_ns=end - cpu, wall_ns=wall,
            frames=sum(1 for interface in self.buses if interface.calls),
            bytes=bus.payload_bytes(calls), i2c_s=bus.i2c_seconds(calls),
            spi_s=bus.spi_seconds(calls),
            own_cpu_ns=own.get("cpu", end) - cpu, own_i2c_s=bus.i2c_seconds(own_calls)))

    def close(self) -> None:
        """Note how far the game got and close the screens and the table."""
        self.run.actions = len(self.runtime.match.actions)
        self.run.over = self.runtime.match.is_over
        for screen in self.screens:
            screen.close()
        self.table.close()


def recording_screen(config: Any, label: str, path: str) -> Screen:
    """A screen on the driver its config names, over a recorder.

    Args:
        config: The seat's ``ScreenConfig``.
        label: The seat, for messages.
        path: ``NEW`` for the ``hardware.partial`` driver, ``STOCK`` for luma.oled's.
    """
    driver = DRIVERS[config.driver] if path == NEW else getattr(luma_device, config.driver)
    interface = RecordingInterface()
    device = driver(interface, width=config.width, height=config.height, rotate=config.rotate)
    device.persist = False
    return Screen(device, name=f"{label} screen {config.describe()}", interface=interface)


def play_both(game: str, seats: int, *, seed: int = 1, max_events: int = 5000,
              warmup: int = 10) -> dict[str, TableRun]:
    """Play one seeded game on the new and the stock path with the same presses.

    Args:
        game: Registered game name.
        seats: Seats at the table (and players).
        seed: The match seed and the button player's seed.
        max_events: Stop after this many presses even if the game is not over.
        warmup: Presses at the start that are made but not recorded (first
            font loads and caches).

    Returns:
        ``{"new": TableRun, "stock": TableRun}``.

    Raises:
        RuntimeError: The two paths diverged, or the player stopped making progress.
    """
    sides: dict[str, TableSide] = {}
    player = ButtonPlayer(seed, seats)
    try:
        for path in PATHS:
            sides[path] = TableSide(path, game, seats, seed)
        for count in range(max_events + warmup):
            press = player.next_press(sides[NEW].runtime)
            if press is None:
                break
            order = PATHS if count % 2 == 0 else PATHS[::-1]
            for path in order:
                sides[path].press(*press, record=count >= warmup)
            if sides[NEW].runtime.match.actions != sides[STOCK].runtime.match.actions:
                raise RuntimeError(f"{game}: the new and stock tables diverged at press {count}")
            stuck = sides[NEW].runtime.seats[press[0]].notice
            if stuck:
                raise RuntimeError(f"{game}: press {count} was refused: {stuck}")
    finally:
        for side in sides.values():
            side.close()
    return {path: side.run for path, side in sides.items()}


def driver_cpu(frames: list[list[Image.Image]], driver: str = "ssd1306") -> dict[str, list[int]]:
    """Time each ``display()`` of the partial and the stock driver over the same frames.

    Each seat's frames are shown in order on a fresh partial driver and a
    fresh luma driver, one call of each in turn, so both see the same changes.

    Args:
        frames: Per seat, the images the new path sent (``TableRun.frames``).
        driver: Which driver pair to time.

    Returns:
        ``{"new": [ns, ...], "stock": [ns, ...]}``, CPU time per call.
    """
    stock_class = getattr(luma_device, driver)
    times: dict[str, list[int]] = {NEW: [], STOCK: []}
    for seat_frames in frames:
        devices = {NEW: DRIVERS[driver](RecordingInterface()),
                   STOCK: stock_class(RecordingInterface())}
        for image in seat_frames:
            for path, device in devices.items():
                started = time.thread_time_ns()
                device.display(image)
                times[path].append(time.thread_time_ns() - started)
    return times


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` 0.5 for the median, 0.99 for p99); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
