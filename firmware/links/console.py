"""The host console: a laptop on the Pi's serial port watches and runs the table.

``courtier console PORT`` connects over pyserial, shows what the whole table
may see (the prompt, the physical steps, the recent public events, the
scores at the end) and sends table commands on keys: ``n`` new game (asks
the game and the number of players), ``u`` undo, ``e`` end game, ``q``
quit. It prints the Pi's reply to each.

The logic is terminal-free and tested so: ``ConsoleClient`` speaks the
protocol and renders a table message as lines, ``Keys`` turns typed lines
into commands, and ``run_console`` only moves text between them and a
terminal (plain redraws; a line is a key followed by Enter).
"""

from __future__ import annotations

import argparse
import logging
import select
import sys
import time
from typing import Any, Callable, TextIO

from hardware.errors import ProtocolError
from hardware.link import Link

from . import protocol
from .serial_seats import CONSOLE_MAX_LINE, Backoff

_log = logging.getLogger(__name__)

PEER = "courtier-console/1"
_MAX_REPLIES = 5


class ConsoleClient:
    """The laptop's end of the host console link.

    Example::

        client = ConsoleClient(Link("/dev/ttyUSB0", max_line=CONSOLE_MAX_LINE))
        client.hello()
        client.poll()
        print("\\n".join(client.render()))
        client.send_command("undo")

    Args:
        link: The link to the Pi.

    Attributes:
        commands: Key -> (command name, what it does), the commands on offer.
        table: The last table message from the Pi, or None.
        replies: The Pi's latest replies and errors, oldest first.
    """

    commands = {
        "n": ("new_game", "new game"),
        "u": ("undo", "undo"),
        "e": ("end_game", "end game"),
    }

    def __init__(self, link: Link) -> None:
        self.link = link
        self.table: protocol.TableUpdate | None = None
        self.replies: list[str] = []
        self._bad_lines: list[ProtocolError] = []
        link.on_error = self._bad_lines.append

    def hello(self) -> bool:
        """Tell the Pi we are here; it answers with the table."""
        return self.link.send(protocol.encode_hello(PEER))

    def send_command(self, name: str, args: dict[str, Any] | None = None) -> bool:
        """Send a table command; the reply comes later through ``poll``.

        Returns:
            False if the link is down (the command is not sent).
        """
        sent = self.link.send(protocol.encode_command(name, args))
        if not sent:
            self._note(f"not sent ({name}): no connection to the Pi")
        return sent

    def new_game(self, game: str, players: int | None = None) -> bool:
        """Ask the Pi to start a new game (the unfinished one is kept in its archive)."""
        args: dict[str, Any] = {"game": game}
        if players is not None:
            args["players"] = players
        return self.send_command("new_game", args)

    def undo(self) -> bool:
        """Ask the Pi to take the last action back."""
        return self.send_command("undo")

    def end_game(self) -> bool:
        """Ask the Pi to end the game."""
        return self.send_command("end_game")

    def poll(self) -> bool:
        """Read what the Pi sent; return True if the table or the replies changed."""
        changed = False
        for raw in self.link.receive():
            try:
                message = protocol.decode(raw)
            except ProtocolError as error:
                self._bad_lines.append(ProtocolError(f"{self.link.name}: {error}"))
                continue
            if isinstance(message, protocol.TableUpdate):
                changed |= message != self.table
                self.table = message
            elif isinstance(message, protocol.Reply):
                self._note(message.message)
                changed = True
            elif isinstance(message, protocol.ErrorReport):
                self._note(f"the Pi could not use our line: {message.message}")
                changed = True
            else:
                self._bad_lines.append(ProtocolError(
                    f"{self.link.name}: a console takes table, reply and error messages, "
                    f"not {type(message).__name__}"))
        for error in self._bad_lines:
            _log.warning("%s", error)
            self._note(f"bad line from the Pi: {error}")
            self.link.send(protocol.encode_error(str(error)))
            changed = True
        self._bad_lines.clear()
        return changed

    def render(self, table: protocol.TableUpdate | dict[str, Any] | None = None) -> list[str]:
        """The table as plain text lines (the last table message if none is given).

        Args:
            table: A ``table`` message (as received) or its ``TableUpdate``.

        Raises:
            ProtocolError: ``table`` is a dict that is not a valid table message.
        """
        if isinstance(table, dict):
            decoded = protocol.decode(table)
            if not isinstance(decoded, protocol.TableUpdate):
                raise ProtocolError(f"render takes a table message, not {table.get('type')!r}")
            table = decoded
        table = table or self.table
        if table is None:
            return ["Waiting for the table..."]
        public = table.public
        names = table.names
        lines = [_title(public, names)]
        lines.append("")
        lines.append(table.line)
        lines.extend(f"  - {step}" for step in table.steps)
        if table.log:
            lines.append("")
            lines.append("Recent:")
            lines.extend(f"  {entry}" for entry in table.log)
        if table.over:
            lines.append("")
            lines.extend(_scores(table.result or {}, names))
        return lines

    def _note(self, text: str) -> None:
        self.replies.append(text)
        del self.replies[:-_MAX_REPLIES]


def _title(public: dict[str, Any], names: tuple[str, ...]) -> str:
    game = public.get("game", "game")
    where = [f"{key} {public[key]}" for key in ("phase", "round", "turn")
             if isinstance(public.get(key), (str, int)) and not isinstance(public.get(key), bool)]
    return f"{game}: {', '.join(names)}" + (f"  ({', '.join(where)})" if where else "")


