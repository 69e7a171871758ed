"""Tests for firmware.emulator: the table picture, keys as mock button presses, and the front-ends."""

import dataclasses
import fcntl
import json
import os
import pty
import signal
import struct
import sys
import termios
from pathlib import Path

import pytest
from PIL import Image

from engine.match import Match
from firmware.emulator import (
    KEYS,
    Keyboard,
    Recorder,
    WindowFrontend,
    braille,
    compose,
    screen_images,
    seat_positions,
    terminal_lines,
)
from firmware.emulator.picture import FRAME, HIGHLIGHT
from firmware.public import PublicTable
from firmware.table.runtime import Runtime
from firmware.testing import free_port, read_until
from hardware import emulator_table, open_table
from hardware.events import InputEvent

ROOT = Path(__file__).resolve().parents[2]


def start(config=None, players=3, listeners=()):
    """A real emulator table running a real Tennō match, button events going to the runtime."""
    table = open_table(config or emulator_table(players), "emulator")
    runtime = Runtime(Match.new("tenno", players, seed=1), [seat.screen for seat in table.seats],
                      listeners=listeners)
    table.on_event = runtime.post  # the runtime needs the table's screens first
    return table, runtime


@pytest.fixture
def playing():
    table, runtime = start()
    yield table, runtime
    table.close()


def queued(runtime):
    """Take every event waiting in the runtime's queue, without handling it."""
    events = []
    while not runtime.events.empty():
        events.append(runtime.events.get_nowait())
    return events


def images_of(table):
    return screen_images([seat.screen for seat in table.seats])


# --- braille ------------------------------------------------------------------

def test_braille_dot_positions():
    """Pixel (0,0) is braille dot 1 (U+2801) and pixel (1,3) is dot 8 (U+2880)."""
    image = Image.new("1", (2, 4))
    image.putpixel((0, 0), 1)
    assert braille(image) == ["\u2801"]
    image = Image.new("1", (2, 4))
    image.putpixel((1, 3), 1)
    assert braille(image) == ["\u2880"]
    assert braille(Image.new("1", (2, 4), 1)) == ["\u28ff"]


def test_braille_of_a_seat_screen_is_16_lines_of_64():
    """A 128x64 screen is 16 lines of 64 characters; a lit pixel lands in its own cell."""
    image = Image.new("1", (128, 64))
    image.putpixel((127, 63), 1)
    lines = braille(image)
    assert len(lines) == 16 and all(len(line) == 64 for line in lines)
    assert lines[15][63] == "\u2880"
    assert set("".join(lines[:15])) == {"\u2800"}


def test_braille_pads_a_partial_cell():
    """An image not a multiple of 2x4 still gets every pixel, in a partly filled cell."""
    image = Image.new("1", (3, 5))
    image.putpixel((2, 4), 1)
    assert braille(image) == ["\u2800\u2800", "\u2800\u2801"]


# --- the composed picture -------------------------------------------------------

def test_compose_puts_each_seat_screen_at_its_place(playing):
    """Every seat's pixels appear unchanged (white on black) at its grid position."""
    table, runtime = playing
    images = images_of(table)
    picture = compose(images, runtime.match.names, runtime.match.prompt())
    assert picture.mode == "RGB"
    for (x, y), image in zip(seat_positions(3), images):
        region = picture.crop((x, y, x + 128, y + 64)).convert("1", dither=Image.Dither.NONE)
        assert region.tobytes() == image.tobytes()


def test_compose_keeps_one_size_whatever_the_words(playing):
    """The picture size depends on the seats only, so a window or a GIF can keep it."""
    table, runtime = playing
    images = images_of(table)
    bare = compose(images, ["", "", ""])
    busy = compose(images, runtime.match.names, runtime.match.prompt(),
                   log=[f"line {n} " * 20 for n in range(30)], highlight=[0, 1, 2])
    assert bare.size == busy.size
    assert compose(images, ["", "", ""], columns=3).width > bare.width


def test_compose_marks_pending_seats(playing):
    """A seat whose decision is pending gets a highlighted frame; the others do not."""
    table, runtime = playing
    picture = compose(images_of(table), runtime.match.names, highlight=[1])
    (x0, y0), (x1, y1), _ = seat_positions(3)
    assert picture.getpixel((x1 - FRAME, y1 + 10)) == HIGHLIGHT
    assert picture.getpixel((x0 - FRAME, y0 + 10)) != HIGHLIGHT


