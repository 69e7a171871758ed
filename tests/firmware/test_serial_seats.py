"""Serial seats and the host console on the Pi side, against the far end of a real pty.

The far end (a pod, a laptop) is the pty's master fd, read and written raw;
the Pi opens the slave through a symlink, as it would open
/dev/serial/by-id/..., so a port can vanish and come back under one name.
Waits are selects with timeouts on the fds; reopening pauses use the clock
the test passes to ``poll(now)``.
"""

from __future__ import annotations

import json
import os
import random
import select

import pytest
import serial

from engine.match import Match
from engine.rng import Rng
from engine.testing import tenno_position
from firmware.links import protocol
from firmware.bots import RandomBot
from firmware.table.faces import describe, seat_face
from firmware.table.menu import Menu
from firmware.table.runtime import Command, Runtime
from firmware.links.serial_seats import Backoff, HostConsole, SerialPump, SerialSeat, seat_panels
from firmware.testing import PtyPort, pi_table_text
from hardware.events import InputEvent
from hardware.factory import open_table
from hardware.link import Link
from hardware.table import emulator_table, parse_table

WAIT = 5.0  # seconds a select may wait for bytes that must come


class PtyEnd(PtyPort):
    """The far end of a pty pair, reached by the Pi through the symlink ``path``."""

    def plug(self) -> None:
        super().plug()
        self.buffer = b""

    def send(self, message: dict) -> None:
        self.write(protocol.encode_line(message))

    def lines(self, count: int = 1) -> list[bytes]:
        """Read exactly ``count`` more lines (newline included); fail if they do not come."""
        while self.buffer.count(b"\n") < count:
            ready, _, _ = select.select([self.master], [], [], WAIT)
            assert ready, f"expected {count} line(s), have {self.buffer!r}"
            self.buffer += os.read(self.master, 65536)
        lines = []
        for _ in range(count):
            end = self.buffer.index(b"\n") + 1
            lines.append(self.buffer[:end])
            self.buffer = self.buffer[end:]
        return lines

    def messages(self, count: int = 1) -> list[dict]:
        return [json.loads(line) for line in self.lines(count)]

    def quiet(self, timeout: float = 0.2) -> bool:
        """True if nothing more arrives within ``timeout`` (used only to prove silence)."""
        if self.buffer:
            return False
        ready, _, _ = select.select([self.master], [], [], timeout)
        return not ready


@pytest.fixture
def far(tmp_path):
    end = PtyEnd(str(tmp_path / "pod"))
    yield end
    end.close()


def arrived(link: Link) -> None:
    """Wait until the Pi's side of the link has bytes to read."""
    ready, _, _ = select.select([link.port.fileno()], [], [], WAIT)
    assert ready, f"{link.name}: nothing arrived"


def poll_until(endpoint, count: int = 1, now: float = 0.0) -> list:
    """Poll a serial seat until it returns ``count`` events."""
    events: list = []
    while len(events) < count:
        arrived(endpoint.link)
        events += endpoint.poll(now)
    return events


def three_seats(far, match=None):
    """A 3-seat Tennō runtime whose seat 1 (Blue) is a pod on the pty."""
    match = match or Match.new("tenno", 3, seed=5, names=["Red", "Blue", "Green"])
    seat = SerialSeat(Link(far.path, name="Blue"), 1)
    runtime = Runtime(match, [None, seat, None])
    return runtime, seat


# --- a serial seat ----------------------------------------------------------------

def test_a_serial_seat_is_sent_its_own_face_when_the_runtime_starts(far):
    runtime, seat = three_seats(far)
    message = far.messages()[0]
    assert message == protocol.encode_face(1, runtime.seats[1].face)
    assert message["name"] == "Blue" and message["v"] == 1
    assert seat.size == (128, 64)


