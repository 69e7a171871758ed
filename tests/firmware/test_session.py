"""Starting the table: resume the unfinished game, keep unreadable journals aside, never lose one."""

from __future__ import annotations

import errno
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from engine.match import Match
from firmware.exits import CONFIG, StartupError
from firmware.table.journal import Journal
from firmware.table.paths import CURRENT, NEXT
from firmware.table.session import open_session, prepare_state_dir
from firmware.testing import face_text, file_size_limit, post, unprivileged, unprivileged_python

ROOT = Path(__file__).resolve().parents[2]


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
    assert again.messages == ["Resumed Tennō (3 players) after 12 actions."]
    assert again.notice == "Resumed Tennō after 12 actions" and not again.alarm


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
    assert not session.resumed and session.match.actions == [] and session.alarm


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


# --- the state directory and the saved game, when something outside the game is wrong --------

def test_a_journal_unreadable_for_an_io_error_stops_the_start_and_stays_where_it_is(tmp_path, monkeypatch):
    first = open_session(tmp_path, "tenno", 3, seed=5)
    _play(first, 4)
    path = tmp_path / CURRENT
    content = path.read_bytes()

    def failing(self):
        raise OSError(errno.EIO, os.strerror(errno.EIO), str(self))

    monkeypatch.setattr(type(path), "read_bytes", failing)
    with pytest.raises(StartupError, match="cannot be read .*Input/output error.*left as it is.*card") as err:
        open_session(tmp_path, None, 3)
    assert err.value.status == CONFIG and "\n" not in str(err.value)
    monkeypatch.undo()
    assert path.read_bytes() == content and not list(tmp_path.glob("current.unreadable-*"))
    assert open_session(tmp_path, None, 3).resumed


UNREADABLE = """
import sys
from pathlib import Path
from firmware.exits import StartupError
from firmware.table.session import open_session, prepare_state_dir
try:
    open_session(Path(sys.argv[1]), None, 3)
except StartupError as err:
    print(err)
"""


def test_a_journal_the_user_may_not_read_is_never_moved_aside(tmp_path):
    """Permission denied is the file's owner, not its content: refuse to start, name the fix, move nothing."""
    state = Path(tempfile.mkdtemp(prefix="courtier-perm-"))
    try:
        os.chmod(state, 0o777)
        first = open_session(state, "tenno", 3, seed=5)
        _play(first, 4)
        path = state / CURRENT
        os.chmod(path, 0o600)
        if os.geteuid() == 0:
            os.chown(path, 0, 0)  # root's file; the table runs as nobody
        else:
            os.chmod(path, 0)
        try:
            python, env = unprivileged_python(str(ROOT))
        except RuntimeError as why:
            pytest.skip(f"cannot drop root's privileges for this test: {why}")
        result = subprocess.run([*python, "-c", UNREADABLE, str(state)], capture_output=True, text=True,
                                cwd=state, env=dict(os.environ, **dict(env)), timeout=60, **unprivileged())
        assert "Permission denied" in result.stdout and "chown -R courtier:" in result.stdout, result
        assert sorted(p.name for p in state.iterdir()) == [CURRENT]
        os.chmod(path, 0o644)
        assert open_session(state, None, 3).resumed
    finally:
        shutil.rmtree(state)


def test_a_state_directory_that_is_a_file_is_named_with_what_to_do(tmp_path):
    (tmp_path / "state").write_text("not a directory")
    with pytest.raises(StartupError, match="state directory .*state is not a directory: move that file away"):
        prepare_state_dir(tmp_path / "state")


def test_a_dangling_saved_game_link_is_named_with_what_to_do(tmp_path):
    (tmp_path / CURRENT).symlink_to(tmp_path / "elsewhere.jsonl")
    with pytest.raises(StartupError, match="is a link to .*elsewhere.jsonl, which does not exist"):
        prepare_state_dir(tmp_path)
    assert (tmp_path / CURRENT).is_symlink()


