"""Fuzzing the files a table reads: random table TOML and random journals get clear errors, never a crash."""

from __future__ import annotations

import functools
import json
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import BadJournal
from engine.match import Match
from engine.testing import play_random
from firmware.table import journal as journals
from firmware.table.journal import Journal
from hardware.errors import TableConfigError
from hardware.table import parse_table

KEYS = ["table", "seat", "public_screen", "name", "backend", "hold_time", "bounce_time", "buttons", "screen",
        "serial", "prev", "next", "ok", "driver", "bus", "port", "address", "rotate", "width", "height",
        "device", "gpio_dc", "gpio_rst", "gpio_cs", "baudrate", "mux", "channel", "encoder", "a", "b", "push"]
scalars = st.one_of(st.integers(-5, 300), st.sampled_from(["ssd1306", "sh1106", "i2c", "spi", "pi", "mock",
                                                           "GPIO5", "BOARD29", "/dev/ttyACM0", ""]),
                    st.booleans(), st.floats(allow_nan=False, allow_infinity=False, width=32))


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return repr(value)


tables = st.dictionaries(st.sampled_from(KEYS), st.one_of(scalars, st.dictionaries(st.sampled_from(KEYS), scalars,
                                                                                    max_size=5)), max_size=6)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(head=tables, seats=st.lists(tables, max_size=9), noise=st.text(max_size=30))
def test_random_table_files_are_loaded_or_refused_with_a_table_config_error(head, seats, noise):
    lines = ["[table]"] + [f"{k} = {toml_value(v)}" for k, v in head.items()]
    for seat in seats:
        lines += ["[[seat]]"] + [f"{k} = {toml_value(v)}" for k, v in seat.items()]
    for text in ("\n".join(lines), "\n".join(lines) + "\n" + noise):
        try:
            config = parse_table(text, source="fuzz.toml")
        except TableConfigError as err:
            assert "fuzz.toml" in str(err)
        else:
            assert 1 <= len(config.seats) <= 8


@functools.lru_cache(maxsize=1)
def _journal_bytes() -> bytes:
    """A real journal of 25 actions, made once."""
    match = play_random(Match.new("tenno", 3, seed=1), random.Random(1), limit=25)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "seed.jsonl"
        journal = Journal.create(path, match.header)
        for action in match.actions:
            journal.append(action)
        journal.close()
        return path.read_bytes()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_damage_to_a_journal_is_refused_as_a_bad_journal_or_replays(tmp_path, data):
    original = _journal_bytes()
    damaged = bytearray(original)
    for _ in range(data.draw(st.integers(1, 4))):
        kind = data.draw(st.sampled_from(["flip", "cut", "insert", "swap-lines"]))
        if kind == "flip" and damaged:
            at = data.draw(st.integers(0, len(damaged) - 1))
            damaged[at] = data.draw(st.integers(0, 255))
        elif kind == "cut":
            del damaged[data.draw(st.integers(0, len(damaged))):]
        elif kind == "insert":
            at = data.draw(st.integers(0, len(damaged)))
            damaged[at:at] = data.draw(st.binary(max_size=20))
        else:
            lines = bytes(damaged).split(b"\n")
            if len(lines) > 2:
                i = data.draw(st.integers(1, len(lines) - 2))
                lines[i], lines[i + 1] = lines[i + 1], lines[i]
                damaged = bytearray(b"\n".join(lines))
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(bytes(damaged))
    try:
        loaded = journals.load(path)
        match = Match.replay(loaded.header, loaded.actions)
    except BadJournal as err:
        assert str(err)
    else:
        assert len(match.actions) == len(loaded.actions)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chunks=st.lists(st.one_of(
    st.binary(max_size=64),
    st.sampled_from([b"\n", b"{}\n", b"[1,2]\n", b'{"v":1}\n', b'{"v":2,"type":"button"}\n',
                     b'{"v":1,"type":"button","button":"ok","gesture":"press"}\n',
                     b'{"v":1,"type":"button","button":"up","gesture":"press"}\n',
                     b'{"v":1,"type":"hello","pod":"x/1"}\n', b"\xff\xfe\n", b"x" * 5000 + b"\n"]),
    st.builds(lambda d: (json.dumps(d) + "\n").encode(),
              st.dictionaries(st.sampled_from(["v", "type", "button", "gesture", "pod", "seat"]),
                              st.one_of(st.integers(-1, 3), st.text(max_size=6), st.none()), max_size=5))),
    max_size=12))
def test_random_bytes_from_a_pod_never_crash_the_seat_and_only_valid_presses_come_through(chunks):
    from firmware.links.serial_seats import SerialSeat
    from hardware.events import InputEvent
    from hardware.link import Link

    link = Link("loop://", name="fuzz")
    seat = SerialSeat(link, 2)
    try:
        for chunk in chunks:
            for start in range(0, len(chunk), 1024):  # loop:// holds 4 KiB: feed it as a port would
                link.port.write(chunk[start:start + 1024])
                events = seat.poll(now=0.0)
                assert all(isinstance(e, InputEvent) and e.seat == 2 for e in events)
        # Whatever came before, a good line still gets through.
        link.port.write(b'\n{"v":1,"type":"button","button":"next","gesture":"press"}\n')
        events = [e for _ in range(3) for e in seat.poll(now=0.0)]
        assert InputEvent(2, "next", "press") in events
    finally:
        seat.close()
