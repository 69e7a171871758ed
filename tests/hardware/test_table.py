"""Tests for hardware.table: the TOML table description and its checks."""

from importlib.resources import files
from pathlib import Path

import pytest

from hardware.errors import TableConfigError
from hardware.table import (
    ButtonPins,
    EncoderPins,
    ScreenConfig,
    SerialSeatConfig,
    WebConfig,
    emulator_table,
    header_pin,
    load_table,
    parse_table,
    serial_device,
)

TABLES = Path(str(files("hardware.tables")))

RED = """
[[seat]]
name = "Red"
buttons = { prev = 5, next = 6, ok = 13 }
screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C }
"""

BLUE = """
[[seat]]
name = "Blue"
buttons = { prev = 19, next = 26, ok = 12 }
screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3D }
"""


def seat(name, prev, nxt, ok, screen='{ driver = "ssd1306", bus = "i2c", port = 1, address = 0x3D }'):
    return (f'\n[[seat]]\nname = "{name}"\nbuttons = {{ prev = {prev}, next = {nxt}, ok = {ok} }}\n'
            f"screen = {screen}\n")


def header_lines(text, header="[[seat]]"):
    return [n for n, line in enumerate(text.splitlines(), start=1) if line == header]


def rejected(text):
    with pytest.raises(TableConfigError) as caught:
        parse_table(text, source="table.toml")
    return caught.value


def test_pi_example_file_describes_two_i2c_and_two_spi_seats():
    """The shipped pi-4.toml loads: two ssd1306 at 0x3C/0x3D on bus 1, two SPI panels with GPIO chip selects."""
    table = load_table(TABLES / "pi-4.toml")
    assert table.backend == "pi"
    assert len(table.seats) == 4
    i2c = [s.screen for s in table.seats if s.screen.bus == "i2c"]
    spi = [s.screen for s in table.seats if s.screen.bus == "spi"]
    assert [(s.driver, s.port, s.address) for s in i2c] == [("ssd1306", 1, 0x3C), ("ssd1306", 1, 0x3D)]
    assert len(spi) == 2 and all(s.gpio_cs is not None for s in spi)
    assert len({s.gpio_cs for s in spi}) == 2


def test_emulator_example_file_has_seven_emulated_seats():
    """The shipped emulator-7.toml loads as seven seats on the emulator backend."""
    table = load_table(TABLES / "emulator-7.toml")
    assert table.backend == "emulator"
    assert [s.index for s in table.seats] == list(range(7))
    assert all(s.buttons is not None and s.screen is not None for s in table.seats)


def test_full_format_parses_into_dataclasses():
    """Every documented key lands in the right dataclass field, pin names resolved to BCM numbers."""
    table = parse_table("""
[table]
name = "Kitchen table"
backend = "mock"
hold_time = 1.5
bounce_time = 0.02

[[seat]]
name = "Red"
buttons = { prev = 5, next = "GPIO6", ok = "BOARD33" }
screen = { driver = "ssd1306", bus = "i2c", port = 1, address = 0x3D, rotate = 2 }

[[seat]]
name = "Blue"
buttons = { prev = "BCM16", next = "J8:38", ok = 21 }
screen = { driver = "sh1106", bus = "spi", port = 0, device = 1, gpio_dc = 24, gpio_rst = 25, gpio_cs = 8 }

[[seat]]
name = "Pod"
serial = { port = "/dev/ttyACM0", baudrate = 57600 }

[public_screen]
driver = "sh1106"
bus = "i2c"
port = 3
width = 128
height = 128
""")
    assert (table.name, table.backend, table.hold_time, table.bounce_time) == (
        "Kitchen table", "mock", 1.5, 0.02)
    red, blue, pod = table.seats
    assert red.buttons == ButtonPins(prev=5, next=6, ok=13)
    assert red.screen == ScreenConfig(driver="ssd1306", bus="i2c", port=1, address=0x3D, rotate=2)
    assert blue.buttons == ButtonPins(prev=16, next=20, ok=21)
    assert (blue.screen.device, blue.screen.gpio_dc, blue.screen.gpio_rst, blue.screen.gpio_cs) == (
        1, 24, 25, 8)
    assert pod.serial == SerialSeatConfig(port="/dev/ttyACM0", baudrate=57600)
    assert pod.buttons is None and pod.screen is None
    assert (table.public_screen.width, table.public_screen.height, table.public_screen.port) == (
        128, 128, 3)
    assert blue.label == 'seat 2 ("Blue")'


def test_defaults_fill_optional_keys():
    """Absent optional keys take their documented defaults (0.8 s hold, no debounce, luma's SPI pins)."""
    table = parse_table("""
[[seat]]
buttons = { prev = 5, next = 6, ok = 13 }
screen = { driver = "ssd1309", bus = "spi" }
""")
    assert (table.name, table.backend, table.hold_time, table.bounce_time) == ("Table", None, 0.8, None)
    only = table.seats[0]
    assert only.name == "Seat 1"
    assert (only.screen.port, only.screen.device, only.screen.gpio_dc, only.screen.gpio_rst,
            only.screen.gpio_cs) == (0, 0, 24, 25, None)
    assert (only.screen.width, only.screen.height, only.screen.rotate) == (128, 64, 0)


def test_gpio_rst_false_means_no_reset_line():
    """gpio_rst = false leaves the reset line out, so a second panel can skip the shared reset."""
    table = parse_table("""
[[seat]]
buttons = { prev = 5, next = 6, ok = 13 }
screen = { driver = "sh1106", bus = "spi", gpio_rst = false }
""")
    assert table.seats[0].screen.gpio_rst is None
    assert table.seats[0].screen.pins() == (("gpio_dc", 24),)


def test_syntax_error_names_file_and_line():
    """A TOML syntax error is reported with the file name and the line tomllib found it on."""
    error = rejected('[table]\nname = "x"\nhold_time = = 3\n')
    assert error.line == 3
    assert str(error).startswith("table.toml:3: invalid TOML at column")


def test_values_nested_too_deeply_for_the_parser_are_a_clear_error():
    """tomllib's RecursionError on deep nesting is a bad table file like any other, not a crash."""
    error = rejected("[table]\nname = " + "[" * 5000 + "]" * 5000 + "\n")
    assert str(error) == "table.toml: invalid TOML: values nested too deeply"


def test_one_serial_port_under_two_names_is_refused(tmp_path):
    """A /dev/serial/by-id link and the device it points at are one port."""
    device = tmp_path / "ttyACM0"
    device.touch()
    link = tmp_path / "usb-MicroPython_Board-if00"
    link.symlink_to(device)
    error = rejected(f'[[seat]]\nserial = {{ port = "{device}" }}\n[[seat]]\nserial = {{ port = "{link}" }}\n')
    assert error.key == "seat[2].serial.port"
    assert f"{link} is already used by seat 1 (\"Seat 1\") (both are {device})" in str(error)


@pytest.mark.parametrize("name", ["Red\x1b[2J", "Blue\n", "Gr\u202eeen", "\x07Bell"])
def test_a_seat_name_with_control_characters_is_refused(name):
    """Control characters in a name would reach a terminal raw (clear it, move the cursor, reorder text)."""
    text = RED.replace('name = "Red"', f"name = {name!r}".replace("'", '"'))
    text = text.replace("\\x1b", "\\u001b").replace("\\x07", "\\u0007")
    error = rejected(text)
    assert error.key == "seat[1].name" and "must not hold control characters" in str(error)
    with pytest.raises(TableConfigError, match="control characters"):
        emulator_table(1, [name])


