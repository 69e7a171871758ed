"""Bytes each kind of public screen puts on its bus in a played game, beside whole frames.

Bots play a seeded Tennō game on a four-seat table. After every action the
public screen shows each of its pages in turn (as a table that reads them
all), drawn by ``PublicDisplay`` on the panel's real driver over a
``RecordingInterface``: courtier's partial SSD1306, luma's SSD1322 and
ILI9341 with their ``diff_to_previous`` framebuffer, and the ST7789 given
that framebuffer in ``hardware.large``. The stock figure is the frame sent
whole, as luma's stock ssd1306 and st7789 drivers always send it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.match import Match
from firmware.bots import RandomBot
from firmware.public import PublicDisplay, PublicTable
from firmware.table.runtime import Runtime
from hardware.recording import RecordingInterface
from hardware.screens import driver_screen
from hardware.table import ScreenConfig

PANELS = (
    ("ssd1306 128x64", ScreenConfig(driver="ssd1306", bus="i2c"), 128 * 64 // 8),
    ("ssd1322 256x64", ScreenConfig(driver="ssd1322", bus="spi", width=256, height=64), 256 * 64 // 2),
    ("ili9341 320x240", ScreenConfig(driver="ili9341", bus="spi", width=320, height=240), 320 * 240 * 3),
    ("st7789 320x240", ScreenConfig(driver="st7789", bus="spi", width=320, height=240), 320 * 240 * 3),
)


@dataclass(frozen=True)
class PublicFigures:
    """One panel's traffic over the game."""

    label: str
    frames: int
    data_bytes: int  # pixel data sent, the init sequence left out
    whole_frame: int  # pixel data of one frame sent whole

    @property
    def per_frame(self) -> float:
        return self.data_bytes / self.frames if self.frames else 0.0


def measure_public(seed: int = 1, seats: int = 4, max_actions: int | None = None) -> list[PublicFigures]:
    """Play one seeded game per panel and count the pixel bytes its public screen sent."""
    figures = []
    for label, config, whole in PANELS:
        bus = RecordingInterface()
        screen = driver_screen(config, bus, name=label)
        bus.reset()
        runtime = Runtime(Match.new("tenno", seats, seed=seed), [None] * seats)
        moment = 0.0
        display = PublicDisplay(screen, clock=lambda: moment).follow(PublicTable().attach(runtime))
        bots = [RandomBot(seed * 1000 + seat) for seat in range(seats)]
        match = runtime.match
        actions = 0
        display.update()
        while not match.is_over and (max_actions is None or actions < max_actions):
            moment = display.show_all(moment)
            seat = match.pending()[0]
            runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))
            display.update()
            actions += 1
        figures.append(PublicFigures(label, display.frames, bus.data_bytes, whole))
    return figures
