"""The runtime's own rules, one at a time, on luma's dummy screens (no buttons, no threads).

What a table command answers, what a refused action tells its seat, who is
told of an accepted action or an undo, which seats are redrawn and in what
order, and how the information pages and another match are put on the seats.
"""

from __future__ import annotations

import errno
import logging
import threading

import pytest

from engine import i18n
from engine.errors import BadOptions, IllegalAction
from engine.i18n import LANGUAGES, N_
from engine.match import Match
from engine.testing import bare, tenno_position
from firmware.table import journal as journals
from firmware.table.journal import Journal
from firmware.table.render import render_face
from firmware.table.runtime import Command, DeviceFault, Runtime
from firmware.testing import face_text, file_size_limit, journal_end, post
from hardware.events import InputEvent
from hardware.screens import dummy_screen
from hardware.table import ScreenConfig

NINJA = 4


def screens(count: int):
    return [dummy_screen(ScreenConfig(), name=f"seat {i + 1}") for i in range(count)]




def test_a_runtime_needs_one_screen_per_seat():
    with pytest.raises(ValueError) as refused:
        Runtime(Match.new("tenno", 3), [None, None])
    assert str(refused.value) == "2 screens for 3 seats"


def test_every_seat_is_drawn_at_once_and_each_menu_asks_to_confirm_what_the_game_says():
    match = Match.new("quovadis", 3, seed=1)
    shown = screens(3)
    runtime = Runtime(match, shown)
    assert all(seat.face is not None for seat in runtime.seats)
    assert all(s.image.tobytes() != b"\0" * len(s.image.tobytes()) for s in shown)
    assert all(seat.menu.confirm == frozenset({"pay"}) for seat in runtime.seats)
    assert runtime.version == 3


def test_step_handles_one_event_and_drain_counts_them():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    assert runtime.step() is False and runtime.drain() == 0
    runtime.post(InputEvent(0, "next", "press"))
    runtime.post(InputEvent(1, "next", "press"))
    assert runtime.step() is True
    assert runtime.drain() == 1


def test_an_event_from_a_seat_that_is_not_at_the_table_is_ignored_and_logged(caplog):
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    faces = [seat.face for seat in runtime.seats]
    with caplog.at_level(logging.WARNING, logger="firmware.table.runtime"):
        for seat in (2, -1):
            runtime.handle(InputEvent(seat, "ok", "press"))
    assert [r.getMessage() for r in caplog.records] == ["event from unknown seat 2 ignored",
                                                      "event from unknown seat -1 ignored"]
    assert [seat.face for seat in runtime.seats] == faces and runtime.match.actions == []


def test_moving_along_a_menu_redraws_that_seat_alone():
    runtime = Runtime(Match.new("tenno", 3, seed=2), screens(3))
    before = runtime.version
    faces = [seat.face for seat in runtime.seats]
    post(runtime, 1, "next")
    assert runtime.version == before + 1
    assert runtime.seats[0].face == faces[0] and runtime.seats[2].face == faces[2]
    assert "2/6" in face_text(runtime, 1)
    post(runtime, 1, "prev")
    assert "1/6" in face_text(runtime, 1)


def test_the_seat_that_acted_is_drawn_first_and_every_listener_hears_the_action():
    drawn, heard = [], []

    class Pod:
        size = (128, 64)

        def __init__(self, seat):
            self.seat = seat

        def show_face(self, face):
            drawn.append(self.seat)

    match = tenno_position(3, {}, active=1)
    runtime = Runtime(match, [Pod(0), Pod(1), Pod(2)],
                      listeners=[lambda m, a, e: heard.append((m, a, e))])
    drawn.clear()
    action = match.legal_actions(1)[0]
    assert runtime.submit(action) is True  # Blue attacks: every seat's screen changes
    assert drawn[0] == 1 and sorted(drawn) == [0, 1, 2]
    assert [(m, a, bare(e)) for m, a, e in heard] == [(match, action, [
        {"type": "attack", "seat": 1, "slot": 0, "card": 1, "target": 0, "target_slot": 0, "second": False}])]


