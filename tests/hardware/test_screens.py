"""Tests for hardware.screens: luma dummy devices and real drivers over a recorder."""

import errno

import pytest
from PIL import Image, ImageDraw

from hardware.errors import ScreenError
from hardware.recording import RecordingInterface
from hardware.screens import Screen, driver_screen, dummy_screen, open_screen
from hardware.table import ScreenConfig

SSD1306 = ScreenConfig(driver="ssd1306", bus="i2c", port=1, address=0x3C)
SH1106 = ScreenConfig(driver="sh1106", bus="i2c", port=1, address=0x3D)


def frame(size=(128, 64), box=(10, 10, 40, 30)):
    image = Image.new("1", size)
    ImageDraw.Draw(image).rectangle(box, fill=1)
    return image


def recording_screen(config=SSD1306):
    screen = open_screen(config, "mock", label="seat 1", recording=True)
    screen.interface.reset()   # forget the driver's init sequence
    return screen


@pytest.mark.parametrize("backend", ["mock", "emulator"])
def test_dummy_screen_keeps_the_image(backend):
    """mock and emulator screens are luma dummies that keep exactly the image shown."""
    screen = open_screen(SSD1306, backend, label="seat 1")
    image = frame()
    assert screen.show(image)
    assert screen.device.image.tobytes() == image.tobytes()
    assert screen.image.tobytes() == image.tobytes()
    assert screen.size == (128, 64) and screen.device.mode == "1"


def test_image_property_is_a_copy():
    """Drawing on the returned image does not change what the screen holds."""
    screen = dummy_screen(SSD1306, name="seat 1")
    screen.show(frame())
    copy = screen.image
    ImageDraw.Draw(copy).rectangle((0, 0, 127, 63), fill=1)
    assert screen.image.tobytes() == frame().tobytes()


def test_image_is_blank_before_anything_is_shown():
    """A new screen reports a blank image of its size."""
    screen = dummy_screen(SSD1306, name="seat 1")
    assert screen.image.getbbox() is None
    assert screen.image.size == (128, 64)


def test_identical_frame_is_skipped():
    """Showing a byte-identical image again sends nothing and returns False."""
    screen = recording_screen()
    assert screen.show(frame()) is True
    sent = len(screen.interface.calls)
    assert screen.show(frame()) is False
    assert len(screen.interface.calls) == sent
    assert screen.show(frame(box=(0, 0, 5, 5))) is True
    assert len(screen.interface.calls) > sent


@pytest.mark.parametrize("config", [SSD1306, SH1106])
def test_an_image_shown_as_its_bytes_sends_and_keeps_what_the_image_does(config):
    """show_pixels (the runtime's way) and show give the same bus bytes, answers and kept image."""
    by_image, by_bytes = recording_screen(config), recording_screen(config)
    for image in (frame(), frame(), frame(box=(0, 0, 127, 5)), frame(box=(60, 40, 70, 63))):
        assert by_bytes.show_pixels(image.tobytes()) == by_image.show(image)
        assert by_bytes.interface.calls == by_image.interface.calls
        assert by_bytes.image.tobytes() == image.tobytes() and by_bytes.frames == by_image.frames
    with pytest.raises(ValueError):
        by_bytes.show_pixels(bytes(10))


def test_a_panel_without_a_bytes_path_is_shown_the_image():
    """A luma dummy has no display_pixels: show_pixels hands it the image the bytes make."""
    screen = dummy_screen(SSD1306, name="seat 1")
    assert screen.show_pixels(frame().tobytes())
    assert screen.device.image.tobytes() == frame().tobytes() == screen.image.tobytes()


