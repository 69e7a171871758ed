"""The headless table under systemd: READY once running, then watchdog pings from the loop."""

from __future__ import annotations

import socket

from engine.match import Match
from firmware.play import serve
from firmware.table.runtime import Runtime
from hardware.events import InputEvent
from hardware.factory import open_table
from hardware.table import emulator_table


def test_serve_says_ready_and_pings_the_watchdog_from_its_loop(tmp_path, monkeypatch):
    from systemd_watchdog import WatchDog

    address = str(tmp_path / "notify.sock")
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(address)
    systemd.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    with open_table(emulator_table(3), "mock") as table:
        runtime = Runtime(Match.new("tenno", 3, seed=1), [s.screen for s in table.seats])
        for seat in range(3):
            runtime.post(InputEvent(seat, "ok", "press"))
        messages: list[str] = []
        loops = iter(range(6))
        serve(runtime, stop=lambda: next(loops, None) is None, watchdog=WatchDog())
        systemd.setblocking(False)
        try:
            while True:
                messages.append(systemd.recv(256).decode())
        except BlockingIOError:
            pass
    systemd.close()
    assert messages[0] == "READY=1\n"
    assert "WATCHDOG=1\n" in messages
    assert all(s.arranged for s in runtime.match.state.seats)  # the loop handled the queued presses


def two_seat_table(tmp_path):
    """A table file of two seats, each an SSD1306 on one I2C bus."""
    path = tmp_path / "table.toml"
    path.write_text(
        '[table]\nname = "Two"\n'
        '[[seat]]\nname = "Red"\nbuttons = { prev = 5, next = 6, ok = 13 }\n'
        'screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C }\n'
        '[[seat]]\nname = "Blue"\nbuttons = { prev = 16, next = 20, ok = 21 }\n'
        'screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3D }\n')
    return path


def test_a_table_files_screens_say_starting_before_the_game_loads(tmp_path, monkeypatch):
    """courtier play --table: every seat's screen says "starting..." while the saved game is still loading."""
    import firmware.table.session as session
    from firmware.cli import main
    from firmware.table.faces import boot_face
    from firmware.table.render import render_face
    from hardware import factory

    opened = []
    real_open = factory.open_table

    def open_table(*args, **kwargs):
        opened.append(real_open(*args, **kwargs))
        return opened[-1]

    def loading(*args, **kwargs):
        table = opened[0]
        for seat in table.seats:
            expected = render_face(boot_face(seat.name, "starting..."), seat.screen.size)
            assert seat.screen.image.tobytes() == expected.tobytes(), seat.name
        raise OSError("the state directory went away")  # stop here: the table must still be closed

    monkeypatch.setattr(factory, "open_table", open_table)
    monkeypatch.setattr(session, "open_session", loading)
    monkeypatch.setenv("COURTIER_HARDWARE", "mock")
    table_file = two_seat_table(tmp_path)
    code = main(["play", "tenno", "--table", str(table_file), "--ui", "none", "--state-dir", str(tmp_path / "s")])
    assert code != 0 and len(opened) == 1 and opened[0].closed


def test_a_note_made_while_the_table_starts_is_in_the_first_snapshot(tmp_path, monkeypatch):
    """The page, the console, the public screen and the emulator read the snapshot: a start-up note
    (here: the page cannot be served on a port in use) is in it before anyone presses anything."""
    import socket

    import firmware.play as play
    from firmware.cli import main
    from firmware.public import PublicTable

    logs: list[tuple[str, ...]] = []

    def serve(runtime, *args, **kwargs):
        public = next(w.__self__ for w in runtime.watchers if isinstance(getattr(w, "__self__", None), PublicTable))
        logs.append(public.latest().log)

    monkeypatch.setattr(play, "serve", serve)
    monkeypatch.setenv("COURTIER_HARDWARE", "mock")
    table_file = two_seat_table(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["play", "tenno", "--table", str(table_file), "--ui", "none", "--state-dir", str(tmp_path / "s"),
                     "--web", f"127.0.0.1:{port}"]) == 0
    assert len(logs) == 1 and any(line.startswith("The table page is off: ") for line in logs[0])