def test_the_table_checks_its_state_directory_once_before_it_locks_it(tmp_path, monkeypatch):
    """`courtier play` makes the directory ready for its lock; opening the saved game does not do it again."""
    from firmware import cli, play
    from firmware.table import session

    checked = []
    real = session.prepare_state_dir
    monkeypatch.setattr(session, "prepare_state_dir", lambda directory: checked.append(directory) or real(directory))
    monkeypatch.setattr(play, "serve", lambda runtime, **_: None)  # the table starts, then stops at once
    state = tmp_path / "state"
    assert cli.main(["play", "tenno", "--ui", "none", "--state-dir", str(state), "--lang", "en"]) == 0
    assert checked == [state] and (state / CURRENT).exists()


def test_a_saved_game_for_more_seats_than_the_table_has_is_kept_and_a_new_game_starts(tmp_path):
    first = open_session(tmp_path, "quovadis", 5, seed=5)
    _play(first, 6)
    saved = (tmp_path / CURRENT).read_bytes()
    session = open_session(tmp_path, None, 4, seats=4)
    assert not session.resumed
    assert session.match.header.game == "quovadis" and session.match.header.players == 4
    kept = list((tmp_path / "games").glob("quovadis-unfinished-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes() == saved
    assert session.messages == ["The saved game of Quo Vadis is for 5 players, but this table has 4 seats.",
                                f"The previous game is kept as {kept[0]}."]
    session.journal.close()
    small = open_session(tmp_path, None, 2, seats=2)  # too few seats for Quo Vadis itself: the default game
    assert small.match.header.game == "tenno" and small.match.header.players == 2
    small.journal.close()


def test_a_new_game_whose_journal_cannot_be_written_leaves_the_old_game_current(tmp_path):
    from firmware.play import add_session_commands
    from firmware.table.runtime import Command, Runtime

    session = open_session(tmp_path, "tenno", 3, seed=5)
    runtime = Runtime(session.match, [None, None, None], session.journal)
    add_session_commands(runtime, tmp_path)
    runtime.submit({"seat": 0, "do": "arrange", "order": [1, 2, 3]})
    replies = []
    with file_size_limit(20):
        runtime.run_command(Command("new_game", {"game": "quovadis"}, reply=replies.append))
    assert replies[0].startswith("new_game failed") and "File too large" in replies[0]
    assert not (tmp_path / "games").exists() or not list((tmp_path / "games").iterdir())
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "games") == [CURRENT]
    assert runtime.submit({"seat": 1, "do": "arrange", "order": [1, 2, 3]})  # the table plays on, into current
    runtime.journal.close()
    again = open_session(tmp_path, None, 3)
    assert again.resumed and again.match.header.game == "tenno" and len(again.match.actions) == 2
    again.journal.close()


def test_ending_the_game_agreed_at_the_table_on_a_disk_that_refuses_writes_tells_the_asker(tmp_path):
    from firmware.play import add_session_commands
    from firmware.table.runtime import Runtime
    from hardware.events import InputEvent

    session = open_session(tmp_path, "tenno", 3, seed=5)
    runtime = Runtime(session.match, [None, None, None], session.journal)
    add_session_commands(runtime, tmp_path)
    runtime.submit({"seat": 0, "do": "arrange", "order": [1, 2, 3]})
    post(runtime, 0, "ok", "hold")  # Red asks the table to end the game: the table menu,
    post(runtime, 0, "prev", times=2)
    post(runtime, 0)  # End the game
    assert runtime.request is not None and runtime.request.kind == "end"
    runtime.post(InputEvent(2, "ok", "press"))  # Green agrees, while the card is full
    with file_size_limit(20):
        runtime.drain()
    assert runtime.request is None
    told = face_text(runtime, 0)
    assert "failed" in told and "File too large" in told
    assert runtime.match.header.game == "tenno" and len(runtime.match.actions) == 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "games") == [CURRENT]
    assert runtime.submit({"seat": 1, "do": "arrange", "order": [1, 2, 3]})  # the table plays on
    runtime.journal.close()
    again = open_session(tmp_path, None, 3)
    assert again.resumed and len(again.match.actions) == 2
    again.journal.close()


