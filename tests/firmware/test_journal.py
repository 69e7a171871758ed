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


# The whole message of every refusal: the file's path, the line, what is wrong with it. It is what a
# person setting up the table reads (the service's log, the screen's notice).
@pytest.mark.parametrize("lines, message", [
    ([], "{path}: empty, no header line"),
    (["", "{header}"], "{path}: empty, no header line"),
    (["{header}", "[1]"], "{path}: line 2 is not a JSON object"),
    (['{"hello": 1}'], "{path}: line 1 is not a courtier journal header"),
    (["{header}", '{"type":"move","n":1,"action":{}}'], "{path}: line 2 is not an action record"),
    (["{header}", '{"type":"action","n":2,"action":{}}'], "{path}: line 2 is action 2, expected 1"),
    (["{header}", '{"type":"undo","undoes":1}'], "{path}: line 2 undoes action 1, but the last action is 0"),
    (["{header}", "[" * 100_000 + "]" * 100_000],
     "{path}: line 2 is nested too deeply to be a journal record"),
    (["{header}", '{"type":"action",'],  # whole lines end in a newline: this one is not torn, it is bad
     "{path}: line 2 is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 18 (char 17))"),
])
def test_every_refusal_names_the_file_and_the_line_whole(tmp_path, lines, message):
    path = tmp_path / "game.jsonl"
    header = json.dumps({"type": "header", "kind": "courtier-journal", **Match.new("tenno", 2, seed=1).header.to_data()})
    path.write_text("".join(line.replace("{header}", header) + "\n" for line in lines))
    with pytest.raises(BadJournal) as refused:
        journals.load(path)
    assert str(refused.value) == message.format(path=path)


def test_a_cut_off_last_line_is_named_whole_in_the_warning(tmp_path):
    _, path = _saved_game(tmp_path, actions=2)
    path.write_bytes(path.read_bytes() + b'{"type":"act')
    loaded = journals.load(path)
    assert loaded.warnings == [f"{path}: line 4 was cut off (power lost while saving?) and is skipped"]
    assert loaded.newline_missing is False and len(loaded.actions) == 2


def test_a_seat_s_language_is_saved_as_its_own_record_and_read_back(tmp_path):
    _, path = _saved_game(tmp_path, actions=1)
    journal = Journal.resume(path, journals.load(path))
    journal.append_language(0, "zh_Hant")
    journal.append_language(2, "zh_Hans")
    journal.append_language(2, None)  # back to the table's language
    journal.append_language(1, "zh_Hans")
    journal.close()
    assert path.read_text().splitlines()[-4:] == [
        '{"type":"language","seat":0,"lang":"zh_Hant"}', '{"type":"language","seat":2,"lang":"zh_Hans"}',
        '{"type":"language","seat":2,"lang":null}', '{"type":"language","seat":1,"lang":"zh_Hans"}']
    loaded = journals.load(path)
    assert loaded.languages == {0: "zh_Hant", 1: "zh_Hans"} and loaded.warnings == []
    assert len(loaded.actions) == 1  # a language is no action: the game replays the same


@pytest.mark.parametrize("record", [
    {"seat": 3, "lang": "zh_Hant"},  # three seats: 0, 1, 2
    {"seat": -1, "lang": "zh_Hant"},
    {"seat": True, "lang": "zh_Hant"},
    {"seat": "1", "lang": "zh_Hant"},
    {"seat": 1, "lang": ""},
    {"seat": 1, "lang": 5},
    {"seat": 1},
    {"seat": 3, "lang": None},
    {"seat": -1, "lang": None},
    {"lang": None},
])
def test_a_language_record_that_names_no_seat_s_language_costs_only_itself(tmp_path, record):
    _, path = _saved_game(tmp_path, actions=1)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "language", "seat": 0, "lang": "zh_Hans"}) + "\n")
        handle.write(json.dumps({"type": "language", **record}) + "\n")
        handle.write(json.dumps({"type": "language", "seat": 2, "lang": "zh_Hant"}) + "\n")
    loaded = journals.load(path)
    assert loaded.languages == {0: "zh_Hans", 2: "zh_Hant"}
    assert loaded.warnings == [f"{path}: line 4 is not a seat's language and is skipped"]
    assert len(loaded.actions) == 1


def test_seat_zero_and_the_last_seat_have_languages_of_their_own(tmp_path):
    _, path = _saved_game(tmp_path, actions=1)
    journal = Journal.resume(path, journals.load(path))
    journal.append_language(0, "zh_Hant")
    journal.append_language(2, "zh_Hans")
    journal.append_language(0, None)
    journal.append_language(1, None)  # a seat already reading the table's language stays so
    journal.close()
    loaded = journals.load(path)
    assert loaded.languages == {2: "zh_Hans"} and loaded.warnings == []


