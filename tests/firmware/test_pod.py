"""The seat pod's logic under CPython, alone and against the Pi side through a real pty pair.

The pod end of the pty is driven by the test exactly as ``firmware/pod/main.py``
drives it on the RP2040: bytes from the link into ``Pod.receive``, button
levels with millisecond timestamps into ``Gestures``, lines back out.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import sys
import time
import types
from pathlib import Path

import pytest

from engine.testing import tenno_position
from firmware.links import protocol
from firmware.table.faces import Face
from firmware.pod import podlogic
from firmware.pod.podlogic import Gestures, LineReader, Pod, layout
from firmware.table.runtime import Runtime
from firmware.links.serial_seats import SerialPump, SerialSeat
from firmware.testing import PtyPort
from hardware.events import InputEvent
from hardware.link import Link

WAIT = 5.0


# --- lines ----------------------------------------------------------------------

def test_partial_lines_wait_for_their_newline():
    reader = LineReader()
    assert reader.feed(b'{"v": 1, "ty') == []
    assert reader.feed(b'pe": "face"}\n{"a"') == [{"v": 1, "type": "face"}]
    assert reader.feed(b': 2}\r\n\n') == [{"a": 2}]


def test_bad_and_oversized_lines_are_dropped_and_reported_and_the_next_line_counts():
    reader = LineReader(max_line=32)
    out = reader.feed(b"\xff garbage\n[1]\n" + b"x" * 20)
    assert out == ["line 1 is not JSON; dropped", "line 2 is not a JSON object; dropped"]
    assert reader.feed(b"y" * 20) == ["line 3 is longer than 32 bytes; dropped"]
    assert reader.feed(b"zzz\n" + b'{"ok": true}\n') == [{"ok": True}]
    assert reader.feed(b'"' + b"w" * 40 + b'"\n') == ["line 5 is longer than 32 bytes; dropped"]


def test_a_line_from_the_pi_nested_too_deeply_is_dropped_and_the_good_line_before_it_counts():
    reader = LineReader()
    out = reader.feed(b'{"type": "face"}\n' + b"[" * 2000 + b"\n" + b'{"a": 1}\n')
    assert out == [{"type": "face"}, "line 2 is not JSON; dropped", {"a": 1}]


def test_pod_lines_are_what_the_pi_decodes():
    assert protocol.decode(json.loads(podlogic.hello_line("pod", "1.0"))) == protocol.Hello("pod/1.0", frames=True)
    assert protocol.decode(json.loads(podlogic.button_line("ok", "hold"))) == protocol.PodEvent("ok", "hold")
    error = protocol.decode(json.loads(podlogic.error_line("e" * 500)))
    assert isinstance(error, protocol.ErrorReport) and len(error.message) == podlogic.MAX_ERROR


# --- layout ---------------------------------------------------------------------

def face_message(**fields):
    face = Face(seat_name="Blue", header="Turn 3 attack", panel=("Row Sa8 Mk5 P3", "Hand 1 2 7"),
                ask="Waiting for Red")
    return protocol.encode_face(1, face._replace(**fields))


def test_a_face_is_laid_out_in_eight_rows_of_sixteen_like_the_pis_screens():
    rows = layout(face_message(choice="slot 2: Dm9", position="2/3", notice="saved"))
    assert rows == [
        "Blue|Turn 3 att~",
        "Row Sa8 Mk5 P3  ",
        "Hand 1 2 7      ",
        "Waiting for Red ",
        "! saved         ",
        "                ",
        "                ",
        "<slot 2: Dm9 2/3",
    ]


def test_the_question_wraps_and_takes_the_rows_the_panel_leaves():
    rows = layout(face_message(panel=("P1",), ask="Order your peasants from left to right please now",
                               choice="P1-P2-P3"))
    assert [r.rstrip() for r in rows] == ["Blue|Turn 3 att~", "P1", "Order your", "peasants from",
                                          "left to right", "please now", "", ">P1-P2-P3"]
    crowded = layout(face_message(panel=tuple(f"line {i}" for i in range(9)), ask="Pick a very long thing",
                                  choice="x"))
    assert [r.rstrip() for r in crowded][1:7] == ["line 0", "line 1", "line 2", "line 3", "line 4",
                                                 "Pick a very long"]
    assert all(len(row) == 16 for row in rows + crowded)


def test_text_the_font_lacks_is_transliterated_or_marked():
    rows = layout(face_message(seat_name="Rōnin", header="天皇", panel=("Prisoners 2 → Red",),
                               ask="averyveryverylongwordindeed"))
    assert rows[0] == "Ronin|??        "
    assert rows[1] == "Prisoners 2 > R~"
    assert rows[2:4] == ["averyveryverylon", "gwordindeed     "]


# --- buttons --------------------------------------------------------------------

def test_a_bouncing_press_is_one_press_and_a_glitch_is_none():
    gestures = Gestures(debounce_ms=20)
    for t, level in ((0, True), (2, False), (3, True), (5, False), (6, True)):
        gestures.edge("next", level, t)
        assert gestures.tick(t) == []
    assert gestures.tick(25) == []
    assert gestures.tick(26) == [("next", "press")]
    gestures.edge("next", False, 100)
    assert gestures.tick(130) == []                      # releasing prev/next says nothing
    gestures.edge("prev", True, 200)
    gestures.edge("prev", False, 210)                    # 10 ms: noise, not a press
    assert gestures.tick(300) == []


def test_ok_pressed_briefly_is_a_press_and_held_is_a_hold_once():
    gestures = Gestures(debounce_ms=20, hold_ms=800)
    assert gestures.sample(0, {"prev": False, "next": False, "ok": True}) == []
    assert gestures.sample(30, {"prev": False, "next": False, "ok": True}) == []
    assert gestures.sample(300, {"prev": False, "next": False, "ok": False}) == []
    assert gestures.sample(330, {"prev": False, "next": False, "ok": False}) == [("ok", "press")]
    gestures.edge("ok", True, 1000)
    assert gestures.tick(1799) == []
    assert gestures.tick(1800) == [("ok", "hold")]
    assert gestures.tick(2500) == []
    gestures.edge("ok", False, 3000)
    assert gestures.tick(3100) == []                     # no press after a hold


def test_gestures_survive_a_wrapping_millisecond_clock():
    period = 1 << 30

    def ticks_diff(later, earlier):                      # MicroPython's, for a 2**30 period
        return ((later - earlier + period // 2) % period) - period // 2

    gestures = Gestures(diff=ticks_diff)
    gestures.edge("ok", True, period - 10)
    assert gestures.tick(15) == []
    assert gestures.tick(790) == [("ok", "hold")]


# --- the pod alone -----------------------------------------------------------------

def test_a_pod_answers_lines_it_cannot_use_and_keeps_its_face():
    pod = Pod("pod")
    assert pod.rows[2].strip() == "waiting for"
    assert pod.receive(protocol.encode_line(face_message(choice="x"))) == []
    good = list(pod.rows)
    replies = pod.receive(b'{"v": 2, "type": "face"}\n{"v": 1, "type": "table"}\nnope\n'
                          b'{"v": 1, "type": "face", "seat": 0, "header": "h", "ask": "a", "panel": [1]}\n')
    reasons = [json.loads(line)["message"] for line in replies]
    assert reasons == ["protocol version 2 is not supported; this pod speaks 1",
                       "a pod takes face, frame and error messages, not 'table'",
                       "line 4 is not JSON; dropped",
                       "face message: 'panel' must be an array of strings"]
    assert pod.rows == good and pod.inverted == (0, 7)


# --- against the Pi, through a pty pair ----------------------------------------------

class PodEnd(PtyPort):
    """A pod on the master side of a pty pair; the Pi opens ``path`` (a symlink to the slave)."""

    def plug(self, pod: Pod | None = None) -> None:
        super().plug()
        self.pod = pod or Pod("test-pod")
        self.gestures = Gestures()
        self.replies: list[bytes] = []
        self.received: list[dict] = []     # every message the pod was sent, as a record
        self._reader = LineReader(1 << 16)

    def run_until(self, done, what: str) -> None:
        """The pod's loop: read the link into the pod until ``done()``; replies go back out."""
        while not done():
            ready, _, _ = select.select([self.master], [], [], WAIT)
            assert ready, f"the pod never got {what}"
            data = os.read(self.master, 4096)
            self.received += [m for m in self._reader.feed(data) if isinstance(m, dict)]
            for reply in self.pod.receive(data):
                self.replies.append(reply)
                self.write(reply)

    def next_face(self) -> list[str]:
        """Wait for a face newer than the one shown, and return the rows drawn for it."""
        self.pod.dirty = False
        self.run_until(lambda: self.pod.dirty, "a face")
        return list(self.pod.rows)

    def press(self, button: str, at: int, hold_ms: int = 50) -> None:
        """Press at ``at`` ms and release ``hold_ms`` later, sampled every 5 ms as main.py does.

        Whatever gestures that makes are sent to the Pi.
        """
        for t in range(at, at + hold_ms + 50, 5):
            self.gestures.edge(button, t < at + hold_ms, t)
            for button_name, gesture in self.gestures.tick(t):
                self.write(self.pod.button(button_name, gesture))


