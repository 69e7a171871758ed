"""The emulated table shows its public screen as it would look: the same renderer's pixels, beside the log."""

from __future__ import annotations

from PIL import Image

from engine.match import Match
from firmware.cli import main
from firmware.emulator import Recorder, compose, terminal_lines
from firmware.emulator.loop import Frontend
from firmware.emulator.picture import panel_pixels
from firmware.play import public_display
from firmware.public import PublicTable
from firmware.table.runtime import Runtime
from firmware.testing import FakeClock
from hardware import emulator_table, open_table
from hardware.table import EMULATOR_PUBLIC_SCREEN, ScreenConfig

TFT = ScreenConfig(driver="ili9341", bus="spi", width=320, height=240)


def contains(picture: Image.Image, part: Image.Image) -> bool:
    """Whether `part` is pasted somewhere in `picture`, pixel for pixel (searched row by row)."""
    big, small = picture.convert("RGB"), part.convert("RGB")
    width, row = big.width * 3, small.width * 3
    pixels, first = big.tobytes(), small.tobytes()[:row]
    lines = [small.tobytes()[r * row:(r + 1) * row] for r in range(small.height)]
    for y in range(big.height - small.height + 1):
        x = pixels.find(first, y * width, (y + 1) * width)
        while x != -1:
            at = x - y * width
            if at % 3 == 0 and all(pixels[(y + r) * width + at:(y + r) * width + at + row] == lines[r]
                                   for r in range(small.height)):
                return True
            x = pixels.find(first, x + 1, (y + 1) * width)
    return False


def table_with(public_screen, players=3, clock=None):
    table = open_table(emulator_table(players, ["Red", "Blue", "Green"][:players], public_screen=public_screen),
                       "emulator")
    runtime = Runtime(Match.new("tenno", players, seed=1), [seat.screen for seat in table.seats],
                      clock=clock or FakeClock())
    table.on_event = runtime.post
    public = PublicTable().attach(runtime)
    return table, runtime, public, public_display(runtime, public, table)


def test_the_picture_of_the_table_holds_the_public_screens_own_pixels():
    for config in (EMULATOR_PUBLIC_SCREEN, TFT):
        table, runtime, public, display = table_with(config)
        try:
            display.update()
            shown = table.public_screen.image
            assert shown.getbbox() is not None
            match = runtime.match
            seats = [seat.screen.image for seat in table.seats]
            picture = compose(seats, match.names, match.prompt(), public.lines, public=shown)
            assert contains(picture, panel_pixels(shown))
            assert picture.width >= shown.width and picture.height > compose(seats, match.names).height
        finally:
            table.close()


def test_the_terminal_shows_the_public_screen_in_braille_when_wide_enough():
    table, runtime, public, display = table_with(EMULATOR_PUBLIC_SCREEN)
    try:
        display.update()
        seats = [seat.screen.image for seat in table.seats]
        wide = terminal_lines(seats, runtime.match.names, width=200, public=table.public_screen.image)
        assert "Public screen" in wide
        box = wide.index("Public screen")
        assert wide[box + 1] == "┌" + "─" * 128 + "┐" and len(wide[box + 2]) == 130
        assert any(ch not in "\u2800│" for ch in wide[box + 2])  # lit dots: the top bar
        narrow = terminal_lines(seats, runtime.match.names, width=80, public=table.public_screen.image)
        assert "(The public screen needs a terminal 130 columns wide.)" in narrow
    finally:
        table.close()


class Silent(Frontend):
    """A front-end that reads no keys and only counts its drawings."""

    def __init__(self, table, public):
        super().__init__(table, public=public)
        self.drawn = 0

    def read_keys(self):
        return []

    def draw(self, runtime):
        self.drawn += 1


def test_the_emulator_redraws_when_the_public_screen_turns_a_page_by_itself():
    clock = FakeClock()
    table, runtime, public, display = table_with(ScreenConfig(port=0), players=3, clock=clock)
    try:
        frontend = Silent(table, display)
        frontend.poll_once(runtime)
        assert frontend.drawn == 1 and len(display.pages) > 1
        frontend.poll_once(runtime)
        assert frontend.drawn == 1  # nothing moved
        first = table.public_screen.image.tobytes()
        clock.now += display.pages[0].hold
        frontend.poll_once(runtime)
        assert frontend.drawn == 2 and table.public_screen.image.tobytes() != first
        assert frontend.snapshot(runtime)["public"].tobytes() == table.public_screen.image.tobytes()
    finally:
        table.close()


def test_a_png_recording_keeps_the_public_screen_beside_each_frame(tmp_path):
    table, runtime, public, display = table_with(EMULATOR_PUBLIC_SCREEN)
    try:
        with Recorder(tmp_path / "frames", "png", scale=2, log=public, public=display) as recorder:
            assert recorder.record(runtime)
        files = sorted(p.name for p in (tmp_path / "frames").iterdir())
        assert files == ["public_000001.png", "table_000001.png"]
        with Image.open(tmp_path / "frames" / "public_000001.png") as png:
            shown = panel_pixels(table.public_screen.image)
            assert png.convert("RGB").tobytes() == shown.resize((512, 128), Image.Resampling.NEAREST).tobytes()
        with Image.open(tmp_path / "frames" / "table_000001.png") as png:
            assert contains(png.convert("RGB"), shown.resize((512, 128), Image.Resampling.NEAREST))
    finally:
        table.close()


def test_the_demo_records_the_public_screen_of_a_table_file(tmp_path):
    table = tmp_path / "table.toml"
    table.write_text("""
[[seat]]
name = "Red"
buttons = { prev = 5, next = 6, ok = 13 }
screen = { driver = "ssd1306", bus = "i2c", address = 0x3C }
[[seat]]
name = "Blue"
buttons = { prev = 19, next = 26, ok = 12 }
screen = { driver = "ssd1306", bus = "i2c", address = 0x3D }
[public_screen]
driver = "st7789"
bus = "spi"
width = 240
height = 240
""")
    frames = tmp_path / "frames"
    assert main(["demo", "tenno", "--players", "2", "--seed", "2", "--table", str(table),
                 "--journal", str(tmp_path / "game.jsonl"), "--record", f"{frames}/"]) == 0
    public = sorted(frames.glob("public_*.png"))
    assert len(public) == len(sorted(frames.glob("table_*.png"))) > 10
    with Image.open(public[-1]) as last:
        assert last.size == (480, 480) and last.convert("RGB").getbbox() is not None
