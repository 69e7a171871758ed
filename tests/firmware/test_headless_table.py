"""The Pi's own path: `courtier play --table FILE --ui none`, run by the CLI's `main` as the service runs it.

Nothing here wires a table by hand. The table file names a backend of
"pi"; ``COURTIER_HARDWARE=mock`` (the service sets it to "pi") gives the
same devices on gpiozero's ``MockFactory`` pins and luma screens (``dummy``,
or the real drivers over a recording interface), and ``STATE_DIRECTORY``
is where systemd's ``StateDirectory=`` puts the saved games. The test only
watches: it keeps a reference to what `open_table` opened (to press the real
pins and read the panels) and to the public display play.py makes, and it
drives the service's own `serve` loop through its `stop` hook, which the
loop calls between two events (after the service's own stop, SIGTERM):
each call presses the next buttons, or checks the screens once the presses
are handled. So every press goes pin -> gpiozero -> table -> runtime queue
-> `serve`, on the loop's thread.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from engine.i18n import LANGUAGES, set_language, table_language
from engine.match import Match
from engine.rng import Rng
from firmware import cli, play
from firmware.public import PublicTable
from firmware.public.layout import drawable
from firmware.table.render import render_face, wrap
from firmware.testing import found, free_port, lit, pi_table_text, read_until, rendered, screen_text, unscaled
from hardware import factory

ROOT = Path(__file__).resolve().parents[2]

PUBLIC_SCREEN = """
[public_screen]
driver = "ssd1322"
bus = "spi"
port = 0
device = 1
gpio_dc = 24
gpio_rst = false
width = 256
height = 64
"""
RED, BLUE, GREEN = 0, 1, 2
DISPLAY_ON, DISPLAY_OFF = 0xAF, 0xAE  # the same command on the SSD1306, SH1106 and SSD1322
WAIT = 10.0  # seconds a check waits for another thread (the public screen's, the page's) before it fails


class Service:
    """One table service run in this process: `run(script)` calls `cli.main` as systemd's ExecStart does.

    `script(service)` is a generator: each `next` does one thing at the table
    (a press, a check); the service's loop handles the events it queued
    before asking for the next. When it ends, the loop ends and `main` closes
    the table as on Ctrl-C.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch, state: Path, table: Path, *, recording: bool = False) -> None:
        self.table_file = table
        self.tables: list[Any] = []
        self.runtime: Any = None
        self.public: PublicTable | None = None
        self.display: Any = None
        self.public_frames: list[tuple[Any, Any]] = []  # (image, the snapshot it was drawn from)
        self.snapshots: list[Any] = []  # every snapshot the public channel published
        self._frames = threading.Condition()
        self._script: Iterator[None] | None = None
        monkeypatch.setenv("COURTIER_HARDWARE", "mock")
        monkeypatch.setenv("STATE_DIRECTORY", str(state))
        monkeypatch.delenv("COURTIER_STATE_DIR", raising=False)
        monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
        real_open, real_serve, real_display = factory.open_table, play.serve, play.public_display

        def open_table(config: Any, backend: str | None = None, **options: Any) -> Any:
            table = real_open(config, backend, recording=recording, **options)
            self.tables.append(table)
            if table.public_screen is not None:
                self._watch(table.public_screen)
            return table

        def public_display(runtime: Any, public: PublicTable, table: Any) -> Any:
            self.public = public
            self.snapshots.append(public.latest())
            public.subscribe(self.snapshots.append)
            self.display = real_display(runtime, public, table)
            return self.display

        def serve(runtime: Any, stop: Callable[[], bool] = lambda: False, watchdog: Any = None) -> None:
            self.runtime = runtime
            real_serve(runtime, stop=lambda: stop() or self._next(), watchdog=watchdog)

        monkeypatch.setattr(factory, "open_table", open_table)
        monkeypatch.setattr(play, "public_display", public_display)
        monkeypatch.setattr(play, "serve", serve)

    @property
    def table(self) -> Any:
        return self.tables[-1]

    def run(self, script: Callable[[Service], Iterator[None]], *extra: str) -> int:
        self.tables.clear()
        self.runtime = self.display = self.public = None
        self._script = script(self)
        language = table_language()
        try:
            return cli.main(["play", "--table", str(self.table_file), "--ui", "none", *extra])
        finally:
            set_language(language)  # main sets the process's language, as the service's own process does

    def _next(self) -> bool:
        """`serve`'s stop hook: the loop has no event left, so the script may press or look."""
        if not self.runtime.events.empty():
            return False
        assert self._script is not None
        try:
            next(self._script)
        except StopIteration:
            return True
        return False

    # --- the public screen ------------------------------------------------------
    def _watch(self, screen: Any) -> None:
        """Keep every frame the public panel took, with the snapshot the display drew it from."""
        show = screen.show

        def shown(image: Any) -> bool:
            sent = show(image)  # a ScreenError passes through to the display, as from the panel itself
            with self._frames:
                self.public_frames.append((image.copy(), self.display.snapshot))
                self._frames.notify_all()
            return sent

        screen.show = shown

    def public_shows(self, text: str) -> bool:
        """Whether some frame of the public panel holds the first line `text` wraps to, pixel for pixel."""
        layout = self.display.layout
        pattern = rendered(wrap(drawable(text), layout.width)[0])
        assert pattern is not None
        with self._frames:
            frames = list(self.public_frames)
        return any(found(lit(unscaled(image, layout.scale)), pattern) for image, _snapshot in frames)

    def wait_public(self, text: str) -> None:
        """Wait (on the frames' condition, never a sleep) until the public panel has drawn `text`."""
        deadline = time.monotonic() + WAIT
        with self._frames:
            while not self.public_shows(text):
                left = deadline - time.monotonic()
                assert left > 0, f"the public screen never showed {text!r}"
                self._frames.wait(left)

    # --- the seats ----------------------------------------------------------------
    def pin(self, seat: int, button: str) -> Any:
        return self.table.seats[seat].buttons.pin(button)

    def press(self, seat: int, button: str = "ok", times: int = 1) -> None:
        for _ in range(times):
            self.pin(seat, button).drive_low()
            self.pin(seat, button).drive_high()

    def hold(self, seat: int) -> None:
        """Hold ok until gpiozero reports the hold (its own timer), then let go."""
        buttons = self.table.seats[seat].buttons
        buttons.pin("ok").drive_low()
        assert buttons.ok_held.wait(WAIT), "gpiozero never reported the hold"
        buttons.pin("ok").drive_high()

    def text(self, seat: int) -> str:
        """What the seat's panel shows, as text, after checking its pixels are exactly its face."""
        return screen_text(self.table, self.runtime, seat)


