"""The table menu: held ok at the top of a seat's menu; undo and end need another seat's yes
(an undo also that of the seat whose action it takes back)."""

from __future__ import annotations

import threading

from engine.match import Match
from firmware.table.journal import Journal
from firmware.table.render import render_face
from firmware.table import journal as journals
from firmware.table.runtime import Runtime
from firmware.testing import face_text, post

RED, BLUE, GREEN = 0, 1, 2


def arranged(table, tmp_path=None):
    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    journal = Journal.create(tmp_path / "j.jsonl", match.header) if tmp_path else None
    runtime = Runtime(match, [seat.screen for seat in table.seats], journal)
    for seat in (RED, BLUE, GREEN):
        post(runtime, seat)
    return runtime


def test_holding_ok_with_nothing_to_go_back_to_opens_the_table_menu_and_holding_again_closes_it(mock_table):
    runtime = arranged(mock_table)
    post(runtime, RED, "ok", "hold")
    assert "Table menu" in face_text(runtime, RED) and "> Undo last action" in face_text(runtime, RED)
    assert "Table menu" not in face_text(runtime, BLUE)
    post(runtime, RED, "ok", "hold")
    assert "Attack with:" in face_text(runtime, RED)


def test_the_real_hardware_hold_gesture_reaches_the_table_menu(mock_table):
    runtime = arranged(mock_table)
    held = threading.Event()
    mock_table.on_event = lambda e: (runtime.post(e), held.set() if e.gesture == "hold" else None)
    buttons = mock_table.seats[RED].buttons
    buttons.hold_time = 0.01  # ok's: prev and next are never held
    buttons.pin("ok").drive_low()
    assert held.wait(2)
    buttons.pin("ok").drive_high()
    runtime.drain()
    assert "Table menu" in face_text(runtime, RED)


def test_undo_names_the_action_and_its_seat_needs_that_seats_yes_and_is_journalled(mock_table, tmp_path):
    runtime = arranged(mock_table, tmp_path)
    assert len(runtime.match.actions) == 3  # the last: Green's row arrangement
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)  # Undo last action
    assert "Waiting for Green's yes" in face_text(runtime, RED)
    blue = face_text(runtime, BLUE)
    assert "Red: undo Green's row arrangement?" in blue and "> Yes, agree" in blue
    assert "Red: undo your row arrangement?" in face_text(runtime, GREEN)
    post(runtime, RED)  # the asker's own ok does not count: it offers to cancel
    assert runtime.request is None and len(runtime.match.actions) == 3
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)
    post(runtime, BLUE)  # Blue agrees: Green's arrangement is not taken back over Green's head
    assert runtime.request is not None and len(runtime.match.actions) == 3
    assert "Waiting for Green's yes" in face_text(runtime, RED)
    post(runtime, GREEN)  # Green agrees
    assert len(runtime.match.actions) == 2 and runtime.match.state.phase == "setup"
    assert "Taken back: Green's row arrangement" in face_text(runtime, RED)
    assert journals.load(tmp_path / "j.jsonl").actions == runtime.match.actions


def test_the_seat_whose_action_it_is_may_ask_and_then_one_other_yes_is_enough(mock_table):
    runtime = arranged(mock_table)
    post(runtime, GREEN, "ok", "hold")
    post(runtime, GREEN)  # Green asks to take back its own arrangement
    assert "Waiting for another seat's yes" in face_text(runtime, GREEN)
    assert "Green: undo Green's row arrangement?" in face_text(runtime, RED)
    post(runtime, RED)
    assert runtime.request is None and len(runtime.match.actions) == 2
    assert "Taken back: your row arrangement" in face_text(runtime, GREEN)


def test_the_owner_of_the_action_may_refuse_its_undo(mock_table):
    runtime = arranged(mock_table)
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)
    post(runtime, BLUE)  # yes
    post(runtime, GREEN, "next")
    post(runtime, GREEN)  # no: it is Green's arrangement
    assert runtime.request is None and len(runtime.match.actions) == 3
    assert "Green said no" in face_text(runtime, RED)


def test_a_bot_whose_action_is_taken_back_agrees_as_every_bot_does(mock_table):
    from firmware.table.bot_seats import BotSeats

    runtime = arranged(mock_table)
    thoughts: list = []
    BotSeats(runtime, {GREEN: "random"}, start=thoughts.append)  # a bot thinks only when the test says
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)  # Red asks; the bot whose arrangement it is says yes at once, and that is enough
    assert runtime.request is None and len(runtime.match.actions) == 2
    assert "Taken back: Green's row arrangement" in face_text(runtime, RED)


def test_a_no_from_another_seat_cancels_the_undo(mock_table):
    runtime = arranged(mock_table)
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)
    post(runtime, BLUE, "next")
    assert "> No" in face_text(runtime, BLUE)
    post(runtime, BLUE)
    assert runtime.request is None and len(runtime.match.actions) == 3
    assert "Blue said no" in face_text(runtime, RED)


