"""The whole bench in one run, printed as one table: each figure, the fair stock baseline, the ratio, the boards.

``python -m bench`` (``make bench``) measures:

- engine throughput per registered game, at its fewest and most players:
  actions applied and whole seeded uniform-random games per second, on one
  thread (``bench.throughput``); where a target is judged, timed in turn on
  one core with the engine the target was set beside (``bench.then``);
- a seven-seat Tennō table on ``pi-7.toml``'s wiring (seven SSD1306 behind
  one TCA9548A on one I2C bus) and a four-seat Shadow table on ``pi-4.toml``'s
  (two panels on I2C, two on SPI), each pressed through a seeded game
  (``bench.latency``): courtier's drivers beside luma's stock drivers under
  the same runtime, what the buses carry (``bench.wire``), and the time from
  a press to the pressing seat's screen, and to every changed screen, lit;
- the table page's cost on a press: the seven-seat Tennō table serving its
  LAN page to three event-stream clients, beside the same table without the
  page (``bench.web``);
- cold start of courtier as installed on a Pi against a bare ``python -c pass``
  (``bench.coldstart``);
- the resident memory of a running seven-seat table (``bench.memory``);
- the bytes each kind of public screen sends per frame in a played game,
  beside the frame sent whole (``bench.public``).

Times that depend on the CPU are shown per board (``bench.boards``: this
machine's CPU time times the board's factor); the targets are judged on the
Pi Zero 2 W (x15) for the table, and on this machine for the engine and
cold start (a ratio).

``--quick`` runs a tiny configuration (for the smoke test), whose figures
mean nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from engine.games import all_games

from . import boards, wire
from .boards import BOARDS, HEADLINE, Board
from .coldstart import measure as measure_cold_start
from .latency import NEW, STOCK, EventSample, TableRun, mean, percentile, play_both
from .memory import measure_rss
from .public import measure_public
from .then import TARGETS_SET, THEN, NoBaseline, engine_then, measure_in_turn
from .throughput import EngineFigures, measure_engine

_log = logging.getLogger(__name__)

# Issue 15's targets.
GAMES_PER_SECOND = {"quovadis": 100, "shadow": 60, "tenno": 300}
OWN_LIGHT_P99_MS = 40.0
ALL_LIGHT_P99_MS = 120.0
ALL_LIGHT_RATIO = 0.5
COLD_START_RATIO = 5.0
RSS_MB = 40.0

# The tables pressed: (game, seats, wiring, whether the targets are judged on it).
TABLES = (("tenno", 7, "pi-7", True), ("shadow", 4, "pi-4", False))


@dataclass(frozen=True)
class Settings:
    """How much to measure."""

    engine_seconds: float
    engine_min_games: int
    max_presses: int
    warmup: int
    memory_presses: int
    cold_runs: int
    public_actions: int | None  # actions of the public screens' game; None plays it to the end


FULL = Settings(engine_seconds=2.0, engine_min_games=3, max_presses=5000, warmup=10,
                memory_presses=300, cold_runs=7, public_actions=None)
QUICK = Settings(engine_seconds=0.0, engine_min_games=1, max_presses=12, warmup=2,
                 memory_presses=10, cold_runs=1, public_actions=3)


@dataclass(frozen=True)
class Row:
    """One line of the table.

    Attributes:
        label: What is measured, and where (``[Zero 2 W]``, ``[this machine]``).
        new: courtier's figure, where the target is judged.
        stock: The fair stock baseline's, likewise.
        per_board: courtier's figure on each board, for figures the CPU sets.
    """

    label: str
    new: float | None
    stock: float | None = None
    unit: str = ""
    digits: int = 1
    per_board: dict[str, float] = field(default_factory=dict)
    target: str = ""
    met: bool | None = None

    @property
    def ratio(self) -> float | None:
        if self.new is None or not self.stock:
            return None
        return self.new / self.stock


def engine_rows(settings: Settings, out: Callable[[str], None]) -> list[Row]:
    """Measure every registered game at its fewest and most players; where a target is judged, the
    engine the target was set beside too, in turn (``bench.then``)."""
    rows = []
    games = all_games()
    out(f"games registered: {', '.join(game.name for game in games)}")
    with contextlib.ExitStack() as stack:
        try:
            tree: Path | None = stack.enter_context(engine_then())
        except NoBaseline as exc:
            out(f"the engine the targets were set beside is not measured: {exc}")
            tree = None
        for game in games:
            for players in sorted({game.min_players, game.max_players}):
                label = f"{game.name} {players}p"
                checked = players == game.max_players
                then = None
                try:
                    if checked and tree is not None and game.name in THEN:
                        figures, then = measure_in_turn(tree, game.name, players, budget=settings.engine_seconds,
                                                        min_games=settings.engine_min_games)
                    else:
                        figures = measure_engine(game.name, players, budget=settings.engine_seconds,
                                                 min_games=settings.engine_min_games)
                except NoBaseline as exc:
                    out(f"{label}: the engine the targets were set beside is not measured: {exc}")
                    figures = measure_engine(game.name, players, budget=settings.engine_seconds,
                                             min_games=settings.engine_min_games)
                except Exception as exc:  # a game under construction must not stop the bench
                    _log.exception("%s failed", label)
                    out(f"{label}: failed: {type(exc).__name__}: {exc}")
                    continue
                rows.extend(_engine_rows(game.name, label, figures, checked))
                if then is not None:
                    rows.append(_then_row(game.name, label, figures, then))
    return rows


def _then_row(game: str, label: str, now: EngineFigures, then: EngineFigures) -> Row:
    """Today's games/s over those of the engine the target was set beside, measured in turn."""
    wanted = GAMES_PER_SECOND[game] / THEN[game]
    rate, base = now.games_per_second, then.games_per_second
    return Row(f"{label}: ... beside the engine the target was set beside ({TARGETS_SET[:7]}, same run)", rate, base,
               digits=1, target=f"ratio >= {wanted:.2f} ({GAMES_PER_SECOND[game]:g} over {THEN[game]:g})",
               met=bool(base) and rate / base >= wanted)


