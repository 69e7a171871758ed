"""Tests for hardware.mux: panels behind a TCA9548A on one shared bus."""

import errno
import threading
from importlib.resources import files
from pathlib import Path

import luma.core.error
import pytest
from luma.oled.device import ssd1306
from PIL import Image, ImageDraw

from hardware import mux as mux_module
from hardware.errors import ScreenError
from hardware.factory import open_table
from hardware.mux import I2CBuses, MuxChannel, SharedBus
from hardware.screens import open_screen
from hardware.table import ScreenConfig, load_table

TABLES = Path(str(files("hardware.tables")))


class RecordingBus:
    """Stands in for smbus2's SMBus: keeps every write, with the thread that made it.

    Args:
        absent: Addresses that do not answer (their writes raise EREMOTEIO, as
            the kernel does when nobody acknowledges).
        on_write: Called with each write before it is recorded; tests use it
            to hold a transfer open.
    """

    def __init__(self, absent=(), on_write=None):
        self.writes = []
        self.absent = set(absent)
        self.on_write = on_write
        self.closed = False

    def write_byte(self, address, value):
        self._write(("byte", address, value))

    def write_i2c_block_data(self, address, register, data):
        assert len(data) <= 32, "SMBus block writes carry at most 32 bytes"
        self._write(("block", address, register, bytes(data)))

    def i2c_rdwr(self, *messages):
        for message in messages:
            data = bytes(message)
            self._write(("rdwr", message.addr, data[0], data[1:]))

    def close(self):
        self.closed = True

    def _write(self, entry):
        if self.on_write is not None:
            self.on_write(entry)
        if entry[1] in self.absent:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.writes.append((threading.current_thread().name, entry))

    def entries(self):
        return [entry for _, entry in self.writes]


def frame(box):
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle(box, fill=1)
    return image


def test_command_selects_the_channel_then_sends_luma_command_bytes():
    """A command goes out as: 1 << channel to the mux, then 0x00 and the command bytes to the panel."""
    bus = RecordingBus()
    panel = SharedBus(bus, port=1).mux(0x70).channel(3, address=0x3C)
    panel.command(0xAE, 0xD5, 0x80)
    assert bus.entries() == [
        ("byte", 0x70, 0x08),
        ("block", 0x3C, 0x00, bytes([0xAE, 0xD5, 0x80])),
    ]


def test_data_goes_in_one_message_after_0x40():
    """Display data is one i2c_rdwr message after 0x40, as luma's managed i2c sends it, not 32-byte blocks."""
    bus = RecordingBus()
    panel = SharedBus(bus, port=1).mux(0x71).channel(0, address=0x3D)
    payload = bytes(range(70))
    panel.data(list(payload))
    assert bus.entries() == [("byte", 0x71, 0x01), ("rdwr", 0x3D, 0x40, payload)]


def test_a_window_goes_in_one_message_after_the_select():
    """A partial update's addressing and data: one i2c_rdwr message, each command byte after 0x80, then 0x40."""
    bus = RecordingBus()
    panel = SharedBus(bus, port=1).mux(0x70).channel(5)
    panel.window((0x21, 4, 9, 0x22, 2, 3), bytes(range(12)))
    message = bytes([0x80, 0x21, 0x80, 4, 0x80, 9, 0x80, 0x22, 0x80, 2, 0x80, 3, 0x40, *range(12)])
    assert bus.entries() == [("byte", 0x70, 0x20), ("rdwr", 0x3C, message[0], message[1:])]


def test_a_window_refused_by_the_panel_makes_the_next_transfer_select_again():
    bus = RecordingBus(absent={0x3C})
    panel = SharedBus(bus, port=1).mux(0x70).channel(2)
    with pytest.raises(OSError):
        panel.window((0xB0, 2, 0x10), b"\x01")
    bus.absent.clear()
    panel.window((0xB0, 2, 0x10), b"\x01")
    assert [e for e in bus.entries() if e[0] == "byte"] == [("byte", 0x70, 0x04), ("byte", 0x70, 0x04)]