def pi_poll(seat: SerialSeat, pump: SerialPump, runtime: Runtime, now: float = 0.0, count: int = 1) -> None:
    """The Pi's loop: wait for the pod's bytes, post its events, handle them."""
    posted = 0
    while posted < count:
        ready, _, _ = select.select([seat.link.port.fileno()], [], [], WAIT)
        assert ready, "the Pi never heard from the pod"
        posted += pump.poll(now)
    runtime.drain()


@pytest.fixture
def pod_end(tmp_path):
    end = PodEnd(str(tmp_path / "ttyACM0"))
    yield end
    end.close()


@pytest.fixture
def table(pod_end):
    """Tennō at three seats, Blue (seat 1) a pod; Blue must defend Red's attack on slot 1."""
    match = tenno_position(3, {0: [4, 9, 3], 1: [8, 5, 3]}, active=1)
    seat = SerialSeat(Link(pod_end.path, name="Blue"), 1)
    runtime = Runtime(match, [None, seat, None])
    return runtime, seat, SerialPump(runtime, [seat])


def test_the_pod_receives_its_face_and_draws_the_expected_rows(pod_end, table):
    runtime, seat, pump = table
    rows = pod_end.next_face()
    face = runtime.seats[1].face
    assert rows == layout(protocol.encode_face(1, face))
    assert pod_end.pod.seat == 1
    assert rows[0].startswith(podlogic.to_ascii(face.seat_name + "|"))
    assert rows[-1].startswith("<" if face.position else ">")
    assert pod_end.pod.inverted == (0, 7)