def test_pin_used_twice_names_both_seats_and_the_line():
    """A pin claimed by two seats is rejected at the second seat's [[seat]] line, naming both."""
    text = RED + seat("Blue", 19, 26, 13)
    error = rejected(text)
    assert header_lines(text) == [2, 7]
    assert str(error) == ('table.toml:7: seat 2 ("Blue"): buttons.ok: '
                          'pin 13 is already used by seat 1 ("Red") buttons.ok')
    assert error.line == 7
    assert error.key == "seat[2].buttons.ok"
    assert error.source == "table.toml"


def test_same_pin_in_another_spelling_still_collides():
    """BCM 5 and BOARD29 are the same header pin, so they collide."""
    error = rejected(RED + seat("Blue", '"BOARD29"', 26, 12))
    assert "buttons.prev: pin 5 is already used by seat 1" in str(error)


def test_screen_pins_collide_with_button_pins():
    """An SPI panel's reset line cannot reuse a button's pin."""
    spi = '{ driver = "sh1106", bus = "spi", gpio_dc = 24, gpio_rst = 6 }'
    error = rejected(RED + seat("Blue", 19, 26, 12, spi))
    assert "screen.gpio_rst: pin 6 is already used by seat 1 (\"Red\") buttons.next" in str(error)


def test_spi_panels_may_share_dc_but_not_reset():
    """Sharing the data/command line is normal SPI wiring; sharing reset is refused with a hint."""
    first = '{ driver = "sh1106", bus = "spi", device = 0, gpio_dc = 24, gpio_rst = 25 }'
    shared_dc = '{ driver = "sh1106", bus = "spi", device = 1, gpio_dc = 24, gpio_rst = 27 }'
    shared_rst = '{ driver = "sh1106", bus = "spi", device = 1, gpio_dc = 23, gpio_rst = 25 }'
    parse_table(seat("A", 5, 6, 13, first) + seat("B", 19, 26, 12, shared_dc))
    error = rejected(seat("A", 5, 6, 13, first) + seat("B", 19, 26, 12, shared_rst))
    assert "gpio_rst: pin 25 is already used" in str(error)
    assert "gpio_rst = false" in str(error)


def test_a_button_or_a_reset_on_an_spi_panels_dc_pin_is_refused():
    """Only another panel's data/command line may share a DC pin; a button or a reset there would fight it."""
    panel = '{ driver = "sh1106", bus = "spi", device = 0, gpio_dc = 24, gpio_rst = 25 }'
    other = '{ driver = "sh1106", bus = "spi", device = 1, gpio_dc = 23, gpio_rst = 27 }'
    error = rejected(seat("A", 5, 6, 13, panel) + seat("B", 19, 26, 24, other))
    assert 'buttons.ok: pin 24 is already used by seat 1 ("A") screen.gpio_dc' in str(error)
    error = rejected(seat("B", 19, 26, 24, other) + seat("A", 5, 6, 13, panel))
    assert 'screen.gpio_dc: pin 24 is already used by seat 1 ("B") buttons.ok' in str(error)
    reset_on_dc = '{ driver = "sh1106", bus = "spi", device = 1, gpio_dc = 23, gpio_rst = 24 }'
    error = rejected(seat("A", 5, 6, 13, panel) + seat("B", 19, 26, 12, reset_on_dc))
    assert 'screen.gpio_rst: pin 24 is already used by seat 1 ("A") screen.gpio_dc' in str(error)
    assert "gpio_rst = false" not in str(error)  # the shared-reset hint is for two resets only


@pytest.mark.parametrize(("screens", "ok"), [
    (('{ driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C }',
      '{ driver = "ssd1306", bus = "i2c", port = 3, address = 0x3C }'), True),
    (('{ driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C }',
      '{ driver = "sh1106", bus = "i2c", port = 1, address = 0x3C }'), False),
])
def test_i2c_address_must_be_unique_per_port(screens, ok):
    """Two I2C panels may share an address only on different ports."""
    text = seat("A", 5, 6, 13, screens[0]) + seat("B", 19, 26, 12, screens[1])
    if ok:
        assert len(parse_table(text).seats) == 2
    else:
        error = rejected(text)
        assert "screen.address: i2c port 1 address 0x3c is already used by seat 1" in str(error)


@pytest.mark.parametrize(("cs_a", "cs_b", "ok"), [
    (None, None, False),
    (17, None, False),
    (17, 22, True),
])
def test_spi_port_and_device_shared_only_with_gpio_chip_selects(cs_a, cs_b, ok):
    """Two SPI panels on one port/device need a GPIO chip select each."""
    def spi(dc, rst, cs):
        extra = f", gpio_cs = {cs}" if cs is not None else ""
        return f'{{ driver = "sh1106", bus = "spi", gpio_dc = {dc}, gpio_rst = {rst}{extra} }}'
    text = seat("A", 5, 6, 13, spi(24, 25, cs_a)) + seat("B", 19, 26, 12, spi(24, 27, cs_b))
    if ok:
        assert [s.screen.gpio_cs for s in parse_table(text).seats] == [cs_a, cs_b]
    else:
        assert "spi port 0 device 0 is already used" in str(rejected(text))


@pytest.mark.parametrize(("text", "message", "key"), [
    ('[[seat]]\nname = "A"\nbuttons = { prev = 5, next = 6 }\n'
     'screen = { driver = "ssd1306", bus = "i2c" }\n',
     "buttons: missing key 'ok'", "seat[1].buttons"),
    (RED.replace('name = "Red"', 'name = "Red"\ncolour = "red"'),
     "colour: unknown key", "seat[1].colour"),
    ("[tabel]\n" + RED, "unknown key 'tabel'", "tabel"),
    (RED.replace("address = 0x3C", "adress = 0x3C"), "screen.adress: unknown key", None),
    ("[table]\nhold_time = \"fast\"\n" + RED,
     "[table]: hold_time: must be a number of seconds, not a string", "table.hold_time"),
    ("[table]\nbackend = \"arduino\"\n" + RED, "unknown value 'arduino'", "table.backend"),
    (RED.replace("prev = 5", "prev = true"), "buttons.prev: must be a BCM number or a pin name, not a boolean",
     "seat[1].buttons.prev"),
    (RED.replace("address = 0x3C", 'address = "0x3C"'), "screen.address: must be an integer, not a string",
     None),
    (RED.replace('"ssd1306"', '"sh1107"'), "screen.driver: unknown value 'sh1107'", None),
    (RED.replace('bus = "i2c"', 'bus = "uart"'), "screen.bus: unknown value 'uart'", None),
    (RED.replace("address = 0x3C", "device = 1"), "screen.device: is an spi setting but this screen is on i2c",
     None),
    (RED.replace("address = 0x3C", "address = 0x3C, width = 128, height = 128"),
     "ssd1306 supports 128x64, 128x32, 96x16, 64x48, 64x32, not 128x128", None),
    (RED.replace("prev = 5", 'prev = "BOARD1"'), "'BOARD1' is a 3V3 pin, not a GPIO", None),
    (RED.replace("prev = 5", "prev = 40"), "40 is not a pin gpiozero knows", None),
    (RED.replace("address = 0x3C", "address = 0x3C, rotate = 4"),
     "screen.rotate: must be 0 to 3, not 4", None),
    (RED.replace("buttons", "serial = { port = \"/dev/ttyACM0\" }\nbuttons"),
     "serial: a serial seat has no buttons, encoder or screen", "seat[1].serial"),
    ('[[seat]]\nname = "A"\nbuttons = { prev = 5, next = 6, ok = 13 }\n',
     "missing key 'screen'", "seat[1]"),
    (RED + BLUE.replace('"Blue"', '"red"'), 'name: seat 1 ("Red") has that name', "seat[2].name"),
    ('[[seat]]\nserial = { port = "/dev/ttyACM0" }\n[[seat]]\nserial = { port = "/dev/ttyACM0" }\n',
     "serial.port: /dev/ttyACM0 is already used by seat 1", "seat[2].serial.port"),
    (RED.replace('bus = "i2c", port = 1, address = 0x3C', 'bus = "spi", gpio_cs = 0'),
     "GPIO0 cannot be a chip select", None),
])
def test_bad_tables_are_rejected_with_a_clear_message(text, message, key):
    """Each malformed description is refused with a message naming the key and what is wrong."""
    error = rejected(text)
    assert message in str(error)
    assert str(error).startswith("table.toml")
    if key is not None:
        assert error.key == key


