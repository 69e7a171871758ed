"""Smoke tests of the bench: its measuring pieces run on tiny configurations and return sane fields.

No timing is asserted: only that the figures exist and are consistent with
each other, and that what the buses carry (which does not depend on the
machine) is right.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306
from PIL import Image

from bench import wire
from bench.boards import BOARDS, SCANOUT_S, ZERO_2_W
from bench.hotspots import STEPS, profile_game, summary
from bench.coldstart import installed, service_environment
from bench.coldstart import measure as measure_cold_start
from bench.latency import NEW, STOCK, play_both, percentile
from bench.memory import measure_rss
from bench.run import main
from bench.then import ROOT, TARGETS_SET, NoBaseline, engine_then, measure_in_turn
from bench.throughput import measure_engine
from engine.games import all_games
from hardware.mux import I2CBuses


def test_a_transfer_is_its_clocks_on_the_wire_and_the_kernels_share():
    """A 32-byte block after the control byte: 9 x 34 + 2 clocks at 400 kHz, plus 50 us in the kernel."""
    block = wire.Transfer("i2c-1", 0x3C, 33)
    assert block.seconds() == pytest.approx((9 * 34 + 2) / 400_000 + 50e-6)
    assert wire.Transfer("i2c-1", 0x3C, 0, wire=False).seconds() == pytest.approx(5e-6)
    assert wire.Transfer("spi0", 0, 1024).seconds() == pytest.approx(1024 * 8 / 8e6 + 50e-6)
    assert wire.wire_bytes([block, wire.Transfer("spi0", 0, 10)]) == 34 + 10


def test_a_whole_frame_is_two_transfers_on_a_port_and_behind_the_multiplexer():
    """Recorded below smbus2: luma's own i2c and courtier's mux channel both send the frame in one i2c_rdwr."""
    with wire.KernelRecorder() as kernel:
        log = kernel.current
        direct = ssd1306(i2c(port=1, address=0x3C))
        start = log.mark()
        direct.display(Image.new("1", (128, 64), 1))
        assert [t.size for t in log.since(start) if t.wire] == [7, 1025]  # control + 6 commands; control + frame
        panel = ssd1306(I2CBuses().channel(port=1, mux=0x70, channel=2, address=0x3C))
        start = log.mark()
        panel.display(Image.new("1", (128, 64), 1))
        sent = log.since(start)
        assert [t.size for t in sent if t.wire] == [7, 1025]
        assert {t.address for t in sent if t.wire} == {0x3C}, "the channel was already selected"
        assert sum(1 for t in log.transfers if t.wire and t.address == 0x70) == 1, "one channel select"


def test_a_partial_window_is_one_transfer_on_a_port_and_behind_the_multiplexer():
    """Recorded below smbus2: courtier's drivers send a window's commands and data in one i2c_rdwr message."""
    from hardware.panel_i2c import PanelI2C
    from hardware.partial import PartialSSD1306

    with wire.KernelRecorder() as kernel:
        log = kernel.current
        for interface in (PanelI2C(port=1, address=0x3C),
                          I2CBuses().channel(port=1, mux=0x70, channel=2, address=0x3C)):
            panel = PartialSSD1306(interface)
            image = Image.new("1", (128, 64))
            image.putpixel((5, 3), 1)
            start = log.mark()
            panel.display(image)
            assert [t.size for t in log.since(start) if t.wire] == [12 + 1 + 1]  # 6 commands after 0x80, 0x40, a byte


def test_engine_throughput_plays_whole_games():
    """A tiny throughput run plays whole games and reports consistent rates."""
    figures = measure_engine("tenno", 2, budget=0, min_games=2)
    assert figures.games == 2 and figures.actions > 2 and figures.seconds > 0
    assert figures.actions_per_second == pytest.approx(figures.actions / figures.seconds)
    assert figures.games_per_second == pytest.approx(2 / figures.seconds)


def test_a_run_in_parts_plays_the_seeds_one_run_plays():
    whole = measure_engine("tenno", 3, budget=0, min_games=3)
    parts = [measure_engine("tenno", 3, budget=0, min_games=n, first=first) for first, n in ((0, 1), (1, 2))]
    assert sum(p.games for p in parts) == whole.games == 3
    assert sum(p.actions for p in parts) == whole.actions


def _has_commit(commit: str) -> bool:
    found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True)
    return found.returncode == 0


needs_history = pytest.mark.skipif(not shutil.which("git") or not _has_commit(TARGETS_SET),
                                   reason=f"this checkout does not hold commit {TARGETS_SET[:7]} (no history)")


def test_a_commit_the_checkout_does_not_hold_is_no_baseline_and_says_so():
    with pytest.raises(NoBaseline, match="does not hold commit 0000000"):
        with engine_then("0" * 40):
            pass


@needs_history
def test_the_engine_the_targets_were_set_beside_is_laid_out_from_history_and_played_in_turn(tmp_path):
    """The older engine plays in its own process on its own code: today's engine, laid out the same way,
    plays exactly today's games; the older one its own."""
    with engine_then() as tree:
        assert (tree / "engine" / "match.py").is_file()
        assert (tree / "engine" / "match.py").read_bytes() != (ROOT / "engine" / "match.py").read_bytes()
        now, then = measure_in_turn(tree, "quovadis", 5, budget=0, min_games=2, turns=2)
    assert now.games == then.games == 2 and now.seconds > 0 and then.seconds > 0
    assert now.actions == measure_engine("quovadis", 5, budget=0, min_games=2).actions
    assert then.actions != now.actions  # the rules and the policy's draws of that day played other games
    same = tmp_path / "today"
    shutil.copytree(ROOT / "engine", same / "engine")
    cores = os.sched_getaffinity(0)
    now, again = measure_in_turn(same, "tenno", 4, budget=0, min_games=2, turns=2)
    assert (again.games, again.actions) == (now.games, now.actions)
    assert os.sched_getaffinity(0) == cores  # given back: the bench's other parts run where the system puts them


