"""Each seat reads its own language, picked at the table; the choice is kept with the game."""

from __future__ import annotations

import json

import pytest

from engine.i18n import LANGUAGES
from engine.match import Match
from firmware.table import journal as journals
from firmware.table.runtime import Runtime
from firmware.table.session import open_session
from firmware.testing import face_text, post
from hardware.table import TABLE_LANGUAGES, parse_table

RED, BLUE, GREEN = 0, 1, 2


def choose_language(runtime, seat, lang):
    """Hold ok to open the table menu, walk to Language, then to `lang` (None: the table's), as a player would."""
    post(runtime, seat, "ok", "hold")
    post(runtime, seat, "next", times=3)          # undo, scores, help, language
    assert runtime.seats[seat].face.choice in ("Language", "語言", "语言")
    post(runtime, seat)
    post(runtime, seat, "next", times=list(LANGUAGES).index(lang) if lang else len(LANGUAGES))
    assert runtime.seats[seat].face.choice == (LANGUAGES[lang] if lang else TABLES_LANGUAGE[
        runtime.seats[seat].language or "en"])  # each language named in its own words
    post(runtime, seat)


TABLES_LANGUAGE = {"en": "The table's language", "zh_Hant": "牌桌的語言", "zh_Hans": "牌桌的语言"}


def test_a_seat_picks_its_language_at_the_table_and_only_its_screen_changes(mock_table, tmp_path):
    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    journal = journals.Journal.create(tmp_path / "current.jsonl", match.header)
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats], journal)
    before = {seat: runtime.seats[seat].face for seat in (RED, GREEN)}
    images = {seat: mock_table.seats[seat].screen.device.image.tobytes() for seat in (RED, GREEN)}
    choose_language(runtime, BLUE, "zh_Hant")
    assert "排定農民順序：" in face_text(runtime, BLUE) and "[藍]" in face_text(runtime, BLUE)
    assert "Order your peasants:" in face_text(runtime, RED)
    assert {seat: runtime.seats[seat].face for seat in (RED, GREEN)} == before
    assert {seat: mock_table.seats[seat].screen.device.image.tobytes() for seat in (RED, GREEN)} == images
    # Mid-game, another language again; the game itself is untouched by either choice.
    for seat in (RED, BLUE, GREEN):
        post(runtime, seat)
    choose_language(runtime, BLUE, "zh_Hans")
    # Red attacks first: Blue waits for Red, in Blue's new language, and is asked nothing.
    blue = face_text(runtime, BLUE)
    assert blue.splitlines()[-1] == "等待红" and "用哪张出战：" not in blue
    assert face_text(runtime, RED).splitlines()[-2] == "Attack with:"
    journal.close()
    records = [json.loads(line) for line in (tmp_path / "current.jsonl").read_text().splitlines()]
    assert [r for r in records if r["type"] == "language"] == [
        {"type": "language", "seat": BLUE, "lang": "zh_Hant"}, {"type": "language", "seat": BLUE, "lang": "zh_Hans"}]
    loaded = journals.load(tmp_path / "current.jsonl")
    assert loaded.languages == {BLUE: "zh_Hans"} and loaded.actions == runtime.match.actions
    assert Match.replay(loaded.header, loaded.actions).to_data() == runtime.match.to_data()


def test_a_restarted_table_gives_each_seat_back_its_language(mock_table, tmp_path):
    session = open_session(tmp_path, "tenno", 3, seed=2)
    runtime = Runtime(session.match, [seat.screen for seat in mock_table.seats], session.journal)
    choose_language(runtime, GREEN, "zh_Hans")
    post(runtime, RED)
    session.journal.close()
    again = open_session(tmp_path, "tenno", 3)
    assert again.resumed and again.languages == {GREEN: "zh_Hans"}
    restarted = Runtime(again.match, [seat.screen for seat in mock_table.seats], again.journal,
                        languages=again.languages)
    assert "[绿]" in face_text(restarted, GREEN) and "[Red]" in face_text(restarted, RED)
    again.journal.close()


