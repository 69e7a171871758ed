"""The runtime on a mock table: gpiozero MockFactory pins in, luma dummy screens out."""

from __future__ import annotations

import dataclasses
import errno
import os

import pytest

from engine.match import Match
from engine.testing import tenno_position
from firmware.table.journal import Journal, records_of
from firmware.table.runtime import Runtime
from firmware.testing import file_size_limit, journal_end, post, press, run_on, screen_text

NINJA, MONK = 4, 5


run = run_on


def test_buttons_drive_a_whole_attack_a_monk_reaction_and_a_swap(mock_table):
    match = tenno_position(3, {0: [NINJA, 9, 3], 1: [8, MONK, 3]}, active=0)
    runtime = run(mock_table, match)
    assert "Attack with:" in screen_text(mock_table, runtime, 0)
    assert "Waiting for Red" in screen_text(mock_table, runtime, 1)
    assert "Row Nj4 Dm9 P3" in screen_text(mock_table, runtime, 0)
    assert "Row Sa8 Mk5 P3" in screen_text(mock_table, runtime, 1)

    # Red: slot 2 (Daimyo 9), target Blue, Blue's slot 1.
    press(mock_table, runtime, 0, "next")
    assert "slot 2: Dm9" in screen_text(mock_table, runtime, 0)
    press(mock_table, runtime, 0, "ok")
    assert "> Blue" in screen_text(mock_table, runtime, 0)
    press(mock_table, runtime, 0, "ok")
    press(mock_table, runtime, 0, "ok")
    assert match.state.phase == "defend"

    # Blue alone is asked, and alone sees the Monk choice.
    blue = screen_text(mock_table, runtime, 1)
    assert "Dm9 hits your slot 1" in blue and "Reveal, no Monk" in blue
    assert "Waiting for Blue" in screen_text(mock_table, runtime, 0)
    assert "Monk" not in screen_text(mock_table, runtime, 2)
    press(mock_table, runtime, 1, "next")
    assert "With Monk (+2)" in screen_text(mock_table, runtime, 1)
    press(mock_table, runtime, 1, "ok")
    fight = match.state.fights[0]
    assert (fight.attack_strength, fight.defend_strength, fight.outcome) == (9, 10, "defender")

    # Red refills the gap left by the Daimyo: picks the Shogun (hand: 1 2 5 6 7 8 10 X).
    assert match.state.phase == "refill" and match.pending() == [0]
    assert "Refill your slot 2" in screen_text(mock_table, runtime, 0)
    for _ in range(8):
        if "Shogun" in screen_text(mock_table, runtime, 0):
            break
        press(mock_table, runtime, 0, "next")
    press(mock_table, runtime, 0, "ok")
    assert match.state.seats[0].row == [NINJA, 10, 3]

    # Blue's reward is a secret peek at one of Red's cards.
    assert "Peek at Red:" in screen_text(mock_table, runtime, 1)
    assert "> Peek" in screen_text(mock_table, runtime, 1)
    press(mock_table, runtime, 1, "ok")  # "Peek" (or "Skip")
    press(mock_table, runtime, 1, "next")
    assert "> Red slot 2" in screen_text(mock_table, runtime, 1)
    press(mock_table, runtime, 1, "ok")
    assert "Saw Red s2: Sh10" in screen_text(mock_table, runtime, 1).splitlines()  # a line of its own
    assert "Sh10" not in screen_text(mock_table, runtime, 2)

    # Blue's turn: Blue's Samurai 8 beats Green's Peasant 1, then swaps.
    assert match.state.active == 1
    press(mock_table, runtime, 1, "ok")  # slot 1: Sa8
    press(mock_table, runtime, 1, "next")
    assert "> Green" in screen_text(mock_table, runtime, 1)
    press(mock_table, runtime, 1, "ok")
    press(mock_table, runtime, 1, "ok")  # Green's slot 1: Peasant 1
    press(mock_table, runtime, 2, "ok")  # Green reveals
    press(mock_table, runtime, 2, "ok")  # Green refills
    assert "You won: swap?" in screen_text(mock_table, runtime, 1)
    press(mock_table, runtime, 1, "ok")  # "Swap a card"
    press(mock_table, runtime, 1, "ok")  # slot 1
    row_before = list(match.state.seats[1].row)
    press(mock_table, runtime, 1, "ok")  # the first hand card
    assert match.state.seats[1].row != row_before
    assert match.state.phase == "attack" and match.state.active == 2


