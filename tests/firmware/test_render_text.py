"""The seat screens' font and line breaking: Chinese drawn legibly, Latin compact, nothing crashes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from firmware.table.faces import Face
from firmware.table.render import (
    FONT_FILE, HEIGHT, LINE, WIDE_LINE, WIDTH, ScreenFont, fit, font, layout, render_face, screen_rows, wrap,
)

# Every screen size a table file may give a seat (hardware/table.py's modes) and the public screens.
SIZES = [(128, 64), (128, 32), (96, 16), (64, 48), (64, 32), (128, 128), (256, 64)]


def ink(text: str, line: int = WIDE_LINE) -> Image.Image:
    image = Image.new("1", (int(font().getlength(text)) + 2, line), 0)
    font().draw(ImageDraw.Draw(image), (0, 0), text, fill=1, line=line)
    return image


def test_the_cjk_font_is_shipped_in_the_package_with_its_licence():
    assert FONT_FILE.exists() and FONT_FILE.stat().st_size > 100_000
    assert (FONT_FILE.parent / "wqy-bitmapsong.COPYING").exists()
    assert "WenQuanYi" in FONT_FILE.read_text(encoding="ascii")[:2000]


def test_chinese_is_drawn_twelve_pixels_high_and_latin_stays_compact():
    f = font()
    assert f.getlength("天皇") == 24  # each hanzi 12 pixels wide
    assert f.getlength("Red") == 18  # Latin keeps the 6-pixel bitmap font
    assert f.getlength("Red 天皇") == f.getlength("Red ") + 24  # a mixed line: each run in its font
    box = ink("天皇").getbbox()
    assert box is not None and box[3] - box[1] >= 10  # hanzi are drawn, not boxes of nothing


def test_different_hanzi_draw_different_pixels_and_a_missing_glyph_draws_a_box():
    glyphs = {ch: ink(ch).tobytes() for ch in "天皇元老院帝位背后凱撒"}
    assert len(set(glyphs.values())) == len(glyphs)
    box = ink("\U000F0000").tobytes()  # private use: no font has it
    assert box == ink("\ufffd").tobytes() and box not in glyphs.values()
    assert ink("\ufffd").getbbox() is not None  # visible


@pytest.mark.parametrize("text", ["\x00", "\x1b[2J", "\ud800", "e\u0301", "\u200b", "\u2028", "\U0001F600",
                                  "\U00020000", "\ufeff"])
def test_characters_no_font_draws_become_a_visible_box(text):
    cleaned = ScreenFont.clean(text)
    if text == "e\u0301":
        assert cleaned == "é"  # composed first: the accent is drawn on its letter
    elif text in ("\U00020000", "\U0001F600"):
        assert cleaned == text  # a rare hanzi, an emoji: outside the subset, the CJK font draws its box
        assert ink(text).tobytes() == ink("\ufffd").tobytes()
    else:
        assert "\ufffd" in cleaned
    assert ink(text).getbbox() is not None


def test_an_english_face_keeps_ten_pixel_lines_and_a_chinese_one_gets_five_rows_of_twelve():
    english = Face(seat_name="Red", header="T3 Blue", panel=("Row P1 ?? P3", "Hand 2 5 X", "Prisoners 2"),
                   ask="Attack with:", choice="slot 2", position="2/3")
    assert layout(english).line == LINE and len(screen_rows(english)) == 6
    chinese = Face(seat_name="紅", header="第3回合 藍", panel=("牌列 農1 ?? 農3", "手牌 2 5 X", "俘虜 2"),
                   ask="用哪張牌攻擊？", choice="第2張", position="2/3")
    shown = layout(chinese)
    assert shown.line == WIDE_LINE and HEIGHT // WIDE_LINE == 5
    assert shown.rows() == ["紅|第3回合 藍", "牌列 農1 ?? 農3", "手牌 2 5 X", "用哪張牌攻擊？", "< 第2張 2/3"]
    image = render_face(chinese)
    assert image.size == (WIDTH, HEIGHT)
    assert image.getpixel((0, 0)) == 1 and image.getpixel((0, HEIGHT - WIDE_LINE)) == 1  # both bars drawn


def test_chinese_wraps_between_characters_in_pixels():
    text = "將你的農民依順序面朝下排成一列，其餘八張作為手牌"
    lines = wrap(text, WIDTH)
    assert "".join(lines) == text
    assert all(font().getlength(line) <= WIDTH for line in lines)
    assert len(lines[0]) == 10  # ten hanzi of twelve pixels on a 128-pixel line


def test_closing_punctuation_never_starts_a_line_and_an_opening_one_never_ends_one():
    # Ten characters fill a line exactly, so the eleventh (a comma) would start the next: it moves back.
    text = "一二三四五六七八九十，甲乙「丙丁」戊己庚辛壬癸子丑寅卯辰巳午未。"
    for width in range(40, 200, 6):
        lines = wrap(text, width)
        assert "".join(lines) == text
        for line in lines[1:]:
            assert line[0] not in "。，、」", (width, lines)
        for line in lines[:-1]:
            assert line[-1] != "「", (width, lines)


def test_latin_still_wraps_at_spaces_and_a_mixed_line_breaks_where_either_allows():
    assert wrap("Attack whom with which card today", 60) == ["Attack", "whom with", "which card", "today"]
    mixed = wrap("Red 攻擊 Blue 的第2張牌", 60)
    assert "".join(mixed).replace(" ", "") == "Red攻擊Blue的第2張牌"
    assert all(font().getlength(line) <= 60 for line in mixed)


def test_latin_punctuation_inside_a_word_is_no_place_to_break():
    # "3.5" or "e.g." is one word: the line breaks at the space before it, not inside it.
    for text in ("0 0 0 0 0 0 0 0 0000.0", "pay 3.5 thalers, e.g.(twice) now"):
        for width in range(70, 140, 4):  # wider than the longest word, "e.g.(twice)"
            lines = wrap(text, width)
            words = [w for line in lines for w in line.split()]
            assert words == text.split(), (width, lines)
    assert wrap("中文,中文", 30) == ["中文,", "中文"]  # the comma still clings to the hanzi before it


def test_a_cut_line_keeps_its_mark_and_the_counter_keeps_its_place():
    assert fit("將軍無法主動出擊但防禦時可以俘虜進攻者", 60).endswith("~")
    assert font().getlength(fit("將軍無法主動出擊但防禦時可以俘虜進攻者", 60)) <= 60
    face = Face(seat_name="紅", header="第3回合", panel=(), ask="攻擊誰？",
                choice="藍的第2張牌：農民3（已看過）再加更多字", position="12/15")
    shown = layout(face)
    assert shown.choice.endswith("~") and shown.position == "12/15"
    assert font().getlength(shown.choice) <= WIDTH - 10 - font().getlength("12/15") - 2


faces = st.builds(
    Face,
    seat_name=st.text(max_size=12), header=st.text(max_size=30), panel=st.lists(st.text(max_size=40), max_size=6),
    ask=st.text(max_size=80), choice=st.text(max_size=40), position=st.text(max_size=8),
    notice=st.text(max_size=40),
).map(lambda f: Face(f.seat_name, f.header, tuple(f.panel), f.ask, f.choice, f.position, notice=f.notice))
# Every code point, surrogates and controls included, with Chinese and combining marks made likely.
any_char = st.one_of(st.characters(codec=None, categories=None), st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
                     st.characters(categories=("Mn", "Me", "Cc", "Cf", "Cs")))
any_text = st.text(alphabet=any_char, max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(face=faces, size=st.sampled_from(SIZES), words=any_text)
def test_any_unicode_on_any_screen_size_draws_without_an_exception(face, size, words):
    face = Face(face.seat_name + words[:5], face.header, face.panel + (words,), words or face.ask,
                face.choice, face.position, notice=face.notice)
    image = render_face(face, size)
    assert image.size == size and image.mode == "1"
    rows = screen_rows(face, size)
    assert all(font().getlength(row) <= size[0] + 20 for row in rows)  # cut to the width (arrows aside)
    for width in (8, 40, size[0]):
        lines = wrap(words, width)
        assert all(font().getlength(line) <= width for line in lines if len(line) > 1)
        assert font().getlength(fit(words, width)) <= max(width, font().getlength("~") + 12)


@pytest.mark.skipif(not Path("/usr/share/fonts/X11/misc/wenquanyi_9pt.pcf").exists(),
                    reason="the source font is not installed (sudo apt-get install xfonts-wqy)")
def test_the_shipped_font_is_what_make_font_makes_from_the_source(tmp_path):
    out = tmp_path / "font.bdf"
    tool = Path(__file__).resolve().parents[2] / "tools" / "make_font.py"
    subprocess.run([sys.executable, str(tool), "/usr/share/fonts/X11/misc/wenquanyi_9pt.pcf", str(out)],
                   check=True, capture_output=True)
    assert out.read_bytes() == FONT_FILE.read_bytes(), "the shipped font is stale: run make font"


def test_a_seat_named_in_chinese_gets_its_self_test_card():
    from firmware.selftest import _card

    plain = _card((128, 64), "1", "Red", "press OK")
    named = _card((128, 64), "1", "紅方", "按下 OK 鍵")
    assert plain.tobytes() != named.tobytes() and named.crop((40, 0, 128, 64)).getbbox() is not None


def test_a_control_character_in_the_choice_position_draws_as_a_box():
    """The position is cut to the box at U+FFFD, which only the CJK font has, on an otherwise Latin face."""
    face = Face(seat_name="", header="", panel=(), ask="", choice="0", position="\x1f")
    image = render_face(face, (128, 64))
    assert image.size == (128, 64) and image.getbbox() is not None
