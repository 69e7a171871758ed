"""Tennō in words: the names of the real table's places, the steps told on one line, the menus'
fallbacks and the standings, each pinned on its own from hand-built steps and views (the
playthroughs read them only as far as seeded games happen to reach them)."""

from __future__ import annotations

import pytest

from engine import i18n
from engine.games.tenno import text
from engine.physical import step, turn

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
NAMES = ("Red", "Blue", "Yellow", "Green")
NINJA, SHOGUN = 4, 10


@pytest.mark.parametrize("place, words", [
    (["hand", BLUE], "Blue's hand"),
    (["row", YELLOW, 0], "Yellow's slot 1"),
    (["prisoners", RED], "Red's prisoner pile"),
    (["discard"], "the discard"),
    (["aside", GREEN], "Green's hands, out of sight"),
    (["box"], "the box"),
])
def test_every_place_on_the_real_table_has_a_name(place, words):
    assert text.place_name(place, NAMES) == words


def test_a_face_is_up_down_or_not_said():
    assert [text.face_word(f) for f in ("up", "down", "")] == ["face up", "face down", ""]


@pytest.mark.parametrize("move, words", [
    (turn("card", BLUE, ["prisoners", RED], ("down", "up"), (NINJA, NINJA)),
     "Turn Blue's Ninja 4 face up on Red's prisoner pile"),
    (turn("card", BLUE, ["hand", BLUE], ("up", "down"), (NINJA, NINJA)),
     "Turn Blue's Ninja 4 face down on Blue's hand"),
    (step("card", GREEN, ["discard"], ["aside", GREEN], ("up", "down"), (SHOGUN, SHOGUN)),
     "Move Green's Shogun 10 from the discard to Green's hands, out of sight, face down"),
    (step("card", GREEN, ["hand", GREEN], ["discard"], ("", "up")),
     "Move Green's card from Green's hand to the discard, face up"),
    (step("card", GREEN, ["hand", GREEN], ["discard"]),
     "Move Green's card from Green's hand to the discard, out of sight"),
])
def test_a_step_no_rule_tells_in_its_own_words_still_names_both_places(move, words):
    assert text.move_line(move, NAMES) == words


def test_a_prisoner_pile_turned_is_told_once_for_the_whole_pile():
    up = [turn("card", owner, ["prisoners", BLUE], ("down", "up"), (card, card))
          for owner, card in ((RED, NINJA), (GREEN, 2), (RED, SHOGUN))]
    down = [turn("card", owner, ["prisoners", YELLOW], ("up", "down"), (card, card))
            for owner, card in ((RED, NINJA), (GREEN, 2))]
    assert text.move_lines(up + down, NAMES) == ["Turn Blue's prisoner pile face up (3 cards)",
                                                 "Turn Yellow's prisoner pile face down again"]
    with i18n.reading("zh_Hant"):
        lines = text.move_lines(up + down, NAMES)
        assert lines == [i18n.ngettext("Turn {name}'s prisoner pile face up ({n} card)",
                                       "Turn {name}'s prisoner pile face up ({n} cards)", 3).format(name="Blue", n=3),
                         i18n._("Turn {name}'s prisoner pile face down again").format(name="Yellow")]
        assert "Blue" in lines[0] and "3" in lines[0] and not lines[0].startswith("Turn")


def test_the_standings_count_each_pile_and_hand_never_their_values():
    view = {"over": None, "players": [{"captives": 2, "hand": 5}, {"captives": 0, "hand": 7}]}
    assert text.standings(view, NAMES) == ["Red: 2 pris, 5 hand", "Blue: 0 pris, 7 hand"]
    over = {"over": {"scores": {"0": 9, "1": 4}}, "players": view["players"]}
    assert text.standings(over, NAMES) == ["Red: 9", "Blue: 4"]


def test_an_action_the_menu_has_no_word_for_is_named_by_its_id():
    view = {"me": {"row": [], "peeks": []}}
    assert text.label(view, "do", "attack", NAMES, {}) == "Attack"
    assert text.label(view, "do", "dance", NAMES, {}) == "dance"
    assert text.label(view, "odd", 3, NAMES, {}) == "odd=3"


def _menu_view():
    """Red's row Nj4, a gap, Sh10; Blue's middle card face down, seen by Red before it may have
    moved; Blue's right card revealed; Red's reward is a peek at Blue."""
    return {"me": {"row": [NINJA, None, SHOGUN], "peeks": [
                {"target": BLUE, "slot": 1, "card": 6, "turn": 1, "stale": False},
                {"target": BLUE, "slot": 1, "card": 7, "turn": 2, "stale": True}]},
            "players": [{"row": [NINJA, None, SHOGUN]}, {"row": ["?", "?", 3]}],
            "reward": {"target": BLUE}}