def test_ssd1306_sends_init_and_one_whole_frame_then_only_what_changed():
    """A real ssd1306 over the recorder sends its init sequence with one whole (blank) frame, then only
    the changed part of each new frame, and nothing for a frame it already shows."""
    screen = open_screen(SSD1306, "mock", label="seat 1", recording=True)
    bus = screen.interface
    kind, first = bus.calls[0]
    assert kind == "command" and first[0] == 0xAE          # display off starts the init
    assert bus.calls[-1] == ("command", bytes([0xAF]))      # display on ends it
    assert bus.data_bytes == 1024                           # the init clears the panel once, whole
    bus.reset()
    screen.show(frame(box=(0, 0, 20, 20)))
    assert 0 < bus.data_bytes <= 3 * 21                     # three pages of a 21-column box
    bus.reset()
    screen.device.display(frame(box=(0, 0, 20, 20)))        # the same frame again, past Screen's own check
    assert bus.calls == []


def test_ssd1306_data_bytes_are_the_pixels():
    """The data a real ssd1306 sends encodes the image: one lit pixel at (0, 0) is bit 0 of byte 0."""
    screen = recording_screen()
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)
    image.putpixel((127, 63), 1)
    screen.device.invalidate()  # as after a panel reset: the next frame goes whole
    screen.show(image)
    data = screen.interface.calls[-1][1]
    assert data[0] == 0x01
    assert data[1023] == 0x80
    assert sum(bin(b).count("1") for b in data) == 2


def test_sh1106_sends_page_by_page():
    """A whole sh1106 frame is 8 pages, each a 3-byte page/column command and 128 data bytes."""
    screen = recording_screen(SH1106)
    screen.device.invalidate()
    screen.interface.reset()
    screen.show(frame())
    bus = screen.interface
    commands = [payload for kind, payload in bus.calls if kind == "command"]
    data = [payload for kind, payload in bus.calls if kind == "data"]
    assert [c[0] for c in commands] == [0xB0 + page for page in range(8)]
    assert all(len(c) == 3 for c in commands)
    assert [len(d) for d in data] == [128] * 8
    assert bus.data_bytes == 1024


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106", "ssd1309"])
def test_rotation_is_applied_by_the_driver(driver):
    """rotate=1 makes a 64x128 screen whose bytes equal the unrotated panel showing the image turned."""
    config = ScreenConfig(driver=driver, rotate=1)
    turned = recording_screen(config)
    plain = recording_screen(ScreenConfig(driver=driver))
    assert turned.size == (64, 128)
    tall = frame(size=(64, 128), box=(3, 5, 20, 90))
    turned.show(tall)
    plain.show(tall.rotate(-90, expand=True))
    assert turned.interface.calls == plain.interface.calls


def test_dummy_honours_rotation():
    """A rotated dummy takes images of the turned size."""
    screen = dummy_screen(ScreenConfig(rotate=3), name="seat 1")
    assert (screen.width, screen.height) == (64, 128)
    assert screen.show(frame(size=(64, 128), box=(0, 0, 10, 10)))


def test_wrong_mode_or_size_is_refused():
    """Only mode "1" images of the screen's size are accepted."""
    screen = dummy_screen(SSD1306, name="seat 1")
    with pytest.raises(ValueError, match="mode"):
        screen.show(Image.new("L", (128, 64)))
    with pytest.raises(ValueError, match="size"):
        screen.show(Image.new("1", (64, 128)))


def test_display_failure_is_a_screen_error_naming_the_panel():
    """A panel dropping off the bus mid-game raises ScreenError naming seat, bus and address."""
    screen = open_screen(SSD1306, "mock", label="seat 3", recording=True)
    screen.interface.fail = OSError(errno.EREMOTEIO, "Remote I/O error")
    for show in (lambda: screen.show(frame()), lambda: screen.show_pixels(frame().tobytes())):
        with pytest.raises(ScreenError) as caught:
            show()
        assert str(caught.value) == (
            "seat 3 screen ssd1306 on i2c port 1 address 0x3c: [Errno 121] Remote I/O error")
        assert isinstance(caught.value, OSError)