def test_no_seats_is_rejected():
    """A table needs at least one seat."""
    assert "no [[seat]]" in str(rejected('[table]\nname = "Empty"\n'))


def test_nine_seats_are_rejected_at_the_ninth_seat():
    """More than eight seats is refused, pointing at the ninth [[seat]] header."""
    text = "".join(f'[[seat]]\nserial = {{ port = "/dev/ttyACM{n}" }}\n' for n in range(9))
    error = rejected(text)
    assert "at most 8 seats" in str(error)
    assert error.line == 17


def test_line_points_at_the_offending_seat():
    """A semantic error inside the third seat carries the line of the third [[seat]] header."""
    text = RED + BLUE + seat("Green", 16, 20, '"nope"', '{ driver = "ssd1306", bus = "i2c", port = 3 }')
    error = rejected(text)
    assert error.line == header_lines(text)[2]
    assert 'seat 3 ("Green"): buttons.ok' in str(error)


def test_public_screen_address_must_not_clash_with_a_seat():
    """The public screen is checked against seat screens like any other panel."""
    text = RED + '\n[public_screen]\ndriver = "ssd1306"\nbus = "i2c"\naddress = 0x3C\n'
    error = rejected(text)
    assert "[public_screen]: address: i2c port 1 address 0x3c is already used" in str(error)
    assert error.line == header_lines(text, "[public_screen]")[0]


def test_load_table_names_a_missing_file(tmp_path):
    """A file that cannot be read is a TableConfigError naming the file."""
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(TableConfigError, match="nowhere.toml: cannot read"):
        load_table(missing)


def test_load_table_uses_the_path_as_source(tmp_path):
    """Errors from load_table name the file they came from."""
    path = tmp_path / "kitchen.toml"
    path.write_text(RED + seat("Blue", 5, 26, 12), encoding="utf-8")
    with pytest.raises(TableConfigError) as caught:
        load_table(path)
    assert caught.value.source == str(path)
    assert str(caught.value).startswith(f"{path}:{header_lines(RED + seat('Blue', 5, 26, 12))[1]}: ")


def test_emulator_table_assigns_distinct_pins_and_addresses():
    """emulator_table builds N valid seats with no pin or I2C address shared."""
    table = emulator_table(8)
    assert table.backend == "emulator"
    pins = [pin for s in table.seats for _, pin in s.buttons.items()]
    assert len(pins) == len(set(pins)) == 24
    spots = {(s.screen.port, s.screen.address) for s in table.seats}
    assert len(spots) == 8


def test_emulator_table_takes_names_and_checks_count():
    """Names are used in order; a seat count outside 1..8 or a names mismatch is refused."""
    table = emulator_table(3, ["Ann", "Bo", "Cy"])
    assert [s.name for s in table.seats] == ["Ann", "Bo", "Cy"]
    with pytest.raises(TableConfigError, match="1 to 8 seats"):
        emulator_table(9)
    with pytest.raises(TableConfigError, match="2 seats but 1 names"):
        emulator_table(2, ["Ann"])
    with pytest.raises(TableConfigError, match="Ann"):
        emulator_table(2, ["Ann", "ann"])


def test_screen_describe_names_bus_and_address():
    """ScreenConfig.describe says which panel it is, as error messages need."""
    assert ScreenConfig().describe() == "ssd1306 on i2c port 1 address 0x3c"
    spi = ScreenConfig(driver="sh1106", bus="spi", port=0, device=1, gpio_dc=24, gpio_cs=17)
    assert spi.describe() == "sh1106 on spi port 0 device 1 chip select GPIO17"


def mux_screen(channel, address="0x3C", mux="0x70", port=1):
    return (f'{{ driver = "ssd1306", bus = "i2c", port = {port}, address = {address}, '
            f"mux = {mux}, channel = {channel} }}")


def test_seven_seat_example_is_one_mux_with_an_encoder_seat():
    """pi-7.toml: seven SSD1306 at 0x3C on channels 0-6 of one TCA9548A on bus 1, one encoder seat."""
    table = load_table(TABLES / "pi-7.toml")
    assert table.backend == "pi"
    screens = [s.screen for s in table.seats]
    assert {(s.driver, s.bus, s.port, s.address, s.mux) for s in screens} == {
        ("ssd1306", "i2c", 1, 0x3C, 0x70)}
    assert [s.channel for s in screens] == list(range(7))
    encoders = [s for s in table.seats if s.encoder is not None]
    assert len(encoders) == 1 and encoders[0].buttons is None
    pins = [pin for s in table.seats
            for _, pin in (s.buttons or s.encoder).items()]
    assert len(pins) == len(set(pins)) == 21
    assert not set(pins) & {2, 3, 7, 8, 9, 10, 11}     # I2C and SPI0 pins stay free


def test_pi_4_example_matches_the_readme_wiring():
    """pi-4.toml keeps the pins the README's wiring table lists."""
    table = load_table(TABLES / "pi-4.toml")
    assert [(s.name, s.buttons.items()) for s in table.seats] == [
        ("Red", (("prev", 5), ("next", 6), ("ok", 13))),
        ("Blue", (("prev", 19), ("next", 26), ("ok", 12))),
        ("Green", (("prev", 16), ("next", 20), ("ok", 21))),
        ("Yellow", (("prev", 4), ("next", 18), ("ok", 23))),
    ]
    green, yellow = table.seats[2].screen, table.seats[3].screen
    assert (green.gpio_dc, green.gpio_rst, green.gpio_cs) == (24, 25, 17)
    assert (yellow.gpio_dc, yellow.gpio_rst, yellow.gpio_cs) == (24, 27, 22)


def test_mux_and_channel_parse_and_describe():
    """A screen behind a TCA9548A keeps its mux address and channel, and says so in messages."""
    table = parse_table(seat("A", 5, 6, 13, mux_screen(3, mux="0x71")))
    screen = table.seats[0].screen
    assert (screen.port, screen.address, screen.mux, screen.channel) == (1, 0x3C, 0x71, 3)
    assert screen.describe() == "ssd1306 on i2c port 1 address 0x3c behind mux 0x71 channel 3"


def test_same_address_on_different_channels_is_fine():
    """Eight 0x3C panels fit behind one multiplexer, one per channel."""
    text = "".join(seat(f"S{n}", *pins, mux_screen(n)) for n, pins in enumerate(
        [(4, 17, 27), (22, 5, 6), (13, 19, 26), (14, 15, 18), (23, 24, 25), (0, 1, 12),
         (16, 20, 21), (7, 8, 9)]))
    assert [s.screen.channel for s in parse_table(text).seats] == list(range(8))


