"""Bot seats at the table: they think on their own thread, answer on the runtime's, and are called off.

No test sleeps: a bot's answer is waited for on the runtime's queue (the
very event the button loop waits on), and the tests that need to hold a
thought back run it themselves when they choose.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

import pytest

from engine.match import Match
from engine.testing import quovadis_position
from firmware.bots import RandomBot
from firmware.table.bot_seats import BotSeats
from firmware.table.runtime import Runtime
from firmware.testing import post, press, screen_text
from hardware.factory import open_table
from hardware.table import emulator_table

RED, BLUE, YELLOW = 0, 1, 2
GREEN = 2
WAIT = 60.0  # seconds a bot's answer may take on a loaded machine before the test fails


class Held:
    """Starts nothing: keeps each thought's work, for the test to run when it chooses."""

    def __init__(self) -> None:
        self.runs: list[Callable[[], None]] = []

    def __call__(self, run: Callable[[], None]) -> None:
        self.runs.append(run)


def wait_for_bot(runtime: Runtime) -> None:
    """Handle queued events until the bot's answer has come (the runtime's own blocking wait)."""
    before = len(runtime.match.actions), runtime.match
    while (len(runtime.match.actions), runtime.match) == before:
        assert runtime.step(timeout=WAIT), "no answer from the bot"


def test_a_bot_seat_answers_on_the_runtime_thread_and_the_table_is_told(mock_table):
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, active=YELLOW)
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    mock_table.on_event = runtime.post
    told: list[Any] = []
    runtime.listeners.append(lambda m, action, events: told.extend(events))
    held = Held()
    bots = BotSeats(runtime, {YELLOW: "easy"}, seed=1, start=held)
    assert len(held.runs) == 1 and bots.thought is not None and bots.thought.seat == YELLOW
    assert match.actions == []  # thinking changes nothing
    worker = threading.Thread(target=held.runs[0])
    worker.start()
    worker.join()
    assert match.actions == []  # the answer waits in the queue for the runtime's thread
    runtime.drain()
    assert len(match.actions) == 1 and match.actions[0]["seat"] == YELLOW
    assert told[0] == {"type": "bot", "seat": YELLOW, "level": "easy"}
    from firmware.table.faces import describe

    assert describe(match, told[0]) == "Yellow (bot) plays:"


def test_an_undo_calls_the_thought_off_and_its_answer_is_dropped(mock_table):
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, active=RED)
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    mock_table.on_event = runtime.post
    held = Held()
    bots = BotSeats(runtime, {BLUE: "easy"}, seed=1, start=held)
    assert held.runs == []  # Red is to move: nothing to think about
    runtime.submit({"seat": RED, "do": "place", "committee": "E1"})
    assert len(held.runs) == 1 and bots.thought is not None
    thought = bots.thought
    assert runtime.undo()
    assert thought.cancelled.is_set() and bots.thought is None
    held.runs[0]()  # the cancelled thought ends at once and posts nothing
    assert runtime.drain() == 0
    assert match.actions == []
    assert len(held.runs) == 1  # Red is to move again: no new thought


def test_an_answer_that_comes_after_the_game_moved_on_is_dropped(mock_table):
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, active=RED)
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    held = Held()
    bots = BotSeats(runtime, {BLUE: "easy"}, seed=1, start=held)
    runtime.submit({"seat": RED, "do": "place", "committee": "E1"})
    stale_run = held.runs[0]
    stale_key = bots.thought.key
    runtime.undo()
    runtime.submit({"seat": RED, "do": "place", "committee": "E1"})  # the same length of game again
    assert len(held.runs) == 2 and bots.thought.key != stale_key
    # The old thought was cancelled, so it posts nothing; its answer, if forced in, is refused.
    stale_run()
    assert runtime.drain() == 0
    assert bots._answer(stale_key, {"seat": BLUE, "do": "keep"}) == "stale"
    assert len(match.actions) == 1