def test_going_back_to_the_tables_language_is_kept_and_survives_a_restart(mock_table, tmp_path):
    session = open_session(tmp_path, "tenno", 3, seed=2)
    runtime = Runtime(session.match, [seat.screen for seat in mock_table.seats], session.journal)
    choose_language(runtime, GREEN, "zh_Hans")
    choose_language(runtime, BLUE, "zh_Hant")
    assert "[绿]" in face_text(runtime, GREEN)
    choose_language(runtime, GREEN, None)  # asked in its own language: 牌桌的语言
    assert runtime.seats[GREEN].language is None and "[Green]" in face_text(runtime, GREEN)
    session.journal.close()
    records = [json.loads(line) for line in (tmp_path / "current.jsonl").read_text().splitlines()]
    assert records[-1] == {"type": "language", "seat": GREEN, "lang": None}
    again = open_session(tmp_path, "tenno", 3)
    assert again.languages == {BLUE: "zh_Hant"}
    restarted = Runtime(again.match, [seat.screen for seat in mock_table.seats], again.journal,
                        languages=again.languages)
    assert "[Green]" in face_text(restarted, GREEN) and "[藍]" in face_text(restarted, BLUE)
    again.journal.close()


def test_a_new_game_on_the_same_seats_keeps_their_languages(mock_table, tmp_path):
    session = open_session(tmp_path, "tenno", 3, seed=2)
    runtime = Runtime(session.match, [seat.screen for seat in mock_table.seats], session.journal)
    choose_language(runtime, RED, "zh_Hant")
    new = open_session(tmp_path, "quovadis", 3, seed=1, new=True)
    runtime.replace_match(new.match, new.journal)
    assert "[紅]" in face_text(runtime, RED) and "元老" in face_text(runtime, RED)
    new.journal.close()
    assert journals.load(tmp_path / "current.jsonl").languages == {RED: "zh_Hant"}


def test_a_table_started_without_players_resumes_a_game_whose_seats_picked_languages(tmp_path):
    # The service starts `courtier play --table ... --ui none` without --players.
    first = open_session(tmp_path, "tenno", None, seed=2, default_players=3)
    first.journal.append_language(BLUE, "zh_Hant")
    first.journal.close()
    again = open_session(tmp_path, None, None, default_players=3)
    assert again.resumed and again.languages == {BLUE: "zh_Hant"}
    again.journal.close()


def test_a_new_game_started_without_players_keeps_the_languages_of_the_seats_it_has(tmp_path):
    first = open_session(tmp_path, "tenno", 4, seed=2)
    first.journal.append_language(BLUE, "zh_Hant")
    first.journal.append_language(3, "zh_Hans")
    first.journal.close()
    new = open_session(tmp_path, "tenno", None, new=True, default_players=3)
    assert not new.resumed and new.match.header.players == 3 and new.languages == {BLUE: "zh_Hant"}
    new.journal.close()
    assert journals.load(tmp_path / "current.jsonl").languages == {BLUE: "zh_Hant"}


def test_a_malformed_language_record_is_skipped_with_a_warning_and_loses_nothing(tmp_path):
    match = Match.new("tenno", 2, seed=1)
    journal = journals.Journal.create(tmp_path / "j.jsonl", match.header)
    journal.append_language(1, "zh_Hant")
    journal.close()
    with open(tmp_path / "j.jsonl", "a", encoding="utf-8") as handle:
        handle.write('{"type":"language","seat":7,"lang":"zh_Hans"}\n{"type":"language","seat":0}\n')
    loaded = journals.load(tmp_path / "j.jsonl")
    assert loaded.languages == {1: "zh_Hant"} and len(loaded.warnings) == 2
    assert "line 3 is not a seat's language" in loaded.warnings[0]


def test_the_table_file_names_the_tables_language_and_refuses_an_unknown_one():
    seats = '[[seat]]\nname = "Red"\nbot = "easy"\n'
    assert parse_table('[table]\nlanguage = "zh_Hant"\n' + seats).language == "zh_Hant"
    assert parse_table(seats).language is None
    with pytest.raises(Exception, match="unknown value 'klingon'"):
        parse_table('[table]\nlanguage = "klingon"\n' + seats)
    assert TABLE_LANGUAGES == tuple(LANGUAGES)


@pytest.mark.parametrize("game, lang, words", [
    ("tenno", "zh_Hant", ["俘虜", "勝者："]),
    ("quovadis", "zh_Hant", ["元老院", "月桂", "勝者："]),
    ("shadow", "zh_Hans", ["回合", "塔勒", "胜者："]),
])
def test_a_demo_plays_a_whole_game_in_chinese_and_its_journal_replays_the_same(game, lang, words, tmp_path, capsys):
    from firmware.cli import main

    journal = tmp_path / "demo.jsonl"
    assert main(["demo", game, "--seed", "3", "--journal", str(journal), "--lang", lang]) == 0
    out = capsys.readouterr().out
    for word in words:
        assert word in out, word
    english = [line for line in out.splitlines() if " attacks " in line or " passes" in line or "Turn " in line]
    assert not english, english[:3]
    assert main(["replay", str(journal), "--lang", "en"]) == 0
    assert "Winner:" in capsys.readouterr().out