def test_same_address_on_the_same_channel_collides():
    """Two 0x3C panels on one channel answer together: refused at the second seat's line."""
    text = seat("A", 5, 6, 13, mux_screen(2)) + seat("B", 19, 26, 12, mux_screen(2))
    error = rejected(text)
    assert str(error) == ('table.toml:7: seat 2 ("B"): screen.address: i2c port 1 address 0x3c '
                          'behind mux 0x70 channel 2 is already used by seat 1 ("A") screen')
    assert error.line == header_lines(text)[1]
    assert error.key == "seat[2].screen.address"


def test_same_channel_on_another_mux_or_port_is_fine():
    """Channel 2 of mux 0x71, or of a mux on another port, is another segment."""
    text = (seat("A", 5, 6, 13, mux_screen(2)) + seat("B", 19, 26, 12, mux_screen(2, mux="0x71"))
            + seat("C", 16, 20, 21, mux_screen(2, port=3)))
    assert len(parse_table(text).seats) == 3


@pytest.mark.parametrize(("first", "second", "key", "message"), [
    ('{ driver = "ssd1306", bus = "i2c", address = 0x70 }', mux_screen(0), "screen.mux",
     'i2c port 1 address 0x70 is already used by seat 1 ("A") screen, not a multiplexer'),
    (mux_screen(0), '{ driver = "ssd1306", bus = "i2c", address = 0x70 }', "screen.address",
     'i2c port 1 address 0x70 is the multiplexer that seat 1 ("A") screen is behind'),
    (mux_screen(0), '{ driver = "ssd1306", bus = "i2c", address = 0x3C }', "screen.address",
     'i2c port 1 address 0x3c is already used behind a multiplexer by seat 1 ("A") screen; '
     "a selected channel joins the port, so both would answer"),
    ('{ driver = "ssd1306", bus = "i2c", address = 0x3C }', mux_screen(0), "screen.address",
     'i2c port 1 address 0x3c is already used by seat 1 ("A") screen, wired straight to the '
     "port; a selected channel joins the port, so both would answer"),
    (mux_screen(0, address="0x71"), mux_screen(1, mux="0x71"), "screen.mux",
     'i2c port 1 address 0x71 is already used by seat 1 ("A") screen behind another '
     "multiplexer"),
])
def test_panels_on_the_port_collide_with_muxes_and_what_is_behind_them(first, second, key, message):
    """The port itself is joined to every selected channel: its panels must not match the mux or panels behind it."""
    error = rejected(seat("A", 5, 6, 13, first) + seat("B", 19, 26, 12, second))
    assert f'seat 2 ("B"): {key}: {message}' in str(error)
    assert error.key == f"seat[2].{key}"


def test_other_port_does_not_collide_with_a_mux():
    """A direct 0x3C panel on port 3 is not joined to a mux on port 1."""
    text = (seat("A", 5, 6, 13, mux_screen(0))
            + seat("B", 19, 26, 12, '{ driver = "ssd1306", bus = "i2c", port = 3, address = 0x3C }'))
    assert len(parse_table(text).seats) == 2


@pytest.mark.parametrize(("screen", "message"), [
    (mux_screen(3, mux="0x60"),
     "screen.mux: must be 0x70 to 0x77, not 0x60 (a TCA9548A answers at 0x70 plus its "
     "A0-A2 jumpers)"),
    (mux_screen(8), "screen.channel: must be 0 to 7, not 8"),
    (mux_screen(-1), "screen.channel: must be 0 to 7, not -1"),
    (mux_screen('"3"'), "screen.channel: must be an integer, not a string"),
    ('{ driver = "ssd1306", bus = "i2c", mux = 0x70 }',
     "screen.mux: a screen behind a multiplexer needs both 'mux' (its address) and 'channel'; "
     "'channel' is missing"),
    ('{ driver = "ssd1306", bus = "i2c", channel = 2 }', "'mux' is missing"),
    ('{ driver = "ssd1306", bus = "i2c", address = 0x78 }',
     "screen.address: must be 0x03 to 0x77, not 0x78 (the 7-bit I2C addresses)"),
    ('{ driver = "sh1106", bus = "spi", mux = 0x70, channel = 1 }',
     "screen.mux: is an i2c setting but this screen is on spi"),
    ('{ driver = "ssd1315", bus = "i2c" }',
     "screen.driver: unknown value 'ssd1315' (expected one of: ssd1306, ssd1309, sh1106)"),
])
def test_bad_mux_settings_are_refused(screen, message):
    """Mux address outside 0x70-0x77, channel outside 0-7, half a mux setting, unknown drivers."""
    error = rejected(RED + seat("B", 19, 26, 12, screen))
    assert message in str(error)
    assert error.line == 7


def test_encoder_seat_parses_and_its_pins_are_claimed():
    """encoder = { a, b, push } replaces buttons; its pins collide with anyone else's."""
    text = RED + '\n[[seat]]\nname = "Knob"\nencoder = { a = 16, b = "GPIO20", push = "BOARD40" }\n' \
        'screen = { driver = "ssd1306", bus = "i2c", address = 0x3D }\n'
    knob = parse_table(text).seats[1]
    assert knob.encoder == EncoderPins(a=16, b=20, push=21)
    assert knob.buttons is None
    clash = text.replace("a = 16", "a = 13")
    assert ('seat 2 ("Knob"): encoder.a: pin 13 is already used by seat 1 ("Red") buttons.ok'
            in str(rejected(clash)))


@pytest.mark.parametrize(("seat_text", "message"), [
    ('buttons = { prev = 19, next = 26, ok = 12 }\nencoder = { a = 16, b = 20, push = 21 }\n'
     'screen = { driver = "ssd1306", bus = "i2c", address = 0x3D }\n',
     "encoder: a seat has three buttons or an encoder, not both"),
    ('encoder = { a = 16, b = 20 }\nscreen = { driver = "ssd1306", bus = "i2c", address = 0x3D }\n',
     "encoder: missing key 'push'"),
    ('encoder = { a = 16, b = 20, push = 21, c = 4 }\n'
     'screen = { driver = "ssd1306", bus = "i2c", address = 0x3D }\n',
     "encoder.c: unknown key (expected one of: a, b, push)"),
    ('screen = { driver = "ssd1306", bus = "i2c", address = 0x3D }\n',
     "missing key 'buttons' (or an 'encoder', a 'serial' port, or a 'bot')"),
    ('encoder = { a = 16, b = 20, push = 21 }\nserial = { port = "/dev/ttyACM0" }\n',
     "serial: a serial seat has no buttons, encoder or screen"),
])
def test_bad_encoder_seats_are_refused(seat_text, message):
    """An encoder seat needs all three pins, and is not also a button or serial seat."""
    error = rejected(RED + '\n[[seat]]\nname = "Knob"\n' + seat_text)
    assert message in str(error)
    assert error.line == 7


def test_header_pin_gives_the_physical_pin():
    """header_pin maps BCM numbers to 40-pin header positions for wiring messages."""
    assert [header_pin(n) for n in (2, 3, 17, 26, 0, 21)] == [3, 5, 11, 37, 27, 40]
    assert header_pin(28) is None


@pytest.mark.parametrize("value, kind", [
    ("true", "a boolean"), ("1", "an integer"), ("1.5", "a float"), ("{ a = 1 }", "a table"),
    ("[1]", "an array"), ("1979-05-27", "a date or time"),
])
def test_a_value_of_the_wrong_kind_is_named_the_way_toml_names_it(value, kind):
    assert str(rejected(f"[table]\nname = {value}\n" + RED)) == f"table.toml:1: [table]: name: must be a string, not {kind}"