def test_a_refused_action_tells_its_seat_why_and_changes_nothing(caplog):
    match = tenno_position(2, {}, active=0)
    runtime = Runtime(match, [None, None])
    with caplog.at_level(logging.INFO, logger="firmware.table.runtime"):
        assert runtime.submit({"seat": 1, "do": "attack"}) is False
    assert runtime.seats[1].notice == "Blue has nothing to decide now (waiting for Red)"
    assert "! Blue has nothing to decide now" in face_text(runtime, 1)
    assert caplog.records[-1].getMessage() == "seat 1: Blue has nothing to decide now (waiting for Red)"
    assert runtime.submit("nonsense") is False and match.actions == []
    post(runtime, 1, "next")
    assert runtime.seats[1].notice == ""  # the next press clears it


def test_commands_answer_in_words_known_unknown_badly_called_or_failing():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    replies = []
    assert runtime.run_command(Command("dance", reply=replies.append)) == "Unknown command 'dance'; known: undo"
    runtime.commands["new_game"] = lambda game: (_ for _ in ()).throw(BadOptions(f"no {game}"))
    runtime.commands["end_game"] = lambda: (_ for _ in ()).throw(OSError(28, "No space left on device"))
    assert runtime.run_command(Command("undo", {"seat": 1})).startswith(
        "Bad arguments for undo: ") and "seat" in runtime.run_command(Command("undo", {"seat": 1}))
    assert runtime.run_command(Command("new_game", {"game": "chess"})) == "new_game failed: no chess"
    assert runtime.run_command(Command("end_game")) == "end_game failed: [Errno 28] No space left on device"
    assert runtime.run_command(Command("dance")) == "Unknown command 'dance'; known: end_game, new_game, undo"
    assert replies == ["Unknown command 'dance'; known: undo"]


def test_undo_tells_every_listener_and_redraws_every_seat_from_the_top():
    heard = []
    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    runtime = Runtime(match, [None, None, None], listeners=[lambda m, a, e: heard.append((m, a, e))])
    post(runtime, 0)
    post(runtime, 1, "next")
    heard.clear()
    assert runtime.undo() is True
    assert heard == [(runtime.match, None, [{"type": "undo"}])]
    assert runtime.match.actions == [] and all(seat.menu.path == [] for seat in runtime.seats)
    assert "1/6" in face_text(runtime, 1)
    assert runtime.undo() is False and len(heard) == 1


def test_another_match_on_the_same_seats_starts_every_seat_afresh():
    runtime = Runtime(Match.new("tenno", 3, seed=2), [None, None, None], languages={1: "zh_Hans"})
    post(runtime, 1, "next")
    runtime.submit({"seat": 2, "do": "fly"})
    other = Match.new("quovadis", 3, seed=4)
    runtime.replace_match(other, None)
    assert runtime.match is other and runtime.journal is None
    assert all(seat.notice == "" and seat.menu.path == [] and seat.menu.cursor == 0 for seat in runtime.seats)
    assert all(seat.menu.confirm == frozenset({"pay"}) for seat in runtime.seats)
    assert runtime.seats[0].face.header == other.game.header(other.view(0), other.names)
    with pytest.raises(ValueError) as refused:
        runtime.replace_match(Match.new("tenno", 2), None)
    assert str(refused.value) == "2 players on a 3-seat runtime"


def test_an_announcement_is_pages_on_every_seat_that_prev_and_next_turn_and_ok_closes():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    long = ("The saved game could not be read and was kept aside as "
            "/var/lib/courtier/games/current.unreadable-1.jsonl; a new game starts.")
    runtime.announce("Started anew", [long, "Second line"])
    for seat in runtime.seats:
        assert seat.mode == "info" and seat.info_title == "Started anew" and seat.info_page == 0
        # A paragraph that does not fit what is left of a page starts the next page.
        assert len(seat.info) == 3 and seat.info[2] == ["Second line"]
        assert [len(page) for page in seat.info] == [4, 4, 1]
    assert "[Red] Started anew" in face_text(runtime, 0) and "1/3" in face_text(runtime, 0)
    post(runtime, 0, "next")
    assert "games/" in face_text(runtime, 0) and "2/3" in face_text(runtime, 0)  # a press turns a whole screen
    for _ in range(3):
        post(runtime, 0, "next")
    assert runtime.seats[0].info_page == 2 and "Second line" in face_text(runtime, 0)  # never past the last page
    assert "3/3" in face_text(runtime, 0)
    for _ in range(4):
        post(runtime, 0, "prev")
    assert runtime.seats[0].info_page == 0  # nor before the first
    post(runtime, 0, "ok")
    assert runtime.seats[0].mode == "" and runtime.seats[1].mode == "info"