def test_a_new_game_calls_the_thought_off(mock_table):
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, active=BLUE)
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    held = Held()
    bots = BotSeats(runtime, {BLUE: "easy"}, seed=1, start=held)
    thought = bots.thought
    assert thought is not None
    fresh = Match.new("quovadis", 3, seed=9, options={"start_seat": RED})
    runtime.replace_match(fresh, None)
    assert thought.cancelled.is_set()
    held.runs[0]()
    assert runtime.drain() == 0 and fresh.actions == [] and match.actions == []


def test_the_level_wall_time_stops_a_long_thought():
    """The firmware's clock, not the engine, ends a search whose budget outlasts the level's time."""
    match = Match.new("shadow", 2, seed=3)
    runtime = Runtime(match, [None, None])
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0  # every look at the clock is a second later
        return now[0]

    held = Held()
    bots = BotSeats(runtime, {match.pending()[0]: "strong"}, seed=1, clock=clock, start=held)
    held.runs[0]()
    runtime.drain()
    assert len(match.actions) == 1
    seat = match.actions[0]["seat"]
    assert bots.bots[seat].last.iterations <= 2  # 2 s of strong's budget at a second per look


def test_two_people_and_a_bot_play_a_whole_quo_vadis_game_on_the_emulated_table(mock_table):
    match = Match.new("quovadis", 3, seed=4)
    # As `courtier play` does: a bot's seat gets no screen, so its secrets never show.
    runtime = Runtime(match, [mock_table.seats[RED].screen, mock_table.seats[BLUE].screen, None])
    mock_table.on_event = runtime.post
    BotSeats(runtime, {YELLOW: "easy"}, seed=2)
    people = {RED: RandomBot(1), BLUE: RandomBot(2)}
    while not match.is_over:
        human = [s for s in match.pending() if s in people]
        if human:
            seat = human[0]
            runtime.submit(people[seat].choose(match.legal_actions(seat), match.game.free_actions))
        else:
            wait_for_bot(runtime)
    assert match.result() is not None
    assert any(a["seat"] == YELLOW for a in match.actions)
    assert Match.replay(match.header, match.actions).result() == match.result()
    assert not mock_table.seats[YELLOW].screen.image.getbbox()  # never lit
    assert "Game over" in screen_text(mock_table, runtime, RED)


def test_one_person_and_four_bots_play_a_whole_tenno_game_on_the_emulated_table():
    with open_table(emulator_table(5, ["Red", "Blue", "Green", "Yellow", "Purple"]), "mock") as table:
        match = Match.new("tenno", 5, seed=6)
        runtime = Runtime(match, [table.seats[RED].screen, None, None, None, None])
        table.on_event = runtime.post
        BotSeats(runtime, {1: "easy", 2: "easy", 3: "normal", 4: "rules"}, seed=3)
        while not match.is_over:
            if RED in match.pending():
                # Red plays by buttons: the first choice at every level of its menu.
                while RED in match.pending():
                    press(table, runtime, RED, "ok")
            else:
                wait_for_bot(runtime)
        assert match.result() is not None
        assert {a["seat"] for a in match.actions} == {0, 1, 2, 3, 4}
        assert Match.replay(match.header, match.actions).result() == match.result()
        assert all(not table.seats[s].screen.image.getbbox() for s in range(1, 5))


def test_a_bot_says_yes_when_the_people_ask_to_take_an_action_back(mock_table):
    """Red asks, on the table menu, to undo the fight's reveal; the two bots agree at once, and it is undone."""
    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    runtime = Runtime(match, [mock_table.seats[RED].screen, None, None])
    held = Held()
    bots = BotSeats(runtime, {BLUE: "easy", GREEN: "easy"}, seed=1, start=held)
    runtime.submit({"seat": RED, "do": "arrange", "order": [1, 2, 3]})
    while len(match.actions) < 3:  # the bots lay their rows
        held.runs[-1]()
        runtime.drain()
    runtime.submit(next(a for a in match.legal_actions(RED) if a["do"] == "attack"))
    thought = bots.thought  # the defender's bot is asked whether to show its Monk
    assert thought is not None and not thought.cancelled.is_set()
    post(runtime, RED, "ok", "hold")  # the table menu
    post(runtime, RED)  # "Undo last action"
    assert runtime.request is None  # asked, agreed by both bots, done
    assert len(match.actions) == 3 and thought.cancelled.is_set()
    assert match.pending() == [RED]


