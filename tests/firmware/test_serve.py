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