@pytest.mark.parametrize("key, value, chosen, words", [
    ("slot", 0, {"do": "swap"}, "slot 1: Nj4"),
    ("first", 1, {"do": "reorder"}, "slot 2: --"),
    ("second", 2, {"do": "reorder", "first": 0}, "slot 3: Sh10"),
    ("slot", 2, {"do": "peek"}, "Blue slot 3"),
    ("target", BLUE, {"do": "attack"}, "Blue"),
    ("target_slot", 0, {"do": "attack", "target": BLUE}, "slot 1"),
    ("target_slot", 1, {"do": "attack", "target": BLUE}, "s2 saw Sa7?"),  # the latest peek, maybe moved since
    ("target_slot", 2, {"do": "attack", "target": BLUE}, "slot 3 (P3)"),
    ("card", SHOGUN, {"do": "swap", "slot": 2}, "Keep (fake swap)"),
    ("card", SHOGUN, {"do": "swap", "slot": 0}, "Shogun 10"),
    ("card", NINJA, {"do": "attack"}, "Ninja 4"),
    ("monk", True, {"do": "defend"}, "With Monk (+2)"),
    ("monk", False, {"do": "defend"}, "Reveal, no Monk"),
    ("fake", True, {"do": "swap"}, "Pretend only"),
    ("fake", False, {"do": "swap"}, "Really swap"),
    ("order", [2, 1, 3], {"do": "arrange"}, "P2-P1-P3"),
])
def test_each_menu_choice_names_what_the_seat_can_see(key, value, chosen, words):
    assert text.label(_menu_view(), key, value, NAMES, chosen) == words


def test_a_peek_not_yet_stale_is_shown_without_a_mark():
    view = _menu_view()
    view["me"]["peeks"][-1]["stale"] = False
    assert text.label(view, "target_slot", 1, NAMES, {"target": BLUE}) == "s2 saw Sa7"
    assert [text.card_short(c) for c in (None, "?", 0)] == ["--", "??", "GsX"]


@pytest.mark.parametrize("move, words", [
    (turn("card", RED, ["row", RED, 1], ("down", "up"), (NINJA, NINJA)), "Red: turn your slot 2 face up: Ninja 4"),
    (turn("card", RED, ["row", RED, 1], ("up", "down"), (NINJA, NINJA)), "Red: turn Ninja 4 face down again in slot 2"),
    (step("card", RED, ["hand", RED], ["row", RED, 1], ("", "down"), (NINJA, NINJA)),
     "Red: lay Ninja 4 face down in slot 2"),
    (step("card", RED, ["hand", RED], ["row", RED, 1], ("", "down")),
     "Red: lay the hand card your screen names face down in slot 2"),
    ({**step("card", RED, ["hand", RED], ["row", RED, 1], ("", "down"), (NINJA, NINJA)), "back": True},
     "Red: lay back face down in slot 2 the card your screen shows there"),
    (step("card", RED, ["row", RED, 2], ["hand", RED], ("down", "")),
     "Red: take the card in slot 3 into your hand, out of sight"),
    ({**step("card", RED, ["row", RED, 2], ["hand", RED], ("down", "")), "back": True},
     "Red: take the card in slot 3 back into your hand, out of sight"),
    (step("card", RED, ["row", RED, 2], ["aside", RED], ("down", "")),
     "Red: take the card in slot 3 into your hand, out of sight"),
    (step("card", RED, ["aside", RED], ["row", RED, 0], ("", "down")),
     "Red: lay the card your screen names face down in slot 1"),
    (step("card", RED, ["row", RED, 0], ["prisoners", BLUE], ("up", "down"), (NINJA, NINJA)),
     "Red's Ninja 4 goes face down onto Blue's prisoner pile"),
    (step("card", RED, ["row", RED, 0], ["discard"], ("up", "up"), (NINJA, NINJA)),
     "Red's Ninja 4 leaves the game (discard)"),
    (step("card", YELLOW, ["hand", YELLOW], ["box"], count=8), "Yellow: put your cards back in the box"),
    (step("card", YELLOW, ["box"], ["hand", YELLOW], count=11), "Yellow: take the 11 cards of your colour in hand"),
    (step("card", YELLOW, ["box"], ["hand", YELLOW], count=1), "Yellow: take the 1 card of your colour in hand"),
])
def test_every_physical_step_is_told_in_words(move, words):
    assert text.move_line(move, NAMES) == words


def test_a_step_is_told_in_the_readers_language():
    with i18n.reading("zh_Hant"):
        taken = text.move_line(step("card", YELLOW, ["box"], ["hand", YELLOW], count=11), NAMES)
        assert taken == i18n.ngettext("{owner}: take the {n} card of your colour in hand",
                                      "{owner}: take the {n} cards of your colour in hand", 11).format(
            owner="Yellow", n=11) and "11" in taken and "take" not in taken
        moved = text.move_line(step("card", GREEN, ["hand", GREEN], ["discard"]), NAMES)
        assert i18n._("card") in moved and i18n._("card") != "card"


def _asked(phase, choosing="", **more):
    view = {"seat": RED, "phase": phase, "over": None, "pending": [RED], **more}
    return text.ask(view, NAMES, choosing)


