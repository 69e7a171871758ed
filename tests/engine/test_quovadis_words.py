"""Quo Vadis in words: what the table and each seat's screen read, for every event, step and phase.

The playthroughs read whole games; these pin each kind of line on its own,
from hand-built positions and events, so a changed word or a lost branch
shows in a test that names it (and runs in a moment).
"""

from __future__ import annotations

import pytest

from engine.game import MENU_HELP
from engine.games import get_game
from engine.games.quovadis import text
from engine.physical import event_moves, inverse, step
from engine.testing import act, quovadis_position

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
NAMES = ("Red", "Blue", "Yellow", "Green")
GAME = get_game("quovadis")


# After every phase's rules: what the screen's short words mean.
AFTER = [*text.LEGEND, MENU_HELP]


# --- names of the board's parts ------------------------------------------------------

def test_committees_paths_and_laurels_are_named_as_the_board_and_the_tokens_show_them():
    assert text.committee_name("E1") == "bottom far left (1 seat)"
    assert text.committee_name("C2") == "top centre (5 seats)"
    assert text.committee_name("S") == "the Senate"
    assert text.path_name("p16") == "C2>S"
    assert text.token_name("IIC") == "II-Caesar" and text.token_name("IV") == "IV"
    assert text.token_name("") == "empty"


@pytest.mark.parametrize("place, words", [
    (["reserve", 1], "Blue's reserve"),
    (["committee", "E2"], "bottom centre-left (5 seats)"),
    (["senate", 0], "Senate seat 1"),
    (["diamond", "p16"], "diamond C2>S"),
    (["laurels", 2], "Yellow's laurels"),
    (["bag"], "the bag"),
    (["supply"], "the I supply"),
    (["box"], "the box"),
])
def test_every_place_on_the_real_table_has_a_name(place, words):
    assert text.place_name(place, NAMES) == words


# --- public events --------------------------------------------------------------------

@pytest.mark.parametrize("event, words", [
    ({"type": "place", "seat": RED, "committee": "E2"}, "Red places a senator in E2"),
    ({"type": "ask", "seat": RED, "committee": "E2", "path": "p02", "voters": [BLUE, YELLOW]},
     "Red asks E2 to leave by E2>A1: Blue, Yellow answer"),
    ({"type": "voted", "seat": BLUE}, "Blue has answered"),
    ({"type": "voted", "seat": BLUE, "yes": True}, "Blue says yes"),
    ({"type": "voted", "seat": BLUE, "yes": False}, "Blue says no"),
    ({"type": "votes", "seat": RED, "committee": "E2", "path": "p02", "answers": {"1": True, "2": False},
      "passed": False}, "Vote failed: yes Blue; no Yellow"),
    ({"type": "votes", "seat": RED, "committee": "E2", "path": "p02", "answers": {"1": True, "2": True},
      "passed": True}, "Vote passed: yes Blue, Yellow; no -"),
    ({"type": "votes", "seat": RED, "committee": "E2", "path": "p02", "answers": {"2": False}, "passed": False},
     "Vote failed: yes -; no Yellow"),
    ({"type": "advance", "seat": RED, "committee": "E2", "path": "p02", "dest": "A1", "free": False,
      "caesar": False}, "Red advances E2 > A1"),
    ({"type": "advance", "seat": RED, "committee": "C2", "path": "p16", "dest": "S", "free": True,
      "caesar": True}, "Red advances C2 > S (Caesar)"),
    ({"type": "collect", "seat": RED, "path": "p02", "token": "IIC", "refill": "V"},
     "Red takes the II-Caesar laurel from E2>A1"),
    ({"type": "reward", "seat": YELLOW, "token": "I"}, "Yellow takes an I laurel from the supply"),
    ({"type": "caesar", "seat": GREEN, "path": "p07", "bonus": False}, "Green moves Caesar to A1>B1"),
    ({"type": "keep", "seat": GREEN}, "Green leaves Caesar where he is"),
    ({"type": "pay", "seat": BLUE, "to": RED}, "Blue hands Red a laurel, face down"),
    ({"type": "setup"}, "The board is laid out"),
    ({"type": "reveal", "entered": 2, "totals": {"0": 5, "1": 0, "2": 3}},
     "Player 2 in the Senate: laurels shown: Red 5, Blue 0, Yellow 3"),
    ({"type": "end"}, "The Senate is full"),
    ({"type": "something new"}, "something new"),
])
def test_every_public_event_is_told_in_words(event, words):
    assert GAME.describe_event(event, NAMES) == words


