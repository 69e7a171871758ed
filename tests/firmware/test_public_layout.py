"""The public screen's layout: pages for each screen size and mode, whole words, reading time, seat colours."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.public.layout import MIN_HOLD_SECONDS, Layout, count_words, hold_seconds
from firmware.public.colours import COLOURS, seat_colour, seat_colours
from firmware.public.snapshot import Snapshot
from firmware.table.render import font
from hardware.table import _MODES

OLED, SSD1322, TFT = ((128, 64), "1"), ((256, 64), "1"), ((320, 240), "RGB")
NAMES = ("Red", "Blue", "Green")


def snapshot(line="Blue attacks", steps=(), pending=(1,), header="Round 1, Battle", result=None,
             names=NAMES, log=()):
    return Snapshot(game="tenno", title="Tenno", names=names, header=header, line=line, steps=tuple(steps),
                    pending=tuple(pending), public={}, result=result, log=tuple(log), serial=1,
                    noted=len(log), colours=seat_colours(names))


def test_a_page_is_held_for_a_glance_and_its_words_at_the_documented_reading_speed():
    assert hold_seconds(0) == MIN_HOLD_SECONDS
    assert hold_seconds(30) == pytest.approx(1.5 + 9.0)  # 30 words at 200 a minute
    assert count_words("Red's Samurai 8 goes face down") == 6
    assert count_words("把红方的武士8面朝下放") == 11  # each CJK character counts as a word


def test_the_screen_size_decides_the_scale_and_whether_events_get_a_region():
    oled, wide, tft, square = Layout(*OLED), Layout(*SSD1322), Layout(*TFT), Layout((128, 128), "1")
    assert (oled.scale, oled.main_rows, oled.event_rows) == (1, 5, 0)
    assert (wide.scale, wide.main_rows, wide.event_rows) == (1, 5, 0)
    assert (tft.scale, tft.width, tft.height, tft.main_rows, tft.event_rows) == (2, 160, 120, 7, 3)
    assert (square.scale, square.main_rows, square.event_rows) == (1, 7, 4)


# Words no wider than the narrowest line (a 64-pixel screen behind a step's number): a longer
# word has to be broken somewhere, and `test_a_word_longer_than_a_line_is_the_only_one_broken` covers it.
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC'.,:0123456789", min_size=1, max_size=7)
TEXT = st.lists(WORD, min_size=1, max_size=30).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(line=TEXT, steps=st.lists(TEXT, max_size=8), events=st.lists(TEXT, max_size=6),
       device=st.sampled_from([OLED, SSD1322, TFT, ((64, 32), "1"), ((128, 128), "1")]))
def test_every_step_and_event_is_on_the_pages_whole_in_order_and_never_cut_mid_word(line, steps, events, device):
    layout = Layout(*device)
    snap = snapshot(line=line, steps=steps)
    step_pages, event_pages = layout.step_pages(snap), layout.event_pages(events)
    rows = [row for page in step_pages + event_pages for row in page]
    # Each block's rows, joined, give back its words exactly and in order: no word is cut or lost.
    blocks: list[list[str]] = []
    for row in rows:
        if row.mark or not blocks:
            blocks.append([])
        blocks[-1].append(row.text)
    assert [" ".join(b).split() for b in blocks] == [t.split() for t in [line, *steps, *events]]
    # A line fits its width (a single word longer than a whole line is the only exception).
    for row in rows:
        assert font().getlength(row.text) + row.indent <= layout.width or len(row.text.split()) == 1
    # A block that fits on one page is never split across two.
    for pages, room in ((step_pages, layout.main_rows), (event_pages, layout.event_rows or layout.main_rows)):
        assert all(len(page) <= room for page in pages)
        spans: list[set[int]] = []  # the pages each block is on
        for number, page in enumerate(pages):
            for row in page:
                if row.mark or not spans:
                    spans.append(set())
                spans[-1].add(number)
        lengths = []
        for page in pages:
            for row in page:
                if row.mark or not lengths:
                    lengths.append(0)
                lengths[-1] += 1
        assert all(len(on) == 1 or length > room for on, length in zip(spans, lengths))
    # The screen's pages: every step page and every event page comes up.
    pages = layout.pages(snap, events)
    assert {p.main for p in pages} >= (set(step_pages) if layout.event_rows else set())
    if layout.event_rows:
        assert {p.events for p in pages} == (set(event_pages) or {()})
    else:
        assert [p.main for p in pages] == step_pages + event_pages


def test_a_step_that_fits_a_page_is_kept_whole_on_the_next_page_rather_than_split():
    layout = Layout(*OLED)
    long_step = "Put every thaler marker on 7 and the round marker on round 1 of the track"  # 4 lines
    pages = layout.pages(snapshot(line="Setup", steps=("Sort the cards", long_step)), [])
    assert [[row.text for row in page.main] for page in pages] == [
        ["Setup", "Sort the cards"],
        ["Put every thaler", "marker on 7 and", "the round marker", "on round 1 of the", "track"],
    ]
    assert [row.mark for row in pages[1].main] == ["2.", "", "", "", ""]


def test_a_word_longer_than_a_line_is_the_only_one_broken():
    layout = Layout((64, 32), "1")  # 10 characters a line, 2 rows a page
    pages = layout.step_pages(snapshot(line="Undeniably incomprehensible"))
    assert [[row.text for row in page] for page in pages] == [["Undeniably", "incomprehe"], ["nsible"]]


def test_on_a_64_pixel_screen_the_events_follow_the_steps_on_pages_of_their_own():
    pages = Layout(*SSD1322).pages(snapshot(line="Red attacks", steps=("Blue: turn your slot 2 face up",)),
                                   ["Red passes", "Blue refills slot 2"])
    assert [[(row.kind, row.mark, row.text) for row in page.main] for page in pages] == [
        [("prompt", "", "Red attacks"), ("step", "1.", "Blue: turn your slot 2 face up")],
        [("event", "-", "Red passes"), ("event", "-", "Blue refills slot 2")],
    ]


def test_a_tall_screen_turns_its_event_pages_beside_its_step_pages():
    layout = Layout(*TFT)
    events = [f"Event number {n} happened to the table" for n in range(9)]
    pages = layout.pages(snapshot(steps=("Blue: turn your slot 2 face up",)), events)
    assert len({page.main for page in pages}) == 1  # one page of steps, kept up
    assert [page.events for page in pages] == layout.event_pages(events)
    assert len(pages) > 1 and all(page.hold >= MIN_HOLD_SECONDS for page in pages)


def test_the_top_bar_carries_the_round_and_phase_and_the_page_counter():
    layout = Layout(*OLED)
    snap = snapshot(header="Round 2, Phase IV")
    page = layout.pages(snap, [])[0]
    one, two = layout.draw(snap, page, 0, 1), layout.draw(snap, page, 1, 3)
    assert one.mode == "1" and one.size == (128, 64)
    bar = (0, 0, 128, 10)
    assert one.crop(bar).tobytes() != two.crop(bar).tobytes()  # "2/3" drawn in the bar
    assert one.crop((0, 10, 128, 64)).tobytes() == two.crop((0, 10, 128, 64)).tobytes()


def test_on_a_colour_screen_seat_names_take_their_colours_and_the_bar_the_deciding_seats():
    layout = Layout(*TFT)
    snap = snapshot(line="Green must answer", steps=("Green: turn your slot 3 face up",), pending=(2,))
    image = layout.draw(snap, layout.pages(snap, [])[0])
    assert image.mode == "RGB" and image.size == (320, 240)
    colours = set(image.getdata())
    green = COLOURS["green"].screen
    assert green in colours
    assert image.getpixel((1, 1)) == green  # the bar: Green decides
    assert COLOURS["red"].screen not in colours


def test_a_seat_not_named_after_a_colour_gets_a_spare_one_by_its_number_and_black_shows_on_black():
    assert seat_colours(["Ann", "Bo", " yellow ", "Black"]) == ("red", "blue", "yellow", "black")
    assert seat_colours(["Red", "Ann", "Bo"]) == ("red", "green", "yellow")  # never a named seat's colour
    assert seat_colour(("red", "blue"), 3) == COLOURS["yellow"]  # a seat the snapshot has no colour for
    assert COLOURS["black"].screen != (0, 0, 0) and COLOURS["white"].page != "#ffffff"


@pytest.mark.parametrize("driver, size", sorted((d, s) for d, modes in _MODES.items() for s in modes))
def test_every_mode_a_public_screen_may_have_gets_pages_of_its_size_and_mode(driver, size):
    from hardware.table import ScreenConfig

    mode = ScreenConfig(driver=driver).mode
    layout = Layout(size, mode)
    snap = snapshot(line="Blue attacks Red's slot 3", steps=("Blue: turn your slot 2 face up",) * 3,
                    log=("Red passes",), result={"scores": {"0": 15, "1": 11}})
    pages = layout.pages(snap, ["Red passes"])
    for number, page in enumerate(pages):
        image = layout.draw(snap, page, number, len(pages))
        assert image.size == size and image.mode == mode
        assert image.getbbox() is not None


def test_the_scores_are_shown_once_the_game_is_over():
    layout = Layout(*SSD1322)
    pages = layout.pages(snapshot(line="Game over", result={"scores": {"0": 15, "1": 11, "2": 10}}), [])
    assert "Scores: Red 15, Blue 11, Green 10" in " ".join(row.text for page in pages for row in page.main)


def test_strange_text_never_breaks_a_page():
    layout = Layout(*TFT)
    snap = snapshot(line="\x00\ufffd" + "x" * 300, steps=("", "  ", "👑 Emperor 皇帝"), names=("", "Blue", "Blue"))
    for page in layout.pages(snap, ["", "\n"]):
        assert layout.draw(snap, page).size == (320, 240)


def test_a_snapshot_in_chinese_gets_the_taller_rows_and_its_hanzi_drawn_whole():
    from PIL import Image, ImageDraw

    from firmware.table.render import LINE, WIDE_LINE

    layout = Layout(*OLED)
    latin = snapshot()
    chinese = snapshot(line="藍攻擊紅", steps=("藍：把第2張牌翻開",), header="第1回合")
    assert {p.line for p in layout.pages(latin, [])} == {LINE}
    pages = layout.pages(chinese, [])
    assert {p.line for p in pages} == {WIDE_LINE} and layout.rows(WIDE_LINE) == (4, 0)
    image = layout.draw(chinese, pages[0])
    # The prompt's first row, below the 12-pixel bar, is the hanzi as the screen font draws them.
    expected = Image.new("1", (128, WIDE_LINE))
    font().draw(ImageDraw.Draw(expected), (0, 0), "藍攻擊紅", fill=1, line=WIDE_LINE)
    assert image.crop((0, WIDE_LINE, 128, 2 * WIDE_LINE)).tobytes() == expected.tobytes()


def test_a_chinese_table_draws_each_seat_in_the_colour_an_english_one_does():
    """Colours follow the seats' untranslated names: Yellow is yellow on a 简体中文 TFT too."""
    from engine import i18n
    from engine.match import Match
    from firmware.bots import RandomBot
    from firmware.public import PublicTable

    match = Match.new("quovadis", 5, seed=3)
    bots = [RandomBot(seat) for seat in range(5)]
    while match.pending() != [2]:  # Yellow must decide
        seat = match.pending()[0]
        match.apply(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))
    layout, bars = Layout(*TFT), []
    for lang in (None, "zh_Hans"):
        i18n.set_language(lang)
        snap = PublicTable().build(match)
        image = layout.draw(snap, layout.pages(snap, [])[0])
        bars.append(image.getpixel((1, 1)))
    assert snap.names[2] == "黄"
    assert bars == [COLOURS["yellow"].screen] * 2