def test_pod_buttons_become_events_of_its_seat_and_redraw_it(far):
    match = tenno_position(3, {0: [4, 9, 3], 1: [8, 5, 3]}, active=1)
    runtime, seat = three_seats(far, match)
    faces = [far.messages()[0]]
    far.send(protocol.encode_button("next", "press"))
    far.send(protocol.encode_button("ok", "hold"))
    events = poll_until(seat, 2)
    assert events == [InputEvent(1, "next", "press"), InputEvent(1, "ok", "hold")]
    for event in events:
        runtime.post(event)
        runtime.drain()
        faces.append(far.messages()[0])
        assert faces[-1] == protocol.encode_face(1, runtime.seats[1].face) and faces[-1] != faces[-2]
    pump = SerialPump(runtime, [seat])
    far.send(protocol.encode_button("prev", "press"))
    arrived(seat.link)
    assert pump.poll(0.0) == 1 and runtime.drain() == 1


@pytest.mark.parametrize("line, reason", [
    (b"\xff\xfe garbage\n", "is not UTF-8"),
    (b"{not json\n", "is not JSON"),
    (b"[1, 2]\n", "is an array, not a JSON object"),
    (b'{"v": 2, "type": "button", "button": "ok", "gesture": "press"}\n', "protocol version 2 is not supported"),
    (b'{"v": 1, "type": "wink"}\n', "unknown message type 'wink'"),
    (b'{"v": 1, "type": "button", "button": "up", "gesture": "press"}\n', "'button' must be one of prev, next, ok"),
    (b'{"v": 1, "type": "command", "name": "undo"}\n', "this link takes hello and button messages, not command"),
])
def test_a_bad_line_from_a_pod_is_answered_and_dropped_and_the_next_one_counts(far, line, reason):
    runtime, seat = three_seats(far)
    far.messages()
    far.write(line + protocol.encode_line(protocol.encode_button("next", "press")))
    events = poll_until(seat)
    assert events == [InputEvent(1, "next", "press")]
    error = far.messages()[0]
    assert error["type"] == "error" and error["v"] == 1
    assert reason in error["message"] and error["message"].startswith("Blue: ")


def test_an_oversized_line_is_answered_once_and_dropped(far):
    runtime, seat = three_seats(far)
    far.messages()
    far.write(b'{"junk": "' + b"x" * 5000 + b'"}\n')
    far.send(protocol.encode_button("ok", "press"))
    assert poll_until(seat) == [InputEvent(1, "ok", "press")]
    error = far.messages()[0]
    assert error["type"] == "error" and "longer than 4096 bytes" in error["message"]
    assert far.quiet()


def test_a_flood_of_bad_lines_gets_at_most_four_answers_a_second(far, caplog):
    """A pod fallen into its REPL would echo each answer back as two bad lines: answers are capped."""
    runtime, seat = three_seats(far)
    far.messages()
    far.write(b"oops\n" * 10 + protocol.encode_line(protocol.encode_button("next", "press")))
    assert poll_until(seat, now=50.0) == [InputEvent(1, "next", "press")]
    assert [m["type"] for m in far.messages(4)] == ["error"] * 4
    assert far.quiet() and seat.suppressed == 6
    far.write(b"oops again\n" + protocol.encode_line(protocol.encode_button("prev", "press")))
    assert poll_until(seat, now=51.0) == [InputEvent(1, "prev", "press")]
    assert "is not JSON" in far.messages()[0]["message"]
    assert "6 more bad lines were dropped unanswered" in caplog.text


def test_a_hello_gets_the_latest_face_again(far):
    runtime, seat = three_seats(far)
    face = far.lines()[0]
    far.send(protocol.encode_hello("courtier-pod/1.0"))
    arrived(seat.link)
    assert seat.poll(0.0) == []
    assert seat.pod == "courtier-pod/1.0"
    assert far.lines()[0] == face


def test_a_vanished_port_is_reopened_with_growing_pauses_and_gets_the_latest_face(far):
    runtime, seat = three_seats(far)
    far.messages()
    far.unplug()
    assert seat.poll(10.0) == [] and not seat.connected          # lost while reading
    assert seat.poll(10.0) == [] and not seat.connected          # tried at once: absent
    assert seat.backoff.next_try == 10.5
    # The game goes on while the pod is away, and Blue's face changes.
    before = runtime.seats[1].face
    runtime.handle(InputEvent(1, "next", "press"))
    assert runtime.seats[1].face != before and seat.face == runtime.seats[1].face
    far.plug()                                                  # plugged in again
    assert seat.poll(10.4) == [] and not seat.connected          # not due yet: no attempt
    assert seat.poll(10.5) == [] and seat.connected
    assert far.messages()[0] == protocol.encode_face(1, runtime.seats[1].face)
    far.send(protocol.encode_button("next", "press"))
    assert poll_until(seat, now=11.0) == [InputEvent(1, "next", "press")]