# --- the physical steps ---------------------------------------------------------------------

def back(s):
    return {**s, "back": True}


@pytest.mark.parametrize("move, words", [
    (step("senator", RED, ["box"], ["reserve", RED], count=8), "Red: take the 8 senators of your colour"),
    (step("senator", RED, ["box"], ["reserve", RED]), "Red: take the 1 senator of your colour"),
    (step("senator", RED, ["reserve", RED], ["committee", "E2"]),
     "Red: put a senator on a free seat of bottom centre-left (5 seats)"),
    (step("senator", RED, ["committee", "E2"], ["reserve", RED]),
     "Red: take your senator from bottom centre-left (5 seats) back to your reserve"),
    (step("senator", RED, ["committee", "C2"], ["senate", 2]),
     "Red: move a senator from top centre (5 seats) to the leftmost free Senate seat"),
    (step("senator", RED, ["committee", "E2"], ["committee", "A1"]),
     "Red: move a senator from bottom centre-left (5 seats) up to row 2 left (3 seats)"),
    (back(step("senator", RED, ["senate", 2], ["committee", "C2"])),
     "Red: move your senator from Senate seat 3 back down to top centre (5 seats)"),
    (back(step("senator", RED, ["committee", "A1"], ["committee", "E2"])),
     "Red: move your senator from row 2 left (3 seats) back down to bottom centre-left (5 seats)"),
    (step("senator", RED, ["reserve", RED], ["box"], count=8), "Put the senators from Red's reserve back in the box"),
    (step("caesar", -1, ["box"], ["diamond", "p16"]), "Put Caesar on diamond C2>S"),
    (step("caesar", -1, ["diamond", "p16"], ["diamond", "p07"]), "Move Caesar from diamond C2>S to diamond A1>B1"),
    (step("caesar", -1, ["diamond", "p16"], ["box"]), "Put the Caesar from diamond C2>S back in the box"),
    (step("laurel", -1, ["box"], ["supply"], ("", "up"), ("I", "I"), count=18),
     "Put 18 I laurels face up beside the board"),
    (step("laurel", -1, ["supply"], ["box"], ("up", ""), ("I", "I"), count=18),
     "Put the laurels from the I supply back in the box"),
    (step("token", -1, ["bag"], ["box"]), "Put the token from the bag back in the box"),
    (step("laurel", -1, ["box"], ["bag"], value=("V", "V"), count=6), "Put the 6 V laurels in the bag"),
    (step("laurel", -1, ["box"], ["bag"], value=("V", "V")), "Put the 1 V laurel in the bag"),
    (step("laurel", -1, ["bag"], ["diamond", "p02"], ("", "up"), ("IIC", "IIC")),
     "Draw a II-Caesar laurel from the bag and lay it face up on diamond E2>A1"),
    (step("laurel", -1, ["diamond", "p02"], ["bag"], ("up", ""), ("IIC", "IIC")),
     "Put the II-Caesar laurel from diamond E2>A1 back into the bag"),
    (step("laurel", -1, ["diamond", "p02"], ["laurels", BLUE], ("up", "down"), ("IV", "IV")),
     "Blue: take the IV laurel from path E2>A1, face down"),
    (step("laurel", -1, ["laurels", BLUE], ["diamond", "p02"], ("down", "up"), ("IV", "IV")),
     "Blue: lay the IV laurel back face up on diamond E2>A1"),
    (step("laurel", -1, ["supply"], ["laurels", YELLOW], ("up", "down"), ("I", "I")),
     "Yellow: take an I laurel from the supply, face down"),
    (step("laurel", -1, ["laurels", YELLOW], ["supply"], ("down", "up"), ("I", "I")),
     "Yellow: put an I laurel back in the supply"),
    (step("laurel", -1, ["laurels", BLUE], ["laurels", RED], ("down", "down"), hidden=True),
     "Blue: hand Red, face down, the laurel you chose on your screen"),
    (back(step("laurel", -1, ["laurels", RED], ["laurels", BLUE], ("down", "down"), hidden=True)),
     "Red: hand Blue back, face down, the laurel Blue gave you"),
    (step("laurel", -1, ["laurels", GREEN], ["laurels", GREEN], ("down", "up"), ("V", "V")),
     "Green: turn your laurels face up"),
    (step("laurel", -1, ["laurels", GREEN], ["laurels", GREEN], ("up", "down"), ("V", "V")),
     "Green: turn your laurels face down"),
    (step("laurel", -1, ["bag"], ["supply"], ("", "up"), ("V", "V")), "Move a laurel from the bag to the I supply"),
    (step("laurel", -1, ["bag"], ["laurels", BLUE], ("", "down"), ("V", "V")),
     "Move a laurel from the bag to Blue's laurels"),
    (step("laurel", -1, ["laurels", BLUE], ["bag"], ("down", ""), ("V", "V")),
     "Move a laurel from Blue's laurels to the bag"),
])
def test_every_physical_step_is_told_in_words(move, words):
    assert GAME.describe_moves([move], NAMES) == [words]