def test_toml_that_breaks_off_at_the_end_names_the_last_line():
    error = rejected('[table]\n\nname = "x')
    assert str(error) == "table.toml:3: invalid TOML near the end: Unterminated string" and error.line == 3
    assert rejected("name = ").line == 1
    error = rejected('a = 1\n[[seat]\n')
    assert str(error) == "table.toml:2: invalid TOML at column 7: Expected ']]' at the end of an array declaration"


def test_load_table_names_a_file_that_is_not_utf_8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b'[table]\nname = "Caf\xe9"\n')
    with pytest.raises(TableConfigError) as caught:
        load_table(path)
    assert str(caught.value) == f"{path}: not UTF-8 text (byte 19)"
    with pytest.raises(TableConfigError) as caught:
        load_table(tmp_path)
    assert str(caught.value) == f"{tmp_path}: cannot read: Is a directory"


def test_emulator_seats_take_three_pins_each_in_order_and_two_screens_per_port():
    table = emulator_table(4)
    assert (table.name, table.backend, table.source) == ("Emulated table", "emulator", "<emulator>")
    assert [s.name for s in table.seats] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    assert [s.index for s in table.seats] == [0, 1, 2, 3]
    assert [(s.buttons.prev, s.buttons.next, s.buttons.ok) for s in table.seats] == [
        (0, 1, 4), (5, 6, 7), (8, 9, 10), (11, 12, 13)]  # GPIO2 and GPIO3 are the I2C bus
    assert [(s.screen.port, s.screen.address) for s in table.seats] == [(1, 0x3C), (1, 0x3D), (2, 0x3C), (2, 0x3D)]
    assert emulator_table(1).seats[0].name == "Seat 1" and len(emulator_table(8).seats) == 8


@pytest.mark.parametrize("seats, names, message, key", [
    (0, None, "a table has 1 to 8 seats, not 0", "seat"),
    (9, None, "a table has 1 to 8 seats, not 9", "seat"),
    (2, ["Ann"], "2 seats but 1 names", "seat"),
    (2, ["Ann", " "], "seat 2: name must be a non-empty string", "seat[2].name"),
    (2, [7, "Bo"], "seat 1: name must be a non-empty string", "seat[1].name"),
])
def test_an_emulator_table_refuses_a_bad_count_or_name_saying_which(seats, names, message, key):
    with pytest.raises(TableConfigError) as caught:
        emulator_table(seats, names)
    assert str(caught.value) == f"<emulator>: {message}" and caught.value.key == key


def test_an_encoder_lists_its_pins_in_a_b_push_order_and_an_i2c_panel_uses_none():
    assert EncoderPins(16, 20, 21).items() == (("a", 16), ("b", 20), ("push", 21))
    assert ScreenConfig().pins() == ()
    spi = ScreenConfig(bus="spi", port=0, gpio_dc=24, gpio_rst=25, gpio_cs=8)
    assert spi.pins() == (("gpio_dc", 24), ("gpio_rst", 25), ("gpio_cs", 8))


@pytest.mark.parametrize("body, message, key", [
    ('serial = { baudrate = 9600 }', "serial: missing key 'port'", "seat[1].serial"),
    ('serial = { port = 5 }', "serial.port: must be a string, not an integer", "seat[1].serial.port"),
    ('serial = { port = "" }', "serial.port: must not be empty", "seat[1].serial.port"),
    ('serial = "x"', "serial: must be a table of keys, not a string", "seat[1].serial"),
    ('serial = { port = "/dev/x", speed = 1 }', "serial.speed: unknown key (expected one of: port, baudrate)",
     "seat[1].serial.speed"),
    ('serial = { port = "/dev/x", baudrate = 0 }', "serial.baudrate: must be 1 to 10000000, not 0",
     "seat[1].serial.baudrate"),
    ('serial = { port = "/dev/x", baudrate = 10000001 }', "serial.baudrate: must be 1 to 10000000, not 10000001",
     "seat[1].serial.baudrate"),
])
def test_a_serial_seat_is_refused_naming_the_key_and_the_rule(body, message, key):
    error = rejected(f'\n[[seat]]\nname = "Pod"\n{body}\n')
    assert str(error) == f'table.toml:2: seat 1 ("Pod"): {message}' and error.key == key


def test_a_serial_seat_has_a_port_and_a_baudrate_from_1_to_10_million_115200_by_default():
    for body, baudrate in (('{ port = "/dev/ttyACM0" }', 115200), ('{ port = "/dev/ttyACM0", baudrate = 1 }', 1),
                           ('{ port = "/dev/ttyACM0", baudrate = 10000000 }', 10_000_000)):
        pod = parse_table(f'\n[[seat]]\nname = "Pod"\nserial = {body}\n').seats[0]
        assert pod.serial == SerialSeatConfig("/dev/ttyACM0", baudrate) and pod.screen is None


PUBLIC = '\n[public_screen]\ndriver = "ssd1306"\nbus = "i2c"\naddress = 0x3D\n'


@pytest.mark.parametrize("text, message, key", [
    ("[table]\nhold_time = 0\n" + RED, "table.toml:1: [table]: hold_time: must be more than 0 seconds", "table.hold_time"),
    ('[table]\nbounce_time = "x"\n' + RED,
     "table.toml:1: [table]: bounce_time: must be a number of seconds, not a string", "table.bounce_time"),
    ("[table]\nbounce_time = -1\n" + RED, "table.toml:1: [table]: bounce_time: must be 0 to 60 seconds, not -1",
     "table.bounce_time"),
    ('[table]\nname = ""\n' + RED, "table.toml:1: [table]: name: must not be empty", "table.name"),
    ("colour = 1\n" + RED, "table.toml:1: table file: unknown key 'colour' (expected one of: table, seat, public_screen, web, options)",
     "colour"),
    ("seat = 3\n", "table.toml:1: [seat]: must be [[seat]] blocks, not an integer", "seat"),
    ('[table]\nname = "T"\n', "table.toml: table file: no [[seat]]: a table has 1 to 8 seats", "seat"),
    (RED + PUBLIC + "width = 0\n", "table.toml:7: [public_screen]: width: must be 1 to 1024, not 0", "public_screen.width"),
    (RED + PUBLIC + "width = 1025\n", "table.toml:7: [public_screen]: width: must be 1 to 1024, not 1025",
     "public_screen.width"),
    (RED + PUBLIC + "height = 0\n", "table.toml:7: [public_screen]: height: must be 1 to 1024, not 0",
     "public_screen.height"),
    (RED + PUBLIC + "height = 1025\n", "table.toml:7: [public_screen]: height: must be 1 to 1024, not 1025",
     "public_screen.height"),
    (RED + PUBLIC + "rotate = 4\n", "table.toml:7: [public_screen]: rotate: must be 0 to 3, not 4", "public_screen.rotate"),
    (RED + PUBLIC.replace('bus = "i2c"\n', ""), "table.toml:7: [public_screen]: missing key 'bus'", "public_screen"),
    (RED + PUBLIC.replace('driver = "ssd1306"\n', ""), "table.toml:7: [public_screen]: missing key 'driver'",
     "public_screen"),
])
def test_table_settings_and_the_public_screen_are_refused_naming_file_line_section_and_key(text, message, key):
    error = rejected(text)
    assert str(error) == message and error.key == key


