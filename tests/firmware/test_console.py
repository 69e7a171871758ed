"""The host console (laptop) against the Pi's HostConsole, over a null-modem made of two pty pairs.

Each end opens a real pty slave through pyserial (a ``Link``); the test
carries bytes between the two masters like a null-modem cable. Waits are
selects on the fds with timeouts; nothing sleeps.
"""

from __future__ import annotations

import io
import json
import os
import select
import threading

import pytest

from engine.match import Match
from firmware.links import protocol
from firmware.bots import RandomBot
from firmware.links.console import ConsoleClient, Keys, run_console
from firmware.table.runtime import Runtime
from firmware.links.serial_seats import CONSOLE_MAX_LINE, HostConsole
from firmware.testing import PtyPort
from hardware.errors import ProtocolError
from hardware.events import InputEvent
from hardware.link import Link

WAIT = 5.0


class NullModem:
    """Two serial ports whose masters the test joins: ``pi`` and ``laptop`` are the slaves' paths."""

    def __init__(self, tmp_path) -> None:
        self.ends = {name: PtyPort(str(tmp_path / name)) for name in ("pi", "laptop")}

    def path(self, name: str) -> str:
        return self.ends[name].path

    def master(self, name: str) -> int:
        return self.ends[name].master

    def carry(self, timeout: float = 0.0) -> bool:
        """Copy whatever either end wrote to the other; True if anything moved."""
        pi, laptop = self.master("pi"), self.master("laptop")
        ready, _, _ = select.select([pi, laptop], [], [], timeout)
        for fd in ready:
            os.write(laptop if fd == pi else pi, os.read(fd, 65536))
        return bool(ready)

    def close(self) -> None:
        for end in self.ends.values():
            end.close()


@pytest.fixture
def modem(tmp_path):
    cable = NullModem(tmp_path)
    yield cable
    cable.close()


class Table:
    """Both ends: the Pi's runtime and HostConsole, and the laptop's ConsoleClient."""

    def __init__(self, modem: NullModem, match: Match | None = None) -> None:
        self.modem = modem
        self.match = match or Match.new("tenno", 3, seed=3, names=["Red", "Blue", "Green"])
        self.runtime = Runtime(self.match, [None, None, None])
        self.host = HostConsole(Link(modem.path("pi"), max_line=CONSOLE_MAX_LINE, name="console"),
                                self.runtime)
        self.client = ConsoleClient(Link(modem.path("laptop"), max_line=CONSOLE_MAX_LINE, name="pi"))
        self.runtime.commands["end_game"] = lambda: "Game over by the console"
        self.runtime.commands["new_game"] = self.new_game

    def new_game(self, game: str, players: int | None = None) -> str:
        if players not in (None, 3):
            return f"This table has 3 seats, not {players}"
        self.runtime.replace_match(Match.new(game, 3, seed=42), None)
        return f"New game: {game}"

    def until(self, done, what: str) -> None:
        """Run both ends (Pi loop, laptop loop, the cable) until ``done()``."""
        fds = [self.host.link.port.fileno(), self.client.link.port.fileno(),
               self.modem.master("pi"), self.modem.master("laptop")]
        while True:
            self.modem.carry()
            self.host.poll(0.0)
            self.runtime.drain()
            self.client.poll()
            if done():
                return
            ready, _, _ = select.select(fds, [], [], WAIT)
            assert ready, f"never saw {what}"


def test_the_console_shows_the_public_table_after_hello(modem):
    table = Table(modem)
    assert table.client.hello()
    table.until(lambda: table.client.table is not None, "the table")
    match = table.match
    assert table.client.table.public == protocol.without_moves(match.public_view())
    lines = table.client.render()
    assert lines[0].startswith("tenno: Red, Blue, Green")
    assert match.prompt().line in lines
    assert not table.client.table.over


def test_undo_new_game_and_end_game_by_keys_each_get_the_pis_reply(modem):
    table = Table(modem)
    table.client.hello()
    table.until(lambda: table.client.table is not None, "the table")
    keys = Keys(table.client, ("tenno", "quovadis"))

    assert keys.feed("u") == ["Asked to undo."]
    table.until(lambda: table.client.replies, "the undo reply")
    assert table.client.replies[-1] == "Nothing to take back"

    bot = RandomBot(1)
    seat = table.match.pending()[0]
    table.runtime.submit(bot.choose(table.match.legal_actions(seat)))
    table.until(lambda: table.client.table.log, "the public log")
    assert keys.feed("u") == ["Asked to undo."]
    table.until(lambda: len(table.client.replies) == 2, "the second undo reply")
    # The console asks the seats, as a seat does at the table: nothing is taken back until one agrees.
    name = table.match.names[seat]
    assert table.client.replies[-1] == f"Asked the table: {name} must agree to take back {name}'s row arrangement"
    assert len(table.match.actions) == 1
    table.runtime.post(InputEvent(seat, "ok", "press"))  # the seat whose arrangement it is: "Yes, agree"
    table.until(lambda: len(table.client.replies) == 3, "the undo's outcome")
    assert table.client.replies[-1] == f"Taken back: {name}'s row arrangement" and table.match.actions == []
    table.until(lambda: table.client.table.log[-1:] == ("The last action was taken back",), "the undo")

    assert keys.feed("n") == [] and keys.prompt.startswith("Game (tenno, quovadis)")
    assert keys.feed("tenno") == [] and keys.prompt.startswith("Players for tenno")
    assert keys.feed("three") == ["'three' is not a number of players."]
    assert keys.feed("3") == ["Asked for a new game of tenno."]
    table.until(lambda: len(table.client.replies) == 4, "the new game reply")
    assert table.client.replies[-1] == "New game: tenno"
    table.until(lambda: table.client.table.log == (), "the new game's table")
    assert table.runtime.match.header.seed == 42

    assert keys.feed("e") == [] and keys.prompt == "End the game? (y/n): "
    assert keys.feed("n") == ["Not ended."]
    assert keys.feed("e") == [] and keys.feed("y") == ["Asked to end the game."]
    table.until(lambda: len(table.client.replies) == 5, "the end game reply")
    assert table.client.replies[-1] == "Game over by the console"
    assert keys.feed("q") == [] and keys.done