class StalledPort:
    """A pyserial port whose writes time out while ``stalled`` (a pod that stopped reading)."""

    def __init__(self, port) -> None:
        self.port = port
        self.stalled = True

    def write(self, data: bytes) -> int:
        if self.stalled:
            raise serial.SerialTimeoutException("Write timeout")
        return self.port.write(data)

    def __getattr__(self, name):
        return getattr(self.port, name)


def test_a_face_whose_write_timed_out_is_sent_again_at_the_next_poll():
    """A write that times out loses no face: the latest is retried at the next poll."""
    match = Match.new("tenno", 3, seed=1)
    with Link("loop://", name="Blue") as link:
        seat = SerialSeat(link, 1)
        runtime = Runtime(match, [None, seat, None])
        link.receive()
        link.port = stalled = StalledPort(link.port)
        runtime.handle(InputEvent(1, "next", "press"))
        assert seat.poll(0.0) == [] and link.port.in_waiting == 0     # still stalled: nothing sent
        stalled.stalled = False
        assert seat.poll(0.0) == []
        assert link.port.read(link.port.in_waiting) == (
            b"\n" + protocol.encode_line(protocol.encode_face(1, runtime.seats[1].face)))
        assert seat.poll(0.0) == [] and link.port.in_waiting == 0     # sent once, not again


def test_backoff_doubles_to_its_longest_and_resets():
    backoff = Backoff(first=0.5, longest=8.0)
    assert backoff.due(0.0)
    pauses = []
    now = 0.0
    for _ in range(7):
        backoff.failed(now)
        pauses.append(backoff.next_try - now)
        assert not backoff.due(backoff.next_try - 0.01) and backoff.due(backoff.next_try)
        now = backoff.next_try
    assert pauses == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    backoff.reset()
    assert backoff.due(now)


def test_on_loop_the_seat_ignores_its_own_faces_instead_of_answering_them():
    """loop:// (a Pi table opened on a laptop) reads back what it writes: no error storm."""
    match = Match.new("tenno", 3, seed=1)
    with Link("loop://", name="Blue") as link:
        seat = SerialSeat(link, 1)
        Runtime(match, [None, seat, None])
        assert link.port.in_waiting > 0
        assert seat.poll(0.0) == [] and seat.poll(0.0) == []
        assert link.port.in_waiting == 0


def test_a_face_too_long_for_the_link_is_a_screen_fault_not_a_crash():
    match = Match.new("tenno", 3, seed=1)
    with Link("loop://", max_line=100, name="Blue") as link:
        runtime = Runtime(match, [None, SerialSeat(link, 1), None])
        assert "longer than the 100-byte line limit" in runtime.seats[1].degraded
        assert "Blue: screen fault" in runtime.face(0).notice


def test_an_error_from_the_pod_is_logged_not_answered(far, caplog):
    runtime, seat = three_seats(far)
    far.messages()
    far.send(protocol.encode_error("line 3 is not JSON; dropped"))
    arrived(seat.link)
    assert seat.poll(0.0) == []
    assert "line 3 is not JSON" in caplog.text
    assert far.quiet()


# --- the pump -----------------------------------------------------------------------

def test_the_pump_thread_posts_pod_buttons_into_the_runtime(far):
    match = tenno_position(3, {0: [4, 9, 3], 1: [8, 5, 3]}, active=1)
    runtime, seat = three_seats(far, match)
    far.messages()
    with SerialPump(runtime, [seat], interval=0.005):
        far.send(protocol.encode_button("next", "press"))
        assert runtime.step(timeout=WAIT), "the pump never posted the press"
    assert far.messages()[0] == protocol.encode_face(1, runtime.seats[1].face)
    assert runtime.seats[1].menu.cursor == 1


