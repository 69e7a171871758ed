"""The larger panels a public screen may be: an SSD1322 OLED and two colour TFTs.

These are luma's own drivers, used as their makers meant them:

- ``ssd1322`` (luma.oled): a 256x64 OLED on SPI. It is greyscale; courtier
  draws it one-bit (``mode="1"``), crisp like the seats' screens. luma's
  driver keeps a ``diff_to_previous`` framebuffer and sends only the
  bounding box of what changed in each quarter of the panel.
- ``ili9341`` (luma.lcd): a 320x240 colour TFT on SPI, with the same
  framebuffer in 25 segments: a changed line of text costs a few kilobytes,
  not the 230,400 bytes of a whole 18-bit frame.
- ``st7789`` (luma.lcd): the other common colour TFT. luma's driver sends the
  whole frame on every ``display()``; ``PartialST7789`` gives it the same
  ``diff_to_previous`` framebuffer the ILI9341 has, and sends each changed
  region through the driver's own address window (``set_window``).

luma.lcd's TFTs are ``backlit_device``s: they switch a backlight line through
RPi.GPIO unless handed a ``backlight`` callable. courtier hands them one:
``Backlight``, a gpiozero output on the table's pin factory when the table
file names the line (``gpio_light``), or one that does nothing when the
backlight is wired to 3.3 V, so the driver never claims GPIO18 by default.

Example::

    from hardware.recording import RecordingInterface
    from hardware.table import ScreenConfig

    config = ScreenConfig(driver="ili9341", bus="spi", width=320, height=240)
    panel = open_large_panel(config, RecordingInterface())
    panel.display(image)    # sends only the changed regions
"""

from __future__ import annotations

import logging
from typing import Any

from luma.core.framebuffer import diff_to_previous
from PIL import Image

from hardware.errors import ScreenError
from hardware.table import ScreenConfig

_log = logging.getLogger(__name__)

# luma.lcd's ili9341 splits its framebuffer into 25 segments (5x5); the
# ST7789 gets the same, so both send about one segment per changed word.
TFT_SEGMENTS = 25


class Backlight:
    """A TFT's backlight line, called as luma.lcd's backlit devices call theirs.

    Args:
        pin: BCM number of the line, or None when the backlight is wired to
            3.3 V and needs no switching.
        pin_factory: gpiozero's factory (the table's ``MockFactory`` in tests
            and on the emulator), or None for gpiozero's default.
    """

    def __init__(self, pin: int | None, pin_factory: Any = None) -> None:
        self._line: Any = None
        if pin is not None:
            from gpiozero import DigitalOutputDevice

            self._line = DigitalOutputDevice(pin, pin_factory=pin_factory)

    @property
    def is_lit(self) -> bool | None:
        """Whether the line is on, or None when there is no line to switch."""
        return None if self._line is None else bool(self._line.value)

    def __call__(self, on: bool) -> None:
        if self._line is not None:
            self._line.value = bool(on)

    def cleanup(self) -> None:
        """Release the line (luma calls this when the panel is cleaned up)."""
        if self._line is not None:
            self._line.close()


def _st7789_class() -> type:
    from luma.lcd.device import st7789

    class PartialST7789(st7789):  # type: ignore[misc, valid-type]
        """luma.lcd's ``st7789`` sending only the changed regions of each frame.

        Takes the arguments of ``luma.lcd.device.st7789``, plus ``framebuffer``
        (default: luma.core's ``diff_to_previous`` in ``TFT_SEGMENTS``
        segments). The first frame (luma's own ``clear()`` at start) is sent
        whole, as the framebuffer knows nothing before it.
        """

        def __init__(self, serial_interface: Any = None, width: int = 320, height: int = 240,
                     rotate: int = 0, framebuffer: Any = None, **kwargs: Any) -> None:
            # Set before luma's __init__, whose clear() already calls display().
            self.framebuffer = framebuffer or diff_to_previous(num_segments=TFT_SEGMENTS)
            super().__init__(serial_interface, width=width, height=height, rotate=rotate,
                             **kwargs)

        def display(self, image: Image.Image) -> None:
            if image.mode != self.mode or image.size != self.size:
                raise ValueError(f"image must be {self.mode} {self.size}, "
                                 f"not {image.mode} {image.size}")
            for part, (left, top, right, bottom) in self.framebuffer.redraw(self.preprocess(image)):
                self.set_window(left, top, right, bottom)
                self.data(list(part.tobytes()))

        def invalidate(self) -> None:
            """Forget what the panel holds, so the next frame is sent whole."""
            self.framebuffer.prev_image = None

    return PartialST7789


def open_large_panel(config: ScreenConfig, interface: Any, *, pin_factory: Any = None) -> Any:
    """Build luma's driver for an ``ssd1322``, ``ili9341`` or ``st7789`` over a serial interface.

    The driver sends its init sequence at once, so a missing panel fails here.
    It is left to blank and switch off the panel (and its backlight) at exit.

    Raises:
        ScreenError: The backlight line cannot be had (a pin in use, no GPIO).
        ValueError: The driver is none of these.
        luma.core.error.Error, OSError: The driver could not talk to the panel.
    """
    size = {"width": config.width, "height": config.height, "rotate": config.rotate}
    if config.driver == "ssd1322":
        from luma.oled.device import ssd1322

        return ssd1322(interface, mode="1", **size)
    if config.driver not in ("ili9341", "st7789"):
        raise ValueError(f"{config.driver!r} is not a large panel")
    from gpiozero.exc import GPIOZeroError

    try:
        backlight = Backlight(config.gpio_light, pin_factory)
    except GPIOZeroError as exc:
        raise ScreenError(f"backlight GPIO{config.gpio_light}: {exc}") from exc
    try:
        if config.driver == "ili9341":
            from luma.lcd.device import ili9341

            return ili9341(interface, backlight=backlight, **size)
        return _st7789_class()(interface, backlight=backlight, **size)
    except BaseException:
        backlight.cleanup()
        raise