def write_table(tmp_path: Path, extra: str = "", *, table: str = "", wiring: dict[int, str] | None = None) -> Path:
    """The service's table file: Green's screen on SPI, an SSD1322 public screen, and `extra` blocks after them.

    `table` and `wiring` are `pi_table_text`'s: more [table] lines, and seats wired otherwise.
    """
    path = tmp_path / "table.toml"
    path.write_text(pi_table_text(table=f"hold_time = 0.25\n{table}", spi_seat=GREEN, wiring=wiring,
                                  extra=PUBLIC_SCREEN + extra), encoding="utf-8")
    return path


@pytest.fixture
def service(monkeypatch, tmp_path):
    return Service(monkeypatch, tmp_path / "state", write_table(tmp_path))


def redealt(match: Match, seat: int, seed: int) -> Match:
    """The same game with everything `seat` may not know drawn again."""
    return Match(match.game, match.header, match.game.redeal(match.state, seat, Rng.seeded(seed)), match.actions)


def check_seats_see_only_their_own(service: Service, seed: int) -> None:
    """Each seat's panel shows its own face, and the same pixels whatever the others' secrets are."""
    runtime, match = service.runtime, service.runtime.match
    for seat in range(len(runtime.seats)):
        if runtime.screens[seat] is None:
            continue  # a bot's seat: no panel
        service.text(seat)  # the panel shows exactly the face the runtime made for it
        screen = service.table.seats[seat].screen
        runtime.match = redealt(match, seat, seed + seat)
        try:
            other = runtime.face(seat)
        finally:
            runtime.match, runtime.seats[seat].words = match, None
        assert render_face(other, screen.size).tobytes() == screen.image.tobytes(), (
            f"{match.names[seat]}'s screen shows something of another seat's secrets")