def test_one_failing_link_does_not_stop_the_others(far, caplog):
    runtime, seat = three_seats(far)
    far.messages()

    class Broken:
        seat = 0

        def poll(self, now):
            raise RuntimeError("driver bug")

    pump = SerialPump(runtime, [Broken(), seat])
    far.send(protocol.encode_button("next", "press"))
    arrived(seat.link)
    assert pump.poll(0.0) == 1
    assert "driver bug" in caplog.text


def test_play_runs_a_polling_thread_only_for_the_pods_and_the_console_it_has():
    import threading

    from firmware.play import pumps

    runtime = Runtime(Match.new("tenno", 3, seed=1), [None, None, None])

    def polling() -> int:
        return sum(thread.name == "serial-pump" for thread in threading.enumerate())

    idle = polling()
    seat = SerialSeat(Link("loop://", name="Blue"), 1)
    console = HostConsole(Link("loop://", name="console"), runtime)
    for pods, host, threads in (([], None, 0), ([seat], None, 1), ([], console, 1), ([seat], console, 2)):
        with pumps(runtime, pods, host):
            assert polling() == idle + threads, (pods, host)
        assert polling() == idle
    seat.close()
    console.close()


def test_seat_panels_make_serial_seats_of_a_table_files_serial_seats():
    config = parse_table(pi_table_text(seats=2, wiring={1: 'serial = { port = "/dev/ttyACM0" }'}))
    with open_table(config, "mock") as table:
        panels, serial = seat_panels(table.seats)
        assert panels[0] is table.seats[0].screen
        assert serial == [panels[1]] and panels[1].link is table.seats[1].link and panels[1].seat == 1
        runtime = Runtime(Match.new("tenno", 2, seed=1), panels)
        sent = table.seats[1].link.receive()     # loop:// reads back what the seat was sent
        assert sent == [protocol.encode_face(1, runtime.seats[1].face)]


# --- the host console, Pi side ------------------------------------------------------

def console_for(far, match=None):
    match = match or Match.new("tenno", 3, seed=3, names=["Red", "Blue", "Green"])
    runtime = Runtime(match, [None, None, None])
    console = HostConsole(Link(far.path, name="console"), runtime)
    return runtime, console


def test_the_console_gets_the_public_table_on_hello_and_when_it_changes(far):
    runtime, console = console_for(far)
    console.poll(0.0)
    table = far.messages()[0]
    match = runtime.match
    assert table == protocol.encode_table(match.public_view(), match.prompt().line, match.prompt().steps,
                                          match.names, None, [])
    assert console.poll(0.0) == 0 and far.quiet()               # nothing changed: nothing sent
    far.send(protocol.encode_hello("courtier-console/1"))
    arrived(console.link)
    console.poll(0.0)
    assert far.messages()[0] == table                           # hello: sent again
    bot = RandomBot(2)
    seat = match.pending()[0]
    runtime.submit(bot.choose(match.legal_actions(seat)))
    console.poll(0.0)
    after = far.messages()[0]
    assert after["public"] == protocol.without_moves(runtime.match.public_view()) and after != table


def test_console_commands_are_posted_and_replied_to(far):
    runtime, console = console_for(far)
    console.poll(0.0)
    far.messages()
    runtime.commands["end_game"] = lambda: "Game ended"
    far.send(protocol.encode_command("undo"))
    far.send(protocol.encode_command("end_game"))
    far.send(protocol.encode_command("fly", {"to": "moon"}))
    posted = 0
    while posted < 3:
        arrived(console.link)
        posted += console.poll(0.0)
    commands = [runtime.events.get_nowait() for _ in range(3)]
    assert [(c.name, c.args) for c in commands] == [("undo", {}), ("end_game", {}), ("fly", {"to": "moon"})]
    assert all(isinstance(c, Command) for c in commands)
    for command in commands:
        runtime.handle(command)
    replies = [m["message"] for m in far.messages(3)]
    assert replies[0] == "Nothing to take back"
    assert replies[1] == "Game ended"
    assert replies[2].startswith("Unknown command 'fly'; known: end_game, undo")


