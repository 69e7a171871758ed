"""The table page's address and QR code on the public screen: readable at each panel's size,
on the start page and beside the rules help, never in place of a prompt."""

from __future__ import annotations

import pytest

pytest.importorskip("segno", reason="the page's QR code needs the web extra (pip install 'courtier[web]')")

from PIL import Image  # noqa: E402

from engine.match import Match  # noqa: E402
from firmware.bots import RandomBot  # noqa: E402
from firmware.public import PublicDisplay, PublicTable  # noqa: E402
from firmware.public import qr  # noqa: E402
from firmware.public.layout import ADDRESS_SECONDS, Layout  # noqa: E402
from firmware.public.snapshot import Snapshot  # noqa: E402
from firmware.table.faces import lines_of  # noqa: E402
from firmware.table.runtime import Runtime  # noqa: E402
from firmware.testing import FakeClock, post  # noqa: E402
from hardware.factory import open_table  # noqa: E402
from hardware.table import EMULATOR_PUBLIC_SCREEN, ScreenConfig, emulator_table  # noqa: E402

URL = "http://192.168.1.20:8080/"
LONG_URL = "http://192.168.100.200:18080/"
# Every kind of public screen the table file takes, at the sizes that matter.
PANELS = {
    "ssd1306 128x64": ((128, 64), "1"),
    "ssd1322 256x64": ((256, 64), "1"),
    "ili9341 320x240": ((320, 240), "RGB"),
    "st7789 240x240": ((240, 240), "RGB"),
    "sh1106 128x128": ((128, 128), "1"),
}
NAMES = ("Red", "Blue", "Green")


def snapshot(address=URL, actions=0, helping=False, steps=("Red: put your four row cards face down",)):
    return Snapshot(game="tenno", title="Tenno", names=NAMES, header="Round 1, Setup", line="Arrange your rows",
                    steps=tuple(steps), pending=(0, 1, 2), public={}, result=None, actions=actions,
                    address=address, helping=helping)


def decoded(image: Image.Image) -> list[str]:
    """What a QR reader finds in the screen's pixels (zxing-cpp, as a phone's camera app would)."""
    import zxingcpp

    return [found.text for found in zxingcpp.read_barcodes(image.convert("L"))]


def address_page(layout: Layout, snap: Snapshot) -> Image.Image:
    pages = layout.pages(snap, [])
    assert pages[-1].address == snap.address
    return layout.draw(snap, pages[-1], len(pages) - 1, len(pages))


def test_the_code_holds_the_address_in_qrs_compact_mode():
    assert qr.scannable(URL) == "HTTP://192.168.1.20:8080/"
    assert qr.scannable("http://table.local:8080/x?y") == "HTTP://TABLE.LOCAL:8080/x?y"  # a path keeps its case
    assert len(qr.matrix(URL)) == 21  # version 1: the smallest symbol there is


@pytest.mark.parametrize("panel", sorted(PANELS))
@pytest.mark.parametrize("url", [URL, LONG_URL])
def test_every_public_screen_draws_a_code_a_reader_decodes_back_to_the_address(panel, url):
    pytest.importorskip("zxingcpp", reason="decoding needs zxing-cpp (the dev extra)")
    layout = Layout(*PANELS[panel])
    image = address_page(layout, snapshot(address=url))
    assert image.size == PANELS[panel][0] and image.mode == PANELS[panel][1]
    assert decoded(image) == [qr.scannable(url)]


@pytest.mark.parametrize("panel", sorted(PANELS))
def test_each_module_is_a_square_of_whole_pixels_as_segno_made_it_with_a_light_quiet_zone(panel):
    layout = Layout(*PANELS[panel])
    image = address_page(layout, snapshot())
    corner, how, words, _text = layout.address_place(URL)
    assert how is not None and how.scale >= 2 and how.border >= 1
    modules = qr.matrix(URL)
    side = len(modules) + 2 * how.border
    unscaled = image.resize((layout.width, layout.height), Image.Resampling.NEAREST).convert("L")
    pixels = unscaled.load()
    x0, y0 = corner
    for row in range(side):
        for column in range(side):
            inside = how.border <= row < side - how.border and how.border <= column < side - how.border
            dark = inside and modules[row - how.border][column - how.border]
            for dy in range(how.scale):
                for dx in range(how.scale):
                    lit = pixels[x0 + column * how.scale + dx, y0 + row * how.scale + dy] > 127
                    assert lit != dark, (row, column)
    assert "".join(words).replace(":", "") in URL.replace(":", "")  # the address in words beside the code