PUBLIC_FIELDS = ("header", "line", "steps", "pending", "public", "result", "moves")


def public_content(snapshot: Any) -> dict[str, Any]:
    return {name: getattr(snapshot, name) for name in PUBLIC_FIELDS}


def check_public_tells_no_secret(service: Service, seed: int) -> None:
    """What the public screen is fed is what the match shows everyone, whatever any seat holds."""
    match = service.runtime.match
    told = public_content(service.public.latest())
    assert told == public_content(PublicTable().build(match))
    for seat in range(match.header.players):
        assert public_content(PublicTable().build(redealt(match, seat, seed + seat))) == told, (
            f"the public screen is fed something of {match.names[seat]}'s secrets")


def play_on(service: Service, actions: int, seed: int) -> Iterator[None]:
    """Press through `actions` actions as players would: each pending seat walks its menu at random, then ok.

    After every press the loop handles it; before the next, each seat's panel
    and the public feed are checked for secrets.
    """
    rng = random.Random(seed)
    runtime = service.runtime
    goal = len(runtime.match.actions) + actions
    presses = 0
    while len(runtime.match.actions) < goal and not runtime.match.is_over:
        seat = rng.choice(runtime.match.pending())
        service.press(seat, rng.choice(("prev", "next", "ok", "ok")))
        yield
        presses += 1
        assert presses < 50 * actions, "the presses stopped making actions"
        check_seats_see_only_their_own(service, seed + presses)
        check_public_tells_no_secret(service, seed + presses)


def test_every_seats_screen_shows_only_its_own_view_and_the_public_screen_only_the_tables(service):
    seen: dict[str, Any] = {}

    def script(service: Service) -> Iterator[None]:
        runtime = service.runtime
        assert service.display is not None, "the table file's public screen is not connected"
        first = service.public.latest().line
        service.wait_public(first)
        yield from play_on(service, actions=12, seed=4)
        now = service.public.latest().line
        assert now != first, "the prompt should have moved on"
        service.wait_public(now)
        seen["actions"] = len(runtime.match.actions)

    assert service.run(script, "--seed", "3") == 0
    assert seen["actions"] >= 12
    # Every frame the public panel took was drawn from a snapshot of the public channel, each checked above.
    published = {id(snapshot) for snapshot in service.snapshots}
    assert service.public_frames and all(id(snapshot) in published for _image, snapshot in service.public_frames)
    assert service.table.closed


def choose_language(service: Service, seat: int, lang: str) -> Iterator[None]:
    """Hold ok for the table menu, walk to Language, then to `lang`, and pick it, on the seat's own pins."""
    service.hold(seat)
    yield
    service.press(seat, "next", times=3)  # undo, scores, help, language
    yield
    assert service.runtime.seats[seat].face.choice == "Language"
    service.press(seat)
    yield
    service.press(seat, "next", times=list(LANGUAGES).index(lang))
    yield
    assert service.runtime.seats[seat].face.choice == LANGUAGES[lang]
    service.press(seat)
    yield


def test_a_seat_that_picks_chinese_reads_chinese_and_still_does_after_the_service_restarts(service):
    english = "Order your peasants:"

    def pick(service: Service) -> Iterator[None]:
        assert all(english in service.text(seat) for seat in (RED, BLUE, GREEN))
        yield from choose_language(service, BLUE, "zh_Hant")
        assert "排定農民順序" in service.text(BLUE)
        assert english in service.text(RED) and english in service.text(GREEN)
        service.press(RED)  # the game goes on in both languages
        yield

    def resumed(service: Service) -> Iterator[None]:
        assert len(service.runtime.match.actions) == 1
        assert "排定農民順序" in service.text(BLUE)
        assert english in service.text(GREEN)
        assert not any("\u4e00" <= c <= "\u9fff" for seat in (RED, GREEN) for c in service.text(seat))
        yield

    assert service.run(pick, "--seed", "3") == 0
    assert service.run(resumed) == 0  # the service's own command line: it resumes the saved game