def _open_table_menu(runtime: Runtime, seat: int, entry: int) -> None:
    """Hold ok at the top of the seat's menu, then move to the table menu's entry and choose it."""
    post(runtime, seat, "ok", "hold")
    for _ in range(entry):
        post(runtime, seat, "next")
    post(runtime, seat, "ok")


def test_the_scores_page_is_the_games_standings_and_the_help_page_its_rules_for_the_phase():
    match = tenno_position(2, {}, active=0)
    runtime = Runtime(match, [None, None])
    _open_table_menu(runtime, 1, 1)  # undo, scores, help, end, close
    seat = runtime.seats[1]
    assert (seat.mode, seat.info_title, seat.info_page) == ("info", "Scores", 0)
    assert [line for page in seat.info for line in page] == match.game.standings(match.view(1), match.names)
    assert "[Blue] Scores" in face_text(runtime, 1)
    post(runtime, 1, "ok")  # close
    _open_table_menu(runtime, 1, 2)
    assert (seat.mode, seat.info_title) == ("info", "Rules")
    assert seat.info and " ".join(seat.info[0]).startswith(match.game.rules_help(match.view(1), match.names)[0][:15])
    assert runtime.seats[0].mode == ""  # the other seat plays on


def test_closing_the_table_menu_returns_the_seat_to_its_game():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    _open_table_menu(runtime, 0, 4)  # close
    assert runtime.seats[0].mode == "" and "Order your peasants:" in face_text(runtime, 0)


def test_how_the_game_began_is_a_notice_on_every_seat_that_nobody_has_to_dismiss():
    """"Resumed Tennō after 3 actions" is shown, not a page: the seats play on, and the first action clears it."""
    runtime = Runtime(Match.new("tenno", 3, seed=1), screens(3))
    runtime.tell_every_seat("Resumed Tennō after 3 actions")
    for seat in range(3):
        assert runtime.seats[seat].mode == "" and "! Resumed Tennō after 3 actions" in face_text(runtime, seat)
        assert "Order your peasants:" in face_text(runtime, seat)  # the game's question stays on the screen
    post(runtime, 0, "ok")  # Red plays at once: the press is a choice, not a dismissal
    assert len(runtime.match.actions) == 1
    assert all("Resumed" not in face_text(runtime, seat) for seat in range(3))
    assert [seat.notice for seat in runtime.seats] == ["", "", ""] and runtime.banner == ""
    runtime.seats[1].notice = "Blue's own word"
    post(runtime, 2, "ok")
    assert runtime.seats[1].notice == "Blue's own word"  # only the start-up word goes with the game's first move


def test_a_notice_with_a_title_the_screen_font_lacks_is_drawn_not_refused():
    from firmware.table.render import screen_rows

    runtime = Runtime(Match.new("tenno", 2, seed=1), screens(2))
    runtime.tell_every_seat("Resumed Tennō after 3 actions")  # the Latin font has no ō: the wide one draws it
    rows = screen_rows(runtime.seats[0].face)
    assert rows[-3:-1] == ["! Resumed Tennō after", "3 actions"]  # two rows, wrapped at a space


def test_another_match_closes_every_page_of_the_old_one():
    """A start-up page left open (or a half-asked undo) is no news of the next game."""
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    runtime.announce("Saved game", ["The previous game is kept as games/tenno-unfinished-001.jsonl."])
    runtime.replace_match(Match.new("tenno", 2, seed=2), None)
    assert all(seat.mode == "" and seat.info == [] for seat in runtime.seats)
    assert "kept as" not in face_text(runtime, 1) and "Order your peasants:" in face_text(runtime, 1)


# --- languages, undo and a new game at the edges: what each seat reads --------------------------------


def _journalled(match: Match, tmp_path):
    path = tmp_path / "j.jsonl"
    return path, Journal.create(path, match.header)