def test_table_settings_default_and_the_public_screen_is_read():
    table = parse_table(RED + PUBLIC + "rotate = 2\n", source="t.toml")
    assert (table.name, table.hold_time, table.bounce_time, table.source) == ("Table", 0.8, None, "t.toml")
    assert table.public_screen == ScreenConfig(address=0x3D, rotate=2)
    named = parse_table('[table]\nname = "Kitchen"\nhold_time = 1.5\nbounce_time = 0.05\n' + RED)
    assert (named.name, named.hold_time, named.bounce_time) == ("Kitchen", 1.5, 0.05)


def test_rule_options_are_kept_as_plain_data_by_game_for_the_game_to_check():
    table = parse_table(RED + '\n[options.quovadis]\nreveal_laurels = true\nshort_supply = "turn_order"\n'
                        "\n[options.chess]\ncastling = 3\n", source="table.toml")
    # The table knows no games: even "chess" is kept, for the start of a game to refuse.
    assert table.options == {"quovadis": {"reveal_laurels": True, "short_supply": "turn_order"},
                             "chess": {"castling": 3}}
    assert parse_table(RED).options == {}


@pytest.mark.parametrize(("options", "message"), [
    ("[options]\nquovadis = 1\n", "table.toml: [options.quovadis]: must be a table of rule options, not an integer"),
    ("[options.quovadis]\nreveal_laurels = [true]\n",
     "table.toml:7: [options.quovadis]: reveal_laurels: must be a boolean, an integer or a string, not an array"),
    ("[options.quovadis]\nrounds = 2.5\n",
     "table.toml:7: [options.quovadis]: rounds: must be a boolean, an integer or a string, not a float"),
])
def test_a_rule_option_that_is_no_toml_value_an_option_can_take_is_refused_with_its_line(options, message):
    with pytest.raises(TableConfigError) as refused:
        parse_table(RED + "\n" + options, source="table.toml")
    assert str(refused.value) == message


SPI_A = '{ driver = "sh1106", bus = "spi", device = 0, gpio_dc = 24, gpio_rst = 25 }'


@pytest.mark.parametrize("text, message, key", [
    (RED.replace('"ssd1306"', '"ssd1322"'),
     "table.toml:2: seat 1 (\"Red\"): screen.driver: a seat's screen is a one-bit OLED (ssd1306, ssd1309, sh1106); "
     "ssd1322 may be the public screen", "seat[1].screen.driver"),
    (RED.replace('driver = "ssd1306"', "driver = 1306"),
     'table.toml:2: seat 1 ("Red"): screen.driver: must be a string, not an integer', "seat[1].screen.driver"),
    (RED + PUBLIC.replace('"ssd1306"', '"ssd1322"') + "width = 256\n",
     'table.toml:7: [public_screen]: bus: ssd1322 is an SPI panel; set bus = "spi"', "public_screen.bus"),
    (RED + '\n[public_screen]\ndriver = "ssd1322"\nbus = "spi"\nwidth = 256\ngpio_light = 12\n',
     "table.toml:7: [public_screen]: gpio_light: ssd1322 has no backlight; only ili9341, st7789 do",
     "public_screen.gpio_light"),
    (RED + '\n[public_screen]\ndriver = "ili9341"\nbus = "spi"\nwidth = 320\nheight = 240\ngpio_light = 13\n',
     'table.toml:7: [public_screen]: gpio_light: pin 13 is already used by seat 1 ("Red") buttons.ok',
     "public_screen.gpio_light"),
    ("options = 3\n" + RED, "table.toml:1: [options]: must be [options.GAME] blocks, not an integer", "options"),
    (RED + "\n[options.quovadis]\nrounds = 2.5\n",
     "table.toml:7: [options.quovadis]: rounds: must be a boolean, an integer or a string, not a float",
     "options.quovadis.rounds"),
    (seat("A", 5, 6, 13, SPI_A) + seat("B", 19, 26, 12, SPI_A.replace("device = 0", "device = 1")
                                         .replace("gpio_dc = 24", "gpio_dc = 23")),
     'table.toml:7: seat 2 ("B"): screen.gpio_rst: pin 25 is already used by seat 1 ("A") screen.gpio_rst '
     "(a shared reset line resets the panels already set up; set gpio_rst = false on all but the first)",
     "seat[2].screen.gpio_rst"),
    (seat("A", 5, 6, 13, SPI_A) + seat("B", 19, 26, 12, SPI_A.replace("gpio_rst = 25", "gpio_rst = false")),
     'table.toml:7: seat 2 ("B"): screen.device: spi port 0 device 0 is already used by seat 1 ("A") screen; '
     "panels sharing it need a gpio_cs each", "seat[2].screen.device"),
    (seat("A", 5, 6, 13, mux_screen(0, address="0x71")) + seat("B", 19, 26, 12, mux_screen(1, mux="0x71")),
     'table.toml:7: seat 2 ("B"): screen.mux: i2c port 1 address 0x71 is already used by seat 1 ("A") screen '
     "behind another multiplexer; a selected channel joins the port, so both would answer", "seat[2].screen.mux"),
    (seat("A", 5, 6, 13, mux_screen(0)) + seat("B", 19, 26, 12, mux_screen(1))
     + seat("C", 16, 20, 21, '{ driver = "ssd1306", bus = "i2c", address = 0x70 }'),
     'table.toml:12: seat 3 ("C"): screen.address: i2c port 1 address 0x70 is the multiplexer that seat 1 ("A") '
     "screen is behind", "seat[3].screen.address"),
])
def test_a_table_file_is_refused_in_full_words_naming_file_line_place_key_and_rule(text, message, key):
    """What a user reads when a seat or public screen, a rule option block or the wiring is wrong:
    the whole message, the first user of a clashing pin, port or multiplexer named."""
    error = rejected(text)
    assert str(error) == message and error.key == key


def test_spi_only_and_colour_panels_may_be_the_public_screen_and_a_tft_has_its_backlight_pin():
    wide = parse_table(RED + '\n[public_screen]\ndriver = "ssd1322"\nbus = "spi"\nwidth = 256\n').public_screen
    assert (wide.driver, wide.bus, wide.width, wide.height, wide.mode) == ("ssd1322", "spi", 256, 64, "1")
    tft = parse_table(RED + '\n[public_screen]\ndriver = "ili9341"\nbus = "spi"\nwidth = 320\nheight = 240\n'
                      "gpio_light = 12\n").public_screen
    assert (tft.driver, tft.mode, tft.gpio_light) == ("ili9341", "RGB", 12)
    assert tft.pins() == (("gpio_dc", 24), ("gpio_rst", 25), ("gpio_light", 12))


def test_a_serial_url_is_one_port_as_written_and_a_path_is_the_device_it_links_to(tmp_path):
    assert serial_device("loop://") == "loop://"
    assert serial_device("socket://pod.local:7000") == "socket://pod.local:7000"
    device = tmp_path / "ttyACM0"
    device.touch()
    (tmp_path / "pod").symlink_to(device)
    assert serial_device(str(tmp_path / "pod")) == str(device)


def test_an_emulator_table_refuses_a_name_with_control_characters_and_checks_its_public_screen():
    with pytest.raises(TableConfigError) as caught:
        emulator_table(2, ["Ann", "B\x1bo"])
    assert str(caught.value) == "<emulator>: seat 2: name must not hold control characters ('\\x1b')"
    assert caught.value.key == "seat[2].name"
    public = ScreenConfig(port=1, address=0x3D)
    with pytest.raises(TableConfigError) as caught:
        emulator_table(2, public_screen=public)
    assert str(caught.value) == ('<emulator>: [public_screen]: address: i2c port 1 address 0x3d is already used by '
                                 'seat 2 ("Seat 2") screen')
    assert emulator_table(2, public_screen=ScreenConfig(port=3)).public_screen == ScreenConfig(port=3)