def test_the_table_message_carries_public_events_and_a_new_game_clears_them(far):
    runtime, console = console_for(far)
    match = runtime.match
    bots = [RandomBot(seat) for seat in range(3)]
    said = []
    runtime.listeners.append(lambda m, action, events: said.extend(describe(m, e) for e in events))
    for _ in range(4):
        seat = match.pending()[0]
        runtime.submit(bots[seat].choose(match.legal_actions(seat)))
    console.poll(0.0)
    table = far.messages()[0]
    assert said and table["log"] == said
    assert runtime.undo()
    console.poll(0.0)
    log = far.messages()[0]["log"]
    assert log == said and log[-1] == "The last action was taken back"
    runtime.replace_match(Match.new("tenno", 3, seed=9), None)
    console.poll(0.0)
    assert far.messages()[0]["log"] == []


def test_the_table_message_does_not_change_when_hidden_cards_are_redealt(far):
    """The console is sent public information only: no redeal of hidden cards shows in it."""
    runtime, console = console_for(far)
    match = runtime.match
    rng = random.Random(4)
    bots = [RandomBot(seat) for seat in range(3)]
    compared = 0
    while not match.is_over:
        before = console.table_message()
        original = match.state
        for seat in range(3):
            match.state = match.game.redeal(original, seat, Rng.seeded(rng.randrange(1 << 30)))
            assert console.table_message() == before
            compared += 1
        match.state = original
        seat = match.pending()[0]
        runtime.submit(bots[seat].choose(match.legal_actions(seat)))
    assert compared > 30


def test_the_console_is_sent_the_table_again_when_its_port_comes_back(far):
    runtime, console = console_for(far)
    console.poll(0.0)
    table = far.lines()[0]
    far.unplug()
    console.poll(1.0)
    assert not console.connected
    far.plug()
    console.poll(1.0)
    assert console.connected
    assert far.lines()[0] == table


# --- secrets on the wire ---------------------------------------------------------------

def test_a_serial_seat_is_sent_only_its_own_face_across_a_whole_game(far):
    """Mixed table: seats 0 and 2 are screens, seat 1 a pod on a pty.

    Each line seat 1 receives is its own face, byte for byte; re-dealing what
    seat 1 may not know leaves those bytes unchanged.
    """
    names = ["Red", "Blue", "Green"]
    match = Match.new("tenno", 3, seed=11, names=names)
    rng = random.Random(11)
    bots = [RandomBot(100 + seat) for seat in range(3)]
    with open_table(emulator_table(3, names), "mock") as table:
        seat = SerialSeat(Link(far.path, name="Blue"), 1)
        runtime = Runtime(match, [table.seats[0].screen, seat, table.seats[2].screen])
        pump = SerialPump(runtime, [seat])
        checked = redealt = 0

        def check() -> None:
            nonlocal checked, redealt
            state = runtime.seats[1]
            line = far.lines()[0]
            message = json.loads(line)
            assert message["type"] == "face" and message["seat"] == 1
            menu = Menu(list(state.menu.path), state.menu.cursor)
            own = seat_face(match.game, names, 1, runtime.match.view(1), runtime.match.legal_actions(1),
                            menu, notice=state.notice)
            assert line == protocol.encode_line(protocol.encode_face(1, own))
            checked += 1
            if runtime.match.is_over:
                return          # at the end every pile is turned face up
            other = match.game.redeal(runtime.match.state, 1, Rng.seeded(rng.randrange(1 << 30)))
            menu = Menu(list(state.menu.path), state.menu.cursor)
            face = seat_face(match.game, names, 1, match.game.view(other, 1),
                             match.game.legal_actions(other, 1), menu, notice=state.notice)
            assert protocol.encode_line(protocol.encode_face(1, face)) == line
            redealt += 1

        check()
        while not runtime.match.is_over:
            pending = runtime.match.pending()[0]
            if pending == 1 and rng.random() < 0.5:
                # Blue moves its cursor on the pod first.
                before = runtime.seats[1].face
                far.send(protocol.encode_button("next", "press"))
                arrived(seat.link)
                while pump.poll(0.0) == 0:
                    arrived(seat.link)
                runtime.drain()
                if runtime.seats[1].face != before:
                    check()
            before = runtime.seats[1].face
            assert runtime.submit(bots[pending].choose(runtime.match.legal_actions(pending)))
            if runtime.seats[1].face != before:
                check()
        assert far.quiet()
    assert checked > 20 and redealt > 10