@pytest.mark.parametrize("phase, choosing, words", [
    ("attack", "", "Attack with:"),
    ("attack", "target", "Attack whom?"),
    ("attack", "target_slot", "Which of their cards?"),
    ("ronin", "", "Ronin strikes again?"),
    ("ronin", "target", "Attack whom?"),
    ("ronin", "target_slot", "Which of their cards?"),
    ("reward", "", "You won: swap?"),
    ("reward", "slot", "Swap which row card?"),
    ("reward", "card", "For which hand card?"),
    ("reward", "first", "Swap which row card?"),
    ("reward", "second", "With which row card?"),
    ("reward", "fake", "Really, or pretend?"),
    ("nowhere", "", ""),
])
def test_each_step_of_a_choice_asks_its_own_question(phase, choosing, words):
    assert _asked(phase, choosing, reward={"kind": "swap", "seat": RED, "target": BLUE}) == words


def test_a_shared_win_names_every_winner_and_a_waiting_seat_whom_it_waits_for():
    over = {"seat": RED, "phase": "attack", "pending": [], "over": {"winners": [RED, YELLOW]}}
    assert text.ask(over, NAMES) == "Winner: Red, Yellow"
    assert text.ask({"seat": RED, "phase": "attack", "pending": [BLUE], "over": None}, NAMES) == "Waiting for Blue"


def test_a_row_swap_out_of_sight_is_one_step_among_the_others():
    """The reward's swap of two row cards, or its pretence, is four steps the table sees as one."""
    swap = [step("card", RED, ["row", RED, 0], ["aside", RED], ("down", "")),
            step("card", RED, ["row", RED, 2], ["aside", RED], ("down", "")),
            step("card", RED, ["aside", RED], ["row", RED, 0], ("", "down")),
            step("card", RED, ["aside", RED], ["row", RED, 2], ("", "down"))]
    before = turn("card", BLUE, ["row", BLUE, 1], ("down", "up"), (NINJA, NINJA))
    after = step("card", BLUE, ["row", BLUE, 1], ["discard"], ("up", "up"), (NINJA, NINJA))
    assert text.move_lines([before, *swap, after, after], NAMES) == [
        "Blue: turn your slot 2 face up: Ninja 4",
        "Red: take the cards in slot 1 and slot 3 out of sight and lay them back, swapped or as they were",
        "Blue's Ninja 4 leaves the game (discard)", "Blue's Ninja 4 leaves the game (discard)"]


def test_laid_cards_are_told_together_only_when_the_screen_names_them():
    """Cards laid face down that each seat's screen names share a line; cards the table may see
    laid (an undo's, whose value is told) keep a line each."""
    named = [step("card", RED, ["hand", RED], ["row", RED, slot], ("", "down")) for slot in (0, 2)]
    seen = [step("card", RED, ["hand", RED], ["row", RED, slot], ("", "down"), (card, card))
            for slot, card in ((0, NINJA), (2, SHOGUN))]
    assert text.move_lines(named, NAMES) == ["Red: lay the cards your screen names face down in slot 1, slot 3, "
                                             "in that order"]
    assert text.move_lines(seen, NAMES) == ["Red: lay Ninja 4 face down in slot 1", "Red: lay Shogun 10 face down in slot 3"]
    to_box = [step("card", RED, ["hand", RED], ["box"], count=8), step("card", RED, ["hand", RED], ["box"], count=3)]
    assert text.move_lines(to_box, NAMES) == ["Red: put your cards back in the box"] * 2


def test_declining_the_second_attack_is_told():
    assert text.describe_event({"type": "decline", "seat": BLUE}, NAMES) == "Blue makes no second attack"


def _prompt_view(phase, **more):
    moves = [step("card", RED, ["row", RED, 0], ["discard"], ("up", "up"), (NINJA, NINJA))]
    return {"phase": phase, "active": BLUE, "pending": [BLUE], "players": [], "over": None,
            "recent": [{"type": "pass", "seat": RED, "moves": moves}], **more}, tuple(moves)


@pytest.mark.parametrize("phase", ["setup", "attack", "ronin", "refill", "elsewhere"])
def test_every_prompt_carries_the_last_actions_steps_as_data(phase):
    view, moves = _prompt_view(phase)
    prompt = text.prompt(view, NAMES)
    assert prompt.moves == moves and prompt.steps[0] == "Red's Ninja 4 leaves the game (discard)"
    if phase == "elsewhere":
        assert prompt.line == "elsewhere" and prompt.steps == ("Red's Ninja 4 leaves the game (discard)",)


def test_the_end_tells_who_could_not_refill_each_pile_and_every_winner():
    over = {"reason": "refill", "ender": GREEN, "winners": [RED, BLUE], "scores": {"0": 9, "1": 9},
            "breakdown": {"0": {"captives": 2}, "1": {"captives": 1}}}
    view, moves = _prompt_view("refill", over=over)
    prompt = text.prompt(view, NAMES)
    assert prompt.line == "Game over. Winner: Red, Blue" and prompt.moves == moves
    assert prompt.steps == ("Red's Ninja 4 leaves the game (discard)", "Green cannot refill: the game ends",
                            "Red: 9 in prisoners (2 cards)", "Blue: 9 in prisoners (1 card)",
                            "Check the totals on the prisoner piles")
    view["over"] = {**over, "ender": -1}  # an end that names no seat tells no refill
    assert "Green cannot refill: the game ends" not in text.prompt(view, NAMES).steps
