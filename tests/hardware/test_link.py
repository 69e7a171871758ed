"""Tests for hardware.link: JSON lines over pyserial's loop:// and a pty pair."""

import os
import select

import pytest

from hardware.errors import LinkError, ProtocolError
from hardware.link import Link


@pytest.fixture
def link():
    with Link("loop://", name="seat 5") as opened:
        yield opened


def feed(link, data):
    """Put bytes on the line as if the far end had sent them (loop:// reads back writes)."""
    link.port.write(data)


def test_round_trip_on_loop(link):
    """A message sent comes back from receive as an equal dict."""
    message = {"v": 1, "seat": 2, "text": "天皇 é", "list": [1, 2.5, None, True]}
    assert link.send(message) is True
    assert link.receive() == [message]
    assert link.errors == []


def test_send_writes_compact_utf8_json_and_a_newline(link):
    """send writes one compact JSON line in UTF-8, not ASCII escapes."""
    link.send({"a": 1, "b": "é"})
    assert link.port.read(100) == '{"a":1,"b":"é"}\n'.encode("utf-8")


def test_split_line_waits_for_its_newline(link):
    """A partial line stays buffered until the rest arrives."""
    feed(link, b'{"a": ')
    assert link.receive() == []
    feed(link, b'1}\n{"b"')
    assert link.receive() == [{"a": 1}]
    feed(link, b": 2}\n")
    assert link.receive() == [{"b": 2}]


def test_garbage_bytes_are_dropped_and_recorded(link):
    """Invalid UTF-8 is dropped with a ProtocolError; the valid line after it still arrives."""
    feed(link, b'\xff\xfe\x00garbage\n{"ok": true}\n')
    assert link.receive() == [{"ok": True}]
    assert len(link.errors) == 1
    assert isinstance(link.errors[0], ProtocolError)
    assert str(link.errors[0]) == "seat 5: line 1 is not UTF-8 (byte 0); dropped"


def test_invalid_json_is_dropped_and_recorded(link):
    """A line that is not JSON is dropped with an error naming the line."""
    feed(link, b'{"a": 1,}\n{"a": 2}\nNaN\n')
    assert link.receive() == [{"a": 2}]
    assert [str(e).split(" (")[0] for e in link.errors] == [
        "seat 5: line 1 is not JSON", "seat 5: line 3 is not JSON"]


def test_a_line_nested_too_deeply_is_a_bad_line_and_the_good_line_before_it_counts(link):
    """JSON nested past the parser's recursion limit fits in a line; it is dropped like any bad line."""
    received = []
    # loop:// holds 4,096 bytes: feed the lines one read at a time.
    for data in (b'{"button": "ok"}\n' + b"[" * 1500 + b"]" * 1500 + b"\n",
                 b"[" * 3000 + b'\n{"button": "next"}\n'):
        feed(link, data)
        received += link.receive()
    assert received == [{"button": "ok"}, {"button": "next"}]
    assert [str(e) for e in link.errors] == ["seat 5: line 2 is nested too deeply; dropped",
                                              "seat 5: line 3 is nested too deeply; dropped"]


@pytest.mark.parametrize(("line", "kind"), [
    (b"[1, 2]", "an array"), (b'"hello"', "a string"), (b"3", "a number"),
    (b"true", "a boolean"), (b"null", "null"),
])
def test_json_that_is_not_an_object_is_dropped(link, line, kind):
    """Only JSON objects are messages; other JSON values are dropped and recorded."""
    feed(link, line + b'\n{"x": 1}\n')
    assert link.receive() == [{"x": 1}]
    assert str(link.errors[0]) == f"seat 5: line 1 is {kind}, not a JSON object; dropped"


def test_oversized_line_is_dropped_even_when_it_arrives_in_pieces():
    """A line past max_line is reported once, its tail skipped up to its newline, and the next line kept."""
    with Link("loop://", max_line=64, name="pod") as link:
        feed(link, b'{"big": "' + b"x" * 80)
        assert link.receive() == []
        assert len(link.errors) == 1
        assert "longer than 64 bytes" in str(link.errors[0])
        feed(link, b"y" * 200)
        assert link.receive() == []
        feed(link, b'"}\n{"after": 1}\n')
        assert link.receive() == [{"after": 1}]
        assert len(link.errors) == 1


def test_oversized_complete_line_is_dropped():
    """A whole line longer than max_line in one read is dropped too."""
    with Link("loop://", max_line=16) as link:
        feed(link, b'{"a": "0123456789abcdef"}\n{"b": 1}\n')
        assert link.receive() == [{"b": 1}]
        assert "longer than 16 bytes" in str(link.errors[0])


def feed_in_pieces(link, data, piece=1000):
    """Feed a long line in pieces, receiving between them, as loop:// holds only 4096 bytes."""
    received = []
    for start in range(0, len(data), piece):
        feed(link, data[start:start + piece])
        received += link.receive()
    return received