def test_pod_presses_reach_the_runtime_as_the_seats_events(pod_end, table):
    runtime, seat, pump = table
    pod_end.next_face()
    seen = []
    runtime.listeners.append(lambda match, action, events: seen.append(action))
    pod_end.press("next", at=0)
    pi_poll(seat, pump, runtime)
    assert runtime.seats[1].menu.cursor == 1
    rows = pod_end.next_face()
    assert rows[-1].rstrip().endswith("2/" + runtime.seats[1].face.position.split("/")[1])
    # ok through the menu's levels until Blue's attack is made, all on the pod.
    for press in range(1, 6):
        pod_end.press("ok", at=1000 * press)
        pi_poll(seat, pump, runtime)
        pod_end.next_face()
        if seen:
            break
    assert seen[0]["seat"] == 1 and seen[0]["do"] == "attack"
    assert runtime.match.actions[-1] == seen[0]


def test_ok_held_on_the_pod_goes_back_on_the_pi(pod_end, table):
    runtime, seat, pump = table
    pod_end.next_face()
    pod_end.press("ok", at=0)                        # choose the attacking card
    pi_poll(seat, pump, runtime)
    assert runtime.seats[1].menu.path and runtime.seats[1].face.can_go_back
    pod_end.next_face()
    assert pod_end.received[-1]["back"] is True
    pod_end.press("ok", at=1000, hold_ms=900)        # held: back
    pi_poll(seat, pump, runtime)
    assert runtime.seats[1].menu.path == [] and not runtime.seats[1].face.can_go_back
    assert pod_end.next_face() == layout(protocol.encode_face(1, runtime.seats[1].face))
    assert pod_end.received[-1]["back"] is False


