"""The journal: fsynced JSON lines, torn last line skipped, bad lines named, never overwritten."""

from __future__ import annotations

import errno
import json
import os
import random

import pytest

from engine.errors import BadJournal
from engine.match import Match
from engine.testing import play_random
from firmware.table import journal as journals
from firmware.table.journal import Journal
from firmware.testing import file_size_limit


def _saved_game(tmp_path, actions=20):
    match = Match.new("tenno", 3, seed=4)
    path = tmp_path / "game.jsonl"
    journal = Journal.create(path, match.header)
    rng = random.Random(4)
    for _ in range(actions):
        seat = rng.choice(match.pending())
        action = rng.choice(match.legal_actions(seat))
        match.apply(action)
        journal.append(action)
    journal.close()
    return match, path


def test_journal_replays_to_the_same_state(tmp_path):
    match, path = _saved_game(tmp_path)
    loaded = journals.load(path)
    assert loaded.warnings == []
    again = Match.replay(loaded.header, loaded.actions)
    assert again.state == match.state and again.actions == match.actions


def test_journal_never_overwrites_an_existing_file(tmp_path):
    match, path = _saved_game(tmp_path)
    with pytest.raises(FileExistsError):
        Journal.create(path, match.header)


def test_torn_last_line_is_skipped_with_a_warning_and_cut_on_resume(tmp_path):
    match, path = _saved_game(tmp_path)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"type":"action","n":21,"act')
    loaded = journals.load(path)
    assert len(loaded.actions) == 20
    assert "line 22 was cut off" in loaded.warnings[0]
    journal = Journal.resume(path, loaded)
    journal.append({"seat": 0, "do": "x"})
    journal.close()
    lines = path.read_bytes().split(b"\n")
    assert json.loads(lines[-2])["n"] == 21  # appended cleanly after the cut


def test_malformed_line_in_the_middle_is_named(tmp_path):
    _, path = _saved_game(tmp_path)
    lines = path.read_text().splitlines()
    lines[5] = "{not json"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BadJournal, match="line 6 is not valid JSON"):
        journals.load(path)


def test_missing_or_reordered_action_is_named(tmp_path):
    _, path = _saved_game(tmp_path)
    lines = path.read_text().splitlines()
    del lines[3]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BadJournal, match="is action 4, expected 3"):
        journals.load(path)