@pytest.mark.parametrize("lang, prompt", [("zh_Hant", "排定農民順序"), ("zh_Hans", "排定农民顺序")])
def test_the_table_files_language_is_every_seats_and_the_public_screens(monkeypatch, tmp_path, lang, prompt):
    service = Service(monkeypatch, tmp_path / "state", write_table(tmp_path, table=f'language = "{lang}"'))

    def script(service: Service) -> Iterator[None]:
        assert all(prompt in service.text(seat) for seat in (RED, BLUE, GREEN))
        line = service.public.latest().line
        assert any("\u4e00" <= c <= "\u9fff" for c in line), line
        service.wait_public(line)
        yield

    assert service.run(script, "--seed", "3") == 0


def test_a_bot_seat_of_the_table_file_plays_its_turns_and_the_table_is_told(monkeypatch, tmp_path):
    service = Service(monkeypatch, tmp_path / "state", write_table(tmp_path, wiring={GREEN: 'bot = "random"'}))

    def script(service: Service) -> Iterator[None]:
        runtime = service.runtime
        assert runtime.screens[GREEN] is None and service.public.latest().bots == (GREEN,)
        service.press(RED)
        service.press(BLUE)
        yield
        deadline = time.monotonic() + WAIT
        while len(runtime.match.actions) < 3:
            assert time.monotonic() < deadline, "the bot never played"
            yield  # the bot thinks on its own thread and answers through the loop's queue
        assert sorted(action["seat"] for action in runtime.match.actions[:3]) == [RED, BLUE, GREEN]
        check_seats_see_only_their_own(service, 1)
        assert "Green (bot) plays:" in service.public.lines  # before its pieces move on the table
        service.wait_public("Green (bot) plays:")

    assert service.run(script, "--seed", "3") == 0


YELLOW = """
[[seat]]
name = "Yellow"
buttons = { prev = 4, next = 18, ok = 12 }
screen = { driver = "sh1106", bus = "spi", port = 0, device = 0, gpio_dc = 24, gpio_rst = 27, gpio_cs = 22 }

"""


def test_a_seat_left_out_of_a_game_for_fewer_players_goes_dark_instead_of_saying_starting(monkeypatch, tmp_path):
    service = Service(monkeypatch, tmp_path / "state", write_table(tmp_path, YELLOW))

    def script(service: Service) -> Iterator[None]:
        assert len(service.runtime.seats) == 3
        screen = service.table.seats[3].screen
        assert screen.frames and screen.image.getbbox() is None, "Yellow's panel still says starting..."
        service.press(3)  # nobody plays there: its buttons change nothing
        yield
        assert screen.image.getbbox() is None and not service.runtime.match.actions

    assert service.run(script, "--seed", "3", "--players", "3") == 0


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=WAIT) as response:
        assert response.status == 200
        return json.loads(response.read().decode("utf-8"))


def test_a_web_block_serves_the_public_snapshot_on_its_port_until_the_service_stops(monkeypatch, tmp_path):
    port = free_port()
    table = write_table(tmp_path, f'\n[web]\nport = {port}\nhost = "127.0.0.1"\n')
    service = Service(monkeypatch, tmp_path / "state", table)
    url = f"http://127.0.0.1:{port}/"

    def script(service: Service) -> Iterator[None]:
        assert service.runtime.page_address == url
        served = get_json(url + "snapshot.json")
        assert served == json.loads(json.dumps(asdict(service.public.latest())))
        assert served["address"] == url and served["line"] == service.public.latest().line
        service.press(RED)
        yield
        assert len(service.runtime.match.actions) == 1
        served = get_json(url + "snapshot.json")  # the page takes the new snapshot on its own loop
        deadline = time.monotonic() + WAIT
        while served["serial"] != service.public.latest().serial and time.monotonic() < deadline:
            yield  # the loop turns once more while the page's thread catches up
            served = get_json(url + "snapshot.json")
        assert served["actions"] == 1 and served["line"] == service.public.latest().line

    assert service.run(script, "--seed", "3") == 0
    with pytest.raises(ConnectionRefusedError):  # the page stopped with the service
        socket.create_connection(("127.0.0.1", port), timeout=WAIT).close()