def test_garbage_and_oversized_lines_from_the_pod_are_answered_and_the_game_goes_on(pod_end, table):
    runtime, seat, pump = table
    pod_end.next_face()
    pod_end.write(b"\x00\x01 not json at all\n")
    pod_end.write(b'{"v": 1, "type": "button", "pad": "' + b"z" * 6000 + b'"}\n')
    pod_end.press("next", at=0)
    pi_poll(seat, pump, runtime)
    assert runtime.seats[1].menu.cursor == 1        # the press after the bad lines counted
    pod_end.run_until(lambda: [m["type"] for m in pod_end.received] == ["face", "error", "error", "face"],
                      "two errors and a new face")
    first, second = (m["message"] for m in pod_end.received[1:3])
    assert first.startswith("Blue: line ") and "is not JSON" in first
    assert "longer than 4096 bytes" in second
    # The new face replaces the complaint on the pod's screen.
    assert pod_end.pod.alert == ""
    assert pod_end.pod.rows == layout(protocol.encode_face(1, runtime.seats[1].face))
    assert pod_end.replies == []                     # the pod never answers an error


def test_the_pod_shows_the_pis_complaint_until_the_next_face():
    pod = Pod("pod")
    pod.receive(protocol.encode_line(face_message(choice="x")))
    pod.receive(protocol.encode_line(protocol.encode_error("Blue: line 2 is not JSON")))
    assert pod.alert == "Blue: line 2 is not JSON"
    assert "! Pi: Blue: lin~" in pod.rows
    pod.receive(protocol.encode_line(face_message(choice="y")))
    assert pod.alert == "" and not any(row.startswith("!") for row in pod.rows)


def test_the_pod_unplugged_and_plugged_back_gets_its_face_and_plays_on(pod_end, table):
    runtime, seat, pump = table
    pod_end.next_face()
    pod_end.unplug()
    pump.poll(100.0)
    pump.poll(100.0)
    assert not seat.connected
    runtime.handle(InputEvent(1, "next", "press"))   # the table moves on meanwhile
    away = runtime.seats[1].face
    pod_end.plug()                                   # a fresh pod: blank, as after a reset
    pump.poll(100.2)
    assert not seat.connected                        # still in the pause after the failed try
    pump.poll(100.5)
    assert seat.connected
    rows = pod_end.next_face()
    assert rows == layout(protocol.encode_face(1, away))
    pod_end.write(pod_end.pod.hello())
    pod_end.press("prev", at=0)
    pi_poll(seat, pump, runtime, now=101.0)
    assert runtime.seats[1].menu.cursor == 0
    assert seat.pod == "test-pod/" + podlogic.VERSION


# --- main.py, with stand-ins for the MicroPython modules ---------------------------

class FakeOled:
    def __init__(self):
        self.calls = []

    def fill(self, colour):
        self.calls.append(("fill", colour))

    def fill_rect(self, x, y, w, h, colour):
        self.calls.append(("fill_rect", y, colour))

    def text(self, text, x, y, colour):
        self.calls.append(("text", text, y, colour))

    def show(self):
        self.calls.append(("show",))

    def blit(self, buffer, x, y):
        self.calls.append(("blit", bytes(buffer.data), buffer.width, buffer.height, buffer.format, x, y))


class FakePin:
    IN, PULL_UP = 0, 1

    def __init__(self, level=1):
        self.level = level

    def value(self):
        return self.level