def test_a_panel_on_a_port_of_its_own_sends_a_window_in_one_message_to_its_address():
    from hardware.panel_i2c import PanelI2C, window_message

    bus = RecordingBus()
    panel = PanelI2C(bus=bus, address=0x3D)
    panel.window((0xB1, 0x02, 0x10), b"\x07\x08")
    message = window_message((0xB1, 0x02, 0x10), b"\x07\x08")
    assert bus.entries() == [("rdwr", 0x3D, message[0], message[1:])]


def test_data_longer_than_a_message_goes_in_several():
    bus = RecordingBus()
    panel = SharedBus(bus, port=1).mux(0x70).channel(1)
    payload = bytes(n % 256 for n in range(5000))
    panel.data(list(payload))
    assert bus.entries()[1:] == [("rdwr", 0x3C, 0x40, payload[:4096]), ("rdwr", 0x3C, 0x40, payload[4096:])]


def test_no_reselect_while_the_channel_is_unchanged():
    """Transfers to the channel already joined send no select; another channel's do."""
    bus = RecordingBus()
    mux = SharedBus(bus, port=1).mux(0x70)
    two, five = mux.channel(2), mux.channel(5)
    two.command(0xAF)
    two.command(0xA4)
    five.command(0xAF)
    two.command(0xAE)
    selects = [entry for entry in bus.entries() if entry[0] == "byte"]
    assert selects == [("byte", 0x70, 0x04), ("byte", 0x70, 0x20), ("byte", 0x70, 0x04)]
    assert len(bus.entries()) == 7


def test_selecting_on_one_mux_switches_the_other_off():
    """With two multiplexers on a bus, the other is switched off before a channel is joined.

    At first nobody knows what the other one has joined (a previous run may
    have left a channel on), so it is switched off then too.
    """
    bus = RecordingBus()
    shared = SharedBus(bus, port=1)
    first = shared.mux(0x70).channel(1)
    second = shared.mux(0x71).channel(1)
    first.command(0xAF)
    second.command(0xAF)
    first.command(0xAE)
    assert [e for e in bus.entries() if e[0] == "byte"] == [
        ("byte", 0x71, 0x00), ("byte", 0x70, 0x02),
        ("byte", 0x70, 0x00), ("byte", 0x71, 0x02),
        ("byte", 0x71, 0x00), ("byte", 0x70, 0x02),
    ]


def test_real_ssd1306_frame_through_the_mux_matches_luma_bytes():
    """An ssd1306 drawing one frame sends a 6-byte window and its 1024 data bytes in one message."""
    bus = RecordingBus()
    panel = SharedBus(bus, port=1).mux(0x70).channel(6)
    device = ssd1306(panel)
    init = bus.entries()
    assert init[0] == ("byte", 0x70, 0x40)
    assert [e for e in init if e[0] == "byte"] == [init[0]]     # selected once for the whole init
    bus.writes.clear()
    device.display(frame((0, 0, 9, 9)))
    entries = bus.entries()
    assert entries[0][:3] == ("block", 0x3C, 0x00)               # already selected: no select byte
    assert len(entries[0][3]) == 6
    data = [e for e in entries if e[2] == 0x40]
    assert len(data) == 1 and data[0][0] == "rdwr" and len(data[0][3]) == 1024
    device.persist = True


def test_missing_panel_raises_and_forgets_the_selection():
    """A panel that does not acknowledge raises luma's DeviceNotFoundError; the next transfer selects again."""
    bus = RecordingBus(absent={0x3C})
    panel = SharedBus(bus, port=1).mux(0x70).channel(4)
    with pytest.raises(luma.core.error.DeviceNotFoundError, match="0x3C"):
        panel.command(0xAE)
    bus.absent.clear()
    panel.command(0xAE)
    assert bus.entries() == [("byte", 0x70, 0x10), ("byte", 0x70, 0x10),
                             ("block", 0x3C, 0x00, bytes([0xAE]))]