def test_a_table_file_seat_can_be_a_bot_and_needs_no_wiring():
    from hardware.table import BOT_KINDS, parse_table
    from engine.bots import KINDS

    assert BOT_KINDS == KINDS
    config = parse_table('''
[[seat]]
name = "Red"
buttons = { prev = 5, next = 6, ok = 13 }
screen = { driver = "ssd1306", bus = "i2c" }

[[seat]]
name = "Black"
bot = "normal"
''')
    assert config.seats[1].bot == "normal" and config.seats[1].screen is None
    with open_table(config, "mock") as table:
        assert table.seats[1].screen is None and table.seats[1].buttons is None


@pytest.mark.parametrize("text, message", [
    ('bot = "grandmaster"', "seat 1 (\"Black\"): bot: unknown value 'grandmaster'"),
    ('bot = "easy"\nscreen = { driver = "ssd1306", bus = "i2c" }', "a bot seat has no buttons, encoder, screen"),
])
def test_a_bad_bot_seat_is_refused_with_the_file_line_and_key(text, message):
    from hardware.errors import TableConfigError
    from hardware.table import parse_table

    with pytest.raises(TableConfigError) as err:
        parse_table(f'[[seat]]\nname = "Black"\n{text}\n', source="t.toml")
    assert message in str(err.value) and "t.toml:" in str(err.value)


def test_bot_flags_name_a_seat_and_a_level_and_leave_a_seat_for_a_person():
    from engine.errors import EngineError
    from firmware.play import bot_seats
    from hardware.table import parse_table

    config = parse_table('[[seat]]\nname = "A"\nbot = "easy"\n[[seat]]\nname = "B"\nbuttons = { prev = 5, next = 6, '
                         'ok = 13 }\nscreen = { driver = "ssd1306", bus = "i2c" }\n[[seat]]\nname = "C"\nbot = "rules"\n')
    assert bot_seats(config.seats, ["3=strong"], 3) == {0: "easy", 2: "strong"}
    for bad, words in (("4=easy", "a seat from 1 to 3"), ("2=genius", "no bot called 'genius'"),
                       ("two=easy", "a seat from 1 to 3"), ("2=normal", "every seat would be a bot")):
        with pytest.raises(EngineError, match=words):
            bot_seats(config.seats, [bad], 3)


def test_the_buttons_of_a_bot_seat_play_nothing():
    """On the emulated table every seat has keys; a bot's seat is nobody's, so its key presses are dropped."""
    from firmware.play import unless_bot
    from hardware.events import InputEvent

    posted: list[Any] = []
    handler = unless_bot(posted.append, {BLUE: "easy"})
    handler(InputEvent(BLUE, "ok", "press"))
    handler(InputEvent(RED, "ok", "press"))
    assert [e.seat for e in posted] == [RED]


def test_the_consoles_undo_agreed_at_once_by_the_bots_is_answered_once_and_the_table_goes_on(mock_table):
    """The host console asks to undo; the bot seats say yes within the same redraw, so the request is
    settled before the command returns: the console hears the outcome once, and nothing crashes."""
    from firmware.table.runtime import Command

    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    runtime = Runtime(match, [mock_table.seats[RED].screen, None, None])
    held = Held()
    BotSeats(runtime, {BLUE: "easy", GREEN: "easy"}, seed=1, start=held)
    runtime.submit({"seat": BLUE, "do": "arrange", "order": [1, 2, 3]})  # a bot's action: its own yes is needed
    replies: list[str] = []
    runtime.post(Command("undo", reply=replies.append))
    runtime.drain()
    assert replies == ["Taken back: Blue's row arrangement"]
    assert runtime.request is None and match.actions == [] and match.pending() == [RED, BLUE, GREEN]