def test_compose_shows_the_prompt_below_the_seats(playing):
    """The public prompt draws text under the grid; without it that band is empty."""
    table, runtime = playing
    images = images_of(table)
    names = runtime.match.names
    with_prompt = compose(images, names, runtime.match.prompt())
    without = compose(images, names)
    bottom = max(y for _, y in seat_positions(3)) + 64 + FRAME
    band = (0, bottom + 1, with_prompt.width, with_prompt.height)
    assert with_prompt.crop(band).getcolors() != without.crop(band).getcolors()
    assert len(without.crop(band).getcolors()) == 1


def test_terminal_lines_lay_out_seats_by_width(playing):
    """Two seats per row when the terminal is wide, one when narrow; pending seats get a heavy frame."""
    table, runtime = playing
    images = images_of(table)
    names, prompt = runtime.match.names, runtime.match.prompt()
    wide = terminal_lines(images, names, prompt, width=140, highlight=[0])
    assert wide[0].startswith("> 1 Red") and "2 Blue" in wide[0]
    assert wide[1].startswith("\u250f") and "\u250c" in wide[1]
    assert wide[2][1:65] == braille(images[0])[0]
    narrow = terminal_lines(images, names, prompt, width=80)
    assert narrow[0].startswith("1 Red") and "2 Blue" not in narrow[0]
    assert narrow[19].startswith("2 Blue")
    assert prompt.line in "\n".join(narrow)


def test_terminal_lines_show_each_seats_words_when_given_faces(playing):
    """In words mode each seat's box holds that seat's own screen rows, six rows high."""
    table, runtime = playing
    images = images_of(table)
    names, prompt = runtime.match.names, runtime.match.prompt()
    faces = [["Red|T1", "Row P1 P2 P3", "x" * 21], ["Blue|T1"], ["Green|T1"]]
    lines = terminal_lines(images, names, prompt, width=120, faces=faces)
    assert "1 Red" in lines[0] and "2 Blue" in lines[0] and "3 Green" in lines[0]
    assert lines[2].startswith("\u2502Red|T1") and "Blue|T1" in lines[2] and "Green|T1" in lines[2]
    assert "\u2502" + "x" * 21 + " " * 3 + "\u2502" in lines[4]
    assert lines[8].startswith("\u2514")  # six rows, then the box's bottom: a screen has six
    assert not any("\u2801" <= ch <= "\u28ff" for line in lines for ch in line)


def test_the_terminal_shows_a_seat_exactly_the_rows_its_pixels_show():
    """A notice that does not fit the screen is not drawn as an extra terminal row either."""
    from firmware.emulator.terminal import face_text
    from firmware.table.faces import Face
    from firmware.table.render import render_face

    face = Face(seat_name="Red", header="T3 Blue", panel=("Row P1 ?? P3", "Hand 2 5 X", "Prisoners 2"),
                ask="Which of their cards?", choice="slot 2", position="2/3",
                notice="Last action taken back")
    rows = face_text(face)
    assert len(rows) == 6 and rows[0] == "Red|T3 Blue" and rows[-1] == "< slot 2 2/3"
    # Each row is drawn: rendering the rows alone gives the same pixels as rendering the face.
    from PIL import Image, ImageDraw

    from firmware.table.render import LINE, font
    image = render_face(face)
    for y, row in enumerate(rows[1:-1], start=1):
        line = Image.new("1", (128, LINE), 0)
        font().draw(ImageDraw.Draw(line), (0, 0), row, fill=1)
        assert image.crop((0, y * LINE, 128, (y + 1) * LINE)).tobytes() == line.tobytes(), row


# --- keys ---------------------------------------------------------------------

def test_each_seats_keys_press_its_buttons(playing):
    """prev/ok/next keys of every seat put that seat's events into the runtime's queue."""
    table, runtime = playing
    keyboard = Keyboard(table)
    for seat, (prev, ok, nxt) in enumerate(KEYS[:3]):
        assert keyboard.press(prev) and keyboard.press(nxt) and keyboard.press(ok)
        assert queued(runtime) == [InputEvent(seat, "prev", "press"), InputEvent(seat, "next", "press"),
                                   InputEvent(seat, "ok", "press")]


def test_unknown_keys_press_nothing(playing):
    """Keys of no seat, or of a seat this table lacks, return False and make no event."""
    table, runtime = playing
    keyboard = Keyboard(table)
    for key in ("?", "p", " ", "r", "T", "i"):
        assert keyboard.press(key) is False
    assert queued(runtime) == []