def test_a_tree_without_the_older_engine_or_a_broken_one_is_refused_never_measured_as_it(tmp_path):
    with pytest.raises(NoBaseline, match="imported the engine at .*not the one laid out"):
        measure_in_turn(tmp_path, "tenno", 2, budget=0, min_games=1, turns=1)  # the child finds today's
    shutil.copytree(ROOT / "engine", tmp_path / "engine")
    (tmp_path / "engine" / "testing.py").write_text("raise RuntimeError('a broken engine')\n", encoding="utf-8")
    with pytest.raises(NoBaseline, match="did not play tenno: RuntimeError: a broken engine"):
        measure_in_turn(tmp_path, "tenno", 2, budget=0, min_games=1, turns=1)


def test_the_profile_finds_each_step_under_the_games_own_functions():
    """A game's hot steps are its rules module's functions, not `Game`'s methods of those names."""
    lines = summary(profile_game("tenno", 3, 1), "tenno")
    shares = {line.split("%", 1)[1].strip(): float(line.split("%")[0]) for line in lines[1:1 + len(STEPS)]}
    assert list(shares) == [label for label, _ in STEPS]
    assert all(share > 0 for share in shares.values()), shares
    assert shares["legal actions (cached per state by the match)"] < 100
    parted = summary(profile_game("quovadis", 3, 1), "quovadis")  # its legal actions come in two parts
    assert 0 < float(parted[1 + [label for label, _ in STEPS].index("legal actions (cached per state by the match)")]
                     .split("%")[0]) < 100


