"""Screens: a luma device behind a small, checked surface.

A ``Screen`` takes finished PIL images and sends a frame only when it differs
from the last one sent. Seats have one-bit OLEDs, driven by
``hardware.partial``'s subclasses of the luma.oled drivers, which put only the
changed pages and columns on the bus (luma's own ``display()`` sends the
whole frame every time). The public screen may also be a larger SPI panel
(``hardware.large``: an SSD1322 OLED or a colour TFT), whose luma drivers
send only the changed regions themselves. The builders choose the luma
device per backend:

- ``pi``: the driver named by the table over luma's ``i2c``,
  ``spi`` or ``gpio_cs_spi`` (imported only here, as they need Pi libraries),
  or, for a panel behind a TCA9548A, over a ``hardware.mux.MuxChannel`` on
  the bus it shares with the other panels behind that multiplexer;
- ``mock`` and ``emulator``: luma.core's ``dummy`` in the panel's mode, which
  keeps the image; or, with ``recording=True``, the real driver over a
  ``RecordingInterface`` so the bytes a real bus would carry can be counted.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import luma.core.error
from PIL import Image

from hardware.errors import ScreenError
from hardware.recording import RecordingInterface
from hardware.table import ScreenConfig

if TYPE_CHECKING:
    from hardware.mux import I2CBuses

_log = logging.getLogger(__name__)

# What luma and the buses raise when a panel is missing or drops off.
_DEVICE_ERRORS = (luma.core.error.Error, OSError)


class Screen:
    """A panel showing images of its own size and mode ("1", or "RGB" on a colour TFT).

    Example::

        screen = open_screen(config.seats[0].screen, "mock", label="seat 1")
        screen.show(Image.new("1", screen.size))
        screen.close()

    Args:
        device: A luma device (a driver, or ``dummy``).
        name: Says which panel this is in error messages.
        interface: The serial interface the driver sends through, if any.
    """

    def __init__(self, device: Any, *, name: str, interface: Any = None) -> None:
        self.device = device
        self.name = name
        self.interface = interface
        self._image: Image.Image | None = Image.new(device.mode, device.size)
        self._pixels = b""  # the last image shown as its bytes, when it was given so (``show_pixels``)
        self._sent: bytes | None = None
        self._closed = False
        self.frames = 0  # frames sent to the panel so far (identical ones are skipped, not counted)

    @property
    def width(self) -> int:
        """Width in pixels of the images ``show`` takes (after rotation)."""
        return int(self.device.width)

    @property
    def height(self) -> int:
        """Height in pixels of the images ``show`` takes (after rotation)."""
        return int(self.device.height)

    @property
    def mode(self) -> str:
        """The image mode the panel takes: "1" (one-bit) or "RGB" (colour)."""
        return str(self.device.mode)

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the images ``show`` takes."""
        return (self.width, self.height)

    @property
    def image(self) -> Image.Image:
        """A copy of the last image shown (blank before the first)."""
        if self._image is None:
            self._image = Image.frombytes("1", self.size, self._pixels)
        return self._image.copy()

    def show(self, image: Image.Image) -> bool:
        """Send an image to the panel unless it is the one already there.

        Args:
            image: Exactly ``size``, in the panel's ``mode``; a one-bit image
                shows on any panel (white on black on a colour one).

        Returns:
            True if a frame was sent, False if it was identical and skipped.

        Raises:
            ValueError: Wrong mode or size.
            ScreenError: The panel did not take the frame.
        """
        if image.mode == "1" and self.mode != "1":
            image = image.convert(self.mode)
        if image.mode != self.mode:
            raise ValueError(f"{self.name}: image mode must be {self.mode!r}, not {image.mode!r}")
        if image.size != self.size:
            raise ValueError(f"{self.name}: image size must be {self.size}, not {image.size}")
        if self._closed:
            raise ScreenError(f"{self.name}: screen is closed")
        # courtier's partial drivers compare each frame with the last one themselves.
        compares = getattr(self.device, "compares_frames", False)
        pixels = None if compares else image.tobytes()
        if not compares and pixels == self._sent:
            return False
        try:
            sent = self.device.display(image)
        except _DEVICE_ERRORS as exc:
            # The panel may have lost power: what it shows is unknown, so the next image is sent
            # even if it is the one sent last (the partial drivers then re-initialise the panel).
            self._sent = None
            raise ScreenError(f"{self.name}: {exc}") from exc
        if compares and not sent:
            return False
        self._sent = pixels
        self._image = image.copy()
        self.frames += 1
        return True

    def show_pixels(self, pixels: bytes) -> bool:
        """``show`` for a one-bit image given as its bytes, as ``Image.tobytes()`` packs a mode "1" image of ``size``.

        The seat renderer makes its faces so, and courtier's drivers pack
        them without making a PIL image (``PartialSSD1306.display_pixels``);
        any other panel is shown the image they make.

        Raises:
            ValueError: Not as many bytes as the image has.
            ScreenError: The panel did not take the frame.
        """
        display = getattr(self.device, "display_pixels", None)
        if display is None or self.mode != "1":
            return self.show(Image.frombytes("1", self.size, pixels))
        if len(pixels) != (self.width + 7) // 8 * self.height:
            raise ValueError(f"{self.name}: {len(pixels)} bytes for a {self.width}x{self.height} one-bit image")
        if self._closed:
            raise ScreenError(f"{self.name}: screen is closed")
        try:
            sent = display(pixels)
        except _DEVICE_ERRORS as exc:
            self._sent = None
            raise ScreenError(f"{self.name}: {exc}") from exc
        if not sent:
            return False
        self._sent = pixels
        self._image, self._pixels = None, bytes(pixels)
        self.frames += 1
        return True

    def clear(self) -> bool:
        """Show a blank image; returns whether a frame was sent."""
        return self.show(Image.new(self.mode, self.size))

    def close(self) -> None:
        """Blank and switch off the panel and release its bus; safe to repeat."""
        if self._closed:
            return
        self._closed = True
        try:
            self.device.cleanup()
        except _DEVICE_ERRORS as exc:
            # Closing happens on the way out; a dead panel must not stop it.
            _log.warning("%s: cleanup failed: %s", self.name, exc)

    def __enter__(self) -> Screen:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_screen(config: ScreenConfig, backend: str, *, label: str,
                recording: bool = False, buses: I2CBuses | None = None,
                pin_factory: Any = None) -> Screen:
    """Build the screen a table entry describes, for a backend.

    Args:
        config: The panel.
        backend: "pi", "mock" or "emulator".
        label: Who owns it, for messages (``seat 3 ("Green")``, ``public``).
        recording: For mock/emulator, use the real driver over a
            ``RecordingInterface`` instead of a ``dummy``.
        buses: On a Pi, where panels behind a multiplexer get their shared
            bus; pass one for the whole table so they all share it (a panel
            opened without one gets a bus of its own).
        pin_factory: The gpiozero factory a TFT's backlight line is switched
            through (the table's; None for gpiozero's default).

    Raises:
        ScreenError: The panel or its bus cannot be opened.
        ValueError: Unknown backend.
    """
    name = f"{label} screen {config.describe()}"
    if backend == "pi":
        return _pi_screen(config, name, buses, pin_factory)
    if backend in ("mock", "emulator"):
        if recording:
            return driver_screen(config, RecordingInterface(), name=name, pin_factory=pin_factory)
        return dummy_screen(config, name=name)
    raise ValueError(f"unknown backend {backend!r}")