def test_show_scores_gives_public_standings_and_scrolls(mock_table):
    runtime = arranged(mock_table)
    post(runtime, BLUE, "ok", "hold")
    post(runtime, BLUE, "next")
    post(runtime, BLUE)  # Show scores
    page = face_text(runtime, BLUE)
    assert "Scores" in page and "Red: 0 pris, 8 hand" in page and "1/3" not in page
    post(runtime, BLUE)  # Close
    assert "Waiting for Red" in face_text(runtime, BLUE)


def test_rules_help_explains_the_current_phase_a_page_at_a_time(mock_table):
    runtime = arranged(mock_table)
    post(runtime, GREEN, "ok", "hold")
    post(runtime, GREEN, "next", times=2)
    post(runtime, GREEN)  # Rules help
    first = face_text(runtime, GREEN)
    assert "Rules" in first and "Turn a row card up" in first
    post(runtime, GREEN, "next")
    assert face_text(runtime, GREEN) != first
    post(runtime, GREEN, "ok", "hold")
    assert "Waiting for Red" in face_text(runtime, GREEN)


def test_end_game_runs_the_tables_end_command_once_another_seat_agrees(mock_table):
    runtime = arranged(mock_table)
    ended = []
    runtime.commands["end_game"] = lambda: ended.append(True) or "A new game begins"
    post(runtime, RED, "ok", "hold")
    post(runtime, RED, "prev", times=2)  # End the game
    assert "> End the game" in face_text(runtime, RED)
    post(runtime, RED)
    assert "Red: end the game?" in face_text(runtime, GREEN)
    post(runtime, GREEN)
    assert ended == [True] and "A new game begins" in face_text(runtime, RED)


def test_an_announcement_is_shown_to_every_seat_until_ok(mock_table):
    runtime = arranged(mock_table)
    runtime.announce("Saved game", ["The saved game could not be read. It is kept as "
                                    "/var/lib/courtier/current.unreadable-1.jsonl. A new game starts."])
    for seat in (RED, BLUE, GREEN):
        assert "Saved game" in face_text(runtime, seat) and "not be read" in face_text(runtime, seat)
    post(runtime, BLUE, "next", times=3)
    assert "unreadable-1.jsonl" in face_text(runtime, BLUE)  # a file's name is never broken inside a word
    post(runtime, BLUE)
    assert "Waiting for Red" in face_text(runtime, BLUE) and "Saved game" in face_text(runtime, RED)


def test_taking_back_an_action_that_showed_a_hidden_card_needs_every_other_seats_yes(mock_table):
    runtime = arranged(mock_table)
    match = runtime.match
    legal = match.legal_actions(RED)[0]
    runtime.submit(legal)  # Red's attack turns a row card face up
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)  # Undo last action
    assert "Waiting for every seat's yes" in face_text(runtime, RED)
    post(runtime, BLUE)  # Blue agrees: not enough
    assert runtime.request is not None and "You agreed" in face_text(runtime, BLUE)
    assert len(match.actions) == 4
    post(runtime, GREEN)  # Green agrees too
    assert runtime.request is None and len(match.actions) == 3


def test_any_seat_may_veto_taking_back_a_revealing_action(mock_table):
    runtime = arranged(mock_table)
    runtime.submit(runtime.match.legal_actions(RED)[0])
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)
    post(runtime, BLUE)  # yes
    post(runtime, GREEN, "next")
    post(runtime, GREEN)  # no
    assert runtime.request is None and len(runtime.match.actions) == 4
    assert "Green said no" in face_text(runtime, RED)


def test_the_consoles_undo_is_asked_of_the_seats_and_a_revealing_action_needs_them_all(mock_table):
    from firmware.table.runtime import Command

    runtime = arranged(mock_table)
    runtime.submit(runtime.match.legal_actions(RED)[0])  # Red's attack turns a row card face up
    replies = []
    runtime.post(Command("undo", reply=replies.append))
    runtime.drain()
    assert replies == ["Asked the table: every seat must agree to take back Red's attack"]
    assert "The console: undo your attack?" in face_text(runtime, RED)
    for seat in (BLUE, GREEN):
        assert "The console: undo Red's attack?" in face_text(runtime, seat)
    post(runtime, RED)
    post(runtime, BLUE)
    assert len(runtime.match.actions) == 4 and len(replies) == 1
    post(runtime, GREEN, "next")
    post(runtime, GREEN)  # Green says no: its revealed card is not taken back over its head
    assert replies[-1] == "Green said no" and len(runtime.match.actions) == 4
    runtime.post(Command("undo", reply=replies.append))
    runtime.drain()
    for seat in (RED, BLUE, GREEN):
        post(runtime, seat)
    assert replies[-1] == "Taken back: Red's attack" and len(runtime.match.actions) == 3


def test_the_consoles_undo_waits_for_the_seat_whose_action_it_is(mock_table):
    from firmware.table.runtime import Command

    runtime = arranged(mock_table)  # the last action: Green's row arrangement
    replies = []
    runtime.post(Command("undo", reply=replies.append))
    runtime.drain()
    assert replies == ["Asked the table: Green must agree to take back Green's row arrangement"]
    post(runtime, RED)
    post(runtime, BLUE)
    assert runtime.request is not None and len(runtime.match.actions) == 3
    post(runtime, GREEN)
    assert replies[-1] == "Taken back: Green's row arrangement" and len(runtime.match.actions) == 2