def test_default_limit_is_4096_bytes(link):
    """With the default max_line a 4096-byte line passes and a 4097-byte one does not."""
    exact = b'{"a":"' + b"x" * (4096 - 8) + b'"}'
    assert len(exact) == 4096
    assert feed_in_pieces(link, exact + b"\n") == [{"a": "x" * 4088}]
    too_long = b'{"a":"' + b"x" * (4097 - 8) + b'"}'
    assert feed_in_pieces(link, too_long + b'\n{"ok": 1}\n') == [{"ok": 1}]
    assert len(link.errors) == 1
    assert "line 2 is longer than 4096 bytes" in str(link.errors[0])


def test_full_loop_buffer_counts_as_a_write_timeout():
    """loop:// raises queue.Full when its 4096-byte buffer is full; send reports False, not a crash."""
    # A high baud rate keeps loop:// from failing the 4090-byte write on time alone.
    with Link("loop://", baudrate=10_000_000, write_timeout=0.01) as link:
        feed(link, b"x" * 4090)
        assert link.send({"a": 1}) is False
        assert link.connected


def test_blank_lines_and_crlf_are_accepted(link):
    """Blank lines are ignored silently and CRLF line ends are fine."""
    feed(link, b'\r\n\n{"a": 1}\r\n')
    assert link.receive() == [{"a": 1}]
    assert link.errors == []


def test_on_error_callback_receives_errors_instead_of_the_list():
    """With on_error, each ProtocolError goes to the callback and errors stays empty."""
    seen = []
    with Link("loop://", on_error=seen.append) as link:
        feed(link, b"{oops\n")
        assert link.receive() == []
    assert len(seen) == 1 and "not JSON" in str(seen[0])
    assert link.errors == []


def test_error_list_keeps_only_the_latest_hundred(link):
    """A port spewing garbage cannot grow the error list without bound."""
    for _ in range(3):
        feed(link, b"x\n" * 50)
        link.receive()
    assert len(link.errors) == 100
    assert "line 150 " in str(link.errors[-1])


def test_send_refuses_an_oversized_message():
    """A message longer than max_line is a ProtocolError before anything is written."""
    with Link("loop://", max_line=20) as link:
        with pytest.raises(ProtocolError, match="longer than the 20-byte line limit"):
            link.send({"text": "x" * 30})
        assert link.port.in_waiting == 0


def test_send_refuses_what_is_not_a_dict(link):
    """Messages are JSON objects, so a list is a TypeError."""
    with pytest.raises(TypeError):
        link.send([1, 2])


def test_write_timeout_returns_false_and_ends_the_torn_line_next_time():
    """A timed-out write reports False, keeps the link, and the next line starts with a newline."""
    # loop:// fails a write that would take longer than write_timeout at the baud rate.
    with Link("loop://", baudrate=9600, write_timeout=0.01) as link:
        assert link.send({"text": "x" * 100}) is False
        assert link.connected
        link.port.write_timeout = 5
        assert link.send({"a": 1}) is True
        assert link.port.read(100) == b'\n{"a":1}\n'


def test_absent_port_is_not_an_error_at_start():
    """A serial seat whose device is missing opens disconnected instead of raising."""
    with Link("/dev/courtier-no-such-port") as link:
        assert not link.connected
        assert link.send({"a": 1}) is False
        assert link.receive() == []
        assert link.reopen() is False


def test_bad_url_is_a_link_error():
    """A URL pyserial does not understand is a configuration mistake and raises LinkError."""
    with pytest.raises(LinkError, match="bogus"):
        Link("bogus://nowhere")


def test_port_closed_underneath_is_reopened():
    """When the port goes away, receive returns [] and connected is False; reopen restores it."""
    with Link("loop://") as link:
        link.port.close()
        assert link.receive() == []
        assert not link.connected
        assert link.send({"a": 1}) is False
        assert link.reopen() is True
        assert link.send({"a": 2}) is True
        assert link.receive() == [{"a": 2}]


def test_vanished_pty_marks_the_link_disconnected():
    """A pty whose far end closes (a pod unplugged) leaves the link disconnected without raising."""
    master, slave = os.openpty()
    try:
        link = Link(os.ttyname(slave), name="pod")
        assert link.connected
        os.write(master, b'{"button": "ok"}\n')
        ready, _, _ = select.select([link.port.fileno()], [], [], 2)
        assert ready, "the pty never delivered the line"
        assert link.receive() == [{"button": "ok"}]
        assert link.send({"view": "hello"}) is True
        ready, _, _ = select.select([master], [], [], 2)
        assert ready and os.read(master, 100) == b'{"view":"hello"}\n'
        os.close(master)
        master = None
        assert link.receive() == []
        assert not link.connected
        assert link.send({"view": "again"}) is False
        link.close()
    finally:
        if master is not None:
            os.close(master)
        os.close(slave)
    assert link.reopen() is False