def test_a_seats_language_is_journalled_and_a_choice_the_disk_refuses_is_kept_and_told_in_the_new_words(
        tmp_path, caplog):
    i18n.set_language("zh_Hans")  # the table reads Simplified Chinese
    match = Match.new("tenno", 2, seed=1)
    path, journal = _journalled(match, tmp_path)
    runtime = Runtime(match, [None, None], journal)
    chinese = runtime.seats[1].face.header
    runtime.set_language(1, "en")
    assert runtime.seats[1].face.header == "Setup" != chinese  # the same game, now in English words
    runtime.set_language(1, None)
    runtime.set_language(0, "zh_TW")
    assert runtime.seats[0].language == "zh_Hant" and journals.load(path).languages == {0: "zh_Hant"}
    runtime.set_language(0, None)  # back to the table's language: Simplified, not English
    assert runtime.seats[0].language is None and journals.load(path).languages == {}
    assert "[红]" in face_text(runtime, 0)
    for nobody in (2, -1):  # no such seat: nothing changes, nothing is written
        runtime.set_language(nobody, "en")
    assert journals.load(path).languages == {} and [seat.language for seat in runtime.seats] == [None, None]
    with file_size_limit(journal_end(path)), caplog.at_level(logging.ERROR, logger="firmware.table.runtime"):
        runtime.set_language(1, "en")
    assert runtime.seats[1].language == "en"  # it reads English now; only a restart would forget
    assert runtime.seats[1].notice == "Not saved (File too large); try again"  # in the words it just chose
    assert runtime.seats[1].face.notice == "Not saved (File too large); try again"
    assert [r.getMessage() for r in caplog.records] == ["journal write failed: [Errno 27] File too large"]
    assert journals.load(path).languages == {}
    journal.close()


def test_the_table_menus_language_item_sets_the_seat_back_to_the_tables_language(tmp_path):
    match = Match.new("tenno", 2, seed=1)
    path, journal = _journalled(match, tmp_path)
    runtime = Runtime(match, [None, None], journal, languages={1: "zh_Hans"})
    post(runtime, 1, "ok", "hold")
    post(runtime, 1, "next", times=3)  # undo, scores, help, language
    post(runtime, 1)
    post(runtime, 1, "next", times=len(LANGUAGES))  # each shipped language, then the table's
    assert "> 牌桌的语言" in face_text(runtime, 1)  # "The table's language", in the words Blue reads
    post(runtime, 1)
    assert runtime.seats[1].language is None and runtime.seats[1].mode == ""
    assert "Order your peasants:" in face_text(runtime, 1)
    assert journals.load(path).languages == {}
    journal.close()


def test_a_new_game_tells_a_waiting_console_its_request_was_dropped_and_journals_each_seats_language(
        tmp_path, caplog):
    runtime = Runtime(Match.new("tenno", 3, seed=2, options={"start_seat": 0}), [None, None, None],
                      languages={1: "zh_Hans"})
    post(runtime, 0)
    replies = []
    runtime.run_command(Command("undo", reply=replies.append))
    assert runtime.request is not None and len(replies) == 1
    runtime.tell_every_seat("Resumed Tennō after 1 action")
    other = Match.new("tenno", 3, seed=3)
    path, journal = _journalled(other, tmp_path)
    runtime.replace_match(other, journal)
    assert replies[-1] == "The request was dropped: a new game began" and runtime.request is None
    assert journals.load(path).languages == {1: "zh_Hans"}  # the same people read the new game
    assert runtime.banner == "" and all(seat.notice == "" for seat in runtime.seats)
    third = Match.new("tenno", 3, seed=4)
    path, journal = _journalled(third, tmp_path / "..")
    with file_size_limit(journal_end(path)), caplog.at_level(logging.ERROR, logger="firmware.table.runtime"):
        runtime.replace_match(third, journal)  # the languages cannot be written: the game goes on
    assert runtime.match is third and runtime.seats[1].language == "zh_Hans"
    assert [r.getMessage() for r in caplog.records] == [
        "the seats' languages could not be saved with the new game: [Errno 27] File too large"]