def _engine_rows(game: str, label: str, figures: EngineFigures, checked: bool) -> list[Row]:
    wanted = GAMES_PER_SECOND.get(game) if checked else None
    rate = figures.games_per_second
    return [
        Row(f"{label}: actions applied /s ({figures.actions_per_game:.0f} per game, {figures.games} games) "
            f"[this machine]", figures.actions_per_second, digits=0),
        Row(f"{label}: whole uniform-random games /s [this machine]", rate, digits=1,
            per_board={b.column: rate / b.factor for b in BOARDS},
            target=f">= {wanted}" if wanted else "", met=rate >= wanted if wanted else None),
    ]


def table_rows(game: str, seats: int, wiring: str, runs: dict[str, TableRun], *, checked: bool) -> list[Row]:
    """The per-press figures of one table, courtier beside the fair stock baseline."""
    new, stock = runs[NEW].samples, runs[STOCK].samples
    name = f"{game} {seats} seats on {wiring}"

    def both(figure: Callable[[list[EventSample]], float]) -> tuple[float, float]:
        return figure(new), figure(stock)

    def light(share: float, own: bool, moves: bool | None = None) -> Callable[..., float]:
        def figure(samples: list[EventSample], board: Board = HEADLINE) -> float:
            return percentile([s.light_s(board, own) * 1e3 for s in samples
                               if moves is None or s.is_move == moves], share)
        return figure

    def light_row(label: str, share: float, own: bool, moves: bool | None = None,
                  target: str = "", met: Callable[[float, float], bool] | None = None) -> Row:
        figure = light(share, own, moves)
        value, base = figure(new), figure(stock)
        return Row(f"{name}: {label} [{HEADLINE.name}]", value, base, "ms", 1,
                   per_board={b.column: figure(new, b) for b in BOARDS},
                   target=target if checked else "",
                   met=met(value, base) if checked and met is not None else None)

    moves = [s for s in new if s.is_move], [s for s in stock if s.is_move]
    count, move_count = len(new), len(moves[0])
    return [
        Row(f"{name}: presses measured ({move_count} cursor moves), actions {runs[NEW].actions}"
            f"{', game over' if runs[NEW].over else ''}", count, len(stock), digits=0),
        Row(f"{name}: bus transfers per cursor move, mean", mean([s.wire_transfers for s in moves[0]]),
            mean([s.wire_transfers for s in moves[1]]), digits=1),
        Row(f"{name}: bus bytes per cursor move, mean", mean([s.wire_bytes for s in moves[0]]),
            mean([s.wire_bytes for s in moves[1]]), digits=0),
        Row(f"{name}: bus bytes per press, mean", *both(lambda s: mean([x.wire_bytes for x in s])), digits=0),
        Row(f"{name}: bus time per press (wire and kernel), p99",
            *both(lambda s: percentile([x.bus_s() * 1e3 for x in s], 0.99)), "ms", 2),
        Row(f"{name}: CPU press -> own frame sent, p99 [this machine]",
            *both(lambda s: percentile([x.own_cpu_ns / 1e6 for x in s], 0.99)), "ms", 2),
        Row(f"{name}: CPU press -> last frame sent, p99 [this machine]",
            *both(lambda s: percentile([x.cpu_ns / 1e6 for x in s], 0.99)), "ms", 2),
        light_row("pressing seat lit, p50", 0.5, own=True),
        light_row("pressing seat lit, p99", 0.99, own=True, target=f"<= {OWN_LIGHT_P99_MS:g} ms",
                  met=lambda value, _: value <= OWN_LIGHT_P99_MS),
        light_row("... of cursor moves, p99", 0.99, own=True, moves=True),
        light_row("... of ok presses, p99", 0.99, own=True, moves=False),
        light_row("every changed screen lit, p50", 0.5, own=False),
        light_row("every changed screen lit, p99", 0.99, own=False,
                  target=f"<= {ALL_LIGHT_P99_MS:g} ms, ratio <= {ALL_LIGHT_RATIO:g}",
                  met=lambda value, base: value <= ALL_LIGHT_P99_MS and value <= ALL_LIGHT_RATIO * base),
    ]


