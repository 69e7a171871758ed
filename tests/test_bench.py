"""Smoke tests of the bench: its measuring functions run on tiny configurations and return sane fields.

No timing is asserted: only that the figures exist, are consistent with each
other, and that the byte counts (which do not depend on the machine) are right.
"""

from __future__ import annotations

import pytest

from bench import bus
from bench.latency import NEW, STOCK, driver_cpu, percentile, play_both
from bench.memory import measure_rss
from bench.run import main
from bench.throughput import measure_engine
from engine.games import all_games

FULL_FRAME = [("command", bytes(6)), ("data", bytes(1024))]


def test_bus_model_of_a_full_ssd1306_frame():
    """One full frame is 9,310 I2C clocks (23.3 ms at 400 kHz) and 1,030 bytes (1.03 ms at 8 MHz SPI)."""
    assert bus.payload_bytes(FULL_FRAME) == 1030
    assert bus.i2c_clocks(FULL_FRAME) == 9 * (6 + 2) + 2 + 9 * (1024 + 2) + 2
    assert bus.i2c_seconds(FULL_FRAME) == pytest.approx(0.023275)
    assert bus.spi_seconds(FULL_FRAME) == pytest.approx(0.00103)


def test_bus_model_splits_long_data_like_luma():
    """Data past 4,096 bytes is a second transfer with its own address and control byte."""
    one = bus.i2c_clocks([("data", bytes(4096))])
    two = bus.i2c_clocks([("data", bytes(4097))])
    assert two - one == 9 * (1 + 2) + 2


def test_bus_model_of_a_bus_handed_to_luma_writes_32_byte_blocks():
    """On a bus handed to luma (behind a multiplexer) 1,024 data bytes are 32 transfers."""
    frame = [("data", bytes(1024))]
    assert bus.i2c_clocks(frame, block=32) - bus.i2c_clocks(frame) == 31 * (9 * 2 + 2)


def test_engine_throughput_plays_whole_games():
    """A tiny throughput run plays whole games and reports consistent rates."""
    figures = measure_engine("tenno", 2, budget=0, min_games=2)
    assert figures.games == 2 and figures.actions > 2 and figures.seconds > 0
    assert figures.actions_per_second == pytest.approx(figures.actions / figures.seconds)
    assert figures.games_per_second == pytest.approx(2 / figures.seconds)


def test_both_paths_see_the_same_presses_and_stock_sends_every_frame_whole():
    """The new and stock tables get the same presses; stock sends seats x 1,030 bytes each time."""
    runs = play_both("tenno", 3, seed=2, max_events=15, warmup=2)
    new, stock = runs[NEW].samples, runs[STOCK].samples
    assert len(new) == len(stock) == 15
    assert [(s.seat, s.button) for s in new] == [(s.seat, s.button) for s in stock]
    assert all(s.bytes == 3 * 1030 and s.frames == 3 for s in stock)
    assert all(s.bytes < 3 * 1030 and 0 <= s.frames <= 3 for s in new)
    assert any(s.bytes > 0 for s in new)
    assert all(s.cpu_ns >= 0 and s.wall_ns > 0 for s in new + stock)
    assert all(s.i2c_s == pytest.approx(s.frames * 0.023275) for s in stock)
    assert sum(len(seat) for seat in runs[NEW].frames) == sum(s.frames for s in new)


def test_the_button_player_finishes_a_game():
    """Pressing buttons alone, the player walks every menu to a chosen action until the game ends."""
    runs = play_both("tenno", 2, seed=3, max_events=3000, warmup=0)
    assert runs[NEW].over and runs[STOCK].over
    assert runs[NEW].actions == runs[STOCK].actions > 0


def test_driver_cpu_times_every_frame_on_both_drivers():
    """driver_cpu times one display() per frame on each driver."""
    runs = play_both("tenno", 2, seed=1, max_events=6, warmup=0)
    times = driver_cpu(runs[NEW].frames)
    count = sum(len(seat) for seat in runs[NEW].frames)
    assert len(times[NEW]) == len(times[STOCK]) == count > 0


def test_percentile_is_nearest_rank():
    """p50 and p99 are values of the sample, by nearest rank."""
    values = list(range(1, 101))
    assert percentile(values, 0.5) == 50 and percentile(values, 0.99) == 99
    assert percentile([7], 0.99) == 7 and percentile([], 0.5) == 0.0


def test_memory_of_a_running_table_is_measured_in_a_child():
    """The child process opens a table, presses buttons and reports its resident memory."""
    figures = measure_rss("new", "tenno", 3, presses=5)
    assert figures["presses"] == 5
    assert 0 < figures["rss_kb"] <= figures["peak_kb"]


def test_quick_run_prints_every_figure():
    """A quick run prints each registered game's throughput and every table and memory figure."""
    lines: list[str] = []
    assert main(["--quick"], out=lines.append) == 0
    text = "\n".join(lines)
    for game in all_games():
        assert f"{game.name} {game.max_players}p: actions applied /s" in text
        assert f"{game.name} {game.max_players}p: whole random games /s" in text
    for figure in ("CPU press -> frames sent, p50", "CPU press -> frames sent, p99",
                   "bus bytes per press, mean", "bus bytes per cursor move, mean",
                   "I2C 400 kHz bus time, p99", "SPI 8 MHz bus time, p99",
                   "Pi Zero button-to-light (CPU x10 + I2C), p99",
                   "driver display() CPU per frame sent, p50",
                   "resident memory"):
        assert f"tenno 7 seats: {figure}" in text
    four = "shadow 4 seats" if "shadow" in {g.name for g in all_games()} else "quovadis 4 seats"
    assert f"{four}: bus bytes per cursor move, mean" in text
    assert "new/stock" in text


def test_bots_bench_plays_seeded_games_and_counts_them():
    """One short game per game with a tiny search: the record adds up, and replays from its seed."""
    from bench.bots import QUICK_LEVEL, Table, play_game

    for game in all_games():
        table = Table(game.name, game.min_players, "easy", "random")
        record = play_game(table, seed=1, level=QUICK_LEVEL)
        assert record.opponents == game.min_players - 1 and record.actions > 0
        assert 0 <= record.won <= 1 and 0 <= record.ahead <= record.opponents
        assert record.iterations and set(record.iterations) == {record.iterations[0]}  # the budget, never cut
        assert len(record.times) == len(record.iterations)
        again = play_game(table, seed=1, level=QUICK_LEVEL)
        assert (again.won, again.ahead, again.actions) == (record.won, record.ahead, record.actions)


def test_bots_bench_interval_and_table():
    from bench.bots import main, wilson

    low, high = wilson(9, 10)
    assert 0.55 < low < 0.9 < high <= 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    lines = []
    assert main(["--quick", "--game", "tenno", "--vs", "random"], out=lines.append) == 0
    table = "\n".join(lines)
    assert "tenno 2p" in table and "95% CI" in table
