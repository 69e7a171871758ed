"""The larger public screens: the table file's ssd1322 / ili9341 / st7789, their dummies, drivers and backlight."""

import random

import pytest
from luma.lcd.device import ili9341, st7789
from PIL import Image, ImageDraw

from hardware.errors import ScreenError, TableConfigError
from hardware.factory import open_table
from hardware.large import open_large_panel
from hardware.recording import RecordingInterface
from hardware.screens import driver_screen, open_screen
from hardware.table import ScreenConfig, parse_table

RED = """
[[seat]]
name = "Red"
buttons = { prev = 5, next = 6, ok = 13 }
screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C }
"""

SSD1322 = ScreenConfig(driver="ssd1322", bus="spi", width=256, height=64)
ILI9341 = ScreenConfig(driver="ili9341", bus="spi", width=320, height=240)
ST7789 = ScreenConfig(driver="st7789", bus="spi", width=320, height=240)


def public(block):
    return parse_table(RED + "\n[public_screen]\n" + block, source="table.toml").public_screen


def refused(block):
    with pytest.raises(TableConfigError) as caught:
        public(block)
    return str(caught.value)


def test_a_table_file_takes_the_three_larger_public_screens():
    oled = public('driver = "ssd1322"\nbus = "spi"\nwidth = 256\nheight = 64\n')
    tft = public('driver = "ili9341"\nbus = "spi"\ndevice = 1\ngpio_light = 12\nwidth = 320\nheight = 240\n'
                 'rotate = 2\n')
    square = public('driver = "st7789"\nbus = "spi"\nwidth = 240\nheight = 240\n')
    assert (oled.driver, oled.width, oled.height, oled.mode) == ("ssd1322", 256, 64, "1")
    assert (tft.width, tft.height, tft.rotate, tft.gpio_light, tft.mode) == (320, 240, 2, 12, "RGB")
    assert ("gpio_light", 12) in tft.pins()
    assert (square.width, square.height, square.mode) == (240, 240, "RGB")


@pytest.mark.parametrize(("block", "message"), [
    ('driver = "ssd1322"\nbus = "i2c"\nwidth = 256\n',
     '[public_screen]: bus: ssd1322 is an SPI panel; set bus = "spi"'),
    ('driver = "ili9341"\nbus = "spi"\nwidth = 128\nheight = 64\n',
     "[public_screen]: width: ili9341 supports 320x240, 320x180, 240x240, not 128x64"),
    ('driver = "ssd1322"\nbus = "spi"\nwidth = 256\ngpio_light = 12\n',
     "[public_screen]: gpio_light: ssd1322 has no backlight; only ili9341, st7789 do"),
    ('driver = "st7789"\nbus = "spi"\nwidth = 320\nheight = 240\ngpio_light = 13\n',
     '[public_screen]: gpio_light: pin 13 is already used by seat 1 ("Red") buttons.ok'),
    ('driver = "st7789"\nbus = "spi"\nwidth = 320\nheight = 240\ngpio_light = "BOARD1"\n',
     "[public_screen]: gpio_light: 'BOARD1' is a 3V3 pin, not a GPIO"),
    ('driver = "ili9342"\nbus = "spi"\n',
     "[public_screen]: driver: unknown value 'ili9342' (expected one of: ssd1306, ssd1309, sh1106, "
     "ssd1322, ili9341, st7789)"),
])
def test_bad_public_screens_are_refused_with_the_key_that_is_wrong(block, message):
    assert message in refused(block)


def test_a_seat_screen_stays_a_one_bit_oled():
    text = RED.replace('driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C',
                       'driver = "ili9341", bus = "spi", width = 320, height = 240')
    with pytest.raises(TableConfigError) as caught:
        parse_table(text, source="table.toml")
    assert ('seat 1 ("Red"): screen.driver: a seat\'s screen is a one-bit OLED (ssd1306, ssd1309, sh1106); '
            "ili9341 may be the public screen") in str(caught.value)