def test_keys_move_the_menu_through_the_runtime(playing):
    """Keys reach the seat's menu: next twice moves Red's cursor to the third arrangement."""
    table, runtime = playing
    keyboard = Keyboard(table)
    assert runtime.seats[0].face.position == "1/6"
    keyboard.press("e")
    keyboard.press("e")
    assert runtime.drain() == 2
    assert runtime.seats[0].face.position == "3/6"


def test_upper_case_ok_holds_ok_for_back():
    """W holds ok until gpiozero reports "hold", then lets go without a further press."""
    table, runtime = start(dataclasses.replace(emulator_table(3), hold_time=0.2))
    try:
        keyboard = Keyboard(table)
        assert keyboard.press("W")
        assert keyboard.holding() == [0]
        assert runtime.events.get(timeout=5) == InputEvent(0, "ok", "hold")
        assert keyboard.settle(timeout=5)
        assert table.seats[0].buttons.pin("ok").state == 1
        assert queued(runtime) == []
        assert keyboard.press("w")
        assert queued(runtime) == [InputEvent(0, "ok", "press")]
    finally:
        table.close()


def test_every_key_of_a_seat_counts_while_its_ok_is_held():
    """Keys typed during a hold wait their turn: W W w e make hold, hold, press, next, in that order."""
    table, runtime = start(dataclasses.replace(emulator_table(3), hold_time=0.05))
    try:
        keyboard = Keyboard(table)
        assert all(keyboard.press(key) for key in "WWwe")
        assert keyboard.press("a")  # another seat's key is not held up by Red's hold
        assert keyboard.settle(timeout=10)
        events = queued(runtime)
        assert [e for e in events if e.seat == 0] == [
            InputEvent(0, "ok", "hold"), InputEvent(0, "ok", "hold"),
            InputEvent(0, "ok", "press"), InputEvent(0, "next", "press")]
        assert InputEvent(1, "prev", "press") in events
        assert table.seats[0].buttons.pin("ok").state == 1
    finally:
        table.close()


def test_three_held_oks_go_back_three_steps():
    """From "Which of their cards?" W W W goes back to the attack's first question, then opens the table menu."""
    from engine.testing import tenno_position

    table = open_table(dataclasses.replace(emulator_table(3), hold_time=0.05), "emulator")
    try:
        runtime = Runtime(tenno_position(3, {}, active=0), [seat.screen for seat in table.seats])
        table.on_event = runtime.post
        keyboard = Keyboard(table)
        keyboard.press("w")  # attack with this card
        keyboard.press("w")  # attack this seat
        runtime.drain()
        red = runtime.seats[0]
        assert len(red.menu.path) == 2  # now asked which of their cards
        for _ in range(3):
            keyboard.press("W")
        assert keyboard.settle(timeout=10)
        assert runtime.drain() == 3
        assert red.menu.path == [] and red.mode == "menu"
    finally:
        table.close()


def test_public_log_collects_public_events():
    """A PublicTable listener notes each public event of an accepted action."""
    log = PublicTable()
    table, runtime = start(listeners=[log])
    try:
        Keyboard(table).press("s")  # Blue confirms an arrangement
        runtime.drain()
        assert log.lines == ["Blue laid a row"]
    finally:
        table.close()


# --- window -------------------------------------------------------------------

@pytest.fixture
def window(monkeypatch, playing):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    table, runtime = playing
    frontend = WindowFrontend(table, scale=2, poll_ms=0)
    yield frontend, runtime, pygame
    frontend.close()


def key_down(pygame, char, key=None):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key if key is not None else ord(char),
                                         unicode=char, mod=0, scancode=0))


def test_window_turns_key_events_into_moves(window):
    """Keys from pygame's queue reach the runtime, in order: Blue chooses, Red moves twice."""
    frontend, runtime, pygame = window
    assert frontend.poll_once(runtime)
    for char in "see":
        key_down(pygame, char)
    assert frontend.poll_once(runtime)
    assert runtime.seats[0].face.position == "3/6"
    assert runtime.match.actions[-1]["seat"] == 1
    assert runtime.match.pending() == [0, 2]


def test_window_shows_the_composed_table(window):
    """The window holds the composed picture, scaled 2x, of the seats' own screens."""
    frontend, runtime, pygame = window
    key_down(pygame, "e")
    assert frontend.poll_once(runtime)
    match = runtime.match
    expected = compose(images_of(frontend.table), match.names, match.prompt(), highlight=match.pending())
    assert frontend.picture.tobytes() == expected.tobytes()
    surface = pygame.display.get_surface()
    assert surface.get_size() == (expected.width * 2, expected.height * 2)
    shown = Image.frombytes("RGB", surface.get_size(), pygame.image.tostring(surface, "RGB"))
    assert shown.resize(expected.size, Image.Resampling.NEAREST).tobytes() == expected.tobytes()