def test_a_pile_turned_over_is_told_once_and_each_other_pile_on_its_own():
    def flip(seat, token, face=("down", "up")):
        return step("laurel", -1, ["laurels", seat], ["laurels", seat], face, (token, token))

    moves = [flip(RED, "V"), flip(RED, "IV"), flip(BLUE, "III"), flip(BLUE, "II", ("up", "down")), flip(RED, "I")]
    assert GAME.describe_moves(moves, NAMES) == [
        "Red: turn your laurels face up", "Blue: turn your laurels face up", "Blue: turn your laurels face down",
        "Red: turn your laurels face up"]
    assert GAME.describe_moves([flip(RED, "V"), flip(RED, "IV"), flip(RED, "III", ("up", "down"))], NAMES) == [
        "Red: turn your laurels face up", "Red: turn your laurels face down"]
    alike = step("senator", RED, ["reserve", RED], ["committee", "E2"])
    assert GAME.describe_moves([alike, alike], NAMES) == [text.move_line(alike, NAMES)] * 2  # only piles merge


def test_a_laurel_taken_from_a_diamond_the_empty_bag_cannot_refill_is_told_to_stay_empty():
    match = quovadis_position(3, {"E3": [RED, RED]})
    match.state.bag = []
    act(match, RED, "advance", committee="E3", path="p04")
    assert match.prompt().steps[-1] == "The bag is empty: that diamond stays empty"
    assert match.state.diamonds["p04"] == ""


def test_an_i_laurel_laid_on_a_diamond_the_empty_bag_cannot_refill_and_its_undo_are_told():
    """A.6, option empty_bag=reward_token: the table lays an "I" from the supply on the emptied diamond."""
    match = quovadis_position(3, {"E3": [RED, RED]}, empty_bag="reward_token")
    match.state.bag = []
    act(match, RED, "advance", committee="E3", path="p04")
    assert match.prompt().steps[-1] == "The bag is empty: lay an I laurel from the supply face up on diamond E3>A3"
    assert GAME.describe_moves(inverse(match.game.last_moves(match.state))[:1], NAMES) == [
        "Put the I laurel from diamond E3>A3 back in the supply"]


def test_events_without_steps_are_told_as_events_and_the_setup_and_end_only_by_their_steps():
    moved = {"type": "caesar", "seat": RED, "path": "p07", "moves": [step("caesar", -1, ["diamond", "p16"],
                                                                           ["diamond", "p07"])]}
    events = [{"type": "setup"}, {"type": "voted", "seat": BLUE}, moved, {"type": "end"},
              {"type": "collect", "seat": RED, "path": "p02", "token": "V", "refill": "II",
               "moves": [step("laurel", -1, ["diamond", "p02"], ["laurels", RED], ("up", "down"), ("V", "V"))]}]
    assert text.told(events, NAMES) == ["Blue has answered", "Move Caesar from diamond C2>S to diamond A1>B1",
                                        "Red: take the V laurel from path E2>A1, face down"]