@pytest.mark.parametrize("config", [SSD1322, ILI9341, ST7789], ids=lambda c: c.driver)
def test_a_mock_public_screen_is_a_luma_dummy_in_the_panels_mode(config):
    screen = open_screen(config, "mock", label="public")
    assert (screen.size, screen.mode, screen.device.mode) == ((config.width, config.height), config.mode, config.mode)
    picture = Image.new(config.mode, screen.size)
    ImageDraw.Draw(picture).rectangle((3, 4, 60, 30), fill="red" if config.mode == "RGB" else 1)
    assert screen.show(picture) and screen.image.tobytes() == picture.tobytes()
    assert not screen.show(picture)  # the same frame again is skipped


def test_a_colour_screen_takes_a_one_bit_image_white_on_black_and_refuses_other_modes():
    screen = open_screen(ILI9341, "mock", label="public")
    card = Image.new("1", screen.size)
    ImageDraw.Draw(card).rectangle((0, 0, 9, 9), fill=1)
    screen.show(card)
    assert screen.image.getpixel((5, 5)) == (255, 255, 255) and screen.image.getpixel((20, 20)) == (0, 0, 0)
    with pytest.raises(ValueError, match="image mode must be 'RGB', not 'L'"):
        screen.show(Image.new("L", screen.size))


class TftRam:
    """What a TFT's RAM holds after the recorded bytes: CASET (0x2A), RASET (0x2B), RAMWR (0x2C) and pixels.

    Both the ILI9341 and the ST7789 take their window and pixels this way (datasheets, 8.2.20-22
    of the ILI9341), 3 bytes per pixel in the 18-bit mode luma sets.
    """

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.ram = bytearray(width * height * 3)
        self.pixels_sent = 0

    def feed(self, calls):
        command, args, cursor = None, b"", 0
        span = {0x2A: (0, self.width - 1), 0x2B: (0, self.height - 1)}  # columns, rows (inclusive)
        for kind, payload in calls:
            if kind == "command":
                command, args, cursor = payload[0], b"", 0
                continue
            if command in span:
                args += payload
                if len(args) == 4:
                    span[command] = (args[0] << 8 | args[1], args[2] << 8 | args[3])
            elif command == 0x2C:
                (x0, x1), (y0, _) = span[0x2A], span[0x2B]
                span_w = x1 - x0 + 1
                for i in range(0, len(payload), 3):
                    x, y = x0 + (cursor % span_w), y0 + cursor // span_w
                    at = (y * self.width + x) * 3
                    self.ram[at:at + 3] = payload[i:i + 3]
                    cursor += 1
                self.pixels_sent += len(payload) // 3


def _text_frame(size, rng, lines=6):
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    for _ in range(lines):
        x, y = rng.randrange(size[0] - 60), rng.randrange(size[1] - 12)
        colour = tuple(rng.choice((0, 128, 255)) for _ in range(3))
        draw.text((x, y), rng.choice(("Red", "Blue passes", "Turn slot 2 face up")), fill=colour)
    return image


@pytest.mark.parametrize("config", [ILI9341, ST7789], ids=lambda c: c.driver)
def test_a_tft_sends_only_the_changed_regions_and_its_ram_ends_equal_to_each_frame(config):
    bus = RecordingInterface()
    screen = driver_screen(config, bus, name="public")
    ram = TftRam(config.width, config.height)
    ram.feed(bus.calls)
    assert ram.pixels_sent == config.width * config.height  # luma's clear() at start: one whole frame
    rng = random.Random(4)
    frame = _text_frame(screen.size, rng)
    for _ in range(8):
        bus.reset()
        screen.show(frame)
        ram.feed(bus.calls)
        assert bytes(ram.ram) == frame.tobytes()
        # A few words changed, not the whole panel: far less than a full frame goes on the bus.
        assert 0 < ram.pixels_sent and bus.data_bytes < config.width * config.height * 3 // 4
        ram.pixels_sent = 0
        changed = frame.copy()
        ImageDraw.Draw(changed).rectangle((10, 10, 80, 20), fill=(0, 0, 0))
        ImageDraw.Draw(changed).text((10, 10), rng.choice(("1/3", "2/3", "3/3")), fill=(255, 255, 255))
        frame = changed


