"""The headless table draws the public screen of its table file: every prompt, step and event, found in the pixels.

This is `courtier play --ui none`'s own wiring (`open_table`, `seat_panels`,
the runtime, `PublicTable`, `public_display`) on a table file with a
``[public_screen]``: a 128x64 SSD1306, a 256x64 SSD1322 and a 320x240
ILI9341, each as a luma ``dummy`` and as the real driver over a recording
interface. Bots play; after each action the fake clock turns every page, and
each line the table must read, rendered alone with the screen font, must be
found in one of the frames the panel took.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from engine.match import Match
from firmware.bots import RandomBot
from firmware.links.serial_seats import seat_panels
from firmware.play import public_display
from firmware.public import PublicTable
from firmware.public.layout import drawable
from firmware.table.render import LINE, fit, font, wrap
from firmware.table.runtime import Runtime
from firmware.testing import FakeClock, found, lit, pi_table_text, rendered, unscaled
from hardware.factory import open_table
from hardware.table import parse_table

SEATS = pi_table_text(extra="[public_screen]\n")

PUBLIC = {
    "ssd1306": 'driver = "ssd1306"\nbus = "i2c"\nport = 1\naddress = 0x3D\n'.replace("0x3D", "0x3C")
               .replace("port = 1", "port = 4"),
    "ssd1322": 'driver = "ssd1322"\nbus = "spi"\nport = 0\ndevice = 0\ngpio_dc = 24\ngpio_rst = 25\n'
               'width = 256\nheight = 64\n',
    "ili9341": 'driver = "ili9341"\nbus = "spi"\nport = 0\ndevice = 1\ngpio_dc = 24\ngpio_rst = false\n'
               'gpio_light = 12\nwidth = 320\nheight = 240\n',
}


def expected_lines(layout, text: str, indent_mark: str = "") -> list[str]:
    indent = int(font().getlength(indent_mark + " ")) if indent_mark else 0
    return wrap(drawable(text), layout.width - indent)


def play_and_check(device: str, recording: bool, game: str, actions: int, seed: int) -> int:
    config = parse_table(SEATS + PUBLIC[device], source="table.toml")
    clock = FakeClock()
    checked = 0
    with open_table(config, "mock", recording=recording) as table:
        assert (table.public_screen.interface is not None) == recording
        panels, _serial = seat_panels(table.seats)
        runtime = Runtime(Match.new(game, 3, seed=seed), panels, clock=clock)
        public = PublicTable().attach(runtime)
        said: list[str] = []
        runtime.listeners.append(lambda m, a, events: said.extend(m.game.describe_event(e, m.names) for e in events))
        display = public_display(runtime, public, table)
        layout = display.layout
        bots = [RandomBot(seed * 10 + s) for s in range(3)]
        match = runtime.match
        for _ in range(actions):
            if match.is_over:
                break
            said.clear()
            seat = match.pending()[0]
            assert runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))
            frames, first = [], None
            display.update()
            for _page in range(len(display.pages)):  # let the clock turn every page once
                shown = unscaled(table.public_screen.image, layout.scale)
                first = first or shown
                frames.append(lit(shown))
                clock.now += display.update() or 0.0
                display.update()
            snap = public.latest()
            assert display.snapshot is snap
            texts = expected_lines(layout, snap.line)
            for step in snap.steps:
                texts += expected_lines(layout, step, f"{len(snap.steps)}.")
            for event in said:
                texts += expected_lines(layout, event, "-")
            for text in texts:
                pattern = rendered(text)
                if pattern is not None:
                    assert any(found(frame, pattern) for frame in frames), (device, text)
                    checked += 1
            # The round/phase line is in the top bar: search what differs from the bar's own colour.
            head = rendered(fit(drawable(snap.header), layout.width - 40).rstrip("~"))
            if head is not None:
                bar = first.crop((0, 0, layout.width, LINE))
                ink = lit(ImageChops.difference(bar, Image.new(bar.mode, bar.size, bar.getpixel((0, 0)))))
                assert found(ink, head), (device, snap.header)
    return checked


@pytest.mark.parametrize("recording", [False, True], ids=["dummy", "recording"])
@pytest.mark.parametrize("device", sorted(PUBLIC))
def test_a_headless_table_draws_every_prompt_step_and_event_on_its_public_screen(device, recording):
    checked = play_and_check(device, recording, "tenno", actions=70, seed=3)
    checked += play_and_check(device, recording, "shadow", actions=12, seed=5)
    assert checked > 150


def test_the_public_screen_shows_the_quovadis_table_too():
    assert play_and_check("ssd1322", False, "quovadis", actions=30, seed=2) > 40