def test_held_ok_goes_back_one_level(mock_table):
    import threading

    match = tenno_position(3, {}, active=0)
    runtime = run(mock_table, match)
    press(mock_table, runtime, 0, "ok")
    assert runtime.seats[0].menu.path == [("slot", 0)]
    held = threading.Event()
    mock_table.on_event = lambda e: (runtime.post(e), held.set() if e.gesture == "hold" else None)
    buttons = mock_table.seats[0].buttons
    ok = buttons.pin("ok")
    buttons.hold_time = 0.01  # ok's: prev and next are never held
    ok.drive_low()
    assert held.wait(2), "gpiozero reported the hold"
    ok.drive_high()
    runtime.drain()
    assert runtime.seats[0].menu.path == []
    assert "Attack with:" in screen_text(mock_table, runtime, 0)


def test_only_changed_seats_are_redrawn(mock_table):
    match = tenno_position(3, {}, active=0)
    runtime = run(mock_table, match)
    images = [seat.screen.image.tobytes() for seat in mock_table.seats]
    version = runtime.version
    press(mock_table, runtime, 0, "next")
    assert runtime.version == version + 1
    assert mock_table.seats[0].screen.image.tobytes() != images[0]
    assert [s.screen.image.tobytes() for s in mock_table.seats[1:]] == images[1:]


def test_presses_from_a_seat_with_nothing_to_decide_change_nothing(mock_table):
    match = tenno_position(3, {}, active=0)
    runtime = run(mock_table, match)
    before = match.to_data()
    press(mock_table, runtime, 2, "ok")
    press(mock_table, runtime, 2, "next")
    assert match.to_data() == before


def test_each_accepted_action_is_journalled_before_the_screens_move_on(mock_table, tmp_path):
    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    path = tmp_path / "j.jsonl"
    runtime = run(mock_table, match, Journal.create(path, match.header))
    for seat in range(3):
        press(mock_table, runtime, seat, "ok")
    assert match.state.phase == "attack"
    lines = records_of(path.read_bytes()).decode().splitlines()
    assert len(lines) == 4 and [__import__("json").loads(x)["n"] for x in lines[1:]] == [1, 2, 3]


def test_an_action_that_cannot_be_saved_is_not_accepted(mock_table, tmp_path, monkeypatch):
    match = Match.new("tenno", 3, seed=2)
    runtime = run(mock_table, match, Journal.create(tmp_path / "j.jsonl", match.header))
    before = match.to_data()

    def full(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fsync", full)  # a record past the zeros laid ahead
    monkeypatch.setattr(os, "fdatasync", full)  # a record over them
    press(mock_table, runtime, 0, "ok")
    assert match.to_data() == before
    assert "Not saved" in screen_text(mock_table, runtime, 0)
    monkeypatch.undo()
    press(mock_table, runtime, 0, "ok")
    assert match.state.seats[0].arranged


def test_a_failing_screen_marks_the_seat_and_the_game_goes_on(mock_table):
    match = tenno_position(3, {}, active=0)
    runtime = run(mock_table, match)

    def broken(image):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    mock_table.seats[1].screen.device.display = broken
    press(mock_table, runtime, 0, "next")
    press(mock_table, runtime, 0, "ok")
    press(mock_table, runtime, 0, "ok")
    press(mock_table, runtime, 0, "ok")
    assert match.state.phase == "defend"
    assert runtime.seats[1].degraded
    assert "Blue: screen fault" in screen_text(mock_table, runtime, 0)


def test_a_seat_keeps_its_half_made_choice_when_another_seat_acts(mock_table):
    match = Match.new("tenno", 3, seed=2)
    runtime = run(mock_table, match)
    press(mock_table, runtime, 0, "next", times=2)
    assert "3/6" in screen_text(mock_table, runtime, 0)
    press(mock_table, runtime, 1, "ok")  # Blue lays its row
    assert match.state.seats[1].arranged
    assert "3/6" in screen_text(mock_table, runtime, 0)


def test_undo_replays_without_the_last_action_and_is_journalled(mock_table, tmp_path):
    from firmware.table import journal as journals

    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    path = tmp_path / "j.jsonl"
    runtime = run(mock_table, match, Journal.create(path, match.header))
    for seat in range(3):
        press(mock_table, runtime, seat, "ok")
    before_last = Match.replay(match.header, match.actions[:-1]).state
    assert runtime.undo() is True
    after = runtime.match.state  # as before the last action, but for telling the table what was taken back
    assert dataclasses.replace(after, recent=before_last.recent, moves=before_last.moves) == before_last
    assert after.phase == "setup" and after.recent[0]["type"] == "undo"
    assert runtime.match.prompt().steps[0] == "Green's row arrangement is taken back"
    assert "Order your peasants:" in screen_text(mock_table, runtime, 2)
    assert journals.load(path).actions == runtime.match.actions
    assert runtime.undo() and runtime.undo() and not runtime.undo()


def test_table_commands_are_queued_like_buttons_and_answer_their_sender(mock_table):
    from firmware.table.runtime import Command

    match = Match.new("tenno", 3, seed=2)
    runtime = run(mock_table, match)
    replies = []
    runtime.post(Command("undo", reply=replies.append))
    runtime.post(Command("dance", reply=replies.append))
    press(mock_table, runtime, 0, "ok")
    runtime.post(Command("undo", reply=replies.append))
    runtime.drain()
    assert replies[0] == "Nothing to take back"
    assert replies[1].startswith("Unknown command 'dance'")
    assert replies[2].startswith("Asked the table") and len(runtime.match.actions) == 1
    press(mock_table, runtime, 1, "ok")  # Blue agrees: not enough, the action taken back is Red's
    assert len(replies) == 3 and len(runtime.match.actions) == 1
    press(mock_table, runtime, 0, "ok")  # Red agrees
    assert replies[3] == "Taken back: Red's row arrangement" and runtime.match.actions == []


def test_a_seat_that_draws_for_itself_receives_its_face_not_pixels(mock_table):
    class Pod:
        size = (128, 64)

        def __init__(self):
            self.faces = []

        def show_face(self, face):
            self.faces.append(face)

    match = Match.new("tenno", 3, seed=2)
    pod = Pod()
    runtime = Runtime(match, [mock_table.seats[0].screen, pod, mock_table.seats[2].screen])
    assert pod.faces and pod.faces[-1].seat_name == "Blue"
    post(runtime, 1, "next")
    assert pod.faces[-1].position == "2/6"


def test_a_failing_screen_is_retried_with_back_off_and_recovers(mock_table):
    now = [100.0]
    device = mock_table.seats[1].screen.device
    real, calls = device.display, []

    def broken(image):
        calls.append(now[0])
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    device.display = broken  # Blue's screen is unplugged before the game starts
    match = tenno_position(3, {}, active=0)
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats], clock=lambda: now[0])
    mock_table.on_event = runtime.post
    assert calls == [100.0] and runtime.seats[1].degraded
    for _ in range(5):
        press(mock_table, runtime, 0, "next")  # the game goes on; Blue's bus is left alone
    runtime.tick()
    assert calls == [100.0]
    now[0] += 0.5
    runtime.tick()
    assert calls == [100.0, 100.5]  # retried once the back-off is over, failed again
    now[0] += 0.5
    runtime.tick()
    assert len(calls) == 2  # the back-off doubled
    device.display = real
    now[0] += 0.6
    runtime.tick()
    assert not runtime.seats[1].degraded
    assert "screen fault" not in screen_text(mock_table, runtime, 0)
    assert screen_text(mock_table, runtime, 1).startswith("[Blue]")