def test_a_skipped_language_record_is_logged_as_a_warning(tmp_path, caplog):
    _, path = _saved_game(tmp_path, actions=1)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"type":"language","seat":9,"lang":"zh_Hant"}\n{"type":"language","seat":7,"lang":"x"}\n')
    with caplog.at_level("WARNING"):
        journals.load(path)
    assert [r.getMessage() for r in caplog.records if r.name == journals._log.name] == [
        f"{path}: line 3 is not a seat's language and is skipped",
        f"{path}: line 4 is not a seat's language and is skipped"]


def test_a_journal_file_is_readable_by_all_and_written_by_its_owner(tmp_path):
    old = os.umask(0)
    try:
        Journal.create(tmp_path / "g.jsonl", Match.new("tenno", 2, seed=1).header).close()
    finally:
        os.umask(old)
    assert (tmp_path / "g.jsonl").stat().st_mode & 0o777 == 0o644


def test_a_record_the_kernel_takes_in_parts_is_written_whole(tmp_path, monkeypatch):
    match, path = _saved_game(tmp_path, actions=3)
    journal = Journal.resume(path, journals.load(path))
    real = os.pwrite
    monkeypatch.setattr(os, "pwrite", lambda fd, data, offset: real(fd, data[:5], offset))
    journal.append_undo()
    journal.append(match.actions[2])
    journal.close()
    monkeypatch.undo()
    assert journals.load(path).actions == match.actions[:3]


def test_a_journal_closed_twice_closes_its_file_once(tmp_path):
    journal = Journal.create(tmp_path / "g.jsonl", Match.new("tenno", 2, seed=1).header)
    other = os.open(tmp_path / "other", os.O_WRONLY | os.O_CREAT)
    try:
        journal.close()
        journal.close()
        os.fstat(other)  # still open: a second close closed nothing
        for fd in (0, 1, 2):
            os.fstat(fd)
    finally:
        os.close(other)


def test_a_resume_that_fails_closes_the_file_it_opened(tmp_path, monkeypatch):
    _, path = _saved_game(tmp_path, actions=1)
    loaded = journals.load(path)
    before = set(os.listdir("/proc/self/fd"))

    def refuse(*args):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "ftruncate", refuse)
    with pytest.raises(OSError) as refused:
        Journal.resume(path, loaded)
    assert refused.value.errno == errno.EIO
    assert set(os.listdir("/proc/self/fd")) == before


def test_a_record_that_could_not_be_cut_back_is_logged_with_the_file_and_the_reason(tmp_path, monkeypatch, caplog):
    _, path = _saved_game(tmp_path, actions=1)
    journal = Journal.resume(path, journals.load(path))

    def refuse(*args):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", refuse)
    monkeypatch.setattr(os, "ftruncate", refuse)
    with caplog.at_level("ERROR"), pytest.raises(OSError):
        journal.append({"seat": 0, "do": "lost"})
    monkeypatch.undo()
    journal.close()
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        f"{path}: could not cut a refused record back off: [Errno 5] Input/output error"]


# --- zeros laid ahead of the records -------------------------------------------------

def _synced(monkeypatch) -> list[str]:
    """Record which sync each call makes, in order."""
    synced: list[str] = []
    real_fsync, real_fdatasync = os.fsync, os.fdatasync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "fdatasync", lambda fd: (synced.append("fdatasync"), real_fdatasync(fd))[1])
    return synced


def test_a_record_over_laid_zeros_is_synced_without_its_length_and_one_past_them_with_it(tmp_path, monkeypatch):
    """Over zeros laid ahead the file's length stays, so fdatasync suffices; past them the length is synced too."""
    synced = _synced(monkeypatch)
    path = tmp_path / "game.jsonl"
    journal = Journal.create(path, Match.new("tenno", 2, seed=1).header)
    assert synced == ["fsync", "fsync"]  # the header grew the file; then its folder
    assert journal.lay_ahead() and path.stat().st_size == journals.AHEAD
    synced.clear()
    record = {"seat": 0, "do": "pass", "note": "x" * 200}
    while journal.size + 300 < journals.AHEAD:
        journal.append(record)
    assert path.stat().st_size == journals.AHEAD and set(synced) == {"fdatasync"}
    journal.append(record)
    journal.append(record)  # past the laid zeros: each record grows the file and syncs its length
    assert synced[-2:] == ["fsync", "fsync"] and path.stat().st_size == journal.size
    journal.close()
    assert len(journals.load(path).actions) == journal.count