def test_an_unplugged_public_screen_is_told_on_every_seat_and_the_game_goes_on(monkeypatch, tmp_path):
    service = Service(monkeypatch, tmp_path / "state", write_table(tmp_path), recording=True)
    note = "Public: screen fault"

    def until(condition: Callable[[], bool], what: str) -> Iterator[None]:
        deadline = time.monotonic() + WAIT
        while not condition():
            assert time.monotonic() < deadline, what
            yield  # the loop waits for the next event (the display posts the fault from its thread)

    def script(service: Service) -> Iterator[None]:
        runtime = service.runtime
        service.wait_public(service.public.latest().line)
        service.table.public_screen.interface.fail = OSError(121, "Remote I/O error")  # pulled off the bus
        service.press(RED)
        yield
        yield from until(lambda: "Public" in runtime.faults, "the seats were never told")
        assert all(note in service.text(seat) for seat in (BLUE, GREEN))
        service.press(BLUE)
        service.press(GREEN)
        yield
        yield
        assert len(runtime.match.actions) == 3  # every seat arranged: the game went on
        assert all(note in service.text(seat) for seat in (RED, BLUE, GREEN))
        service.table.public_screen.interface.fail = None  # plugged back in
        yield from until(lambda: not runtime.faults, "the public screen never came back")
        assert not any(note in service.text(seat) for seat in (RED, BLUE, GREEN))
        service.wait_public(service.public.latest().line)

    assert service.run(script, "--seed", "3") == 0


def test_systemctl_stop_ends_the_loop_and_blanks_and_switches_off_every_panel(monkeypatch, tmp_path):
    """SIGTERM is how systemd stops the service: the table closes as on Ctrl-C, each panel told to go dark."""
    service = Service(monkeypatch, tmp_path / "state", write_table(tmp_path), recording=True)

    def script(service: Service) -> Iterator[None]:
        service.press(RED)
        yield
        assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None), (
            "SIGTERM would end the process where it stands, the panels still lit")
        signal.raise_signal(signal.SIGTERM)
        yield
        raise AssertionError("the loop went on after SIGTERM")

    assert service.run(script, "--seed", "3") == 0
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler was the loop's alone
    screens = [seat.screen for seat in service.table.seats] + [service.table.public_screen]
    for screen in screens:
        calls = screen.interface.calls
        on = [i for i, call in enumerate(calls) if call == ("command", bytes([DISPLAY_ON]))]
        off = [i for i, call in enumerate(calls) if call == ("command", bytes([DISPLAY_OFF]))]
        assert on and off and off[-1] > on[-1], f"{screen.name} was left lit"
        assert screen.interface.cleaned_up, f"{screen.name}: its bus was not released"


def test_the_service_process_serves_its_page_then_stops_cleanly_when_systemd_stops_it(tmp_path):
    """A real `courtier play --table FILE --ui none` process, as the unit starts it; SIGTERM is `systemctl stop`."""
    port = free_port()
    table = write_table(tmp_path, f'\n[web]\nport = {port}\nhost = "127.0.0.1"\n')
    env = dict(os.environ, PYTHONPATH=str(ROOT), COURTIER_HARDWARE="mock", PYTHONUNBUFFERED="1",
               STATE_DIRECTORY=str(tmp_path / "state"), LANGUAGE="en")
    env.pop("COURTIER_STATE_DIR", None)
    env.pop("NOTIFY_SOCKET", None)
    process = subprocess.Popen([sys.executable, "-m", "firmware", "play", "--table", str(table), "--ui", "none"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        read_until(process.stdout.fileno(), bytearray(), f"Table page: http://127.0.0.1:{port}/".encode())
        served = get_json(f"http://127.0.0.1:{port}/snapshot.json")
        assert served["game"] == "tenno" and served["line"] and served["names"] == ["Red", "Blue", "Green"]
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, output.decode("utf-8", "replace")
    assert b"Not finished" in output  # it ran its way out: the table, page and journal closed
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=WAIT).close()