def test_a_table_file_is_read_as_utf_8_whatever_the_locale(tmp_path, c_locale):
    path = tmp_path / "table.toml"
    path.write_text(RED.replace('"Red"', '"紅"'), encoding="utf-8")
    assert load_table(path).seats[0].name == "紅"


def spi_seat(extra, screen='driver = "sh1106", bus = "spi", gpio_dc = 24, gpio_rst = 25'):
    return seat("A", 5, 6, 13, "{ " + screen + extra + " }")


def i2c_seat(extra):
    return seat("A", 5, 6, 13, '{ driver = "ssd1306", bus = "i2c"' + extra + " }")


TFT = '\n[public_screen]\ndriver = "ili9341"\nbus = "spi"\nwidth = 320\nheight = 240\n'
NOT_A_PIN = "is not a pin gpiozero knows (use a BCM number like 17, or 'GPIO17' or 'BOARD11')"


@pytest.mark.parametrize("text, message, key", [
    (spi_seat(", port = 256"), 'table.toml:2: seat 1 ("A"): screen.port: must be 0 to 255, not 256', "seat[1].screen.port"),
    (spi_seat(", device = 256"), 'table.toml:2: seat 1 ("A"): screen.device: must be 0 to 255, not 256', "seat[1].screen.device"),
    (spi_seat("", 'driver = "sh1106", bus = "spi", gpio_dc = 40'), f'table.toml:2: seat 1 ("A"): screen.gpio_dc: 40 {NOT_A_PIN}',
     "seat[1].screen.gpio_dc"),
    (spi_seat(', gpio_cs = "nope"'), f"table.toml:2: seat 1 (\"A\"): screen.gpio_cs: 'nope' {NOT_A_PIN}", "seat[1].screen.gpio_cs"),
    (spi_seat(", gpio_cs = 0"), 'table.toml:2: seat 1 ("A"): screen.gpio_cs: GPIO0 cannot be a chip select for luma; use another pin',
     "seat[1].screen.gpio_cs"),
    (spi_seat("", 'driver = "sh1106", bus = "spi", gpio_rst = true'),
     'table.toml:2: seat 1 ("A"): screen.gpio_rst: must be a pin or false', "seat[1].screen.gpio_rst"),
    (spi_seat("", 'driver = "sh1106", bus = "spi", gpio_rst = "BOARD1"'),
     "table.toml:2: seat 1 (\"A\"): screen.gpio_rst: 'BOARD1' is a 3V3 pin, not a GPIO", "seat[1].screen.gpio_rst"),
    (RED + TFT + 'gpio_light = "BOARD1"\n', "table.toml:7: [public_screen]: gpio_light: 'BOARD1' is a 3V3 pin, not a GPIO",
     "public_screen.gpio_light"),
    (i2c_seat(", port = 256"), 'table.toml:2: seat 1 ("A"): screen.port: must be 0 to 255, not 256', "seat[1].screen.port"),
    (i2c_seat(", port = -1"), 'table.toml:2: seat 1 ("A"): screen.port: must be 0 to 255, not -1', "seat[1].screen.port"),
    (i2c_seat(", width = 0"), 'table.toml:2: seat 1 ("A"): screen.width: must be 1 to 1024, not 0', "seat[1].screen.width"),
    (i2c_seat(", height = 2000"), 'table.toml:2: seat 1 ("A"): screen.height: must be 1 to 1024, not 2000', "seat[1].screen.height"),
    (i2c_seat(", width = 128, height = 128"),
     'table.toml:2: seat 1 ("A"): screen.width: ssd1306 supports 128x64, 128x32, 96x16, 64x48, 64x32, not 128x128',
     "seat[1].screen.width"),
    (i2c_seat(", channel = 2"), "table.toml:2: seat 1 (\"A\"): screen.channel: a screen behind a multiplexer needs both 'mux' "
     "(its address) and 'channel'; 'mux' is missing", "seat[1].screen.channel"),
    ('\n[[seat]]\nname = "Black"\nbot = "normal"\nencoder = { a = 16, b = 20, push = 21 }\n',
     "table.toml:2: seat 1 (\"Black\"): bot: a bot seat has no buttons, encoder, screen or serial port (nobody sits there); "
     "remove 'encoder' or 'bot'", "seat[1].bot"),
    ('\n[[seat]]\nname = "Black"\nbot = "normal"\nserial = { port = "/dev/ttyACM0" }\n',
     "table.toml:2: seat 1 (\"Black\"): bot: a bot seat has no buttons, encoder, screen or serial port (nobody sits there); "
     "remove 'serial' or 'bot'", "seat[1].bot"),
    ('\n[[seat]]\nname = "Black"\nbot = "genius"\n',
     "table.toml:2: seat 1 (\"Black\"): bot: unknown value 'genius' (expected one of: easy, normal, strong, rules, random)",
     "seat[1].bot"),
    ('\n[[seat]]\nname = "Pod"\nserial = { port = "/dev/ttyACM0" }\nscreen = { driver = "ssd1306", bus = "i2c" }\n',
     "table.toml:2: seat 1 (\"Pod\"): serial: a serial seat has no buttons, encoder or screen (its pod has its own); "
     "remove 'screen' or 'serial'", "seat[1].serial"),
    ('\n[[seat]]\nname = "Pod"\nserial = { port = "/dev/ttyACM0" }\nencoder = { a = 16, b = 20, push = 21 }\n',
     "table.toml:2: seat 1 (\"Pod\"): serial: a serial seat has no buttons, encoder or screen (its pod has its own); "
     "remove 'encoder' or 'serial'", "seat[1].serial"),
    ('\n[[seat]]\nname = "Red"\nbuttons = { prev = 5, next = 6, ok = 13 }\n',
     "table.toml:2: seat 1 (\"Red\"): missing key 'screen' (or give a 'serial' port)", "seat[1]"),
    (RED.replace("prev = 5", "prev = 40"), f'table.toml:2: seat 1 ("Red"): buttons.prev: 40 {NOT_A_PIN}', "seat[1].buttons.prev"),
    (RED.replace("prev = 5", 'prev = "BOARD1"'), "table.toml:2: seat 1 (\"Red\"): buttons.prev: 'BOARD1' is a 3V3 pin, not a GPIO",
     "seat[1].buttons.prev"),
])
def test_each_bad_value_of_a_seat_or_screen_is_refused_in_full_words_naming_its_key(text, message, key):
    """The whole message a user reads for each value a seat or its screen cannot take, on the line of its block."""
    error = rejected(text)
    assert (str(error), error.key) == (message, key)