def cold_start_rows(settings: Settings) -> list[Row]:
    try:
        figures = measure_cold_start(runs=settings.cold_runs)
    except RuntimeError as exc:  # a table that does not start must not cost the other figures
        _log.error("cold start not measured: %s", exc)
        return [Row(f"cold start to READY=1 / python -c pass: failed: {exc}", None,
                    target=f"<= {COLD_START_RATIO:g}", met=False)]
    ready_ms = figures.ready_median_s * 1e3
    return [
        Row(f"cold start to READY=1 / python -c pass, median of {len(figures.ready_s)} pairs",
            figures.ratio, digits=1, target=f"<= {COLD_START_RATIO:g}", met=figures.ratio <= COLD_START_RATIO),
        Row("cold start to READY=1, median [this machine]", ready_ms, unit="ms", digits=0,
            per_board={b.column: ready_ms * b.factor for b in BOARDS}),
        Row("python -c pass, median [this machine]", figures.bare_median_s * 1e3, unit="ms", digits=0),
        Row("... the libraries a table loads before READY alone (gpiozero, luma and Pillow, transitions, "
            "tomllib) / python -c pass", figures.libraries_ratio, digits=1),
    ]


def memory_rows(settings: Settings, game: str = "tenno", seats: int = 7, wiring: str = "pi-7") -> list[Row]:
    """Resident memory of a running table on each path, each in its own process."""
    new = measure_rss(NEW, game, seats, settings.memory_presses, wiring)
    stock = measure_rss(STOCK, game, seats, settings.memory_presses, wiring)
    return [
        Row(f"{game} {seats} seats on {wiring}: resident memory after {new['presses']} presses",
            new["rss_kb"] / 1024, stock["rss_kb"] / 1024, "MB", 1,
            target=f"< {RSS_MB:g} MB", met=new["rss_kb"] / 1024 < RSS_MB),
        Row(f"{game} {seats} seats on {wiring}: peak resident memory", new["peak_kb"] / 1024,
            stock["peak_kb"] / 1024, "MB", 1),
    ]


def page_rows(settings: Settings, seed: int, out: Callable[[str], None]) -> list[Row]:
    """The table page's cost on a press (``bench.web``): a seven-seat Tennō table with it and without."""
    try:
        from . import web

        return web.rows("tenno", 7, settings, seed=seed)
    except ImportError as exc:  # a checkout without the web extra
        out(f"table page not measured: {exc}")
        return []


def public_rows(settings: Settings, seed: int) -> list[Row]:
    """Pixel bytes per frame of each public screen, beside the frame sent whole."""
    rows = []
    for figures in measure_public(seed=seed, max_actions=settings.public_actions):
        rows.append(Row(f"public {figures.label}: pixel bytes per frame, mean ({figures.frames} frames)",
                        figures.per_frame, figures.whole_frame, digits=0))
        if figures.label.startswith("ssd1306"):
            continue
        rows.append(Row(f"public {figures.label}: SPI 8 MHz time per frame, mean",
                        figures.per_frame * 8 / wire.SPI_HZ * 1e3, figures.whole_frame * 8 / wire.SPI_HZ * 1e3,
                        "ms", 1))
    return rows


def format_table(rows: list[Row]) -> str:
    """Lay the rows out as a fixed-width text table."""
    def number(value: float | None, digits: int, unit: str) -> str:
        if value is None:
            return ""
        return f"{value:,.{digits}f}" + (f" {unit}" if unit else "")

    columns = [board.column for board in BOARDS]
    header = ("figure", "courtier", "fair stock", "ratio", *columns, "target", "")
    cells = [header]
    for row in rows:
        ratio = row.ratio
        verdict = {True: "met", False: "NOT met", None: ""}[row.met]
        cells.append((row.label, number(row.new, row.digits, row.unit),
                      number(row.stock, row.digits, row.unit),
                      "" if ratio is None else f"{ratio:.3f}",
                      *(number(row.per_board.get(column), row.digits, row.unit) for column in columns),
                      row.target, verdict))
    widths = [max(len(line[i]) for line in cells) for i in range(len(header))]
    lines = []
    for count, line in enumerate(cells):
        text = "  ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                         for i, (cell, width) in enumerate(zip(line, widths)))
        lines.append(text.rstrip())
        if count == 0:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