def test_window_keys_survive_lumas_event_pump(window):
    """luma's display() pumps events but leaves key presses queued for the next poll."""
    frontend, runtime, pygame = window
    assert frontend.poll_once(runtime)
    key_down(pygame, "e")
    frontend.device.display(frontend.picture)
    assert frontend.poll_once(runtime)
    assert runtime.seats[0].face.position == "2/6"


@pytest.mark.parametrize("quit_event", ["escape", "close"])
def test_window_quits_on_escape_or_close(window, quit_event):
    """ESC or closing the window ends the loop, after the keys typed before it, without SystemExit."""
    frontend, runtime, pygame = window
    key_down(pygame, "e")
    if quit_event == "escape":
        key_down(pygame, "\x1b", key=pygame.K_ESCAPE)
    else:
        pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert frontend.poll_once(runtime) is False
    assert runtime.seats[0].face.position == "2/6"
    frontend.run(runtime)  # returns at once: the user has quit


def test_window_close_seen_by_luma_first_is_a_quit(window):
    """If luma's display() sees the close first it exits; the front-end takes that as a quit."""
    frontend, runtime, pygame = window
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    frontend.draw(runtime)
    assert frontend.poll_once(runtime) is False


# --- recorder -------------------------------------------------------------------

def test_recorder_writes_an_animated_gif(playing, tmp_path):
    """A frame per change of the table (none for an unchanged one), written as a GIF on close."""
    table, runtime = playing
    path = tmp_path / "table.gif"
    keyboard = Keyboard(table)
    with Recorder(path, "gif", scale=1) as recorder:
        assert recorder.record(runtime)
        assert not recorder.record(runtime)
        for key in "ed":
            keyboard.press(key)
            runtime.drain()
            assert recorder.record(runtime)
        assert not path.exists()  # written on close
    with Image.open(path) as gif:
        assert gif.n_frames == 3
        assert gif.size == compose(images_of(table), runtime.match.names).size


def test_recorder_writes_png_frames(playing, tmp_path):
    """PNG capture writes one lossless file per change, the composed picture scaled."""
    table, runtime = playing
    recorder = Recorder(tmp_path / "frames", "png", scale=2)
    assert recorder.record(runtime)
    match = runtime.match
    first = compose(images_of(table), match.names, match.prompt(), highlight=match.pending())
    Keyboard(table).press("x")
    recorder.poll_once(runtime)
    recorder.close()
    files = sorted(p.name for p in (tmp_path / "frames").iterdir())
    assert files == ["table_000001.png", "table_000002.png"]
    with Image.open(tmp_path / "frames" / "table_000001.png") as png:
        scaled = first.resize((first.width * 2, first.height * 2), Image.Resampling.NEAREST)
        assert png.convert("RGB").tobytes() == scaled.tobytes()


def test_recorder_stops_at_max_frames_without_exiting(playing, tmp_path):
    """Past max_frames frames are skipped (luma's own limit would end the program)."""
    table, runtime = playing
    keyboard = Keyboard(table)
    recorder = Recorder(tmp_path / "short.gif", max_frames=1, scale=1)
    assert recorder.record(runtime)
    keyboard.press("e")
    runtime.drain()
    assert recorder.record(runtime) is False
    recorder.close()
    with Image.open(tmp_path / "short.gif") as gif:
        assert gif.n_frames == 1


# --- terminal -------------------------------------------------------------------

TERMINAL_SCRIPT = """
import json
from engine.match import Match
from firmware.emulator import TerminalFrontend
from firmware.table.runtime import Runtime
from hardware import emulator_table, open_table

table = open_table(emulator_table(3), "emulator")
runtime = Runtime(Match.new("tenno", 3, seed=1), [seat.screen for seat in table.seats])
table.on_event = runtime.post
with TerminalFrontend(table, poll_ms=20, pixels=PIXELS) as frontend:
    frontend.run(runtime)
table.close()
print("RESULT", json.dumps([seat.face.position for seat in runtime.seats]))
"""


# xterm's "leave the alternate screen": curses has put the terminal back.
LEAVE_SCREEN = b"\x1b[?1049l"


