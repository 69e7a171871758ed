"""The public screen's display: pages turned by a fake clock, events kept until read, a failing screen."""

from __future__ import annotations

import errno
import threading

import pytest

from engine.match import Match
from firmware.bots import RandomBot
from firmware.public import PublicDisplay, PublicTable
from firmware.public.snapshot import Snapshot
from firmware.table.runtime import Runtime
from firmware.testing import FakeClock
from hardware.recording import RecordingInterface
from hardware.screens import driver_screen, dummy_screen
from hardware.table import ScreenConfig, emulator_table

OLED = ScreenConfig(driver="ssd1306", bus="i2c", port=0)
NAMES = ("Red", "Blue", "Green")


def snapshot(serial, steps=(), log=(), noted=None, line="Blue attacks", header="Round 1"):
    return Snapshot(game="tenno", title="Tenno", names=NAMES, header=header, line=line, steps=tuple(steps),
                    pending=(1,), public={}, result=None, log=tuple(log), serial=serial,
                    noted=len(log) if noted is None else noted)


STEPS = tuple(f"Step {n}: put the card number {n} face down on the pile of its owner" for n in range(1, 6))


def test_pages_turn_by_themselves_each_after_its_hold_and_a_single_page_never_turns():
    clock = FakeClock(100.0)
    display = PublicDisplay(dummy_screen(OLED, name="public"), clock=clock)
    display.offer(snapshot(1, STEPS))
    wait = display.update()
    pages = display.pages
    assert len(pages) >= 3 and display.index == 0 and wait == pytest.approx(pages[0].hold)
    frames = [display.screen.image.tobytes()]
    for number in range(1, len(pages)):
        clock.now += wait - 0.01
        assert display.update() == pytest.approx(0.01) and display.index == number - 1  # not yet
        clock.now += 0.01
        wait = display.update()
        assert display.index == number and wait == pytest.approx(pages[number].hold)
        frames.append(display.screen.image.tobytes())
    assert len(set(frames)) == len(pages)
    clock.now += wait
    display.update()
    assert display.index == 0  # round again
    display.offer(snapshot(2, STEPS[:1]))
    assert display.update() is None and len(display.pages) == 1  # nothing more to turn


def test_a_new_snapshot_goes_back_to_its_first_changed_page_and_keeps_an_unchanged_one_up():
    clock = FakeClock(100.0)
    display = PublicDisplay(dummy_screen(OLED, name="public"), clock=clock)
    display.offer(snapshot(1, STEPS, log=("Red passes",)))
    display.update()
    clock.now += display.pages[0].hold
    display.update()
    assert display.index == 1
    turn = display._turn_at
    display.offer(snapshot(2, STEPS, log=("Red passes",), header="Round 2"))  # the same pages
    display.update()
    assert display.index == 1 and display._turn_at == turn
    display.offer(snapshot(3, ("Green: refill slot 1",) + STEPS[1:]))  # the first page changed
    display.update()
    assert display.index == 0 and display._turn_at == pytest.approx(clock.now + display.pages[0].hold)


def _texts(display):
    return [row.text for page in display.pages for row in page.rows]


def test_events_stay_until_every_page_was_up_long_enough_to_read_then_only_newer_ones_show():
    clock = FakeClock(100.0)
    display = PublicDisplay(dummy_screen(OLED, name="public"), clock=clock)
    display.offer(snapshot(1, ("Blue: turn slot 2 face up",), log=("Red passes",)))
    display.update()
    assert "Red passes" in _texts(display)
    clock.now += 1.0  # a new action before the table could read it all
    display.offer(snapshot(2, ("Blue: turn slot 2 face up",), log=("Red passes", "Blue refills slot 2")))
    display.update()
    assert {"Red passes", "Blue refills slot 2"} <= set(_texts(display))
    clock.now = display.show_all(clock.now)  # now every page has been read
    display.offer(snapshot(3, ("Green: answer",), log=("Red passes", "Blue refills slot 2", "Green swaps")))
    display.update()
    texts = _texts(display)
    assert "Green swaps" in texts and "Red passes" not in texts and "Blue refills slot 2" not in texts


def test_more_events_than_the_log_keeps_show_what_the_log_still_has():
    clock = FakeClock(100.0)
    display = PublicDisplay(dummy_screen(OLED, name="public"), clock=clock)
    display.offer(snapshot(1, log=("Old",)))
    clock.now = display.show_all(clock.now)
    display.offer(snapshot(2, log=("e48", "e49"), noted=50))  # 48 lines came and went meanwhile
    display.update()
    assert [t for t in _texts(display) if t.startswith("e")] == ["e48", "e49"]


def test_a_failing_public_screen_is_noted_retried_with_the_seats_back_off_and_never_stops_anything():
    clock = FakeClock(100.0)
    bus = RecordingInterface()
    screen = driver_screen(OLED, bus, name="public screen ssd1306")
    told: list[str] = []
    display = PublicDisplay(screen, clock=clock, on_fault=told.append)
    bus.fail = OSError(errno.EREMOTEIO, "Remote I/O error")
    display.offer(snapshot(1, ("Blue: turn slot 2 face up",)))
    wait = display.update()
    assert display.degraded and "Remote I/O error" in told[0] and len(told) == 1
    assert wait == pytest.approx(Runtime.RETRY_FIRST)
    calls = len(bus.calls)
    clock.now += 0.2
    display.update()
    assert len(bus.calls) == calls  # no hammering of a broken bus
    waits = []
    for _ in range(4):
        clock.now += wait
        wait = display.update()
        waits.append(wait)
    assert waits == pytest.approx([1.0, 2.0, 4.0, 8.0])  # the runtime's back-off, doubled each time
    assert len(told) == 1  # told once, not at every retry
    bus.fail = None
    clock.now += wait
    display.update()
    assert display.degraded == "" and told[-1] == "" and display.frames == 1
    assert screen.image.getbbox() is not None