def test_missing_mux_names_its_port_and_address():
    """A multiplexer that does not answer is reported by port and address."""
    bus = RecordingBus(absent={0x70})
    panel = SharedBus(bus, port=1).mux(0x70).channel(4)
    with pytest.raises(luma.core.error.DeviceNotFoundError,
                       match="multiplexer not found on port 1 address 0x70"):
        panel.command(0xAE)
    assert bus.entries() == []


def test_channel_outside_0_to_7_is_refused():
    """A TCA9548A has eight channels."""
    with pytest.raises(ValueError, match="channels 0 to 7, not 8"):
        SharedBus(RecordingBus(), port=1).mux(0x70).channel(8)


def test_closed_channel_refuses_transfers():
    """After cleanup a channel sends nothing, so luma's exit hook cannot wake a released panel."""
    bus = RecordingBus()
    shared = SharedBus(bus, port=1)
    keep = shared.mux(0x70).channel(0)
    gone = shared.mux(0x70).channel(1)
    gone.cleanup()
    gone.cleanup()
    with pytest.raises(luma.core.error.DeviceNotFoundError, match="closed"):
        gone.command(0xAE)
    keep.command(0xAF)
    assert bus.entries() == [("byte", 0x70, 0x01), ("block", 0x3C, 0x00, bytes([0xAF]))]


def test_buses_share_one_smbus_per_port_and_close_it_after_the_last_panel():
    """I2CBuses opens a port once for all its panels, and switches the mux off and closes it after the last."""
    opened = []

    def open_bus(port):
        opened.append(port)
        return RecordingBus()

    buses = I2CBuses(open_bus)
    first = buses.channel(1, 0x70, 0)
    second = buses.channel(1, 0x70, 1)
    other = buses.channel(3, 0x70, 0)
    assert opened == [1, 3]
    assert first.mux is second.mux and first._bus is second._bus
    assert isinstance(first, MuxChannel)
    first.command(0xAF)
    smbus = first._bus
    first.cleanup()
    assert not smbus.closed
    second.cleanup()
    assert smbus.closed
    assert smbus.entries()[-1] == ("byte", 0x70, 0x00)
    again = buses.channel(1, 0x70, 0)
    assert opened == [1, 3, 1] and again._bus is not smbus
    other.cleanup()
    again.cleanup()


def test_one_transfer_holds_the_bus_until_it_is_done():
    """While one seat's transfer is under way, another seat waiting for the bus sends nothing."""
    inside = threading.Event()
    go = threading.Event()
    waiting = threading.Event()

    class WatchedLock:
        """A lock that says when a thread starts waiting for it."""

        def __init__(self):
            self._lock = threading.Lock()

        def __enter__(self):
            if threading.current_thread().name == "blue":
                waiting.set()
            self._lock.acquire()
            return self

        def __exit__(self, *exc_info):
            self._lock.release()

    def hold_red_open(entry):
        if threading.current_thread().name == "red" and entry[0] == "rdwr":
            inside.set()
            assert go.wait(5)

    bus = RecordingBus(on_write=hold_red_open)
    shared = SharedBus(bus, port=1, lock=WatchedLock())
    red, blue = shared.mux(0x70).channel(0), shared.mux(0x70).channel(1)
    red_thread = threading.Thread(target=red.data, args=([1] * 40,), name="red")
    blue_thread = threading.Thread(target=blue.data, args=([2] * 40,), name="blue")
    red_thread.start()
    assert inside.wait(5)
    blue_thread.start()
    assert waiting.wait(5)
    assert [name for name, _ in bus.writes] == ["red"]        # only red's select so far
    go.set()
    red_thread.join(5)
    blue_thread.join(5)
    assert bus.entries() == [
        ("byte", 0x70, 0x01), ("rdwr", 0x3C, 0x40, bytes([1] * 40)),
        ("byte", 0x70, 0x02), ("rdwr", 0x3C, 0x40, bytes([2] * 40)),
    ]