def test_a_button_held_down_for_long_gives_one_hold_and_no_flood(mock_table):
    import threading

    events, first, second = [], threading.Event(), threading.Event()

    def sink(event):
        events.append(event)
        (second if first.is_set() else first).set()

    mock_table.on_event = sink
    buttons = mock_table.seats[0].buttons
    buttons.hold_time = 0.01  # ok's: prev and next are never held
    buttons.pin("ok").drive_low()
    assert first.wait(2)
    # Thirty hold periods later there is still only the one hold: nothing repeats while it stays down.
    assert not second.wait(0.3)
    buttons.pin("ok").drive_high()
    assert [(e.button, e.gesture) for e in events] == [("ok", "hold")]


# --- a disk that refuses writes, and commands that change a seat's choices ------------

def test_a_disk_that_refuses_writes_is_shown_on_every_seat_and_nothing_counts_until_a_write_succeeds(mock_table, tmp_path):
    from firmware.table import journal as journals

    match = Match.new("tenno", 3, seed=2)
    path = tmp_path / "j.jsonl"
    runtime = run(mock_table, match, Journal.create(path, match.header))
    before = match.to_data()
    with file_size_limit(journal_end(path)):  # the card is full
        press(mock_table, runtime, 0, "ok")
        press(mock_table, runtime, 1, "ok")
        assert match.to_data() == before
        for seat in range(3):
            assert "Not saved (File too large)" in screen_text(mock_table, runtime, seat)
    assert journals.load(path).actions == []
    press(mock_table, runtime, 1, "ok")  # space came back: the next write succeeds and counts
    assert match.state.seats[1].arranged and journals.load(path).actions == match.actions
    for seat in range(3):
        assert "Not saved" not in screen_text(mock_table, runtime, seat)