def test_a_file_that_is_not_a_journal_is_refused(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(BadJournal, match="not a courtier journal header"):
        journals.load(path)
    path.write_text("")
    with pytest.raises(BadJournal, match="empty"):
        journals.load(path)


def test_an_action_that_does_not_replay_is_named(tmp_path):
    match = Match.new("tenno", 2, seed=1)
    path = tmp_path / "bad.jsonl"
    journal = Journal.create(path, match.header)
    journal.append({"seat": 0, "do": "attack", "slot": 0, "target": 1, "target_slot": 0})
    journal.close()
    loaded = journals.load(path)
    with pytest.raises(BadJournal, match="saved action 1 does not replay"):
        Match.replay(loaded.header, loaded.actions)


def test_keep_aside_moves_the_file_to_a_new_name(tmp_path):
    _, path = _saved_game(tmp_path, actions=2)
    content = path.read_bytes()
    first = journals.keep_aside(path)
    path.write_bytes(b"again")
    second = journals.keep_aside(path)
    assert first != second and first.read_bytes() == content and second.read_bytes() == b"again"
    assert not path.exists()


def test_a_finished_game_journal_replays_to_its_result(tmp_path):
    match = play_random(Match.new("tenno", 4, seed=9), random.Random(9))
    path = tmp_path / "done.jsonl"
    journal = Journal.create(path, match.header)
    for action in match.actions:
        journal.append(action)
    journal.close()
    loaded = journals.load(path)
    assert Match.replay(loaded.header, loaded.actions).result() == match.result()


def test_an_undo_record_takes_the_last_action_back_on_load(tmp_path):
    match, path = _saved_game(tmp_path, actions=5)
    journal = Journal.resume(path, journals.load(path))
    journal.append_undo()
    journal.append_undo()
    journal.append(match.actions[3])
    journal.close()
    loaded = journals.load(path)
    assert loaded.actions == match.actions[:4]


def test_an_undo_that_does_not_match_the_last_action_is_named(tmp_path):
    _, path = _saved_game(tmp_path, actions=2)
    with open(path, "a") as handle:
        handle.write('{"type":"undo","undoes":7}\n')
    with pytest.raises(BadJournal, match="undoes action 7, but the last action is 2"):
        journals.load(path)


def test_true_is_never_read_as_an_action_number_or_an_undo_of_action_one(tmp_path):
    """JSON's true equals 1 in Python: a journal that says `"n":true` or `"undoes":true` is refused by name."""
    _, path = _saved_game(tmp_path, actions=1)
    whole = path.read_text()
    path.write_text(whole.replace('"n":1', '"n":true'))
    with pytest.raises(BadJournal, match="line 2 is action True, expected 1"):
        journals.load(path)
    path.write_text(whole + '{"type":"undo","undoes":true}\n')
    with pytest.raises(BadJournal, match="line 3 undoes action True, but the last action is 1"):
        journals.load(path)
    path.write_text(whole.replace('"seed":4', '"seed":true'))
    with pytest.raises(BadJournal, match="players and seed must be integers"):
        journals.load(path)


def test_the_journal_holds_the_header_then_numbered_actions_and_undos_as_json_lines(tmp_path):
    match, path = _saved_game(tmp_path, actions=2)
    journal = Journal.resume(path, journals.load(path))
    assert journal.count == 2
    journal.append_undo()
    assert journal.count == 1
    journal.close()
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0] == {"type": "header", "kind": "courtier-journal", **match.header.to_data()}
    assert records[1:] == [{"type": "action", "n": 1, "action": match.actions[0]},
                           {"type": "action", "n": 2, "action": match.actions[1]},
                           {"type": "undo", "undoes": 2}]
    assert path.read_text().endswith("\n") and ", " not in path.read_text()  # compact, whole lines


def test_an_undo_with_nothing_to_take_back_is_refused_on_write_and_on_load(tmp_path):
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path, Match.new("tenno", 2, seed=1).header)
    with pytest.raises(ValueError) as refused:
        journal.append_undo()
    assert str(refused.value) == "nothing to undo"
    journal.close()
    with open(path, "a") as handle:
        handle.write('{"type":"undo","undoes":0}\n')
    with pytest.raises(BadJournal, match="line 2 undoes action 0, but the last action is 0"):
        journals.load(path)


def test_a_journal_is_made_with_its_folders_and_keeps_its_path(tmp_path):
    path = tmp_path / "state" / "games" / "game.jsonl"
    journal = Journal.create(path, Match.new("tenno", 2, seed=1).header)
    journal.close()
    assert journal.path == path and path.exists()
    resumed = Journal.resume(path, journals.load(path))
    resumed.close()
    assert resumed.path == path and resumed.count == 0


def test_names_in_any_script_stay_readable_in_the_file(tmp_path):
    """The journal is for people too: names are written as UTF-8, not as \\u escapes."""
    path = tmp_path / "g.jsonl"
    header = Match.new("tenno", 2, seed=1, names=["天皇", "Jürgen"]).header
    Journal.create(path, header).close()
    assert "天皇" in path.read_bytes().decode("utf-8") and "\\u" not in path.read_text(encoding="utf-8")
    assert journals.load(path).header.names == ("天皇", "Jürgen")


def test_a_last_line_whole_but_without_its_newline_is_kept_and_the_next_action_goes_on_a_new_line(tmp_path):
    """A power cut between a record and its newline loses nothing, and what is appended later still reads."""
    match, path = _saved_game(tmp_path, actions=3)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    loaded = journals.load(path)
    assert loaded.actions == match.actions and loaded.warnings == []
    assert loaded.good_bytes == len(path.read_bytes())
    journal = Journal.resume(path, loaded)
    journal.append({"seat": 0, "do": "x"})
    journal.close()
    assert journals.load(path).actions == match.actions + [{"seat": 0, "do": "x"}]