def notes(check: float | None) -> list[str]:
    """What the figures mean, printed under the table."""
    lines = [
        "courtier: hardware.partial drivers (changed spans only, identical frames skipped). fair stock: luma.oled's "
        "own drivers (the whole frame on every display()). Both: the same runtime (only seats whose face changed are "
        "redrawn, the pressing seat first), buttons, journal, and the bus the table file wires, recorded below "
        "smbus2 and spidev.",
        f"Bus: I2C {wire.I2C_HZ // 1000} kHz, 9 clocks per byte (the address byte included) and START/STOP per "
        f"transfer; SPI {wire.SPI_HZ // 10**6} MHz, 8 clocks per byte; each transfer also costs "
        f"{wire.KERNEL_TRANSFER_S * 1e6:g} us of kernel time (ioctl, interrupt, wake-up) and each address or GPIO "
        f"call {wire.KERNEL_CALL_S * 1e6:g} us.",
        f"Press to light = input debounce (stock: lgpio's delay of the table's bounce_time; courtier: 0, the first "
        f"edge counts) + the runtime's CPU time x the board + the bus time until the frame is sent + "
        f"{boards.SCANOUT_S * 1e3:.1f} ms of panel scan-out (one SSD1306 frame at 88 Hz, whole). 'pressing seat' ends "
        f"with that seat's frame, 'every changed screen' with the last one.",
        "Boards (CPU time x): " + ", ".join(f"{b.name} x{b.factor:g}" for b in BOARDS[1:])
        + "; see bench/boards.py for the sources.",
    ]
    if check is not None:
        lines.append(f"Calibration check: n-body here puts a Pi 4 at x{check:.1f} this run "
                     f"(the published Pi 4 time over this machine's; it moves with the load on this machine).")
    lines.append("Engine: engine.testing.play_random (the uniform random policy) to the end, seeds 0.., CPU time "
                 "on one thread; targets at each game's most players, on this machine. Beside it ('fair stock' "
                 f"column), the engine of commit {TARGETS_SET[:7]}, whose figures the targets were set beside "
                 "(Quo Vadis and Shadow about 30, Tenno 150-165), timed in turn in this run (bench/then.py): "
                 "its ratio is the target's own, whatever this machine's speed.")
    lines.append("public: a four-seat Tennō game by bots, every page of the public screen shown after each action; "
                 "fair stock: each frame sent whole.")
    return lines


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a tiny run that only checks the bench works")
    parser.add_argument("--seed", type=int, default=1, help="seed of the played tables")
    parser.add_argument("--engine", action="store_true",
                        help="the engine's rows alone (whole random games per second), in a minute or so")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    started = time.perf_counter()
    out(f"courtier bench{' (quick: figures mean nothing)' if args.quick else ''}: "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load {os.getloadavg()[0]:.1f}, luma.oled {metadata.version('luma.oled')}, "
        f"Pillow {metadata.version('Pillow')}")
    rows = engine_rows(settings, out)
    if args.engine:
        out("")
        out(format_table(rows))
        out(f"bench took {time.perf_counter() - started:.0f} s")
        return 0
    names = {game.name for game in all_games()}
    for game, seats, wiring, checked in TABLES:
        if game not in names:
            out(f"{game} is not registered: its table is left out")
            continue
        try:
            runs = play_both(game, seats, wiring, seed=args.seed, max_events=settings.max_presses,
                             warmup=settings.warmup)
        except Exception as exc:  # a game under construction must not stop the bench
            _log.exception("%s table failed", game)
            out(f"{game} {seats} seats: failed: {type(exc).__name__}: {exc}")
            continue
        rows.extend(table_rows(game, seats, wiring, runs, checked=checked))
    rows.extend(page_rows(settings, args.seed, out))
    rows.extend(cold_start_rows(settings))
    rows.extend(memory_rows(settings))
    try:
        rows.extend(public_rows(settings, args.seed))
    except Exception as exc:  # the public screens must not stop the rest of the bench
        _log.exception("public screens failed")
        out(f"public screens: failed: {type(exc).__name__}: {exc}")
    check = None if args.quick else boards.pi4_factor_now()
    out("")
    out(format_table(rows))
    out("")
    for line in notes(check):
        out(line)
    out(f"bench took {time.perf_counter() - started:.0f} s")
    return 0