def test_a_new_game_whose_seats_languages_cannot_be_saved_still_begins_on_every_seat(tmp_path, monkeypatch):
    from engine.games import get_game
    from firmware.play import add_session_commands
    from firmware.table import session as sessions
    from firmware.table.runtime import Command, Runtime

    session = open_session(tmp_path, "tenno", 3, seed=5)
    runtime = Runtime(session.match, [None, None, None], session.journal, languages={1: "zh_Hant"})
    monkeypatch.setattr(sessions, "new_seed", lambda: 1)  # the new game's header, known to the byte
    add_session_commands(runtime, tmp_path)
    runtime.submit({"seat": 0, "do": "arrange", "order": [1, 2, 3]})
    names = get_game("quovadis").table_names(runtime.match.names, 3)
    probe = Journal.create(tmp_path / "probe.jsonl", Match.new("quovadis", 3, seed=1, names=names).header)
    probe.close()
    header = probe.path.stat().st_size
    probe.path.unlink()
    replies = []
    with file_size_limit(header + 1):  # room for the new game's header, none for the language record
        runtime.run_command(Command("new_game", {"game": "quovadis"}, reply=replies.append))
    assert replies == ["A new game of Quo Vadis begins"]
    assert runtime.match.header.game == "quovadis" and runtime.match.actions == []
    assert all(seat.face is not None and seat.mode == "" for seat in runtime.seats)
    assert "元老" in runtime.seats[1].face.header or "元老" in " ".join(runtime.seats[1].face.panel)
    runtime.journal.close()
    again = open_session(tmp_path, None, 3)
    assert again.resumed and again.match.header.game == "quovadis" and again.languages == {}
    again.journal.close()


def test_a_new_game_cut_off_halfway_by_a_power_cut_loses_neither_game(tmp_path):
    """The new game's journal exists before the old moves: a cut between the two renames loses nothing."""
    first = open_session(tmp_path, "tenno", 3, seed=5)
    _play(first, 3)
    old = (tmp_path / CURRENT).read_bytes()
    pending = Journal.create(tmp_path / NEXT, Match.new("quovadis", 3, seed=1).header)
    pending.close()
    # The cut came after the old game moved under games/ and before the new one took its place.
    (tmp_path / "games").mkdir()
    os.replace(tmp_path / CURRENT, tmp_path / "games" / "tenno-unfinished-001.jsonl")
    again = open_session(tmp_path, None, 3)
    assert again.resumed and again.match.header.game == "quovadis" and not (tmp_path / NEXT).exists()
    assert (tmp_path / "games" / "tenno-unfinished-001.jsonl").read_bytes() == old
    again.journal.close()
    # A cut before the old game moved: the new game never began, the old one resumes.
    pending = Journal.create(tmp_path / NEXT, Match.new("tenno", 3, seed=1).header)
    pending.close()
    third = open_session(tmp_path, None, 3)
    assert third.resumed and third.match.header.game == "quovadis" and not (tmp_path / NEXT).exists()
    third.journal.close()


def test_the_table_lock_names_its_holder_and_is_free_again_once_released(tmp_path):
    from firmware.exits import TableBusy
    from firmware.table.lock import TableLock

    first = TableLock.acquire(tmp_path)
    with pytest.raises(TableBusy, match=rf"another courtier is running the table in .* \(pid {os.getpid()}: "):
        TableLock.acquire(tmp_path)
    first.release()
    TableLock.acquire(tmp_path).release()