# --- the table's prompt, phase by phase ---------------------------------------------------------

def test_the_first_turn_tells_the_setup_and_names_the_committees_by_their_codes():
    match = quovadis_position(3, {})
    prompt = match.prompt()
    assert prompt.line == "Red: place a senator, advance one, or move Caesar"
    assert prompt.steps[0] == "Red: take the 8 senators of your colour"
    assert prompt.steps[-2] == "Put Caesar on diamond C2>S"
    assert prompt.steps[-1] == ("Screens name committees by code: E1 bottom far left; E2 bottom centre-left; "
                                "E3 bottom centre-right; E4 bottom far right; A1 row 2 left; A2 row 2 centre-left; "
                                "A3 row 2 centre-right; A4 row 2 right; B1 row 3 left; B2 row 3 centre; "
                                "B3 row 3 right; C1 top left; C2 top centre; C3 top right")
    assert len(prompt.moves) == 3 + 1 + 5 + 10 + 1  # senators by seat, the supply, the bag by kind, diamonds, Caesar
    act(match, RED, "place", committee="E1")
    assert match.prompt() == GAME.public_prompt(match.public_view(), match.names)
    assert match.prompt().steps == ("Red: put a senator on a free seat of bottom far left (1 seat)",)
    assert match.prompt().line == "Blue: place a senator, advance one, or move Caesar"


def test_a_vote_names_who_answers_and_the_reward_and_bonus_say_who_chooses():
    match = quovadis_position(4, {"E2": [RED, BLUE, BLUE, YELLOW]})
    act(match, RED, "advance", committee="E2", path="p02")
    prompt = match.prompt()
    assert prompt.line == "Red asks E2 to let a senator leave by E2>A1"
    assert prompt.steps == ("Red asks E2 to leave by E2>A1: Blue, Yellow answer",
                            "Answer yes or no on your screen: Blue, Yellow")
    act(match, BLUE, "support")
    act(match, YELLOW, "support")
    assert match.prompt().line == "Red chooses which supporters are paid"
    bonus = quovadis_position(3, {"E3": [RED, RED]})
    bonus.state.diamonds["p04"] = "IIC"
    act(bonus, RED, "advance", committee="E3", path="p04")
    assert bonus.prompt().line == "Red took a II-Caesar laurel and may move Caesar"
    assert bonus.prompt().steps[:2] == ("Red: move a senator from bottom centre-right (3 seats) up to row 2 "
                                        "centre-right (1 seat)", "Red: take the II-Caesar laurel from path E3>A3, "
                                                                 "face down")


def test_an_unknown_phase_is_named_as_it_is():
    view = {**quovadis_position(3, {}).public_view(), "phase": "recess", "recent": []}
    assert GAME.public_prompt(view, NAMES[:3]).line == "recess"


def _over():
    match = quovadis_position(4, {"S": [BLUE, RED, BLUE, YELLOW], "C1": [RED]},
                              laurels={RED: ["V", "IV"], BLUE: ["V", "IV"], YELLOW: ["III"], GREEN: ["V", "V", "V"]})
    act(match, RED, "advance", committee="C1", path="p15")
    return match


def test_the_end_names_the_winner_every_total_and_who_is_out():
    match = _over()
    prompt = match.prompt()
    assert prompt.line == "The Senate is full. Winner: Blue"
    assert prompt.steps[-5:] == ("Red: 9 laurels", "Blue: 9 laurels", "Yellow: 3 laurels",
                                 "Green: 15 laurels (no senator in the Senate: out)", "Check the laurel totals")
    view = match.view(GREEN)
    assert GAME.header(view, match.names) == "Game over"
    assert GAME.panel(view, match.names) == ["Red 9  Blu 9", "Yel 3  Gre 15 out"]
    assert GAME.ask(view, match.names) == "Winner: Blue"
    assert GAME.standings(view, match.names) == ["Red: 9", "Blue: 9", "Yellow: 3", "Green: 15"]
    assert GAME.rules_help(view, match.names) == ["Only players with a senator in the Senate count.",
                                                  "Most laurels wins; ties: first in the Senate.", *AFTER]