class FakeLink:
    def __init__(self, incoming):
        self.incoming = list(incoming)
        self.written = []

    def read(self):
        return self.incoming.pop(0) if self.incoming else b""

    def write(self, line):
        self.written.append(line)


@pytest.fixture
def pod_main(monkeypatch):
    clock = {"now": 0}
    machine = types.SimpleNamespace(Pin=FakePin, I2C=None, UART=None)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace(kbd_intr=lambda c: None))
    monkeypatch.setitem(sys.modules, "ssd1306", types.SimpleNamespace())
    monkeypatch.setitem(sys.modules, "podlogic", podlogic)
    framebuf = types.SimpleNamespace(MONO_HLSB=3, FrameBuffer=lambda data, w, h, fmt: types.SimpleNamespace(
        data=data, width=w, height=h, format=fmt))
    monkeypatch.setitem(sys.modules, "framebuf", framebuf)
    monkeypatch.setattr(time, "ticks_ms", lambda: clock["now"], raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)

    def sleep_ms(ms):
        clock["now"] += ms

    monkeypatch.setattr(time, "sleep_ms", sleep_ms, raising=False)
    path = Path(podlogic.__file__).with_name("main.py")
    spec = importlib.util.spec_from_file_location("courtier_pod_main", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, clock


def test_main_draws_the_face_it_is_sent_and_sends_a_held_ok(pod_main):
    main, clock = pod_main
    face = protocol.encode_face(1, Face("Blue", "Turn 3", ("Row Sa8",), "Defend:", "Reveal", "1/2"))
    line = protocol.encode_line(face)
    link = FakeLink([line[:10], line[10:]])
    oled = FakeOled()
    buttons = {"prev": FakePin(), "next": FakePin(), "ok": FakePin(0)}   # ok held down
    pod = main.run(link, oled, buttons, steps=200)
    assert json.loads(link.written[0]) == {"v": 1, "type": "hello", "pod": "courtier-pod/" + podlogic.VERSION,
                                           "frames": True}
    assert [json.loads(w) for w in link.written[1:]] == [{"v": 1, "type": "button", "button": "ok",
                                                         "gesture": "hold"}]
    texts = [call for call in oled.calls if call[0] == "text"]
    assert ("text", "Blue|Turn 3     ", 0, 0) in texts           # header inverted
    assert ("text", "<Reveal      1/2", 56, 0) in texts           # choice row inverted
    assert ("text", "Row Sa8         ", 8, 1) in texts
    assert pod.face == face and clock["now"] == 200 * main.POLL_MS


def test_main_shows_a_crash_on_the_screen_and_restarts_the_pod(pod_main, monkeypatch):
    main, clock = pod_main
    oled = FakeOled()
    resets = []
    main.machine.reset = lambda: resets.append(clock["now"])
    monkeypatch.setattr(main, "open_buttons", lambda: {"prev": FakePin(), "next": FakePin(), "ok": FakePin()})
    monkeypatch.setattr(main, "open_display", lambda: oled)
    monkeypatch.setattr(main, "UsbLink", lambda: FakeLink([]))

    def broken(link, oled, buttons):
        raise OSError(5, "I2C bus error")

    monkeypatch.setattr(main, "run", broken)
    main.main()
    texts = [call[1] for call in oled.calls if call[0] == "text"]
    assert texts[:2] == ["pod error:      ", "OSError(5, 'I2C "]
    assert resets == [main.CRASH_PAUSE_MS]


# --- faces a pod's font cannot draw go as pixels ------------------------------------------

CHINESE = Face("藍", "第3輪 紅", ("檯面 武8 僧5 農3", "手牌 1 2 X"), "忍4攻擊你的位置1", "用僧侶（+2）", "1/2")


def test_a_chinese_face_goes_as_the_seat_screens_frame_to_a_pod_that_draws_frames(tmp_path):
    from firmware.table.render import render_face

    assert protocol.needs_frame(CHINESE) and not protocol.needs_frame(Face("Blue", "T3", (), "Defend:"))
    message = protocol.encode_frame(1, render_face(CHINESE))
    line = protocol.encode_line(message)
    assert len(line) < podlogic.MAX_LINE and message["width"] == 128 and message["height"] == 64
    frame = protocol.decode(json.loads(line))
    assert frame == protocol.FrameUpdate(1, 128, 64, render_face(CHINESE).tobytes())
    pod = Pod("pod")
    assert pod.receive(line) == []
    assert pod.frame == render_face(CHINESE).tobytes() and pod.seat == 1 and pod.dirty
    # The Pi's complaint still reaches the screen: on the bottom row, over the pixels.
    pod.receive(protocol.encode_line(protocol.encode_error("Blue: line 2 is not JSON")))
    assert pod.frame is not None and pod.rows[-1].startswith("! Pi: Blue")


@pytest.mark.parametrize("bad, reason", [
    ({"bits": "not base64!"}, "'bits' is not base64"),
    ({"bits": "AAAA"}, "needs 1024 bytes of 'bits', not 3"),
    ({"width": 4096}, "the size at most 256x128"),
])
def test_a_bad_frame_is_refused_by_both_ends(bad, reason):
    from firmware.table.render import render_face

    message = {**protocol.encode_frame(0, render_face(CHINESE)), **bad}
    with pytest.raises(protocol.ProtocolError, match=reason.replace("(", r"\(")):
        protocol.decode(message)
    pod = Pod("pod")
    replies = pod.receive(protocol.encode_line(message))
    assert len(replies) == 1 and json.loads(replies[0])["message"].startswith("frame message: ")
    assert pod.frame is None


def test_a_serial_seat_sends_words_unless_its_pod_draws_frames_and_the_face_needs_them(pod_end):
    seat = SerialSeat(Link(pod_end.path, name="Blue"), 1)
    ascii_face = Face("Blue", "T3", ("Row Sa8",), "Defend:", "Reveal", "1/2")
    assert seat.message(CHINESE)["type"] == "face"            # an old pod: words, as before
    seat.frames = True
    assert seat.message(CHINESE)["type"] == "frame"
    assert seat.message(ascii_face)["type"] == "face"         # ASCII stays words: 10x smaller
    seat.close()


def test_a_pod_at_a_seat_reading_chinese_gets_its_frame_over_the_pty(pod_end, table):
    from firmware.table.render import render_face

    runtime, seat, pump = table
    pod_end.next_face()                                     # words, before the pod said hello
    pod_end.write(pod_end.pod.hello())
    ready, _, _ = select.select([seat.link.port.fileno()], [], [], WAIT)
    assert ready
    pump.poll(0.0)
    assert seat.frames and seat.pod == "test-pod/" + podlogic.VERSION
    runtime.set_language(1, "zh_Hant")                      # Blue chooses 繁體中文 at the table
    pod_end.pod.dirty = False
    pod_end.run_until(lambda: pod_end.pod.frame is not None, "a frame")
    face = runtime.seats[1].face
    assert face.ask == "用哪張出戰：" and face.seat_name == "藍"  # Blue attacks, in Chinese
    assert pod_end.pod.frame == render_face(face).tobytes()
    assert pod_end.received[-1]["type"] == "frame" and pod_end.received[-1]["seat"] == 1


def test_main_draws_a_frame_it_is_sent(pod_main):
    from firmware.table.render import render_face

    main, clock = pod_main
    line = protocol.encode_line(protocol.encode_frame(1, render_face(CHINESE)))
    link = FakeLink([line[:700], line[700:]])
    oled = FakeOled()
    buttons = {"prev": FakePin(), "next": FakePin(), "ok": FakePin()}
    main.run(link, oled, buttons, steps=10)
    blits = [call for call in oled.calls if call[0] == "blit"]
    assert blits == [("blit", render_face(CHINESE).tobytes(), 128, 64, 3, 0, 0)]
    after = oled.calls[oled.calls.index(blits[0]):]
    assert not [call for call in after if call[0] == "text"] and after[-1] == ("show",)  # pixels alone