def test_failed_frame_is_sent_again_next_time():
    """A frame that failed is not remembered as sent, so showing it again retries."""
    screen = recording_screen()
    screen.interface.fail = OSError(errno.EIO, "I/O error")
    with pytest.raises(ScreenError):
        screen.show(frame())
    screen.interface.fail = None
    assert screen.show(frame()) is True
    screen.interface.fail = OSError(errno.EIO, "I/O error")
    with pytest.raises(ScreenError):
        screen.show_pixels(frame(box=(1, 1, 5, 5)).tobytes())
    screen.interface.fail = None
    assert screen.show_pixels(frame(box=(1, 1, 5, 5)).tobytes()) is True


def test_driver_failing_at_init_is_a_screen_error():
    """A driver whose init sequence cannot be sent raises ScreenError at construction."""
    bus = RecordingInterface(fail=OSError(errno.EREMOTEIO, "Remote I/O error"))
    with pytest.raises(ScreenError, match=r"^seat 2 screen: \[Errno 121\] Remote I/O error$"):
        driver_screen(SSD1306, bus, name="seat 2 screen")


def test_pi_backend_without_an_i2c_bus_is_a_screen_error():
    """On a machine without /dev/i2c-1, luma's i2c raises and the pi builder reports it as ScreenError."""
    with pytest.raises(ScreenError) as caught:
        open_screen(SSD1306, "pi", label="seat 3")
    assert str(caught.value).startswith("seat 3 screen ssd1306 on i2c port 1 address 0x3c: ")
    assert "i2c-1" in str(caught.value)


def test_pi_backend_spi_without_pi_libraries_is_a_screen_error():
    """An SPI panel where spidev or RPi.GPIO are missing fails as ScreenError, not ImportError."""
    config = ScreenConfig(driver="sh1106", bus="spi", port=0, device=0, gpio_dc=24, gpio_rst=25)
    with pytest.raises(ScreenError, match="^seat 1 screen sh1106 on spi port 0 device 0: "):
        open_screen(config, "pi", label="seat 1")


def test_clear_blanks_and_close_cleans_up():
    """clear shows a blank frame; close runs the driver's cleanup once and refuses later frames."""
    screen = recording_screen()
    screen.show(frame())
    assert screen.clear() is True
    assert screen.image.getbbox() is None
    screen.close()
    screen.close()
    assert screen.interface.cleaned_up
    with pytest.raises(ScreenError, match="closed"):
        screen.show(frame())


def test_close_of_a_dead_panel_does_not_raise(caplog):
    """Closing a screen whose bus fails logs a warning instead of raising."""
    screen = recording_screen()
    screen.interface.fail = OSError(errno.EIO, "I/O error")
    screen.close()
    assert "cleanup failed" in caplog.text


def test_real_driver_is_set_not_to_persist():
    """Driver screens blank the panel at exit (persist=False), sparing the OLED."""
    screen = recording_screen()
    assert screen.device.persist is False


def test_unknown_backend_is_refused():
    """A backend name other than pi, mock or emulator is a ValueError."""
    with pytest.raises(ValueError, match="unknown backend"):
        open_screen(SSD1306, "arduino", label="seat 1")


def test_screen_wraps_any_luma_device():
    """Screen works over a luma device built elsewhere, e.g. a dummy made by hand."""
    from luma.core.device import dummy

    screen = Screen(dummy(width=96, height=16, mode="1"), name="status")
    assert screen.size == (96, 16)
    assert screen.show(frame(size=(96, 16), box=(0, 0, 3, 3)))


@pytest.mark.parametrize("backend", ["mock", "emulator"])
def test_screen_behind_a_mux_is_a_dummy_off_the_pi(backend):
    """Off the Pi a multiplexed panel is a dummy like any other; its name still says where it hangs."""
    config = ScreenConfig(driver="ssd1306", bus="i2c", port=1, address=0x3C, mux=0x70, channel=2)
    screen = open_screen(config, backend, label="seat 3")
    assert screen.interface is None
    assert screen.show(frame())
    assert screen.name == "seat 3 screen ssd1306 on i2c port 1 address 0x3c behind mux 0x70 channel 2"
    recorded = open_screen(config, backend, label="seat 3", recording=True)
    assert isinstance(recorded.interface, RecordingInterface)