def test_a_torn_line_is_logged_as_a_warning(tmp_path, caplog):
    _, path = _saved_game(tmp_path, actions=2)
    path.write_bytes(path.read_bytes() + b'{"type":"act')
    with caplog.at_level("WARNING", logger="firmware.table.journal"):
        loaded = journals.load(path)
    assert [r.getMessage() for r in caplog.records] == loaded.warnings and "line 4 was cut off" in loaded.warnings[0]


def test_blank_lines_are_skipped_wherever_they_are(tmp_path):
    match, path = _saved_game(tmp_path, actions=4)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2] + ["", "  "] + lines[2:]) + "\n")
    assert journals.load(path).actions == match.actions


def test_actions_after_an_undo_are_read(tmp_path):
    match, path = _saved_game(tmp_path, actions=3)
    journal = Journal.resume(path, journals.load(path))
    journal.append_undo()
    journal.append({"seat": 1, "do": "other"})
    journal.close()
    assert journals.load(path).actions == match.actions[:2] + [{"seat": 1, "do": "other"}]


@pytest.mark.parametrize("line, message", [
    ("[1, 2]", "line 3 is not a JSON object"),
    ('{"type":"action","n":2}', "line 3 is not an action record"),
    ('{"type":"move","n":2,"action":{"seat":0,"do":"x"}}', "line 3 is not an action record"),
    ('{"type":"action","n":2,"action":[0]}', "line 3 is not an action record"),
])
def test_a_record_that_is_not_an_action_is_named(tmp_path, line, message):
    _, path = _saved_game(tmp_path, actions=1)
    path.write_text(path.read_text() + line + "\n")
    with pytest.raises(BadJournal, match=message):
        journals.load(path)


@pytest.mark.parametrize("change", [{"type": "action"}, {"kind": "another-journal"}])
def test_a_header_needs_both_its_type_and_its_kind(tmp_path, change):
    _, path = _saved_game(tmp_path, actions=1)
    lines = path.read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), **change})
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BadJournal, match="line 1 is not a courtier journal header"):
        journals.load(path)


def test_an_unreadable_file_is_named_with_the_reason(tmp_path):
    path = tmp_path / "missing.jsonl"
    with pytest.raises(journals.Unreadable) as refused:
        journals.load(path)
    assert str(refused.value) == f"{path}: cannot read: No such file or directory"


def test_keep_aside_numbers_from_one_and_gives_up_after_9999(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text("x")
    assert journals.keep_aside(path).name == "game.unreadable-1.jsonl"
    for n in range(2, 10_000):
        (tmp_path / f"game.unreadable-{n}.jsonl").touch()
    path.write_text("y")
    with pytest.raises(OSError, match="no free name to keep .*game.jsonl aside"):
        journals.keep_aside(path)
    assert path.read_text() == "y"


def test_the_journal_is_utf_8_whatever_the_locale(tmp_path, c_locale):
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path, Match.new("tenno", 2, seed=1, names=["天皇", "Jürgen"]).header)
    journal.close()
    journal = Journal.resume(path, journals.load(path))
    journal.append({"seat": 0, "do": "x", "note": "über"})
    journal.close()
    loaded = journals.load(path)
    assert loaded.header.names == ("天皇", "Jürgen") and loaded.actions == [{"seat": 0, "do": "x", "note": "über"}]


def test_blanks_after_the_last_line_are_cut_before_the_next_action(tmp_path):
    match, path = _saved_game(tmp_path, actions=2)
    whole = path.read_bytes()
    path.write_bytes(whole + b"  \t")
    loaded = journals.load(path)
    assert loaded.actions == match.actions and loaded.good_bytes == len(whole)
    journal = Journal.resume(path, loaded)
    journal.append({"seat": 0, "do": "x"})
    journal.close()
    assert path.read_bytes().startswith(whole) and b"\0" not in path.read_bytes()
    assert journals.load(path).actions == match.actions + [{"seat": 0, "do": "x"}]


# --- faults of a real card --------------------------------------------------------