def test_both_tables_get_the_same_presses_on_the_same_wiring():
    """courtier and stock are pressed alike; stock puts whole frames on the bus, courtier far less."""
    runs = play_both("tenno", 3, "pi-7", seed=2, max_events=15, warmup=2)
    new, stock = runs[NEW].samples, runs[STOCK].samples
    assert len(new) == len(stock) == 15
    assert [(s.seat, s.button) for s in new] == [(s.seat, s.button) for s in stock]
    assert sum(s.wire_bytes for s in new) < sum(s.wire_bytes for s in stock)
    assert all(s.wire_bytes >= 1024 * s.frames for s in stock)
    assert all(0 <= s.own <= len(s.transfers) and 0 <= s.own_cpu_ns <= s.cpu_ns for s in new + stock)
    assert all(s.debounce_s == 0 for s in new) and all(s.debounce_s == 0.02 for s in stock)
    for sample in new:
        light = sample.light_s(ZERO_2_W)
        assert light == pytest.approx(sample.own_cpu_ns / 1e9 * 15 + sample.bus_s(own=True) + SCANOUT_S)
        assert sample.light_s(ZERO_2_W, own=False) >= light


def test_the_button_player_finishes_a_game():
    """Pressing buttons alone, the player walks every menu to a chosen action until the game ends."""
    runs = play_both("tenno", 2, "pi-4", seed=3, max_events=3000, warmup=0)
    assert runs[NEW].over and runs[STOCK].over
    assert runs[NEW].actions == runs[STOCK].actions > 0
    assert any(t.spi for s in runs[NEW].samples for t in s.transfers) is False  # seats 1-2 of pi-4 are I2C


def test_percentile_is_nearest_rank():
    """p50 and p99 are values of the sample, by nearest rank."""
    values = list(range(1, 101))
    assert percentile(values, 0.5) == 50 and percentile(values, 0.99) == 99
    assert percentile([7], 0.99) == 7 and percentile([], 0.5) == 0.0


def test_boards_are_slower_than_this_machine_in_order():
    assert [b.factor for b in BOARDS] == sorted(b.factor for b in BOARDS) and BOARDS[0].factor == 1


def test_memory_of_a_running_table_is_measured_in_a_child():
    """The child process opens a table, presses buttons and reports its resident memory."""
    figures = measure_rss(NEW, "tenno", 3, presses=5)
    assert figures["presses"] == 5
    assert 0 < figures["rss_kb"] <= figures["peak_kb"]


def test_cold_start_waits_for_ready_and_times_python_beside_it():
    figures = measure_cold_start(runs=1, warmup=0)
    assert len(figures.ready_s) == len(figures.bare_s) == 1
    assert figures.ready_s[0] > 0 and figures.bare_s[0] > 0 and figures.ratio > 0


def test_the_libraries_start_is_timed_beside_the_table_and_loads_nothing_the_table_does_not():
    """The libraries' floor: every module it imports is one a table started as the service has loaded at READY."""
    import json
    import os
    import sys
    import tempfile

    from bench.coldstart import LIBRARIES

    figures = measure_cold_start(runs=1, warmup=0)
    assert len(figures.libraries_s) == 1 and 0 < figures.libraries_s[0] and figures.libraries_ratio > 0
    root = Path(__file__).resolve().parents[1]
    env = {**{k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}, "PYTHONPATH": str(root),
           "COURTIER_HARDWARE": "mock"}
    alone = subprocess.run([sys.executable, "-c", LIBRARIES + "import json, sys; print(json.dumps(list(sys.modules)))"],
                           capture_output=True, text=True, env=env, timeout=120, check=True).stdout
    at_ready = ("import json, sys, systemd_watchdog\n"
                "def ready(self):\n    print('at ready', json.dumps(list(sys.modules)))\n    raise SystemExit(0)\n"
                "systemd_watchdog.WatchDog.ready = ready\n"
                "from firmware.__main__ import main\nmain()\n")
    with tempfile.TemporaryDirectory() as state:
        table = subprocess.run([sys.executable, "-c", at_ready, "play", "tenno", "--players", "7", "--table",
                                str(root / "hardware" / "tables" / "pi-7.toml"), "--ui", "none", "--state-dir",
                                state, "--new"], capture_output=True, text=True, env=env, timeout=120, cwd=state)
    assert table.returncode == 0, table.stderr
    loaded = next(json.loads(line.removeprefix("at ready ")) for line in table.stdout.splitlines()
                  if line.startswith("at ready "))
    assert set(json.loads(alone)) - set(loaded) == set()