def run_in_terminal(keys, pixels=False, script=None, ready=b"quits", then_signal=None):
    """Run the terminal front-end in a 60x200 pty, type `keys` once it has drawn; return its output and exit code.

    `ready` is what the program writes once it is ready for the keys (the terminal's footer by default);
    `then_signal`, sent after the keys, is how another process stops it.
    """
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", LANGUAGE="en",
               PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy")
    pid, fd = pty.fork()
    if pid == 0:  # the child: a 60x200 terminal, then the script; never back into pytest
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
            # A user's foreground program: Ctrl-C interrupts it, even when these tests run as a background
            # job (whose shell starts them with SIGINT ignored, which Python would keep).
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.chdir(ROOT)
            script = script or TERMINAL_SCRIPT.replace("PIXELS", str(pixels))
            os.execve(sys.executable, [sys.executable, "-c", script], env)
        finally:
            os._exit(127)
    output = bytearray()
    status = None
    try:
        read_until(fd, output, ready)
        os.write(fd, keys)
        if then_signal is not None:
            os.kill(pid, then_signal)
        read_until(fd, output)
        _, status = os.waitpid(pid, 0)
    finally:
        if status is None:  # something failed above: do not leave the child running
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    return output, os.waitstatus_to_exitcode(status)


def positions(output):
    """The menu positions the script printed after the front-end returned."""
    return json.loads(output[output.rindex(b"RESULT") + 7:].splitlines()[0])


def test_terminal_draws_braille_seats_and_takes_keys():
    """In a real terminal: each seat drawn in braille under its name; keys move Red's menu; ESC quits."""
    output, code = run_in_terminal(b"ee\x1b", pixels=True)
    assert LEAVE_SCREEN in output[:output.rindex(b"RESULT")]
    text = output.decode("utf-8", "replace")
    assert "1 Red" in text and "2 Blue" in text and "3 Green" in text
    assert sum("\u2801" <= ch <= "\u28ff" for ch in text) > 500
    assert code == 0
    assert positions(output) == ["3/6", "1/6", "1/6"]


def test_terminal_shows_each_seats_words_by_default():
    """By default each seat's box says what its screen says; keys move Red's menu."""
    output, code = run_in_terminal(b"e\x1b")
    text = output.decode("utf-8", "replace")
    assert "Red|Setup" in text and "Order your peasants:" in text
    assert code == 0
    assert positions(output) == ["2/6", "1/6", "1/6"]


def test_terminal_ctrl_c_quits_cleanly():
    """Ctrl-C ends the terminal front-end normally: curses is left and the program carries on."""
    output, code = run_in_terminal(b"\x03")
    assert LEAVE_SCREEN in output[:output.rindex(b"RESULT")]
    assert code == 0
    assert positions(output) == ["1/6", "1/6", "1/6"]


def test_play_on_a_table_file_with_more_seats_than_players_shows_the_seats_in_play(tmp_path):
    """`courtier play tenno --players 3 --table emulator-7.toml`: three seats drawn, the game runs, ESC quits."""
    script = (f"import sys; from firmware.cli import main; sys.exit(main(['play', 'tenno', '--players', '3', "
              f"'--table', 'hardware/tables/emulator-7.toml', '--state-dir', {str(tmp_path)!r}]))")
    output, code = run_in_terminal(b"e\x1b", script=script)
    text = output.decode("utf-8", "replace")
    assert code == 0, text[-800:]
    assert "1 Red" in text and "3 Green" in text and "4 Yellow" not in text
    assert "Red|Setup" in text


@pytest.mark.parametrize("ui, ready, options", [
    ("terminal", b"quits", ()),
    ("window", b"Table page:", ("--web",)),  # the window writes nothing of its own; its page says it runs
    ("bots", b"ack 1", ("--bots", "easy")),  # a search bot: the game is far from over at the first action
])
def test_sigterm_closes_every_front_end_as_ctrl_c_does(tmp_path, ui, ready, options):
    """`kill PID` (SIGTERM) ends `courtier play` as Ctrl-C does, whatever draws the table.

    Python's default would end the process where it stands: a terminal left
    in curses' mode, the journal open and no result. The window runs on
    SDL's dummy video driver, so it needs no display.
    """
    if ui == "window":
        pytest.importorskip("pygame", reason="the window needs the emulator extra's pygame")
    args = ["play", "shadow", "--players", "4", "--state-dir", str(tmp_path), "--ui", ui, *options]
    if "--web" in options:
        args.append(f"127.0.0.1:{free_port()}")
    output, code = run_in_terminal(b"", script=f"import sys; from firmware.cli import main; sys.exit(main({args!r}))",
                                   ready=ready, then_signal=signal.SIGTERM)
    text = output.decode("utf-8", "replace")
    assert code == 0, text[-800:]
    assert "Not finished:" in text  # it ran its way out: the table and its journal closed, the result said
    if ui == "terminal":
        assert LEAVE_SCREEN in output[:output.rindex(b"Not finished:")]


