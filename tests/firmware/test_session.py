"""Starting the table: resume the unfinished game, keep unreadable journals aside, never lose one."""

from __future__ import annotations

import random

from firmware.paths import CURRENT
from firmware.session import open_session


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