def _scores(result: dict[str, Any], names: tuple[str, ...]) -> list[str]:
    def name(seat: Any) -> str:
        index = int(seat)
        return names[index] if 0 <= index < len(names) else f"Seat {index + 1}"

    scores = result.get("scores", {})
    winners = {int(w) for w in result.get("winners", [])}
    breakdown = result.get("breakdown", {})
    lines = ["Final scores:" + (f" ({result['reason']})" if result.get("reason") else "")]
    for seat, score in sorted(scores.items(), key=lambda item: -item[1]):
        parts = ", ".join(f"{k} {v}" for k, v in breakdown.get(seat, {}).items())
        mark = "  <- winner" if int(seat) in winners else ""
        lines.append(f"  {name(seat):8} {score:3}" + (f"   ({parts})" if parts else "") + mark)
    if winners:
        lines.append("Winner: " + ", ".join(name(w) for w in sorted(winners)))
    return lines


class Keys:
    """Typed lines to commands: a key, then answers to the questions it asks.

    ``feed`` takes one line (without its newline) and returns what to print.

    Args:
        client: Where commands go.
        games: Game names to offer when asking (shown as a hint only; the Pi checks).
    """

    def __init__(self, client: ConsoleClient, games: tuple[str, ...] = ()) -> None:
        self.client = client
        self.games = games
        self.done = False
        self._asking: str | None = None
        self._game = ""

    @property
    def prompt(self) -> str:
        """What the console is waiting for."""
        if self._asking == "game":
            hint = f" ({', '.join(self.games)})" if self.games else ""
            return f"Game{hint}, empty to cancel: "
        if self._asking == "players":
            return f"Players for {self._game} (empty: as many as the table's seats): "
        if self._asking == "end":
            return "End the game? (y/n): "
        keys = ", ".join(f"{key} {label}" for key, (_, label) in self.client.commands.items())
        return f"[{keys}, q quit] > "

    def feed(self, line: str) -> list[str]:
        """Take one typed line; return the lines to print."""
        text = line.strip()
        asking, self._asking = self._asking, None
        if asking == "game":
            if not text:
                return ["Cancelled."]
            self._game, self._asking = text, "players"
            return []
        if asking == "players":
            if text and not (text.isdigit() and int(text) > 0):
                self._asking = "players"
                return [f"{text!r} is not a number of players."]
            self.client.new_game(self._game, int(text) if text else None)
            return [f"Asked for a new game of {self._game}."]
        if asking == "end":
            if text.lower() in ("y", "yes"):
                self.client.end_game()
                return ["Asked to end the game."]
            return ["Not ended."]
        key = text.lower()
        if key == "q":
            self.done = True
            return []
        if key == "n":
            self._asking = "game"
            return []
        if key == "e":
            self._asking = "end"
            return []
        if key == "u":
            self.client.undo()
            return ["Asked to undo."]
        if not key:
            return []
        return [f"Unknown key {text!r}."]


def screen_text(client: ConsoleClient, keys: Keys, notes: list[str]) -> str:
    """The whole console screen as one string."""
    lines = client.render()
    if not client.link.connected:
        lines = [f"(not connected to {client.link.name}; retrying)", *lines]
    lines.append("")
    lines.extend(f"Pi: {reply}" for reply in client.replies)
    lines.extend(notes)
    return "\n".join(lines) + "\n" + keys.prompt


def run_console(link: Link, stdin: TextIO, stdout: TextIO, *, clock: Callable[[], float] = time.monotonic,
                games: tuple[str, ...] = (), tick: float = 0.1) -> None:
    """Show the table and take keys until ``q`` or end of input.

    Args:
        link: The link to the Pi.
        stdin: Where keys are typed (a line each; must work with ``select``).
        stdout: Where the table is drawn (cleared first when a terminal).
        clock: Seconds, for reconnect pauses.
        games: Game names to offer.
        tick: Seconds to wait for a key before reading the link again.
    """
    client = ConsoleClient(link)
    keys = Keys(client, games)
    backoff = Backoff()
    notes: list[str] = []
    client.hello()
    clear = "\x1b[H\x1b[2J" if stdout.isatty() else ""

    def draw() -> None:
        stdout.write(clear + screen_text(client, keys, notes))
        stdout.flush()

    draw()
    while not keys.done:
        if not link.connected and backoff.due(clock()):
            if link.reopen():
                backoff.reset()
                client.hello()
                draw()
            else:
                backoff.failed(clock())
        changed = client.poll()
        ready, _, _ = select.select([stdin], [], [], tick)
        if ready:
            line = stdin.readline()
            if not line:
                break   # end of input
            notes = keys.feed(line)
            changed = True
        if changed:
            draw()
    stdout.write("\n")


def cmd_console(args: argparse.Namespace) -> int:
    """``courtier console PORT``."""
    from engine.games import all_games

    link = Link(args.port, baudrate=args.baudrate, max_line=CONSOLE_MAX_LINE, name=args.port)
    try:
        run_console(link, sys.stdin, sys.stdout, games=tuple(game.name for game in all_games()))
    except KeyboardInterrupt:
        pass
    finally:
        link.close()
    return 0