def test_the_final_lines_put_two_seats_to_a_line_and_mark_those_out():
    over = {"scores": {"0": 9, "1": 12, "2": 3}}
    assert text.final_lines(over, NAMES) == ["Red 9  Blu 12", "Yel 3"]
    assert text.final_lines(over, NAMES, mark_out=[1]) == ["Red 9  Blu 12 out", "Yel 3"]


# --- a seat's screen ------------------------------------------------------------------------------

def test_a_seats_header_and_panel_show_the_turn_its_own_laurels_and_its_senators():
    match = quovadis_position(4, {"E2": [RED, BLUE, YELLOW], "S": [BLUE]}, active=BLUE,
                              laurels={RED: ["V", "IIC", "I"]})
    view = match.view(RED)
    assert GAME.header(view, match.names) == "T1 Blue S1"
    assert GAME.panel(view, match.names) == ["Laurels 8: I IIC V", "In hand 7, on board 1", "Caesar C2>S  I x17"]
    assert GAME.panel(match.view(GREEN), match.names)[0] == "Laurels 0: -"
    assert GAME.standings(view, match.names) == ["Red: S0 L3", "Blue: S1 L0", "Yellow: S0 L0", "Green: S0 L0"]


def test_the_question_follows_the_phase_and_what_the_seat_already_answered():
    match = quovadis_position(4, {"E2": [RED, BLUE, YELLOW]})
    assert GAME.ask(match.view(RED), match.names) == "Your turn:"
    assert GAME.ask(match.view(BLUE), match.names) == "Waiting for Red"
    act(match, RED, "advance", committee="E2", path="p02")
    assert GAME.ask(match.view(BLUE), match.names) == "Red: leave E2>A1?"
    assert GAME.ask(match.view(RED), match.names) == "Waiting: Blue, Yellow"
    act(match, BLUE, "support")
    assert GAME.ask(match.view(BLUE), match.names) == "You said yes; waiting"
    assert GAME.ask(match.view(GREEN), match.names) == "Waiting for Yellow"
    act(match, YELLOW, "refuse")  # 2 of 3 needed: the vote fails and Red tries again
    assert GAME.ask(match.view(RED), match.names) == "Vote failed; again:"
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "refuse")
    assert GAME.ask(match.view(BLUE), match.names) == "You said no; waiting"
    crowd = quovadis_position(5, {"E2": [RED, BLUE, YELLOW, GREEN, 4]})
    act(crowd, RED, "advance", committee="E2", path="p02")
    assert GAME.ask(crowd.view(RED), crowd.names) == "Waiting for 4 seats"


def test_the_reward_and_bonus_questions_and_their_help():
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW, YELLOW]})
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "support")
    act(match, YELLOW, "support")
    view = match.view(RED)
    assert GAME.ask(view, match.names) == "Pay an I laurel to:"
    assert GAME.rules_help(view, match.names) == ["Choose which supporters get an I laurel.", *AFTER]
    bonus = quovadis_position(3, {"E3": [RED, RED]})
    bonus.state.diamonds["p04"] = "IIC"
    act(bonus, RED, "advance", committee="E3", path="p04")
    assert GAME.ask(bonus.view(RED), bonus.names) == "Caesar bonus: move?"
    assert GAME.rules_help(bonus.view(RED), bonus.names) == [
        "A II-Caesar laurel lets you move Caesar now, or leave him.", *AFTER]
    assert GAME.ask({**bonus.view(RED), "phase": "recess"}, bonus.names) == ""