def test_an_undo_that_cannot_be_written_is_not_carried_out(mock_table, tmp_path):
    """The match and the journal always agree: an undo the disk refuses takes nothing back, and says so."""
    from firmware.table import journal as journals

    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    path = tmp_path / "j.jsonl"
    runtime = run(mock_table, match, Journal.create(path, match.header))
    for seat in range(3):
        press(mock_table, runtime, seat, "ok")
    state = match.to_data()
    with file_size_limit(journal_end(path)):
        with pytest.raises(OSError):
            runtime.undo()
        assert match.to_data() == state and journals.load(path).actions == match.actions
        # Asked at the table, the asker hears that nothing was taken back.
        post(runtime, 0, "ok", "hold")
        post(runtime, 0)  # Undo last action
        post(runtime, 2)  # Green, whose arrangement it is, agrees
        assert "Not saved (File too large): nothing was taken back" in screen_text(mock_table, runtime, 0)
        assert match.to_data() == state and journals.load(path).actions == match.actions
    assert runtime.undo() and len(match.actions) == 2
    assert journals.load(path).actions == match.actions


def test_a_seat_whose_choices_a_new_game_changed_is_told_and_its_first_ok_only_acknowledges(mock_table):
    match = Match.new("tenno", 3, seed=2)
    runtime = run(mock_table, match)
    press(mock_table, runtime, 0, "next", times=2)  # Red looks at the third way to order its row
    press(mock_table, runtime, 1, "ok")  # Blue orders its row
    runtime.replace_match(Match.new("tenno", 3, seed=9), None)  # a console's new game
    assert "Your choices changed: ok to go on" in screen_text(mock_table, runtime, 0)
    assert "Your choices changed" in screen_text(mock_table, runtime, 1)
    press(mock_table, runtime, 0, "ok")  # only acknowledges: nothing is chosen unseen
    assert not runtime.match.state.seats[0].arranged
    assert "Your choices changed" not in screen_text(mock_table, runtime, 0)
    press(mock_table, runtime, 0, "ok")
    assert runtime.match.state.seats[0].arranged
    press(mock_table, runtime, 1, "next")  # a move is a look: it acknowledges and moves
    shown = screen_text(mock_table, runtime, 1)
    assert "2/6" in shown and "Your choices changed" not in shown


def test_the_seat_that_acted_sees_its_answer_before_anything_else_is_done(mock_table):
    """After an accepted action: the acting seat's frame, then the other seats', then the listeners (the public words)."""
    happened = []

    class Panel:
        def __init__(self, seat):
            self.seat, self.size = seat, (128, 64)

        def show(self, image):
            happened.append(f"seat {self.seat}")
            return True

    match = tenno_position(3, {}, active=1)
    runtime = Runtime(match, [Panel(seat) for seat in range(3)],
                      listeners=[lambda *args: happened.append("listener")])
    happened.clear()
    attack = match.legal_actions(1)[0]
    assert runtime.submit(attack)
    assert happened[0] == "seat 1"
    assert sorted(happened[1:3]) == ["seat 0", "seat 2"] and happened[3:] == ["listener"]


def test_a_single_choice_left_names_what_it_does_it_with():
    """One card left to refill with: the menu says which, not a bare "Refill"."""
    from engine.testing import tenno_position
    from firmware.table.faces import seat_face
    from firmware.table.menu import Menu

    match = tenno_position(2, {0: [1, 2, 3]}, hands={0: [10]})
    match.state.seats[0].row[1] = None
    match.state.phase = "refill"
    actions = match.legal_actions(0)
    assert len(actions) == 1
    face = seat_face(match.game, match.names, 0, match.view(0), actions, Menu())
    assert face.choice == "Refill: Shogun 10" and face.position == ""


@pytest.mark.parametrize("game, players", [("tenno", 4), ("quovadis", 4), ("shadow", 3)])
def test_each_seat_s_view_is_the_match_s_view_with_the_public_part_worked_out_once(game, players, monkeypatch):
    """The runtime words every seat from the public view made once per change and that seat's private part:
    the same view as the game's own, through a seeded game and an undo, and no seat's private part in another's."""
    import random

    from engine.testing import random_action

    match = Match.new(game, players, seed=3)
    runtime = Runtime(match, [None] * players)
    rng = random.Random(3)
    made = []
    views_module = match.game.views
    monkeypatch.setattr(match.game, "public_view", lambda state: (made.append(1), views_module.public_view(state))[1])
    for step in range(60):
        if match.is_over:
            break
        made.clear()
        runtime.submit(random_action(match, rng)) if step != 30 else runtime.undo()
        views = [runtime._view(seat) for seat in range(players)]
        assert len(made) == 1  # every seat's face redrawn, and their views asked again: worked out once
        assert views == [views_module.view(match.state, seat) for seat in range(players)]
        assert all(a["me"] is not b["me"] for a, b in zip(views, views[1:]))