def test_two_threads_drawing_never_write_to_the_wrong_channel():
    """Two seats drawing at once: every panel write goes out while that seat's own channel is selected."""
    bus = RecordingBus()
    shared = SharedBus(bus, port=1)
    panels = {"seat0": shared.mux(0x70).channel(0), "seat5": shared.mux(0x70).channel(5)}
    start = threading.Barrier(2)

    def draw(name):
        start.wait(5)
        for n in range(50):
            panels[name].command(0xB0 + n % 8)
            panels[name].data([n] * 40)

    threads = [threading.Thread(target=draw, args=(name,), name=name) for name in panels]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    selected = None
    owner = {1 << 0: "seat0", 1 << 5: "seat5"}
    counts = {"seat0": 0, "seat5": 0}
    for name, entry in bus.writes:
        if entry[0] == "byte":
            selected = owner[entry[2]]
            assert name == selected
        else:
            assert name == selected, f"{name} wrote while {selected}'s channel was joined"
            counts[name] += 1
    assert counts == {"seat0": 100, "seat5": 100}


@pytest.fixture
def fake_smbus(monkeypatch):
    """Make I2CBuses open RecordingBus objects instead of /dev/i2c-N; returns those opened."""
    opened = {}

    def open_bus(port):
        opened[port] = RecordingBus()
        return opened[port]

    monkeypatch.setattr(mux_module, "_open_smbus", open_bus)
    return opened


def test_pi_table_drives_seven_panels_through_one_mux_on_one_bus(fake_smbus, mock_pins):
    """The pi backend opens bus 1 once for pi-7.toml, and each seat's init goes out after its own select."""
    with open_table(load_table(TABLES / "pi-7.toml"), "pi", pin_factory=mock_pins) as table:
        assert list(fake_smbus) == [1]
        bus = fake_smbus[1]
        selects = [e for e in bus.entries() if e[0] == "byte"]
        assert selects == [("byte", 0x70, 1 << channel) for channel in range(7)]
        assert {e[1] for e in bus.entries() if e[0] != "byte"} == {0x3C}
        interfaces = [seat.screen.interface for seat in table.seats]
        assert all(isinstance(i, MuxChannel) for i in interfaces)
        assert len({id(i.mux) for i in interfaces}) == 1
        bus.writes.clear()
        table.seats[2].screen.show(frame((0, 0, 20, 20)))
        assert bus.entries()[0] == ("byte", 0x70, 0x04)
        assert len(bus.entries()) == 1 + 1        # select; the window's commands and the changed box in one message
    assert bus.closed
    assert bus.entries()[-1] == ("byte", 0x70, 0x00)


def test_pi_screen_behind_mux_that_is_missing_names_the_channel():
    """A panel that does not answer behind the mux fails at open with its port, address, mux and channel."""
    config = ScreenConfig(address=0x3C, mux=0x70, channel=5)
    buses = I2CBuses(lambda port: RecordingBus(absent={0x3C}))
    with pytest.raises(ScreenError) as caught:
        open_screen(config, "pi", label='seat 6 ("White")', buses=buses)
    assert str(caught.value) == ('seat 6 ("White") screen ssd1306 on i2c port 1 address 0x3c '
                                 "behind mux 0x70 channel 5: I2C device not found on address: 0x3C")


def test_pi_screen_without_i2c_says_to_turn_it_on(monkeypatch):
    """No /dev/i2c-1 is reported as I2C being off, not as a missing panel."""
    import smbus2

    def no_bus(port):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/i2c-{port}")

    monkeypatch.setattr(smbus2, "SMBus", no_bus)
    with pytest.raises(ScreenError, match=r"I2C bus not found: /dev/i2c-1 \(is I2C enabled"):
        open_screen(ScreenConfig(mux=0x70, channel=0), "pi", label="seat 1")