def test_the_seats_note_a_failing_public_screen_and_forget_it_once_it_works():
    from firmware.play import public_display
    from hardware.factory import open_table

    config = emulator_table(3, list(NAMES), public_screen=OLED)
    with open_table(config, "mock", recording=True) as table:
        runtime = Runtime(Match.new("tenno", 3, seed=2), [seat.screen for seat in table.seats])
        public = PublicTable().attach(runtime)
        display = public_display(runtime, public, table)
        table.public_screen.interface.fail = OSError(errno.EIO, "Input/output error")
        display.update()
        runtime.drain()  # the fault arrives as a queued event, like a button
        assert runtime.faults == {"Public": display.degraded}
        assert all(seat.face.notice == "Public: screen fault" for seat in runtime.seats)
        table.public_screen.interface.fail = None
        runtime.clock = display.clock
        display.update(display.clock() + 60)
        runtime.drain()
        assert runtime.faults == {} and all(seat.face.notice == "" for seat in runtime.seats)


def test_each_seat_names_the_failing_public_screen_in_its_own_language():
    """The display's thread reads the table's language; the seat reading Chinese sees the screen's Chinese name."""
    from firmware.play import public_display
    from hardware.factory import open_table

    config = emulator_table(3, list(NAMES), public_screen=OLED)
    with open_table(config, "mock", recording=True) as table:
        runtime = Runtime(Match.new("tenno", 3, seed=2), [seat.screen for seat in table.seats],
                          languages={1: "zh_Hant"})
        display = public_display(runtime, PublicTable().attach(runtime), table)
        table.public_screen.interface.fail = OSError(errno.EIO, "Input/output error")
        display.update()
        runtime.drain()
        assert runtime.seats[0].face.notice == runtime.seats[2].face.notice == "Public: screen fault"
        assert runtime.seats[1].face.notice == "公共：螢幕故障"


class StuckScreen:
    """A screen whose bus hangs until released: the slowest public screen there is."""

    size, mode = (128, 64), "1"

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.shown = 0

    def show(self, image) -> bool:
        self.entered.set()
        self.release.wait(timeout=30)
        self.shown += 1
        return True


def test_a_hung_public_screen_never_delays_a_seats_button():
    runtime = Runtime(Match.new("tenno", 2, seed=3), [None, None])
    public = PublicTable().attach(runtime)
    screen = StuckScreen()
    display = PublicDisplay(screen).follow(public).start()
    try:
        assert screen.entered.wait(timeout=30)  # the display thread is stuck in the screen
        match = runtime.match
        bots = [RandomBot(seat) for seat in range(2)]
        for _ in range(5):
            seat = match.pending()[0]
            assert runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))
        assert len(match.actions) == 5  # the table played on meanwhile
    finally:
        screen.release.set()
        display.close()
    assert screen.shown >= 1


def test_the_thread_draws_every_new_snapshot_and_stops_on_close():
    runtime = Runtime(Match.new("quovadis", 3, seed=1), [None] * 3)
    public = PublicTable().attach(runtime)
    drawn = threading.Event()

    class Screen:
        size, mode = (256, 64), "1"

        def show(self, image) -> bool:
            drawn.set()
            return True

    display = PublicDisplay(Screen()).follow(public).start()
    try:
        assert drawn.wait(timeout=30)
        drawn.clear()
        match = runtime.match
        seat = match.pending()[0]
        runtime.submit(RandomBot(1).choose(match.legal_actions(seat), match.game.free_actions))
        assert drawn.wait(timeout=30)
    finally:
        display.close()
    assert display._thread is None


def test_the_display_is_fed_nothing_but_snapshots():
    """Its only input is the snapshot: the same snapshots drawn again give the very same frames."""
    runtime = Runtime(Match.new("shadow", 3, seed=7), [None] * 3)
    public = PublicTable().attach(runtime)
    got: list[Snapshot] = []
    public.subscribe(got.append)
    got.append(public.latest())
    match = runtime.match
    bots = [RandomBot(seat) for seat in range(3)]
    for _ in range(12):
        seat = match.pending()[0]
        runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))

    def frames() -> list[bytes]:
        clock = FakeClock(100.0)
        display = PublicDisplay(dummy_screen(ScreenConfig(driver="ili9341", bus="spi", width=320, height=240),
                                             name="public"), clock=clock)
        out = []
        for snap in got:
            display.offer(snap)
            for _ in range(len(display.pages) or 1):
                wait = display.update()
                out.append(display.screen.image.tobytes())
                clock.now += wait or 5.0
        return out

    first = frames()
    assert len(first) > len(got) and first == frames()
    assert set(vars(PublicDisplay(dummy_screen(OLED, name="p")))) .isdisjoint({"runtime", "match", "state"})
