"""The serial line protocol: every message round-trips, every bad one is refused with a clear reason."""

from __future__ import annotations

import json

import pytest

from engine.match import Match
from firmware.links import protocol
from firmware.table.faces import Face
from hardware.errors import ProtocolError
from hardware.events import InputEvent
from hardware.link import Link

FACE = Face(seat_name="Blue", header="Turn 3 attack", panel=("Row Sa8 Mk5 P3", "Hand 1 2 7"),
            ask="Waiting for Red", choice="slot 2: Dm9", position="2/3", can_go_back=True,
            notice="Green: screen fault")


def test_face_message_carries_the_face_fields_and_decodes_back():
    message = protocol.encode_face(1, FACE)
    assert message == {"v": 1, "type": "face", "seat": 1, "name": "Blue", "header": "Turn 3 attack",
                       "panel": ["Row Sa8 Mk5 P3", "Hand 1 2 7"], "ask": "Waiting for Red",
                       "choice": "slot 2: Dm9", "position": "2/3", "back": True,
                       "notice": "Green: screen fault"}
    assert protocol.decode(json.loads(json.dumps(message))) == protocol.FaceUpdate(1, FACE)


def test_encode_line_is_exactly_what_the_link_writes():
    message = protocol.encode_face(0, Face("Rød", "天皇", ("a",), "ask?"))
    with Link("loop://") as link:
        assert link.send(message)
        written = link.port.read(link.port.in_waiting)
    assert written == protocol.encode_line(message)
    assert "天皇".encode() in written


def test_pod_messages_decode():
    assert protocol.decode(protocol.encode_hello("pod/1.0")) == protocol.Hello("pod/1.0")
    event = protocol.decode(protocol.encode_button("ok", "hold"))
    assert event == protocol.PodEvent("ok", "hold")
    assert event.for_seat(2) == InputEvent(2, "ok", "hold")


def test_console_messages_decode():
    command = protocol.decode(protocol.encode_command("new_game", {"game": "tenno", "players": 3}))
    assert command == protocol.ConsoleCommand("new_game", {"game": "tenno", "players": 3})
    assert protocol.decode({"v": 1, "type": "command", "name": "undo"}) == protocol.ConsoleCommand("undo", {})
    assert protocol.decode(protocol.encode_reply("done")) == protocol.Reply("done")
    assert protocol.decode(protocol.encode_error("bad")) == protocol.ErrorReport("bad")


def test_table_message_holds_the_public_side_only_and_decodes():
    match = Match.new("tenno", 3, seed=2)
    prompt = match.prompt()
    message = protocol.encode_table(match.public_view(), prompt.line, prompt.steps, match.names,
                                    None, ["Red attacks Blue"])
    assert set(message) == {"v", "type", "public", "prompt", "names", "over", "result", "log"}
    table = protocol.decode(json.loads(protocol.encode_line(message)))
    assert isinstance(table, protocol.TableUpdate)
    assert table.public == protocol.without_moves(match.public_view())
    assert (table.line, table.steps, table.names) == (prompt.line, prompt.steps, match.names)
    assert table.over is False and table.result is None and table.log == ("Red attacks Blue",)


def test_error_messages_are_cut_to_fit_a_pod_buffer():
    message = protocol.encode_error("x" * 1000)["message"]
    assert len(message) == protocol.MAX_ERROR and message.endswith("...")


@pytest.mark.parametrize("message, reason", [
    ([1, 2], "a message is a JSON object, not an array"),
    ({"type": "hello", "pod": "p/1"}, "message has no 'v' (protocol version); this side speaks version 1"),
    ({"v": 2, "type": "hello", "pod": "p/1"}, "protocol version 2 is not supported; this side speaks version 1"),
    ({"v": True, "type": "hello", "pod": "p/1"}, "protocol version True is not supported"),
    ({"v": 1}, "message has no 'type' string"),
    ({"v": 1, "type": 7}, "'type' must be a string, not an integer"),
    ({"v": 1, "type": "blink"}, "unknown message type 'blink'; known: button, command, error, face, frame, hello"),
    ({"v": 1, "type": "button", "gesture": "press"}, "button message: missing field 'button'"),
    ({"v": 1, "type": "button", "button": "up", "gesture": "press"},
     "button message: 'button' must be one of prev, next, ok, not 'up'"),
    ({"v": 1, "type": "button", "button": "ok", "gesture": 1},
     "button message: 'gesture' must be a string, not an integer"),
    ({"v": 1, "type": "hello", "pod": ""}, "hello message: 'pod' must be 1 to 64 characters"),
    ({"v": 1, "type": "command", "name": "undo", "args": []},
     "command message: 'args' must be an object, not an array"),
    ({"v": 1, "type": "command", "name": ""}, "command message: 'name' must not be empty"),
    ({"v": 1, "type": "face", "seat": True, "header": "", "panel": [], "ask": ""},
     "face message: 'seat' must be an integer, not true or false"),
    ({"v": 1, "type": "face", "seat": 0, "header": "", "panel": ["a", 3], "ask": ""},
     "face message: panel[1] must be a string, not an integer"),
    ({"v": 1, "type": "face", "seat": 0, "header": "", "panel": [], "ask": "", "back": "yes"},
     "face message: 'back' must be true or false, not a string"),
    ({"v": 1, "type": "table", "public": {}, "prompt": {"steps": []}, "names": [], "over": False},
     "table message 'prompt': missing field 'line'"),
    ({"v": 1, "type": "reply"}, "reply message: missing field 'message'"),
])
def test_bad_messages_are_refused_with_a_clear_reason(message, reason):
    with pytest.raises(ProtocolError) as raised:
        protocol.decode(message)
    assert reason in str(raised.value)