def test_an_unknown_language_is_refused_by_name(capsys):
    from firmware.cli import main

    with pytest.raises(SystemExit):
        main(["demo", "tenno", "--lang", "xx"])
    err = capsys.readouterr().err
    assert "no language 'xx'" in err and "zh_Hant" in err


def test_locale_names_are_understood_on_the_command_line(tmp_path, capsys):
    from firmware.cli import main

    assert main(["games", "--lang", "zh_TW.UTF-8"]) == 0
    assert "天皇" in capsys.readouterr().out


def test_the_quo_vadis_end_screen_marks_a_seat_out_of_the_senate_in_the_readers_words():
    from engine.games.quovadis.text import final_lines
    from engine.i18n import reading

    over = {"scores": {"0": 23, "1": 9}}
    assert final_lines(over, ["Red", "Blue"], [1]) == ["Red 23  Blu 9 out"]
    with reading("zh_Hant"):
        assert final_lines(over, ["紅", "藍"], [1]) == ["紅 23  藍 9 出局"]


def test_the_table_page_and_the_report_speak_the_tables_language(tmp_path):
    pytest.importorskip("aiohttp", reason="the table page needs the web extra (pip install 'courtier[web]')")
    import urllib.request

    from engine import i18n
    from firmware.public import PublicTable
    from firmware.public.report import build_report, report_text
    from firmware.public.web import TablePage

    i18n.set_language("zh_Hant")
    runtime = Runtime(Match.new("tenno", 3, seed=11), [None] * 3)
    page = TablePage(PublicTable().attach(runtime), runtime, "127.0.0.1", 0)
    page.start()
    try:
        with urllib.request.urlopen(page.urls[0], timeout=10) as response:
            html = response.read().decode("utf-8")
    finally:
        page.close()
    assert "<h1>天皇</h1>" in html and "<h3>檯面</h3>" in html and ">紅<" in html
    assert runtime.match.prompt().line in html and "Rows" not in html
    match = Match.new("tenno", 2, seed=3)
    text = report_text(build_report(match.header, []))
    assert text.startswith("天皇: 2 人（紅, 藍）") and "Timeline" not in text and "時間線" in text


def test_the_help_of_every_command_speaks_the_language_asked_for(capsys):
    from firmware.cli import main

    with pytest.raises(SystemExit):
        main(["demo", "--help", "--lang", "zh_Hans"])
    out = capsys.readouterr().out
    assert "机器人的玩法" in out and "how the bots play" not in out
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert "how the bots play" in capsys.readouterr().out  # the suite's own locale: English


def test_an_action_refused_by_the_rules_is_told_in_the_language_of_the_seat_that_made_it(mock_table):
    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats], languages={GREEN: "zh_Hant"})
    for seat in (RED, BLUE, GREEN):
        post(runtime, seat)  # every row arranged: Red attacks, the others wait
    assert not runtime.submit({"seat": GREEN, "do": "pass"})
    assert runtime.seats[GREEN].notice == "綠現在沒有要決定的事（等待紅）"
    assert not runtime.submit({"seat": BLUE, "do": "pass"})
    assert runtime.seats[BLUE].notice == "Blue has nothing to decide now (waiting for Red)"


def test_what_is_wrong_with_a_saved_game_is_told_in_the_tables_language(tmp_path):
    """A skipped line's warning and a damaged journal's reason reach the seats' page and the public log."""
    from engine import i18n

    open_session(tmp_path, "tenno", 3, seed=5).journal.close()
    with open(tmp_path / "current.jsonl", "a", encoding="utf-8") as handle:
        handle.write('{"type":"language","seat":9,"lang":"zh_Hans"}\n')
    i18n.set_language("zh_Hant")
    session = open_session(tmp_path, None, 3)
    assert session.resumed and session.messages[0].endswith("第 2 行不是座位的語言，已略過")
    session.journal.close()
    with open(tmp_path / "current.jsonl", "a", encoding="utf-8") as handle:
        handle.write('{"type":"action","n":1,"action":[0]}\n')
    session = open_session(tmp_path, None, 3)
    assert session.alarm and session.messages[0].startswith("無法讀取存檔（")
    assert "第 3 行不是行動紀錄" in session.messages[0]
