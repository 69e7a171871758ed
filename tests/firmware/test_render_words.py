"""Words on a 128x64 screen: where lines break, how pages are cut, and that no string breaks a screen."""

from __future__ import annotations

from firmware.table.render import WIDTH, font, wrap
from firmware.table.table_menu import INFO_ROWS, paginate


def test_a_files_path_breaks_after_a_slash_never_inside_a_name():
    lines = wrap("It is kept as /var/lib/courtier/games/current.unreadable-1.jsonl now.", WIDTH)
    assert lines == ["It is kept as", "/var/lib/courtier/", "games/", "current.", "unreadable-1.jsonl", "now."]
    assert all(font().getlength(line) <= WIDTH for line in lines)


def test_a_word_without_joints_is_still_cut_to_the_width():
    lines = wrap("x" * 50, WIDTH)
    assert "".join(lines) == "x" * 50 and all(font().getlength(line) <= WIDTH for line in lines)


def test_pages_hold_whole_paragraphs_and_turn_by_screens():
    short, long = "One line.", "A paragraph that needs three lines of the screen."
    assert len(wrap(long, WIDTH)) == 3
    pages = paginate([short, long, short, "x" * 200])
    assert pages[0] == [short] + wrap(long, WIDTH)  # 1 + 3 lines: one page
    assert pages[1][0] == short  # the next paragraph would not fit: it starts the next page
    assert all(len(page) <= INFO_ROWS for page in pages) and len(pages) == 4
    # A paragraph longer than a page runs on over the pages that follow, nothing lost.
    assert "".join(line for page in pages[1:] for line in page)[len(short):] == "x" * 200