def test_a_new_game_drops_a_pending_request_so_a_late_yes_cannot_end_it(mock_table, tmp_path):
    from firmware.play import add_session_commands
    from firmware.table.runtime import Command
    from firmware.table.session import open_session

    session = open_session(tmp_path, "tenno", 3, seed=5, names=["Red", "Blue", "Green"])
    runtime = Runtime(session.match, [seat.screen for seat in mock_table.seats], session.journal)
    add_session_commands(runtime, tmp_path)
    post(runtime, RED, "ok", "hold")
    post(runtime, RED, "prev", times=2)
    post(runtime, RED)  # End the game
    assert "Red: end the game?" in face_text(runtime, BLUE)
    runtime.post(Command("new_game", {"game": "quovadis"}))  # the console starts another game meanwhile
    runtime.drain()
    assert runtime.request is None and "end the game?" not in face_text(runtime, BLUE)
    post(runtime, BLUE)  # the ok meant for the old request
    assert runtime.match.header.game == "quovadis"
    assert len(list((tmp_path / "games").iterdir())) == 1  # only the old game was archived
    runtime.journal.close()


def test_ending_the_game_at_the_table_tells_the_asker_in_words_its_screen_can_draw(mock_table, tmp_path):
    """The reply names the game ("Tennō"): the screen font draws the ō, never a crash in the middle of an evening."""
    from firmware.play import add_session_commands
    from firmware.table.session import open_session

    session = open_session(tmp_path, "tenno", 3, seed=5, names=["Red", "Blue", "Green"])
    runtime = Runtime(session.match, [seat.screen for seat in mock_table.seats], session.journal)
    add_session_commands(runtime, tmp_path)
    post(runtime, RED, "ok", "hold")
    post(runtime, RED, "prev", times=2)
    post(runtime, RED)  # End the game
    post(runtime, BLUE)  # Blue agrees
    assert "A new game of Tennō begins" in face_text(runtime, RED)
    assert mock_table.seats[RED].screen.image.tobytes() == render_face(runtime.seats[RED].face).tobytes()
    assert render_face(runtime.seats[RED].face).tobytes() != render_face(
        runtime.seats[RED].face._replace(notice="A new game of Tenno begins")).tobytes()  # the ō itself
    runtime.journal.close()


def built_faces(runtime, monkeypatch):
    """The seats whose face the runtime builds from now on, one entry per build."""
    built = []
    build = runtime.face
    monkeypatch.setattr(runtime, "face", lambda seat: built.append(seat) or build(seat))
    return built


def test_walking_the_table_menu_an_info_page_or_a_language_builds_only_that_seats_face(mock_table, monkeypatch):
    runtime = arranged(mock_table)
    built = built_faces(runtime, monkeypatch)
    post(runtime, BLUE, "ok", "hold")  # the table menu opens
    post(runtime, BLUE, "next")
    post(runtime, BLUE, "prev")
    post(runtime, BLUE, "next")
    post(runtime, BLUE)  # Show scores
    post(runtime, BLUE, "next")  # an info page turned
    post(runtime, BLUE)  # Close
    assert set(built) == {BLUE} and len(built) == 7
    assert "Waiting for Red" in face_text(runtime, BLUE)
    post(runtime, BLUE, "ok", "hold")
    post(runtime, BLUE, "next", times=3)  # undo, scores, help, language
    post(runtime, BLUE)  # into the languages
    post(runtime, BLUE, "next")  # 繁體中文
    built.clear()
    post(runtime, BLUE)  # picked: the seat's face is built once, in its new language
    assert built == [BLUE] and "等待" in face_text(runtime, BLUE)
    post(runtime, BLUE, "ok", "hold")
    post(runtime, BLUE, "next", times=3)
    post(runtime, BLUE)
    post(runtime, BLUE, "prev")  # the table's language, last of the list
    post(runtime, BLUE)
    assert "Waiting for Red" in face_text(runtime, BLUE)
    built.clear()
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)  # Undo last action: every seat is asked
    assert set(built) == {RED, BLUE, GREEN}
    built.clear()
    post(runtime, BLUE, "next")  # a seat asked moves between yes and no
    assert built == [BLUE]


def test_a_seat_back_on_its_scores_page_after_a_question_it_was_asked_has_gone_keeps_its_cursor_on_close(mock_table):
    runtime = arranged(mock_table)
    post(runtime, BLUE, "ok", "hold")
    post(runtime, BLUE, "next")
    post(runtime, BLUE)  # Show scores
    post(runtime, RED, "ok", "hold")
    post(runtime, RED)  # Red asks to undo: Blue is asked
    post(runtime, BLUE, "next")  # Blue's cursor on "No"
    post(runtime, RED)  # Red cancels: Blue's page again, whose only choice is Close
    assert runtime.request is None and "Scores" in face_text(runtime, BLUE)
    post(runtime, BLUE)  # Close
    assert "Waiting for Red" in face_text(runtime, BLUE) and not runtime.seats[BLUE].mode