def test_the_consoles_undo_while_a_seat_asks_is_refused_and_one_settled_at_once_answers_with_its_outcome():
    runtime = Runtime(Match.new("tenno", 3, seed=2, options={"start_seat": 0}), [None, None, None])
    for seat in range(3):
        post(runtime, seat)
    post(runtime, 0, "ok", "hold")
    post(runtime, 0)  # Red asks to undo
    assert runtime.run_command(Command("undo")) == (
        "The table is already answering another request; try again after it")
    post(runtime, 0)  # Red calls its request off
    assert runtime.request is None

    asked = []

    def every_seat_says_yes():  # as bot seats do, within the redraw that asks them
        if runtime.request is not None and not asked:
            asked.append(runtime.request)
            for seat in range(3):
                runtime.agree(seat)

    runtime.watchers.append(every_seat_says_yes)
    assert runtime.run_command(Command("undo")) == "Taken back: Green's row arrangement"
    assert len(runtime.match.actions) == 2


def test_a_yes_with_no_request_open_changes_nothing_and_an_undo_nothing_is_left_for_says_so():
    runtime = Runtime(Match.new("tenno", 3, seed=2, options={"start_seat": 0}), [None, None, None])
    runtime.agree(1)
    assert runtime.request is None and runtime.match.actions == []
    post(runtime, 0)
    post(runtime, 1, "ok", "hold")
    post(runtime, 1)  # Blue asks to undo Red's arrangement
    runtime.undo()  # taken back meanwhile (the console's own undo)
    post(runtime, 0)  # Red, whose arrangement it was, agrees
    assert runtime.seats[1].notice == "Nothing to take back"


def test_the_asker_hears_the_outcome_in_its_own_language_and_an_unsaved_undo_in_full(tmp_path):
    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    path, journal = _journalled(match, tmp_path)
    runtime = Runtime(match, [None, None, None], journal, languages={0: "zh_Hans"})
    for seat in range(3):
        post(runtime, seat)
    post(runtime, 0, "ok", "hold")
    post(runtime, 0)
    with file_size_limit(journal_end(path)):
        post(runtime, 2)  # Green agrees; the undo cannot be written
    assert runtime.seats[0].notice == "未能存档（File too large）：没有收回任何一步"
    assert len(match.actions) == 3
    post(runtime, 0, "ok", "hold")
    post(runtime, 0)
    post(runtime, 2)
    assert runtime.seats[0].notice == "已收回：绿的排定台面"  # "Taken back: Green's row arrangement"
    journal.close()


def test_a_failed_write_is_told_on_every_seat_and_logged_and_a_later_undo_that_is_saved_clears_it(
        tmp_path, caplog):
    match = Match.new("tenno", 2, seed=1)
    path, journal = _journalled(match, tmp_path)
    runtime = Runtime(match, [None, None], journal)
    post(runtime, 0)
    with file_size_limit(journal_end(path)), caplog.at_level(logging.ERROR, logger="firmware.table.runtime"):
        post(runtime, 1)
    assert [r.getMessage() for r in caplog.records] == ["journal write failed: [Errno 27] File too large"]
    for seat in range(2):
        assert face_text(runtime, seat).splitlines()[-1] == (
            "! Not saved (File too large): nothing counts until saving works")
    with file_size_limit(journal_end(path)):
        assert runtime.submit(match.legal_actions(1)[0]) is False and len(match.actions) == 1
    assert runtime.undo() is True
    assert runtime.save_fault == "" and all("Not saved" not in face_text(runtime, seat) for seat in range(2))
    with file_size_limit(journal_end(path)):
        post(runtime, 0)
    assert runtime.submit(match.legal_actions(0)[0]) is True and runtime.save_fault == ""
    assert all("Not saved" not in face_text(runtime, seat) for seat in range(2))
    journal.close()


def test_a_refused_action_is_told_to_the_first_seat_too_and_one_from_no_seat_to_nobody():
    match = tenno_position(2, {}, active=1)
    runtime = Runtime(match, [None, None])
    assert runtime.submit({"seat": 0, "do": "attack"}) is False
    assert runtime.seats[0].notice == "Red has nothing to decide now (waiting for Blue)"
    assert runtime.submit({"seat": 2, "do": "attack"}) is False  # no such seat: nobody's screen, no crash
    assert [seat.notice for seat in runtime.seats] == ["Red has nothing to decide now (waiting for Blue)", ""]
    runtime.set_language(0, "zh_Hans")
    runtime.submit({"seat": 0, "do": "attack"})
    assert runtime.seats[0].notice == "红现在没有要决定的事（等待蓝）"  # in the words of the seat it is shown to