def test_the_rules_help_of_a_turn_and_a_vote():
    match = quovadis_position(3, {"E3": [RED, BLUE]})
    assert GAME.rules_help(match.view(RED), match.names) == [
        "Place a senator in a bottom committee, advance one along a path, or move Caesar.",
        "Leaving a 3- or 5-seat committee needs 2 or 3 votes of its seats, that many present.",
        "Caesar on a path: pass without a vote, but his laurel stays.", *AFTER]
    act(match, RED, "advance", committee="E3", path="p04")
    assert GAME.rules_help(match.view(BLUE), match.names) == [
        "Answer yes or no on your screen.", "Supporters the mover needed get an I laurel each.", *AFTER]


@pytest.mark.parametrize("key, value, chosen, words", [
    ("do", "place", {}, "Place senator"),
    ("do", "advance", {}, "Advance"),
    ("do", "caesar", {}, "Move Caesar"),
    ("do", "support", {}, "Yes, let it pass"),
    ("do", "refuse", {}, "No"),
    ("do", "reward", {}, "Pay a supporter"),
    ("do", "keep", {}, "Leave Caesar"),
    ("do", "pay", {}, "Give a laurel"),
    ("do", "bribe", {}, "bribe"),
    ("committee", "E2", {}, "E2 3 of 5"),
    ("path", "p02", {}, "E2>A1 III"),
    ("path", "p16", {}, "C2>S II C"),
    ("path", "p01", {}, "E1>A1"),
    ("to", BLUE, {"do": "pay"}, "Give: Blue"),
    ("to", BLUE, {"do": "reward"}, "Pay I to Blue"),
    ("token", "IIC", {}, "II-Caesar (2)"),
    ("token", "I", {}, "I (1)"),
    ("colour", 3, {}, "colour=3"),
])
def test_each_menu_choice_has_a_short_label(key, value, chosen, words):
    match = quovadis_position(4, {"E2": [RED, BLUE, YELLOW]})
    match.state.diamonds.update({"p02": "III", "p16": "II"})
    assert GAME.label(match.view(RED), key, value, match.names, chosen) == words


def test_undoing_a_move_tells_each_step_back():
    match = quovadis_position(3, {"E3": [RED, RED]})
    token, refill = match.state.diamonds["p04"], match.state.bag[-1]
    act(match, RED, "advance", committee="E3", path="p04")
    words = GAME.describe_moves(inverse(match.prompt().moves), match.names)
    assert words == [f"Put the {text.token_name(refill)} laurel from diamond E3>A3 back into the bag",
                     f"Red: lay the {text.token_name(token)} laurel back face up on diamond E3>A3",
                     "Red: move your senator from row 2 centre-right (1 seat) back down to bottom centre-right "
                     "(3 seats)"]


def test_every_phases_prompt_carries_the_last_actions_public_steps_as_data_beside_their_words():
    """The table reads the steps in words and the page draws them from the data: both come from the last action."""
    def carried(match):
        prompt, view = match.prompt(), match.public_view()
        assert prompt.moves == tuple(event_moves(view["recent"])) and isinstance(prompt.steps, tuple)
        return prompt

    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW, YELLOW]})
    act(match, RED, "advance", committee="E2", path="p02")
    assert carried(match).moves == ()  # asking moves nothing
    act(match, BLUE, "support")
    act(match, YELLOW, "support")
    reward = carried(match)
    assert match.state.phase == "reward" and reward.steps == tuple(text.told(match.public_view()["recent"], NAMES))
    assert [m["what"] for m in reward.moves] == ["senator", "laurel", "laurel"]  # up, collect, refill
    bonus = quovadis_position(3, {"E3": [RED, RED]})
    bonus.state.diamonds["p04"] = "IIC"
    act(bonus, RED, "advance", committee="E3", path="p04")
    assert bonus.state.phase == "bonus" and carried(bonus).moves
    view = {**bonus.public_view(), "phase": "recess"}
    recess = GAME.public_prompt(view, bonus.names)
    assert recess.moves == bonus.prompt().moves and recess.steps == bonus.prompt().steps


def test_a_vote_refused_by_several_names_them_all():
    event = {"type": "votes", "seat": RED, "committee": "E2", "path": "p02", "answers": {"1": False, "2": False},
             "passed": False}
    assert GAME.describe_event(event, NAMES) == "Vote failed: yes -; no Blue, Yellow"
