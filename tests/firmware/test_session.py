"""Starting the table: resume the unfinished game, keep unreadable journals aside, never lose one."""

from __future__ import annotations

import random

from firmware.table.paths import CURRENT
from firmware.table.session import open_session


def _play(session, count, seed=0):
    rng = random.Random(seed)
    for _ in range(count):
        match = session.match
        seat = rng.choice(match.pending())
        action = rng.choice(match.legal_actions(seat))
        match.apply(action)
        session.journal.append(action)
    session.journal.close()


def test_an_unfinished_game_is_resumed_where_it_stopped(tmp_path):
    first = open_session(tmp_path, "tenno", 3, seed=5)
    _play(first, 12)
    again = open_session(tmp_path, None, 3)
    assert again.resumed and again.match.state == first.match.state
    assert "Resumed tenno after 12 actions." in again.messages


def test_a_torn_last_line_is_dropped_and_the_game_resumes(tmp_path):
    first = open_session(tmp_path, "tenno", 3, seed=5)
    _play(first, 6)
    path = tmp_path / CURRENT
    path.write_bytes(path.read_bytes() + b'{"type":"act')
    again = open_session(tmp_path, "tenno", 3)
    assert again.resumed and len(again.match.actions) == 6
    assert any("cut off" in m for m in again.messages)


def test_an_unreadable_journal_is_kept_aside_and_a_new_game_starts(tmp_path):
    path = tmp_path / CURRENT
    path.write_text("garbage\n")
    session = open_session(tmp_path, "tenno", 3, seed=1)
    kept = list(tmp_path.glob("current.unreadable-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_text() == "garbage\n"
    assert str(kept[0]) in session.messages[0]
    assert not session.resumed and session.match.actions == []


def test_asking_for_a_new_game_keeps_the_old_one_under_games(tmp_path):
    first = open_session(tmp_path, "tenno", 3, seed=5)
    _play(first, 4)
    second = open_session(tmp_path, "tenno", 4, seed=6, new=True)
    assert not second.resumed and second.match.header.players == 4
    kept = list((tmp_path / "games").glob("tenno-unfinished-*.jsonl"))
    assert len(kept) == 1 and len(kept[0].read_text().splitlines()) == 5


def test_ending_a_game_at_the_table_keeps_it_and_starts_the_same_game_anew(tmp_path):
    from firmware.play import add_session_commands
    from firmware.table.runtime import Command, Runtime

    session = open_session(tmp_path, "tenno", 3, seed=5)
    runtime = Runtime(session.match, [None, None, None], session.journal)
    add_session_commands(runtime, tmp_path)
    runtime.submit({"seat": 0, "do": "arrange", "order": [1, 2, 3]})
    replies = []
    runtime.post(Command("end_game", reply=replies.append))
    runtime.drain()
    assert replies == ["A new game of Tennō begins"]
    assert runtime.match.actions == [] and runtime.match.header.game == "tenno"
    assert len(list((tmp_path / "games").glob("tenno-unfinished-*.jsonl"))) == 1
    runtime.post(Command("new_game", {"game": "quovadis"}, reply=replies.append))
    runtime.drain()
    assert runtime.match.header.game == "quovadis" and replies[-1] == "A new game of Quo Vadis begins"
    assert runtime.submit({"seat": runtime.match.pending()[0], "do": "caesar", "path": "p07"})
    again = open_session(tmp_path, None, 3)
    assert again.resumed and again.match.header.game == "quovadis" and len(again.match.actions) == 1
    again.journal.close()


def test_a_new_game_that_cannot_start_leaves_the_current_one_in_place(tmp_path):
    from firmware.play import add_session_commands
    from firmware.table.runtime import Command, Runtime

    session = open_session(tmp_path, "tenno", 3, seed=5)
    runtime = Runtime(session.match, [None, None, None], session.journal)
    add_session_commands(runtime, tmp_path)
    runtime.submit({"seat": 0, "do": "arrange", "order": [1, 2, 3]})
    replies = []
    runtime.post(Command("new_game", {"game": "chess"}, reply=replies.append))
    runtime.post(Command("new_game", {"game": "quovadis", "options": {"bogus": 1}}, reply=replies.append))
    runtime.drain()
    assert "new_game failed: no game called 'chess'" in replies[0]
    assert "bogus" in replies[1]
    assert runtime.match.header.game == "tenno" and len(runtime.match.actions) == 1
    assert not (tmp_path / "games").exists()
    runtime.journal.close()
    assert open_session(tmp_path, None, 3).resumed