# What an installed start has loaded before courtier's first module, and where courtier comes from.
INSTALLED = "import sys, firmware; print(firmware.__file__, sorted(m for m in sys.modules if 'editable' in m))"


def test_cold_start_times_courtier_as_installed_on_the_pi_not_the_editable_tree(tmp_path):
    """The start measured is the service's: pip's script in a venv of its own, courtier compiled in that venv's
    site-packages, no editable-install finder read by every start (nor by the bare Python beside it)."""
    install = installed(tmp_path)
    result = subprocess.run([str(install.python), "-c", INSTALLED], env=service_environment(), cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    where, finders = result.stdout.split(" ", 1)
    assert Path(where).is_relative_to(tmp_path / "venv") and finders.strip() == "[]"
    assert list((Path(where).parent / "__pycache__").glob("__init__.*.pyc"))
    assert install.script.read_text().splitlines()[0] == f"#!{install.python}"
    assert "from firmware.__main__ import main" in install.script.read_text()


def test_cold_start_stops_its_table_even_when_the_bench_ignores_ctrl_c():
    """A bench started in the background has SIGINT ignored; the table it starts must still stop on it."""
    import signal

    saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        figures = measure_cold_start(runs=1, warmup=0)
    finally:
        signal.signal(signal.SIGINT, saved)
    assert figures.ready_s[0] > 0


def test_quick_run_prints_every_figure():
    """A quick run prints each registered game's throughput and every table, cold-start and memory figure."""
    lines: list[str] = []
    assert main(["--quick"], out=lines.append) == 0
    text = "\n".join(lines)
    for game in all_games():
        assert f"{game.name} {game.max_players}p: whole uniform-random games /s" in text
    for figure in ("bus transfers per cursor move, mean", "bus bytes per cursor move, mean",
                   "pressing seat lit, p99 [Zero 2 W]", "every changed screen lit, p99 [Zero 2 W]",
                   "CPU press -> own frame sent, p99", "resident memory"):
        assert f"tenno 7 seats on pi-7: {figure}" in text
    assert "cold start to READY=1 / python -c pass" in text
    assert "fair stock" in text and "Zero 2 W x15" in text and "Pi 4 x4.75" in text


def test_an_engine_run_prints_the_engine_rows_alone():
    lines: list[str] = []
    assert main(["--quick", "--engine"], out=lines.append) == 0
    text = "\n".join(lines)
    for game in all_games():
        assert f"{game.name} {game.max_players}p: whole uniform-random games /s" in text
        if _has_commit(TARGETS_SET):
            assert f"{game.name} {game.max_players}p: ... beside the engine the target was set beside" in text
        else:
            assert "the engine the targets were set beside is not measured: this checkout does not hold" in text
    assert "pressing seat lit" not in text and "cold start" not in text and "resident memory" not in text


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


def test_bots_bench_judges_the_target_by_the_seats_beaten_and_says_when_the_interval_cannot_tell():
    """Seven-seat Tennō: a bot that wins a game in five but beats 70 % of the seats meets the 60 % target."""
    from bench.bots import Row, Table, format_rows

    def row(won: float, ahead: float, games: int = 100) -> str:
        table = Table("tenno", 7, "strong", "rules")
        line = format_rows([Row(table, games, won, ahead, 6 * games, 0.1, 0.12, 100, 140)]).splitlines()[-1]
        return line

    assert ">= 60% met" in row(won=20, ahead=420) and "unsure" not in row(won=20, ahead=420)
    assert ">= 60% NOT met" in row(won=90, ahead=300)  # winning most games while beaten by most seats: not met
    assert ">= 60% met (unsure)" in row(won=2, ahead=38, games=10)  # 63 % of 60 seat-games: 51 %-74 %