def test_after_an_undo_only_a_seat_whose_choices_changed_or_that_was_midway_through_one_is_told():
    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    runtime = Runtime(match, [None, None, None])
    post(runtime, 0)  # Red arranges its row
    post(runtime, 1, "next")  # Blue looks at its second way to order its row
    runtime.undo()  # Red's choices come back; Blue's are the same, but Blue was looking
    assert [seat.changed for seat in runtime.seats] == [True, True, False]  # Green had not moved
    assert "Your choices changed" not in face_text(runtime, 2)


def test_an_undo_asked_before_any_action_is_asked_as_such_and_answered_that_nothing_is_taken_back():
    runtime = Runtime(Match.new("tenno", 3, seed=2), [None, None, None])
    post(runtime, 0, "ok", "hold")
    post(runtime, 0)  # Undo last action, with none made yet
    assert "Red: undo the last action?" in face_text(runtime, 1)
    post(runtime, 1)  # Blue agrees
    assert runtime.request is None and runtime.seats[0].notice == "Nothing to take back"
    assert "Order your peasants:" in face_text(runtime, 0)  # the asker is back at its game


def test_ending_the_game_needs_any_other_seats_yes_not_that_of_the_seat_that_moved_last():
    runtime = Runtime(Match.new("tenno", 3, seed=2, options={"start_seat": 0}), [None, None, None])
    for seat in range(3):
        post(runtime, seat)  # the last action is Green's
    ended = []
    runtime.commands["end_game"] = lambda: ended.append(True) or "A new game begins"
    post(runtime, 0, "ok", "hold")
    post(runtime, 0, "prev", times=2)  # End the game
    post(runtime, 0)
    post(runtime, 1)  # Blue agrees: enough
    assert ended == [True] and runtime.seats[0].notice == "A new game begins"


def test_a_command_refused_by_the_engine_is_told_in_the_tables_words():
    i18n.set_language("zh_Hans")
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    runtime.commands["new_game"] = lambda: (_ for _ in ()).throw(IllegalAction(N_("the game is over")))
    assert runtime.run_command(Command("new_game")) == "new_game 失败：这局已经结束"


def test_the_rules_help_ends_with_the_table_pages_address_as_a_browser_takes_it():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    runtime.page_address = "http://192.168.1.20:8080/"
    _open_table_menu(runtime, 0, 2)  # Rules help
    assert " ".join(runtime.seats[0].info[-1]).endswith("Table page: 192.168.1.20:8080")
    _open_table_menu(runtime, 1, 1)  # the scores page does not end with it
    assert "Table page" not in " ".join(line for page in runtime.seats[1].info for line in page)


def test_a_table_that_cannot_end_a_game_says_so_to_the_seat_that_asked_and_sends_it_back_to_its_game():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    post(runtime, 0, "ok", "hold")
    post(runtime, 0, "prev", times=2)  # End the game
    post(runtime, 0)
    assert runtime.request is None and runtime.seats[0].mode == ""
    assert runtime.seats[0].notice == "Ending a game is not possible here"
    assert "Order your peasants:" in face_text(runtime, 0)


def test_the_table_menu_numbers_its_items_and_a_seat_that_agreed_may_only_still_say_no_in_the_askers_words():
    runtime = Runtime(Match.new("tenno", 3, seed=2, options={"start_seat": 0}), [None, None, None],
                      languages={1: "zh_Hans"})
    for seat in range(3):
        post(runtime, seat)
    runtime.submit(runtime.match.legal_actions(0)[0])  # Red's attack turns a card up: every seat must agree
    post(runtime, 2, "ok", "hold")
    post(runtime, 2, "next")
    assert face_text(runtime, 2).splitlines()[-1] == "> Show scores  2/6"  # undo, scores, help, language, end, close
    post(runtime, 2, "ok", "hold")
    post(runtime, 1, "ok", "hold")
    post(runtime, 1)  # Blue asks to take the attack back
    assert face_text(runtime, 0).splitlines()[-1] == "> Yes, agree  1/2"
    post(runtime, 0)  # Red agrees: it may still say no, and nothing else
    assert face_text(runtime, 0).splitlines()[-1] == "> No"  # one choice: no number
    post(runtime, 0)
    assert runtime.request is None and runtime.seats[1].notice == "红不同意"  # "Red said no", in the asker's words