def dummy_screen(config: ScreenConfig, *, name: str) -> Screen:
    """Build a screen on luma's ``dummy`` device, which only keeps the image (in the panel's mode)."""
    from hardware.luma_loading import deferred_multiprocessing

    with deferred_multiprocessing():
        from luma.core.device import dummy

    device = dummy(width=config.width, height=config.height, rotate=config.rotate,
                   mode=config.mode)
    return Screen(device, name=name)


def driver_screen(config: ScreenConfig, interface: Any, *, name: str, driver: type | None = None,
                  pin_factory: Any = None) -> Screen:
    """Build the partial-update driver for the panel the config names, over a serial interface.

    The driver sends its init sequence at once, so a missing panel fails here.

    Args:
        config: The panel.
        interface: The luma serial interface (or a ``RecordingInterface``).
        name: Says which panel this is in error messages.
        driver: A luma driver class to use instead of courtier's partial one
            (the bench's stock path).
        pin_factory: For a TFT's backlight line (see ``open_screen``).

    Raises:
        ScreenError: The driver could not talk to the panel.
    """
    from hardware.partial import DRIVERS

    try:
        if driver is not None or config.driver in DRIVERS:
            device = (driver or DRIVERS[config.driver])(interface, width=config.width,
                                                        height=config.height, rotate=config.rotate)
        else:
            from hardware.large import open_large_panel

            device = open_large_panel(config, interface, pin_factory=pin_factory)
    except _DEVICE_ERRORS as exc:
        raise ScreenError(f"{name}: {exc}") from exc
    # Blank and switch off the panel at exit, which also spares the OLED.
    device.persist = False
    return Screen(device, name=name, interface=interface)


def pi_interface(config: ScreenConfig, buses: I2CBuses | None) -> Any:
    """The luma serial interface a panel is driven through on the Pi, as the table file wires it."""
    from hardware.luma_loading import deferred_multiprocessing

    with deferred_multiprocessing():
        from luma.core.interface import serial as luma_serial

    if config.bus == "i2c" and config.mux is not None:
        from hardware.mux import I2CBuses

        buses = buses if buses is not None else I2CBuses()
        return buses.channel(config.port, config.mux, config.channel, config.address)
    if config.bus == "i2c":
        from hardware.panel_i2c import PanelI2C

        return PanelI2C(port=config.port, address=config.address)
    pins = {"port": config.port, "device": config.device,
            "gpio_DC": config.gpio_dc, "gpio_RST": config.gpio_rst}
    if config.gpio_cs is not None:
        return luma_serial.gpio_cs_spi(gpio_CS=config.gpio_cs, **pins)
    return luma_serial.spi(**pins)


def _pi_screen(config: ScreenConfig, name: str, buses: I2CBuses | None,
               pin_factory: Any) -> Screen:
    try:
        interface = pi_interface(config, buses)
    except (*_DEVICE_ERRORS, ImportError) as exc:
        # ImportError: SPI needs spidev and RPi.GPIO (or rpi-lgpio), which
        # luma imports only when an spi interface is made.
        raise ScreenError(f"{name}: {exc}") from exc
    try:
        return driver_screen(config, interface, name=name, pin_factory=pin_factory)
    except ScreenError:
        try:
            interface.cleanup()
        except _DEVICE_ERRORS:
            pass
        raise