def test_the_st7789_sends_what_lumas_own_sends_for_its_first_frame():
    """The partial ST7789 keeps luma's init sequence and first frame byte for byte."""
    ours, stock = RecordingInterface(), RecordingInterface()
    driver_screen(ST7789, ours, name="public")
    st7789(stock, width=320, height=240, backlight=lambda on: None)
    assert ours.calls == stock.calls


def test_the_ili9341_is_lumas_own():
    assert type(driver_screen(ILI9341, RecordingInterface(), name="public").device) is ili9341


@pytest.mark.parametrize("config", [ILI9341, ST7789], ids=lambda c: c.driver)
def test_two_pixels_lit_across_a_segment_corner_send_two_pixels_not_their_2x2_window(config):
    """320x240 in 5x5 segments of 64x48: (63, 47) and (64, 48) lie in two segments, each sent alone."""
    bus = RecordingInterface()
    screen = driver_screen(config, bus, name="public")
    bus.reset()
    ram = TftRam(config.width, config.height)
    frame = Image.new("RGB", screen.size)
    frame.putpixel((63, 47), (255, 255, 255))
    frame.putpixel((64, 48), (255, 255, 255))
    assert screen.show(frame)
    ram.feed(bus.calls)
    assert ram.pixels_sent == 2
    assert bytes(ram.ram) == frame.tobytes()


def test_the_ssd1322_is_drawn_one_bit_and_sends_a_changed_word_not_the_panel():
    bus = RecordingInterface()
    screen = driver_screen(SSD1322, bus, name="public")
    assert screen.mode == "1"
    assert bus.data_bytes >= 256 * 64 // 2  # the first frame is sent whole (two pixels a byte)
    bus.reset()
    word = Image.new("1", screen.size)
    ImageDraw.Draw(word).text((100, 20), "Blue", fill=1)
    screen.show(word)
    assert 0 < bus.data_bytes < 256 * 64 // 2 // 8


def test_a_backlight_line_is_switched_on_through_gpiozero_and_off_when_the_screen_closes():
    config = parse_table(RED + '\n[public_screen]\ndriver = "ili9341"\nbus = "spi"\ngpio_light = 12\n'
                               'width = 320\nheight = 240\n')
    with open_table(config, "mock", recording=True) as table:
        pin = table.pin_factory.pin(12)
        assert pin.state is True and pin.function == "output"
        assert table.public_screen.device.backlight.is_lit
    assert pin.state is False


def test_a_tft_without_a_backlight_line_claims_no_pin():
    panel = open_large_panel(ILI9341, RecordingInterface())
    assert panel.backlight.is_lit is None


def test_a_backlight_pin_already_taken_is_a_screen_error_naming_it(mock_pins):
    taken = mock_pins.pin(12)
    from gpiozero import DigitalOutputDevice

    holder = DigitalOutputDevice(12, pin_factory=mock_pins)
    config = ScreenConfig(driver="st7789", bus="spi", width=240, height=240, gpio_light=12)
    with pytest.raises(ScreenError, match=r"public screen: backlight GPIO12: .*"):
        driver_screen(config, RecordingInterface(), name="public screen", pin_factory=mock_pins)
    holder.close()
    assert taken.state is False


def test_a_tft_that_does_not_answer_fails_at_open_and_lets_its_backlight_go(mock_pins):
    config = ScreenConfig(driver="ili9341", bus="spi", width=320, height=240, gpio_light=16)
    with pytest.raises(ScreenError, match="public screen: .*No such device"):
        driver_screen(config, RecordingInterface(fail=OSError(19, "No such device")), name="public screen",
                      pin_factory=mock_pins)
    from gpiozero import DigitalOutputDevice

    DigitalOutputDevice(16, pin_factory=mock_pins).close()  # the line is free again