def test_the_window_footer_never_hides_the_current_instruction_nor_a_wrapped_events_first_row():
    from engine.game import Prompt
    from firmware.emulator.picture import footer_lines, footer_rows

    width = 300
    steps = tuple(f"Step {i}: put a piece somewhere on the board" for i in range(20)) + ("Blue: place your Baron 45",)
    prompt = Prompt("Setup", steps=steps)
    log = ["An early event", "A long event that the footer must wrap over two rows at this width, "
           "at least two of them", "Blue wins"]
    lines = [text for text, _ in footer_lines(prompt, log, width, rows=12)]
    assert len(lines) == 12 and lines[0] == "Setup"
    assert lines[1] == "  ..." and "- Blue: place your Baron 45" in lines  # the first steps gave way
    assert "- Step 19: put a piece somewhere on the board" in lines
    assert lines[-1] == "Blue wins"  # the newest event; no row of an event without its first
    roomy = [text for text, _ in footer_lines(Prompt("Over", steps=steps[:3]), log, width, rows=12)]
    assert roomy[-1] == "Blue wins" and "An early event" in roomy
    first_rows = [i for i, text in enumerate(roomy) if text.startswith("A long event")]
    assert first_rows and roomy[first_rows[0] + 1].startswith(("at least", "rows"))  # its rows, in order
    assert footer_rows(7) > footer_rows(3) == 12  # a bigger table has room for a line per seat and score


def test_tennos_seven_seat_game_over_fits_the_window_whole():
    """Every pile to turn and every score of a seven-seat Tennō end is shown, none cut."""
    import random

    from engine.match import Match
    from engine.testing import play_random
    from firmware.emulator.picture import footer_lines, footer_rows

    match = Match.new("tenno", 7, seed=3)
    play_random(match, random.Random(3))
    assert match.is_over
    prompt = match.prompt()
    width = compose([Image.new("1", (128, 64))] * 7, match.names).width - 2 * 6
    lines = [text for text, _ in footer_lines(prompt, ["Red wins"], width, footer_rows(7))]
    end = [step for step in prompt.steps if "prisoner" in step or "cannot refill" in step]
    assert len(end) >= 15  # who could not refill, seven piles turned up, seven scores, the check
    for step in end:
        assert any(line.startswith("- " + step[:20]) for line in lines), step


def test_play_records_each_page_the_public_screen_turns_to_between_actions(tmp_path, monkeypatch):
    """`courtier play --record` gives the recorder the public screen: a page turn with no action is a frame."""
    from firmware import emulator, play
    from firmware.emulator.loop import Frontend
    from firmware.public import PublicDisplay
    from hardware.table import EMULATOR_PUBLIC_SCREEN

    now = [0.0]

    class Idle(Frontend):
        """Nobody presses: a minute passes between polls, so the public screen turns its pages."""

        def __init__(self, table, **kwargs):
            super().__init__(table, log=kwargs["log"], recorder=kwargs["recorder"], seats=kwargs["seats"],
                             public=kwargs["public"])
            self.polls = 0

        def read_keys(self):
            self.polls += 1
            now[0] += 60.0
            self._quit = self.polls > 6
            return []

        def draw(self, runtime):
            self.recorder.record(runtime, compose(**self.snapshot(runtime)))

    monkeypatch.setattr(emulator, "TerminalFrontend", Idle)
    table, runtime = start(emulator_table(3, public_screen=EMULATOR_PUBLIC_SCREEN))
    try:
        log = PublicTable().attach(runtime)
        display = PublicDisplay(table.public_screen, clock=lambda: now[0]).follow(log)
        play.run_emulator(runtime, table, "terminal", log, f"{tmp_path}/frames/", display)
    finally:
        table.close()
    assert runtime.version == 3 and not runtime.match.actions  # no seat's screen changed after the first draw
    recorded = len(list((tmp_path / "frames").glob("table_*.png")))
    assert recorded > 3 and recorded >= display.frames - 1  # every page drawn before the quit is a frame
    assert len(list((tmp_path / "frames").glob("public_*.png"))) == recorded