def test_zeros_are_laid_only_when_fewer_than_room_bytes_of_them_are_left(tmp_path):
    path = tmp_path / "game.jsonl"
    journal = Journal.create(path, Match.new("tenno", 2, seed=1).header)
    journal.lay_ahead()
    record = {"seat": 0, "do": "pass", "note": "x" * 200}
    while journals.AHEAD - journal.size >= journals.ROOM:
        assert journal.lay_ahead() and path.stat().st_size == journals.AHEAD
        journal.append(record)
    assert journal.lay_ahead() and path.stat().st_size == 2 * journals.AHEAD
    journal.close()


def test_a_card_with_no_room_for_the_zeros_saves_each_record_as_it_comes(tmp_path, caplog):
    """No zeros can be laid (a full card, here a file-size limit): nothing is left of the try, records still save."""
    match, path = _saved_game(tmp_path, actions=3)
    journal = Journal.resume(path, journals.load(path))
    saved = path.read_bytes()
    with file_size_limit(len(saved) + 1000), caplog.at_level("INFO"):
        assert not journal.lay_ahead()
        assert path.read_bytes() == saved
        journal.append(match.actions[0])
    assert "no zeros laid ahead" in caplog.text
    journal.close()
    assert len(journals.load(path).actions) == 4


def test_a_game_cut_off_while_it_plays_loads_to_its_last_saved_record(tmp_path):
    """A power cut leaves the zeros laid ahead after the records: a reader stops at the first."""
    match = Match.new("tenno", 3, seed=4)
    path = tmp_path / "game.jsonl"
    journal = Journal.create(path, match.header)
    rng = random.Random(4)
    for _ in range(5):
        action = rng.choice(match.legal_actions(rng.choice(match.pending())))
        match.apply(action)
        journal.append(action)
        journal.lay_ahead()
    live = path.read_bytes()  # what the card holds now, the process never closing the file
    assert live.endswith(bytes(100)) and live.rstrip(b"\0").endswith(b"}\n")
    os.close(journal._fd)
    loaded = journals.load(path)
    assert loaded.actions == match.actions and loaded.warnings == []
    assert loaded.good_bytes == len(live.rstrip(b"\0"))
    # A record torn by the cut, zeros after it, is skipped; resuming cuts it and the zeros off.
    path.write_bytes(live.rstrip(b"\0") + b'{"type":"action","n":6,"ac' + bytes(50))
    loaded = journals.load(path)
    assert loaded.actions == match.actions and "line 7 was cut off" in loaded.warnings[0]
    again = Journal.resume(path, loaded)
    assert path.read_bytes() == live.rstrip(b"\0")
    again.append(match.actions[0])
    again.close()
    assert b"\0" not in path.read_bytes() and len(journals.load(path).actions) == 6


def test_a_refused_record_over_laid_zeros_leaves_no_trace(tmp_path, monkeypatch):
    match, path = _saved_game(tmp_path, actions=3)
    journal = Journal.resume(path, journals.load(path))
    journal.lay_ahead()
    saved = journals.records_of(path.read_bytes())

    def refuse(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fdatasync", refuse)
    with pytest.raises(OSError):
        journal.append({"seat": 0, "do": "refused"})
    monkeypatch.undo()
    assert path.read_bytes() == saved and journal.count == 3  # the zeros went with it
    assert journal.lay_ahead() and path.stat().st_size == journals.AHEAD  # and are laid again
    journal.append(match.actions[0])
    journal.close()
    assert len(journals.load(path).actions) == 4 and b"refused" not in path.read_bytes()


def test_a_closed_journal_is_its_records_alone(tmp_path):
    match, path = _saved_game(tmp_path, actions=3)
    journal = Journal.resume(path, journals.load(path))
    journal.lay_ahead()
    journal.close()
    data = path.read_bytes()
    assert b"\0" not in data and data.endswith(b"}\n") and len(data.splitlines()) == 4


def test_zeros_a_closed_journal_could_not_cut_off_are_read_as_its_end(tmp_path, monkeypatch, caplog):
    path = tmp_path / "game.jsonl"
    journal = Journal.create(path, Match.new("tenno", 2, seed=1).header)
    journal.lay_ahead()

    def refuse(*args):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "ftruncate", refuse)
    with caplog.at_level("WARNING"):
        journal.close()
    monkeypatch.undo()
    assert path.stat().st_size == journals.AHEAD
    assert journals.load(path).header.game == "tenno"
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        f"{path}: could not cut the file to its records: [Errno 5] Input/output error"]


def _record_ending_at(journal: Journal, end: int) -> dict:
    """An action whose record ends the file exactly at `end`."""
    base = {"seat": 0, "do": "pass", "note": ""}
    size = len(journals._encode({"type": "action", "n": journal.count + 1, "action": base}))
    return {**base, "note": "x" * (end - journal.size - size)}