def test_a_write_refused_by_the_file_size_limit_leaves_no_trace_and_the_next_record_follows(tmp_path):
    """A refused record never reaches the file later: the next accepted one is numbered after the last saved."""
    match, path = _saved_game(tmp_path, actions=3)
    journal = Journal.resume(path, journals.load(path))
    saved = path.read_bytes()
    with file_size_limit(len(saved) + 10):  # room for ten bytes: the record is cut mid-line
        with pytest.raises(OSError) as refused:
            journal.append({"seat": 0, "do": "refused"})
    assert refused.value.errno == errno.EFBIG
    assert path.read_bytes() == saved and journal.count == 3
    journal.append(match.actions[0] | {"note": "next"})
    journal.close()
    lines = path.read_text().splitlines()
    assert json.loads(lines[-1])["n"] == 4 and json.loads(lines[-1])["action"]["note"] == "next"
    assert len(journals.load(path).actions) == 4


def test_an_undo_refused_by_the_disk_leaves_no_trace(tmp_path):
    match, path = _saved_game(tmp_path, actions=3)
    journal = Journal.resume(path, journals.load(path))
    saved = path.read_bytes()
    with file_size_limit(len(saved)), pytest.raises(OSError):
        journal.append_undo()
    assert path.read_bytes() == saved and journal.count == 3
    journal.append_undo()
    journal.close()
    assert journals.load(path).actions == match.actions[:2]


def test_a_refused_write_that_could_not_be_cut_back_is_cut_before_the_next(tmp_path, monkeypatch):
    """If even the cut after a refused write fails, the next write cuts first: the file never holds it."""
    match, path = _saved_game(tmp_path, actions=2)
    journal = Journal.resume(path, journals.load(path))
    saved = path.read_bytes()

    def refuse(*args):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fsync", refuse)
    monkeypatch.setattr(os, "ftruncate", refuse)
    with pytest.raises(OSError):
        journal.append({"seat": 0, "do": "lost"})
    monkeypatch.undo()
    assert len(path.read_bytes()) > len(saved)  # the refused record is still there, for now
    journal.append(match.actions[0])
    journal.close()
    assert "lost" not in path.read_text()
    assert len(journals.load(path).actions) == 3


def test_a_whole_last_record_without_its_newline_gets_one_before_anything_is_appended(tmp_path):
    match, path = _saved_game(tmp_path, actions=4)
    path.write_bytes(path.read_bytes().removesuffix(b"\n"))  # cut exactly before the last byte
    loaded = journals.load(path)
    assert loaded.actions == match.actions and loaded.warnings == []
    journal = Journal.resume(path, loaded)
    assert path.read_bytes().endswith(b"}\n")  # mended (and fsynced) before any append
    journal.append(match.actions[0])
    journal.close()
    assert len(journals.load(path).actions) == 5


def test_a_line_nested_too_deeply_for_the_parser_is_a_bad_line(tmp_path):
    _, path = _saved_game(tmp_path, actions=3)
    lines = path.read_text().splitlines()
    lines[2] = "[" * 100_000 + "]" * 100_000
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BadJournal, match="line 3 is nested too deeply"):
        journals.load(path)
    path.write_text("\n".join(lines[:2]) + "\n" + '{"a":' * 50_000)  # the same as a torn last line
    loaded = journals.load(path)
    assert len(loaded.actions) == 1 and "line 3 was cut off" in loaded.warnings[0]


def test_a_journal_that_cannot_be_read_is_unreadable_not_bad(tmp_path, monkeypatch):
    """An I/O error says nothing about the file's content: it must never be taken for damage."""
    _, path = _saved_game(tmp_path, actions=2)

    def failing(self):
        raise OSError(errno.EIO, os.strerror(errno.EIO), str(self))

    monkeypatch.setattr(type(path), "read_bytes", failing)
    with pytest.raises(journals.Unreadable, match="Input/output error") as err:
        journals.load(path)
    assert err.value.errno == errno.EIO and not isinstance(err.value, BadJournal)


def test_a_header_that_cannot_be_written_leaves_no_file(tmp_path):
    match = Match.new("tenno", 3, seed=4)
    path = tmp_path / "new.jsonl"
    with file_size_limit(10), pytest.raises(OSError):
        Journal.create(path, match.header)
    assert not path.exists()