def test_the_table_lock_names_its_holder_in_the_tables_language(tmp_path):
    from engine import i18n
    from firmware.exits import TableBusy
    from firmware.table.lock import LOCK, TableLock

    i18n.set_language("zh_Hans")
    with TableLock.acquire(tmp_path):
        with pytest.raises(TableBusy, match=rf"^另一个 courtier 正在 .* 运行牌桌（pid {os.getpid()}: .*）；请先停止它"):
            TableLock.acquire(tmp_path)
        (tmp_path / LOCK).write_text("")  # the holder has not yet written who it is
        with pytest.raises(TableBusy, match="（一个尚未表明身份的进程）"):
            TableLock.acquire(tmp_path)


def test_a_resumed_game_says_which_asked_players_seed_and_options_it_did_not_use_and_names_new(tmp_path):
    first = open_session(tmp_path, "tenno", 3, seed=5)
    _play(first, 2)
    again = open_session(tmp_path, "tenno", 5, seed=9, options={"attack_mandatory": False})
    assert again.resumed and again.match.header.players == 3 and len(again.match.actions) == 2
    assert again.messages[0] == "Resumed Tennō (3 players) after 2 actions."
    unused = again.messages[1]
    assert "--players 5, --seed 9, --option attack_mandatory=false" in unused and "--new" in unused
    again.journal.close()


def test_a_resumed_game_asked_for_what_it_already_is_says_nothing_more(tmp_path):
    first = open_session(tmp_path, "tenno", 3, seed=5, options={"ronin_swap": "per_fight"})
    _play(first, 1)
    again = open_session(tmp_path, "tenno", 3, seed=5, options={"ronin_swap": "per_fight"})
    assert again.resumed and again.messages == ["Resumed Tennō (3 players) after 1 action."]
    again.journal.close()
    assert open_session(tmp_path, None, None).messages == ["Resumed Tennō (3 players) after 1 action."]


def test_a_new_game_tells_the_seats_where_the_previous_one_is_kept(tmp_path):
    first = open_session(tmp_path, "tenno", 3, seed=5)
    _play(first, 1)
    second = open_session(tmp_path, "quovadis", None, default_players=4)
    assert second.match.header.players == 4 and not second.resumed and not second.alarm
    kept = next((tmp_path / "games").glob("tenno-unfinished-*.jsonl"))
    assert second.messages == [f"The previous game is kept as {kept}."]
    assert second.notice == f"The previous game is kept as games/{kept.stem}"
    second.journal.close()


def test_a_game_with_coloured_pieces_names_the_seats_by_those_colours(tmp_path):
    """Seats named by the table are kept when they are the game's colours; else the colours name them,
    and the setup prompt tells each player to take the pieces of their seat's colour."""
    kept = open_session(tmp_path / "a", "tenno", 3, names=["Purple", "Black", "White"])
    assert kept.match.names == ("Purple", "Black", "White")
    steps = kept.match.prompt().steps  # the setup's first steps hand each seat the cards of its colour
    assert "Purple: take the 11 cards of your colour in hand" in steps
    kept.journal.close()
    named = open_session(tmp_path / "b", "tenno", 3, names=["Kitchen", "Window", "Door"])
    assert named.match.names == ("Red", "Blue", "Green")
    named.journal.close()
    shadow = open_session(tmp_path / "c", "shadow", 3, names=["Red", "Blue", "Purple"])  # no purple pieces
    assert shadow.match.names == ("Red", "Blue", "Green")
    shadow.journal.close()
    quo = open_session(tmp_path / "d", "quovadis", 3, names=["Black", "Yellow", "Red"])
    assert quo.match.names == ("Black", "Yellow", "Red")
    assert "Black: take the 8 senators of your colour" in quo.match.prompt().steps
    quo.journal.close()


def test_the_default_emulator_and_the_seven_seat_table_files_name_the_seats_in_one_order():
    from pathlib import Path

    from engine.games import get_game
    from hardware.table import load_table

    tables = Path(__file__).resolve().parents[2] / "hardware" / "tables"
    colours = list(get_game("tenno").seat_names(7))
    for name in ("emulator-7.toml", "pi-7.toml"):
        assert [seat.name for seat in load_table(tables / name).seats] == colours, name
