"""The whole bench in one run, printed as one table with the stock path beside the new one.

``python -m bench`` (``make bench``) measures:

- engine throughput per registered game, at its fewest and most players:
  actions applied per second and whole seeded random games per second, on one
  thread (see ``bench.throughput``);
- for a seven-seat Tennō table and a four-seat Shadow table (a four-seat
  Quo Vadis table if Shadow is not registered), per button press, on the new
  and the stock screen path side by side (see ``bench.latency``): CPU time
  from the press to the last frame sent (p50, p99), frames and bytes put on
  the buses, their modelled time on 400 kHz I2C and 8 MHz SPI (see
  ``bench.bus``), and the modelled button-to-light time on a Pi Zero 2 W;
- the table page's cost on a press: the seven-seat Tennō table serving
  its LAN page to three event-stream clients, beside the same table without
  the page (see ``bench.web``);
- the resident memory of a running seven-seat table, per path (see
  ``bench.memory``).

``--quick`` runs a tiny configuration (for the smoke test), whose figures
mean nothing.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import time
from dataclasses import dataclass
from importlib import metadata
from typing import Callable

from engine.games import all_games

from . import bus
from .latency import (NEW, PI_ZERO_SLOWDOWN, STOCK, EventSample, TableRun, driver_cpu, mean,
                      percentile, play_both)
from .memory import measure_rss
from .throughput import EngineFigures, measure_engine

_log = logging.getLogger(__name__)

# Issue 6's targets.
GAMES_PER_SECOND = {"tenno": 300, "quovadis": 100, "shadow": 20}
MOVE_BYTES_RATIO = 0.1
LIGHT_P99_MS = 30.0
RSS_MB = 60.0


@dataclass(frozen=True)
class Settings:
    """How much to measure."""

    engine_seconds: float
    engine_min_games: int
    max_presses: int
    warmup: int
    memory_presses: int


FULL = Settings(engine_seconds=2.0, engine_min_games=3, max_presses=5000, warmup=10,
                memory_presses=300)
QUICK = Settings(engine_seconds=0.0, engine_min_games=1, max_presses=12, warmup=2,
                 memory_presses=10)


@dataclass(frozen=True)
class Row:
    """One line of the table: a figure on the new path, the stock path, and a target."""

    label: str
    new: float | None
    stock: float | None = None
    unit: str = ""
    digits: int = 1
    target: str = ""
    met: bool | None = None

    @property
    def ratio(self) -> float | None:
        if self.new is None or not self.stock:
            return None
        return self.new / self.stock


def engine_rows(settings: Settings, out: Callable[[str], None]) -> list[Row]:
    """Measure every registered game at its fewest and most players."""
    rows = []
    games = all_games()
    out(f"games registered: {', '.join(game.name for game in games)}")
    for game in games:
        for players in sorted({game.min_players, game.max_players}):
            label = f"{game.name} {players}p"
            try:
                figures = measure_engine(game.name, players, budget=settings.engine_seconds,
                                         min_games=settings.engine_min_games)
            except Exception as exc:  # a game under construction must not stop the bench
                _log.exception("%s failed", label)
                out(f"{label}: failed: {type(exc).__name__}: {exc}")
                continue
            rows.extend(_engine_rows(game.name, label, figures, players == game.max_players))
    return rows


def _engine_rows(game: str, label: str, figures: EngineFigures, checked: bool) -> list[Row]:
    wanted = GAMES_PER_SECOND.get(game)
    target = f">= {wanted}" if wanted and checked else ""
    met = figures.games_per_second >= wanted if wanted and checked else None
    return [
        Row(f"{label}: actions applied /s ({figures.actions_per_game:.0f} per game, "
            f"{figures.games} games)", figures.actions_per_second, digits=0),
        Row(f"{label}: whole random games /s", figures.games_per_second, digits=1,
            target=target, met=met),
    ]


def table_rows(game: str, seats: int, runs: dict[str, TableRun],
               driver_times: dict[str, list[int]], *, checked: bool) -> list[Row]:
    """The per-press figures of one table, new beside stock.

    Args:
        game: Game name, for the labels.
        seats: Seats at the table.
        runs: From ``play_both``.
        driver_times: From ``driver_cpu`` over the new path's frames.
        checked: Whether issue 6's table targets apply to this table.
    """
    new, stock = runs[NEW].samples, runs[STOCK].samples

    def both(figure: Callable[[list[EventSample]], float]) -> tuple[float, float]:
        return figure(new), figure(stock)

    def cpu(share: float) -> Callable[[list[EventSample]], float]:
        return lambda samples: percentile([s.cpu_ns / 1e6 for s in samples], share)

    def light(share: float, moves: bool | None = None, own: bool = True) -> Callable[[list[EventSample]], float]:
        def figure(samples: list[EventSample]) -> float:
            return percentile([(s.own_light_s() if own else s.light_s()) * 1e3 for s in samples
                               if moves is None or s.is_move == moves], share)
        return figure

    def display_us(share: float) -> tuple[float, float]:
        return tuple(percentile([ns / 1e3 for ns in driver_times[path]], share)
                     for path in (NEW, STOCK))

    def bus_ms(kind: str, share: float) -> Callable[[list[EventSample]], float]:
        return lambda samples: percentile([getattr(s, kind) * 1e3 for s in samples], share)

    moves = both(lambda samples: mean([s.bytes for s in samples if s.is_move]))
    move_ratio = moves[0] / moves[1] if moves[1] else None
    light99 = both(light(0.99))
    name = f"{game} {seats} seats"
    count = len(new)
    move_count = sum(1 for s in new if s.is_move)
    rows = [
        Row(f"{name}: presses measured ({move_count} cursor moves), actions "
            f"{runs[NEW].actions}{', game over' if runs[NEW].over else ''}", count, count,
            digits=0),
        Row(f"{name}: CPU press -> frames sent, p50", *both(cpu(0.5)), "ms", 2),
        Row(f"{name}: CPU press -> frames sent, p99", *both(cpu(0.99)), "ms", 2),
        Row(f"{name}: frames sent per press, mean", *both(lambda s: mean([x.frames for x in s])),
            digits=2),
        Row(f"{name}: driver display() CPU per frame sent, p50", *display_us(0.5), "us", 0),
        Row(f"{name}: driver display() CPU per frame sent, p99", *display_us(0.99), "us", 0),
        Row(f"{name}: bus bytes per press, mean", *both(lambda s: mean([x.bytes for x in s])),
            digits=0),
        Row(f"{name}: bus bytes per press, p99",
            *both(lambda s: percentile([x.bytes for x in s], 0.99)), digits=0),
        Row(f"{name}: bus bytes per cursor move, mean", *moves, digits=0,
            target=f"ratio <= {MOVE_BYTES_RATIO}" if checked else "",
            met=move_ratio <= MOVE_BYTES_RATIO if checked and move_ratio is not None else None),
        Row(f"{name}: I2C 400 kHz bus time, p50", *both(bus_ms("i2c_s", 0.5)), "ms", 2),
        Row(f"{name}: I2C 400 kHz bus time, p99", *both(bus_ms("i2c_s", 0.99)), "ms", 2),
        Row(f"{name}: SPI 8 MHz bus time, p50", *both(bus_ms("spi_s", 0.5)), "ms", 3),
        Row(f"{name}: SPI 8 MHz bus time, p99", *both(bus_ms("spi_s", 0.99)), "ms", 3),
        Row(f"{name}: Pi Zero button-to-light (CPU x{PI_ZERO_SLOWDOWN} + I2C), p50",
            *both(light(0.5)), "ms", 1),
        Row(f"{name}: Pi Zero button-to-light (CPU x{PI_ZERO_SLOWDOWN} + I2C), p99", *light99,
            "ms", 1, target=f"< {LIGHT_P99_MS:g} ms" if checked else "",
            met=light99[0] < LIGHT_P99_MS if checked else None),
        Row(f"{name}: ... of cursor moves only, p99", *both(light(0.99, moves=True)), "ms", 1),
        Row(f"{name}: ... of ok presses only, p99", *both(light(0.99, moves=False)), "ms", 1),
        Row(f"{name}: ... until every changed screen is lit, p50", *both(light(0.5, own=False)), "ms", 1),
        Row(f"{name}: ... until every changed screen is lit, p99", *both(light(0.99, own=False)), "ms", 1),
    ]
    return rows


def memory_rows(settings: Settings, game: str, seats: int) -> list[Row]:
    """Resident memory of a running table on each path, each in its own process."""
    new = measure_rss(NEW, game, seats, settings.memory_presses)
    stock = measure_rss(STOCK, game, seats, settings.memory_presses)
    return [
        Row(f"{game} {seats} seats: resident memory after {new['presses']} presses",
            new["rss_kb"] / 1024, stock["rss_kb"] / 1024, "MB", 1,
            target=f"< {RSS_MB:g} MB", met=new["rss_kb"] / 1024 < RSS_MB),
        Row(f"{game} {seats} seats: peak resident memory", new["peak_kb"] / 1024,
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


def format_table(rows: list[Row]) -> str:
    """Lay the rows out as a fixed-width text table."""
    def number(value: float | None, digits: int, unit: str) -> str:
        if value is None:
            return ""
        return f"{value:,.{digits}f}" + (f" {unit}" if unit else "")

    header = ("figure", "new", "stock", "new/stock", "target", "")
    cells = [header]
    for row in rows:
        ratio = row.ratio
        verdict = {True: "met", False: "NOT met", None: ""}[row.met]
        cells.append((row.label, number(row.new, row.digits, row.unit),
                      number(row.stock, row.digits, row.unit),
                      "" if ratio is None else f"{ratio:.3f}", row.target, verdict))
    widths = [max(len(line[i]) for line in cells) for i in range(len(header))]
    lines = []
    for number_, line in enumerate(cells):
        text = "  ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                         for i, (cell, width) in enumerate(zip(line, widths)))
        lines.append(text.rstrip())
        if number_ == 0:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


def tables_to_play(names: set[str]) -> list[tuple[str, int, bool]]:
    """The (game, seats, targets checked) tables: Tennō 7, and Shadow 4 or Quo Vadis 4 in its place."""
    tables = [("tenno", 7, True)]
    tables.append(("shadow", 4, False) if "shadow" in names else ("quovadis", 4, False))
    return tables


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a tiny run that only checks the bench works")
    parser.add_argument("--seed", type=int, default=1, help="seed of the played tables")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    started = time.perf_counter()
    out(f"courtier bench{' (quick: figures mean nothing)' if args.quick else ''}: "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"luma.oled {metadata.version('luma.oled')}, Pillow {metadata.version('Pillow')}")
    rows = engine_rows(settings, out)
    names = {game.name for game in all_games()}
    for game, seats, checked in tables_to_play(names):
        if game == "quovadis":
            out("shadow is not registered: the four-seat table plays quovadis instead")
        try:
            runs = play_both(game, seats, seed=args.seed, max_events=settings.max_presses,
                             warmup=settings.warmup)
        except Exception as exc:  # a game under construction must not stop the bench
            _log.exception("%s table failed", game)
            out(f"{game} {seats} seats: failed: {type(exc).__name__}: {exc}")
            continue
        rows.extend(table_rows(game, seats, runs, driver_cpu(runs[NEW].frames), checked=checked))
    rows.extend(page_rows(settings, args.seed, out))
    rows.extend(memory_rows(settings, "tenno", 7))
    out("")
    out(format_table(rows))
    out("")
    out("new: hardware.partial drivers (changed spans only, identical frames skipped), only seats "
        "whose face changed redrawn. stock: every seat rendered and sent with luma's full-frame "
        "display() on every press.")
    out("Engine: engine.testing.play_random to the end, seeds 0.., CPU time on one thread; "
        "targets are checked at each game's most players.")
    out(f"Bus model: I2C 9 clocks per byte plus address and control byte and START/STOP per "
        f"transfer, {bus.I2C_HZ // 1000} kHz; SPI 8 clocks per byte, {bus.SPI_HZ // 10**6} MHz; "
        f"all frames of a press one after another (the runtime sends them in turn).")
    out("Button-to-light ends when the pressing seat's own screen shows the answer (the runtime draws "
        "that seat first); 'every changed screen' ends with the last seat's frame.")
    out(f"Button-to-light: this machine's CPU time x{PI_ZERO_SLOWDOWN} (Pi Zero 2 W) plus the "
        f"I2C time of the frames sent until then.")
    out(f"bench took {time.perf_counter() - started:.0f} s")
    return 0