def test_a_seat_an_spi_panel_and_a_colour_public_screen_are_read_whole():
    """Every key of a bot seat, an SPI seat screen and a TFT with its backlight lands in its field; an I2C
    panel's port and address default to 1 and 0x3C, and port 0 is a port."""
    table = parse_table(spi_seat(', port = 1, device = 1, gpio_cs = "GPIO17", rotate = 2, width = 128, height = 32')
                        + '\n[[seat]]\nname = "Black"\nbot = "strong"\n' + seat("B", 19, 26, 12, "{ driver = "
                        '"ssd1306", bus = "i2c" }') + seat("C", 16, 20, 21, '{ driver = "sh1106", bus = "i2c", '
                        "port = 0 }") + TFT + 'device = 1\ngpio_dc = 23\ngpio_rst = false\ngpio_light = "GPIO18"\n')
    assert table.seats[0].screen == ScreenConfig(driver="sh1106", bus="spi", port=1, device=1, gpio_dc=24,
                                                 gpio_rst=25, gpio_cs=17, rotate=2, width=128, height=32)
    assert (table.seats[1].index, table.seats[1].name, table.seats[1].bot) == (1, "Black", "strong")
    assert (table.seats[1].buttons, table.seats[1].screen) == (None, None)
    assert (table.seats[2].screen.port, table.seats[2].screen.address) == (1, 0x3C)
    assert (table.seats[3].screen.driver, table.seats[3].screen.port) == ("sh1106", 0)
    assert table.public_screen == ScreenConfig(driver="ili9341", bus="spi", port=0, device=1, gpio_dc=23,
                                               gpio_rst=None, gpio_light=18, width=320, height=240)


@pytest.mark.parametrize("text, message, key", [
    ('[table]\nlanguage = "fr"\n' + RED,
     "table.toml:1: [table]: language: unknown value 'fr' (expected one of: en, zh_Hant, zh_Hans)", "table.language"),
    ("[table]\nlanguage = 5\n" + RED, "table.toml:1: [table]: language: must be a string, not an integer",
     "table.language"),
    ("table = 5\n" + RED, "table.toml:1: [table]: must be a table of keys, not an integer", "table"),
    ("[table]\ncolour = 1\n" + RED,
     "table.toml:1: [table]: colour: unknown key (expected one of: name, backend, hold_time, bounce_time, language)",
     "table.colour"),
    ("[table]\nhold_time = 60.5\n" + RED, "table.toml:1: [table]: hold_time: must be 0 to 60 seconds, not 60.5",
     "table.hold_time"),
    ("[table]\nbounce_time = 61\n" + RED, "table.toml:1: [table]: bounce_time: must be 0 to 60 seconds, not 61",
     "table.bounce_time"),
    ('\n[[seat]]\nname = 5\n', "table.toml:2: seat 1: name: must be a string, not an integer", "seat[1].name"),
    ('\n[[seat]]\nname = "Re\\u001bd\\u202e"\n',
     "table.toml:2: seat 1: name: must not hold control characters ('\\x1b', '\\u202e')", "seat[1].name"),
    ("seat = [1]\n", "table.toml: seat 1: must be a table of keys, not an integer", "seat[1]"),
    ('\n[[seat]]\nname = "Knob"\nencoder = { a = 40, b = 20, push = 21 }\nscreen = { driver = "ssd1306", bus = "i2c" }\n',
     f'table.toml:2: seat 1 ("Knob"): encoder.a: 40 {NOT_A_PIN}', "seat[1].encoder.a"),
    ("".join(f'[[seat]]\nserial = {{ port = "/dev/ttyACM{n}" }}\n' for n in range(9)),
     "table.toml:17: seat 9: a table has at most 8 seats, this file has 9", "seat[9]"),
])
def test_each_bad_table_setting_or_seat_is_refused_in_full_words_naming_its_key(text, message, key):
    """The whole message for the table's own settings, a seat before its name is known, and too many seats."""
    error = rejected(text)
    assert (str(error), error.key) == (message, key)


def test_the_tables_language_and_timings_are_read_up_to_their_limits():
    assert parse_table(RED).language is None
    assert parse_table('[table]\nlanguage = "zh_Hant"\n' + RED).language == "zh_Hant"
    table = parse_table("[table]\nhold_time = 60\nbounce_time = 60\n" + RED)
    assert (table.hold_time, table.bounce_time) == (60.0, 60.0)


@pytest.mark.parametrize("block, message, key", [
    ('host = "lan"', "table.toml:7: [web]: missing key 'port'", "web"),
    ("port = 0", "table.toml:7: [web]: port: must be 1 to 65535, not 0", "web.port"),
    ("port = 65536", "table.toml:7: [web]: port: must be 1 to 65535, not 65536", "web.port"),
    ('port = "80"', "table.toml:7: [web]: port: must be an integer, not a string", "web.port"),
    ('port = 80\nhost = ""', "table.toml:7: [web]: host: must not be empty", "web.host"),
    ("port = 80\ncolour = 1", "table.toml:7: [web]: colour: unknown key (expected one of: port, host)", "web.colour"),
])
def test_a_bad_web_block_is_refused_naming_its_key(block, message, key):
    error = rejected(RED + "\n[web]\n" + block + "\n")
    assert (str(error), error.key) == (message, key)
    error = rejected("web = 5\n" + RED)
    assert (str(error), error.key) == ("table.toml:1: [web]: must be a table of keys, not an integer", "web")


def test_the_web_block_is_off_when_absent_and_serves_the_local_network_by_default():
    assert parse_table(RED).web is None
    web = parse_table(RED + "\n[web]\nport = 8080\n").web
    assert isinstance(web, WebConfig) and (web.port, web.host) == (8080, "lan")
    web = parse_table(RED + '\n[web]\nport = 1\nhost = "0.0.0.0"\n').web
    assert (web.port, web.host) == (1, "0.0.0.0")
    assert parse_table(RED + "\n[web]\nport = 65535\n").web.port == 65535


BOT = '\n[[seat]]\nname = "Black"\nbot = "easy"\n'
BOT_RULE = "a bot seat has no buttons, encoder, screen or serial port (nobody sits there)"


@pytest.mark.parametrize("text, message, key", [
    (BOT + "buttons = { prev = 5, next = 6, ok = 13 }\n",
     f"table.toml:2: seat 1 (\"Black\"): bot: {BOT_RULE}; remove 'buttons' or 'bot'", "seat[1].bot"),
    (BOT + 'screen = { driver = "ssd1306", bus = "i2c" }\n',
     f"table.toml:2: seat 1 (\"Black\"): bot: {BOT_RULE}; remove 'screen' or 'bot'", "seat[1].bot"),
    ('\n[[seat]]\nname = "Pod"\nserial = { port = "/dev/ttyACM0" }\nbuttons = { prev = 5, next = 6, ok = 13 }\n',
     "table.toml:2: seat 1 (\"Pod\"): serial: a serial seat has no buttons, encoder or screen (its pod has its own); "
     "remove 'buttons' or 'serial'", "seat[1].serial"),
    (spi_seat(", gpio_light = 12", 'driver = "sh1106", bus = "spi"'),
     'table.toml:2: seat 1 ("A"): screen.gpio_light: sh1106 has no backlight; only ili9341, st7789 do',
     "seat[1].screen.gpio_light"),
    ('\n[[seat]]\nname = "A\\u2028B\\u2029"\n',
     "table.toml:2: seat 1: name: must not hold control characters ('\\u2028', '\\u2029')", "seat[1].name"),
])
def test_what_a_bot_a_pod_or_a_seat_screen_cannot_have_and_a_name_that_breaks_lines_are_refused(text, message, key):
    error = rejected(text)
    assert (str(error), error.key) == (message, key)


def test_text_without_a_file_is_named_as_such_and_a_small_panel_keeps_its_size():
    with pytest.raises(TableConfigError) as caught:
        parse_table("x")
    assert str(caught.value).startswith("<string>:1: invalid TOML")
    small = parse_table(i2c_seat(", width = 64, height = 48")).seats[0].screen
    assert (small.width, small.height) == (64, 48)