def test_the_consoles_undo_of_a_persons_action_waits_for_that_persons_yes_though_the_bots_said_yes(mock_table):
    from firmware.table.runtime import Command

    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    runtime = Runtime(match, [mock_table.seats[RED].screen, None, None])
    BotSeats(runtime, {BLUE: "easy", GREEN: "easy"}, seed=1, start=Held())
    runtime.submit({"seat": RED, "do": "arrange", "order": [1, 2, 3]})
    replies: list[str] = []
    runtime.post(Command("undo", reply=replies.append))
    runtime.drain()
    assert replies == ["Asked the table: Red must agree to take back Red's row arrangement"]
    assert runtime.request is not None and runtime.request.agreed == {BLUE, GREEN} and len(match.actions) == 1
    post(runtime, RED)  # Red: "Yes, agree"
    assert replies[-1] == "Taken back: Red's row arrangement" and match.actions == []


def test_ui_bots_with_a_level_lets_the_search_play_every_seat():
    """`courtier play --ui bots --bots easy`: every seat searched, each saved action acknowledged."""
    import io

    from firmware.play import play_bots

    match = Match.new("tenno", 2, seed=1)
    runtime = Runtime(match, [None, None])
    out = io.StringIO()
    play_bots(runtime, seed=3, out=out, level="easy")
    assert match.is_over
    assert out.getvalue().split() == [x for n in range(1, len(match.actions) + 1) for x in ("ack", str(n))]


def test_the_public_prompt_says_which_seat_is_a_bot_thinking_and_the_log_what_it_did(mock_table):
    """The snapshot every public channel reads (console line, LAN page) and the emulator's prompt alike."""
    from firmware.emulator import Frontend
    from firmware.links import protocol
    from firmware.links.console import ConsoleClient
    from firmware.public import PublicTable
    from hardware.link import Link

    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, active=YELLOW)
    runtime = Runtime(match, [mock_table.seats[RED].screen, mock_table.seats[BLUE].screen, None])
    public = PublicTable(bots={YELLOW: "easy"}).attach(runtime)
    held = Held()
    BotSeats(runtime, {YELLOW: "easy"}, seed=1, start=held)
    plain = match.prompt().line
    snapshot = public.latest()
    assert snapshot.bots == (YELLOW,)
    assert snapshot.line == f"{plain} (Yellow: bot, thinking)"
    with Frontend(mock_table, log=public) as frontend:  # what the emulator and its recordings draw
        assert frontend.snapshot(runtime)["prompt"].line == snapshot.line
    assert PublicTable().attach(runtime).latest().line == plain  # a table without bots says nothing of them
    message = protocol.encode_table(snapshot.public, snapshot.line, snapshot.steps, snapshot.names,
                                    snapshot.result, snapshot.log)
    assert snapshot.line in ConsoleClient(Link("loop://", name="console")).render(message)
    held.runs[0]()
    runtime.drain()
    assert match.actions[-1]["seat"] == YELLOW
    log = list(public.latest().log)
    said = log.index("Yellow (bot) plays:")
    assert log[said + 1:] and all("Yellow" in line for line in log[said + 1:])


def test_the_emulator_names_a_thinking_bot_in_the_tables_language(mock_table, tmp_path):
    """A Chinese table's emulator window and recordings say 黄 is a bot thinking, as its public screen does."""
    from PIL import Image

    from engine import i18n
    from firmware.emulator import Frontend, Recorder, compose
    from firmware.public import PublicTable

    i18n.set_language("zh_Hans")
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, active=YELLOW)
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    public = PublicTable(bots={YELLOW: "easy"}).attach(runtime)
    BotSeats(runtime, {YELLOW: "easy"}, seed=1, start=Held())
    snapshot = public.latest()
    assert snapshot.line.endswith(i18n._("{line} ({names}: bot, thinking)").format(line="", names="黄").strip())
    with Frontend(mock_table, log=public) as frontend:
        shown = frontend.snapshot(runtime)
    assert shown["prompt"].line == snapshot.line and "Yellow" not in shown["prompt"].line
    assert shown["names"] == ("红", "蓝", "黄")
    with Recorder(tmp_path / "frames", "png", scale=1, log=public) as recorder:
        assert recorder.record(runtime)
    with Image.open(tmp_path / "frames" / "table_000001.png") as png:
        assert png.convert("RGB").tobytes() == compose(**shown).tobytes()