def test_pages_turn_one_at_a_time_and_a_hold_while_asked_leaves_the_page_under_the_question():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    runtime.announce("Saved game", [f"Paragraph {n} " + "word " * 10 for n in range(3)])
    assert len(runtime.seats[1].info) == 3
    post(runtime, 1, "next", times=2)
    post(runtime, 1, "prev")
    assert runtime.seats[1].info_page == 1
    post(runtime, 0)  # Red closes its page
    post(runtime, 0, "ok", "hold")
    post(runtime, 0)  # and asks to undo
    post(runtime, 1, "ok", "hold")  # Blue, asked while reading, holds ok
    post(runtime, 0)  # Red calls it off
    assert runtime.seats[1].mode == "info" and runtime.seats[1].info_page == 1


def test_a_seat_that_is_told_its_choices_changed_may_still_hold_ok_for_the_table_menu():
    runtime = Runtime(Match.new("tenno", 3, seed=2, options={"start_seat": 0}), [None, None, None])
    post(runtime, 0)
    runtime.undo()
    assert runtime.seats[0].changed
    assert face_text(runtime, 0).splitlines()[-1] == "! Your choices changed: ok to go on"
    post(runtime, 0, "ok", "hold")
    assert runtime.seats[0].mode == "menu" and face_text(runtime, 0).splitlines()[0] == "[Red] Table menu"


def test_what_each_seat_reads_while_the_table_answers_a_request_line_by_line():
    runtime = Runtime(Match.new("tenno", 3, seed=2, options={"start_seat": 0}), [None, None, None])
    for seat in (2, 1, 0):
        post(runtime, seat)  # the last action is Red's own arrangement
    post(runtime, 0, "ok", "hold")
    lines = face_text(runtime, 0).splitlines()
    assert lines[0] == "[Red] Table menu" and lines[-2:] == ["Hold ok to go back", "> Undo last action  1/6"]
    post(runtime, 0)  # Red asks to take back its own arrangement: any other seat may agree
    assert face_text(runtime, 0).splitlines() == ["[Red] Table", "Waiting for another seat's yes",
                                                 "> Cancel the request"]
    assert face_text(runtime, 1).splitlines() == ["[Blue] Table", "Red: undo Red's row arrangement?",
                                                 "> Yes, agree  1/2"]
    post(runtime, 0)  # called off
    post(runtime, 1, "ok", "hold")
    post(runtime, 1)  # Blue asks to take back Red's arrangement: Red must agree
    assert face_text(runtime, 1).splitlines()[:2] == ["[Blue] Table", "Waiting for Red's yes"]
    post(runtime, 2)  # Green agrees: not enough
    assert face_text(runtime, 2).splitlines() == ["[Green] Table", "You agreed; waiting for the others", "> No"]
    post(runtime, 1)  # Blue calls it off
    runtime.submit(runtime.match.legal_actions(0)[0])  # Red's attack turns a card up
    post(runtime, 2, "ok", "hold")
    post(runtime, 2)
    assert face_text(runtime, 2).splitlines()[:2] == ["[Green] Table", "Waiting for every seat's yes"]


def test_an_info_page_asks_nothing_and_a_table_face_notes_a_failed_write(tmp_path):
    match = Match.new("tenno", 2, seed=1)
    path, journal = _journalled(match, tmp_path)
    runtime = Runtime(match, [None, None], journal, languages={0: "zh_Hans"})
    _open_table_menu(runtime, 0, 1)  # Scores, in Red's own words
    assert runtime.seats[0].info_title == "分数"
    _open_table_menu(runtime, 1, 1)
    lines = face_text(runtime, 1).splitlines()
    assert lines[0] == "[Blue] Scores" and lines[-2:] == ["", "> Close"]
    with file_size_limit(journal_end(path)):
        post(runtime, 0, "ok")  # Red closes its page...
        post(runtime, 0, "ok")  # ...and lays its row: the disk refuses it
    assert face_text(runtime, 1).splitlines()[-1] == "! Not saved (File too large): nothing counts until saving works"
    journal.close()