def test_a_record_that_ends_exactly_at_the_laid_zeros_is_synced_without_its_length(tmp_path, monkeypatch):
    journal = Journal.create(tmp_path / "game.jsonl", Match.new("tenno", 2, seed=1).header)
    journal.lay_ahead()
    synced = _synced(monkeypatch)
    journal.append(_record_ending_at(journal, journals.AHEAD))
    assert journal.size == journals.AHEAD and synced == ["fdatasync"]
    journal.close()


def test_laying_ahead_with_room_left_makes_no_system_call_and_exactly_room_is_enough(tmp_path, monkeypatch):
    journal = Journal.create(tmp_path / "game.jsonl", Match.new("tenno", 2, seed=1).header)
    journal.lay_ahead()
    journal.append(_record_ending_at(journal, journals.AHEAD - journals.ROOM))
    synced = _synced(monkeypatch)
    assert journal.lay_ahead() and synced == [] and (tmp_path / "game.jsonl").stat().st_size == journals.AHEAD
    journal.append({"seat": 0, "do": "pass"})  # less than ROOM left now: more are laid
    synced.clear()
    assert journal.lay_ahead() and synced == ["fsync"]
    assert (tmp_path / "game.jsonl").stat().st_size == 2 * journals.AHEAD
    journal.close()


def test_zeros_the_kernel_takes_in_parts_are_laid_whole(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    journal = Journal.create(path, Match.new("tenno", 2, seed=1).header)
    header = path.read_bytes()
    real = os.pwrite
    monkeypatch.setattr(os, "pwrite", lambda fd, data, offset: real(fd, data[:1000], offset))
    assert journal.lay_ahead()
    monkeypatch.undo()
    data = path.read_bytes()
    assert len(data) == journals.AHEAD and data == header + bytes(journals.AHEAD - len(header))


def test_a_refused_lay_ahead_is_logged_with_the_file_and_the_reason(tmp_path, caplog):
    match, path = _saved_game(tmp_path, actions=1)
    journal = Journal.resume(path, journals.load(path))
    with file_size_limit(path.stat().st_size + 10), caplog.at_level("INFO"):
        assert not journal.lay_ahead()
    assert [r.getMessage() for r in caplog.records if r.levelname == "INFO"] == [
        f"{path}: no zeros laid ahead ([Errno 27] File too large): records grow the file"]
    journal.close()


def test_zeros_half_laid_that_could_not_be_cut_off_are_cut_before_the_next_record(tmp_path, monkeypatch):
    """The card fills up while zeros are laid and the cut after it fails too: the next write cuts first,
    so the zeros do not stay behind the records, not even in the closed journal."""
    match, path = _saved_game(tmp_path, actions=2)
    journal = Journal.resume(path, journals.load(path))
    saved = path.read_bytes()
    real = os.pwrite
    laid = []

    def fills_up(fd, data, offset):  # 1,000 zeros go down, then the card is full
        if laid:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        laid.append(offset)
        return real(fd, data[:1000], offset)

    def refuse(*args):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "pwrite", fills_up)
    monkeypatch.setattr(os, "ftruncate", refuse)
    assert not journal.lay_ahead()
    monkeypatch.undo()
    assert len(path.read_bytes()) == len(saved) + 1000  # zeros left behind, for now
    journal.append(match.actions[0])
    journal.close()
    assert b"\0" not in path.read_bytes() and len(journals.load(path).actions) == 3


def test_a_long_refused_record_that_could_not_be_cut_leaves_nothing_behind_a_shorter_next_one(tmp_path, monkeypatch):
    match, path = _saved_game(tmp_path, actions=2)
    journal = Journal.resume(path, journals.load(path))

    def refuse(*args):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fsync", refuse)
    monkeypatch.setattr(os, "ftruncate", refuse)
    with pytest.raises(OSError):
        journal.append({"seat": 0, "do": "lost", "note": "y" * 500})
    monkeypatch.undo()
    uncut = path.read_bytes()
    assert journal.lay_ahead() and path.read_bytes() == uncut  # no zeros after a record not cut off yet
    journal.append({"seat": 0, "do": "pass"})
    journal.close()
    assert b"y" * 10 not in path.read_bytes() and len(journals.load(path).actions) == 3


def test_a_file_that_begins_with_zeros_has_no_records(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(bytes(100) + b'{"type":"header"}\n')
    assert journals.records_of(path.read_bytes()) == b""
    with pytest.raises(BadJournal, match="empty, no header line"):
        journals.load(path)