def test_the_start_page_and_the_rules_help_get_the_address_page_after_the_prompt_pages():
    layout = Layout(*PANELS["ssd1306 128x64"])
    plain = layout.pages(snapshot(address=""), [])
    start = layout.pages(snapshot(), [])
    assert start[:-1] == plain and start[-1].address == URL and start[-1].hold == ADDRESS_SECONDS
    assert not any(page.address for page in layout.pages(snapshot(actions=4), []))  # the game has begun
    helping = layout.pages(snapshot(actions=4, helping=True), [])
    assert helping[-1].address == URL and helping[:-1] == layout.pages(snapshot(actions=4), [])


def test_the_prompt_stays_up_first_and_the_address_page_takes_its_turn():
    with open_table(emulator_table(3, list(NAMES), public_screen=ScreenConfig(driver="ssd1306", bus="i2c", port=0)),
                    "mock") as table:
        clock = FakeClock()
        runtime = Runtime(Match.new("tenno", 3, seed=4), [seat.screen for seat in table.seats], clock=clock)
        public = PublicTable().attach(runtime)
        display = PublicDisplay(table.public_screen, clock=clock).follow(public)
        display.update()
        first = table.public_screen.image.copy()
        public.serve_page(URL)
        display.update()
        below_bar = (0, 10, 128, 64)  # the bar now counts one page more
        assert display.index == 0  # the prompt stays up
        assert table.public_screen.image.crop(below_bar).tobytes() == first.crop(below_bar).tobytes()
        assert display.pages[-1].address == URL
        while not display.pages[display.index].address:
            clock.now += display.update() or 0.0
            display.update()
        pytest.importorskip("zxingcpp", reason="decoding needs zxing-cpp (the dev extra)")
        assert decoded(table.public_screen.image) == [qr.scannable(URL)]


def test_a_seat_reading_the_rules_help_brings_the_address_page_and_reads_the_address_there_too():
    with open_table(emulator_table(3, list(NAMES), public_screen=EMULATOR_PUBLIC_SCREEN),
                    "mock") as table:
        runtime = Runtime(Match.new("tenno", 3, seed=2, options={"start_seat": 0}),
                          [seat.screen for seat in table.seats])
        public = PublicTable().attach(runtime)
        runtime.page_address = URL
        public.serve_page(URL)
        bots = [RandomBot(seat) for seat in range(3)]
        for seat in range(3):  # the rows are arranged: the game has begun
            assert runtime.submit(bots[seat].choose(runtime.match.legal_actions(seat)))
        layout = Layout(table.public_screen.size, table.public_screen.mode)
        assert public.latest().address == URL and not public.latest().helping
        assert not any(page.address for page in layout.pages(public.latest(), []))
        post(runtime, 2, "ok", "hold")  # Green: the table menu,
        post(runtime, 2, "next", times=2)
        post(runtime, 2)  # Rules help
        seat = runtime.seats[2]
        assert seat.info_kind == "help" and seat.info[-1][-2:] == ["Table page:", "192.168.1.20:8080"]
        assert public.latest().helping
        assert layout.pages(public.latest(), [])[-1].address == URL
        while seat.info_page < len(seat.info) - 1:
            post(runtime, 2, "next")
        assert "192.168.1.20:8080" in lines_of(seat.face)
        post(runtime, 2)  # Close
        assert not public.latest().helping


def test_serving_the_page_puts_its_address_on_the_public_screen_and_in_the_rules_help():
    pytest.importorskip("aiohttp", reason="the table page needs the web extra (pip install 'courtier[web]')")
    from firmware.public.web import start_page

    runtime = Runtime(Match.new("tenno", 3, seed=11), [None] * 3)
    public = PublicTable().attach(runtime)
    said: list[str] = []
    page = start_page(public, runtime, "127.0.0.1:0", out=said.append)
    try:
        url = page.urls[0]
        assert url.startswith("http://127.0.0.1:") and said[0] == f"Table page: {url}"
        assert public.latest().address == url and runtime.page_address == url
        layout = Layout(*PANELS["ssd1306 128x64"])
        pytest.importorskip("zxingcpp", reason="decoding needs zxing-cpp (the dev extra)")
        assert decoded(address_page(layout, public.latest())) == [qr.scannable(url)]
    finally:
        page.close()