def test_a_failing_screen_is_noted_on_the_other_seats_and_a_failing_device_beside_them_on_every_seat():
    shown = screens(3)
    runtime = Runtime(Match.new("tenno", 3, seed=2), shown)
    assert [seat.face.notice for seat in runtime.seats] == ["", "", ""]

    def broken(image):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    shown[1].device.display = broken
    post(runtime, 1, "next")
    assert runtime.seats[1].degraded
    assert runtime.seats[0].face.notice == "Blue: screen fault" and runtime.face(1).notice == ""
    runtime.handle(DeviceFault("Public", "Remote I/O error"))
    assert runtime.seats[0].face.notice == "Blue, Public: screen fault"
    assert runtime.face(1).notice == "Public: screen fault"
    for _ in range(2):  # working again; told twice, it is no error
        runtime.handle(DeviceFault("Public"))
        assert runtime.seats[0].face.notice == "Blue: screen fault"


def test_step_waits_for_an_event_another_thread_posts_and_drain_counts_every_event():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None, None])
    assert runtime.step(timeout=0.01) is False  # nothing came: it does not wait for ever
    threading.Timer(0.01, runtime.post, (InputEvent(0, "next", "press"),)).start()
    assert runtime.step(timeout=1) is True and "2/6" in face_text(runtime, 0)
    for _ in range(3):
        runtime.post(InputEvent(1, "next", "press"))
    assert runtime.drain() == 3 and "4/6" in face_text(runtime, 1)


def test_a_panel_that_only_takes_an_image_is_shown_the_face_at_its_own_size():
    shown = []

    class Panel:
        size = (128, 32)

        def show(self, image):
            shown.append(image)

    short = dummy_screen(ScreenConfig(height=32), name="short")  # a panel that takes the face's bytes
    runtime = Runtime(Match.new("tenno", 2, seed=1), [Panel(), short])
    assert len(shown) == 1 and shown[0].size == (128, 32)
    assert shown[0].tobytes() == render_face(runtime.seats[0].face, (128, 32)).tobytes()
    assert short.image.tobytes() == render_face(runtime.seats[1].face, (128, 32)).tobytes()


def test_a_broken_screen_is_logged_once_a_breakdown_waits_out_its_back_off_and_the_others_are_still_drawn(caplog):
    from firmware.testing import FakeClock

    clock = FakeClock()
    shown = screens(3)
    runtime = Runtime(Match.new("tenno", 3, seed=2), shown, clock=clock)
    working = shown[0].device.display

    def broken(image):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    with caplog.at_level(logging.ERROR, logger="firmware.table.runtime"):
        shown[0].device.display = broken
        post(runtime, 0, "next")  # Red's screen fails
        runtime.tell_every_seat("Hello")  # Red waits out its back-off; the others are drawn all the same
        assert [seat.face.notice if seat.face else None for seat in runtime.seats] == [None, "Hello", "Hello"]
        clock.now += Runtime.RETRY_FIRST
        runtime.tick()  # tried again: still broken, not logged again
        assert runtime.seats[0].failures == 2
        shown[0].device.display = working
        clock.now += 2 * Runtime.RETRY_FIRST
        runtime.tick()
        assert (runtime.seats[0].degraded, runtime.seats[0].failures) == ("", 0)
        shown[0].device.display = broken
        post(runtime, 0, "next")  # a new breakdown is logged again
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2 and messages[0] == messages[1] and messages[0].startswith("seat 1 screen: ")
    assert "Remote I/O error" in messages[0]


def test_a_failing_device_beside_the_seats_is_noted_while_every_screen_works():
    runtime = Runtime(Match.new("tenno", 2, seed=1), screens(2), languages={0: "zh_TW", 2: "zh_Hans"})
    assert [seat.language for seat in runtime.seats] == ["zh_Hant", None]  # no third seat: nothing to set
    runtime.handle(DeviceFault("Public", "Remote I/O error"))
    assert runtime.seats[1].face.notice == "Public: screen fault"
    _open_table_menu(runtime, 1, 2)  # Rules help, with no table page served: no address at its end
    assert "Table page" not in " ".join(line for page in runtime.seats[1].info for line in page)