def test_keys_cancel_and_refuse_what_they_do_not_know():
    client = ConsoleClient(Link("loop://"))
    keys = Keys(client)
    assert keys.prompt == "[n new game, u undo, e end game, q quit] > "
    assert keys.feed("x") == ["Unknown key 'x'."]
    assert keys.feed("n") == [] and keys.feed("") == ["Cancelled."]
    assert client.link.receive() == []           # nothing was sent
    client.link.close()
    assert not client.undo()
    assert client.replies == ["not sent (undo): no connection to the Pi"]


def test_the_end_of_a_game_renders_the_scores_and_the_winner(modem):
    table = Table(modem)
    match = table.match
    bots = [RandomBot(seat) for seat in range(3)]
    while not match.is_over:
        seat = match.pending()[0]
        table.runtime.submit(bots[seat].choose(match.legal_actions(seat)))
    message = table.host.table_message()
    assert message["over"] is True
    lines = table.client.render(message)
    result = match.result()
    start = lines.index(next(line for line in lines if line.startswith("Final scores:")))
    best = max(result.scores.values())
    assert lines[start + 1].split()[:2] == [match.names[max(result.scores, key=result.scores.get)], str(best)]
    assert lines[-1] == "Winner: " + ", ".join(match.names[w] for w in sorted(result.winners))
    assert sum("<- winner" in line for line in lines) == len(result.winners)


def test_a_bad_line_from_the_pi_is_answered_and_noted(modem):
    table = Table(modem)
    os.write(modem.master("laptop"), b"garbage\n" + protocol.encode_line({"v": 1, "type": "face"}))
    while len(table.client.replies) < 2:
        select.select([table.client.link.port.fileno()], [], [], WAIT)
        table.client.poll()
    assert table.client.replies[0].startswith("bad line from the Pi: pi: line 1 is not JSON")
    assert table.client.replies[1] == "bad line from the Pi: pi: face message: missing field 'seat'"
    answers = b""
    while answers.count(b"\n") < 2:
        ready, _, _ = select.select([modem.master("laptop")], [], [], WAIT)
        assert ready
        answers += os.read(modem.master("laptop"), 65536)
    errors = [protocol.decode(json.loads(line)) for line in answers.splitlines()]
    assert [type(e) for e in errors] == [protocol.ErrorReport, protocol.ErrorReport]
    assert "line 1 is not JSON" in errors[0].message and "missing field 'seat'" in errors[1].message


def test_render_refuses_a_message_that_is_not_a_table():
    client = ConsoleClient(Link("loop://"))
    assert client.render() == ["Waiting for the table..."]
    with pytest.raises(ProtocolError, match="render takes a table message, not 'reply'"):
        client.render(protocol.encode_reply("hi"))
    client.link.close()


class Screen(io.StringIO):
    """The console's stdout (not a terminal, so no clearing codes)."""

    def wait_for(self, text: str, pump) -> None:
        """Run ``pump`` (the Pi's side) until ``text`` has been drawn."""
        while text not in self.getvalue():
            pump()


def test_run_console_draws_the_table_sends_keys_and_prints_replies(modem):
    table = Table(modem)
    read_fd, write_fd = os.pipe()
    stdin = os.fdopen(read_fd, "r")
    screen = Screen()
    thread = threading.Thread(target=run_console, args=(table.client.link, stdin, screen),
                              kwargs={"tick": 0.01})
    fds = [table.host.link.port.fileno(), modem.master("pi"), modem.master("laptop")]

    def pi_side() -> None:
        assert thread.is_alive(), screen.getvalue()
        modem.carry()
        table.host.poll(0.0)
        table.runtime.drain()
        select.select(fds, [], [], 0.05)

    thread.start()
    try:
        screen.wait_for(table.match.prompt().line, pi_side)
        os.write(write_fd, b"u\n")
        screen.wait_for("Pi: Nothing to take back", pi_side)
        os.write(write_fd, b"q\n")
        thread.join(WAIT)
        assert not thread.is_alive()
    finally:
        os.close(write_fd)
        thread.join(WAIT)
        stdin.close()
    text = screen.getvalue()
    assert "tenno: Red, Blue, Green" in text and text.rstrip().endswith("q quit] >")


def test_the_console_command_is_added_to_the_courtier_parser():
    from firmware.cli import build_parser, cmd_console

    args = build_parser().parse_args(["console", "/dev/ttyUSB0", "--baudrate", "57600"])
    assert (args.port, args.baudrate, args.func) == ("/dev/ttyUSB0", 57600, cmd_console)
