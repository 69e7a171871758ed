"""Shadow in words: each kind of physical step and event the table reads, from hand-made records.

The playthroughs read whole games; these pin each kind of line on its own,
the rare ones included (a tile set aside, a step undone, the box), so a
changed word or a lost branch shows in a test that names it.
"""

from __future__ import annotations

import json
import re

import pytest

from engine import i18n
from engine.games import get_game
from engine.games.shadow import text
from engine.games.shadow.data import CARDS
from engine.games.shadow.position import position
from engine.physical import step, turn

GAME = get_game("shadow")
NAMES = ("Red", "Blue", "Green", "Yellow")
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def back(s):
    return {**s, "back": True}


def vp_turned(seat, face):
    return turn("vp cards", seat, ["vp", seat], face, (3, 3))


def aged(seat, before, after, place):
    return turn("tile", seat, place, ("single", "single"), (before, after))


def returned(seat, card):
    return step("card", -1, ["front", seat], ["stack", card], ("up", "up"), (card, card))


@pytest.mark.parametrize("move, words", [
    (step("thaler marker", RED, ["thaler track"], ["thaler track"], value=(4, 7)),
     "Move Red's thaler marker from 4 to 7"),
    (step("chip", BLUE, ["thaler track"], ["thaler track"], value=(3, 9)),
     "Put Blue's coloured chip beside 9 on the thaler track"),
    (step("round marker", -1, ["round track"], ["round track"], value=(2, 3)), "Move the round marker to round 3"),
    (step("emperor marker", -1, ["front", RED], ["front", GREEN]), "Green takes the emperor marker from Red"),
    (vp_turned(BLUE, ("down", "up")), "Blue: turn your VP cards face up"),
    (vp_turned(BLUE, ("up", "down")), "Blue: turn your VP cards face down"),
    (step("vp cards", GREEN, ["vp", GREEN], ["vp", GREEN], ("down", "down"), hidden=True),
     "Green: take VP cards, face down; your screen shows your VP"),
    (back(step("vp cards", GREEN, ["vp", GREEN], ["vp", GREEN], ("down", "down"), hidden=True)),
     "Green: give back the VP cards just taken; your screen shows your VP"),
    (step("vp cards", YELLOW, ["vp", YELLOW], ["vp", YELLOW], ("up", "up"), (2, 4)), "Yellow: VP cards from 2 to 4"),
    (step("card", -1, ["stack", "doctor"], ["front", BLUE], ("up", "up"), ("doctor", "doctor")),
     "Lay a card from the Doctor stack face up in front of Blue"),
    (returned(BLUE, "doctor"), "Put Blue's Doctor card back on its stack"),
    (turn("tile", RED, ["SAXONY", "a0"], ("single", "couple"), (25, 25)),
     "Flip Red's Baron 25 on Saxony space 1 to its Couple side"),
    (turn("tile", RED, ["SAXONY", "a0"], ("couple", "single"), (35, 35)),
     "Flip Red's Couple 35 on Saxony space 1 back to its Baron side"),
    (aged(RED, 25, 35, ["SAXONY", "elector"]), "Turn Red's Baron 25 on the Saxony elector space to 35"),
    (step("tile", BLUE, ["supply", BLUE], ["MAINZ", "a2"], ("", "single"), (None, 15)),
     "Put Blue's Baron 15 on Mainz space 3"),
    (step("city", -1, ["empire supply"], ["MAINZ", "c1"]), "Put an empire city on Mainz city 2"),
    (step("knight", GREEN, ["MAINZ", "k0"], ["supply", GREEN]), "Take Green's knight off Mainz castle, back to supply"),
    (step("tile", YELLOW, ["throne"], ["aside"], ("single", "single"), (45, 45)),
     "Take Yellow's Baron 45 off the throne and set it aside"),
    (step("tile", YELLOW, ["aside"], ["BOHEMIA", "elector"], ("single", "single"), (45, 45)),
     "Put Yellow's Baron 45 from aside on the Bohemia elector space"),
    (step("knight", GREEN, ["MAINZ", "a1"], ["MAINZ", "privilege"]),
     "Move Green's knight from Mainz space 2 to the Mainz privilege space"),
    (step("city", RED, ["KOELN", "c0"], ["TRIER", "k0"]), "Move Red's city from Cologne city 1 to Trier castle"),
    (step("tile", BLUE, ["SAXONY", "a1"], ["BRANDENBURG", "a3"], ("couple", "couple")),
     "Move Blue's tile from Saxony space 2 to Brandenburg space 4"),
    (step("knight", RED, ["MAINZ", "a0"], ["front", GREEN]),
     "Move Red's knight from Mainz space 1 to in front of Green"),
    (step("knight", RED, ["MAINZ", "a0"], ["stack", "doctor"]),
     "Move Red's knight from Mainz space 1 to the Doctor stack"),
    (step("knight", RED, ["MAINZ", "a0"], ["vp", YELLOW]),
     "Move Red's knight from Mainz space 1 to Yellow's VP cards"),
    (step("knight", RED, ["MAINZ", "a0"], ["empire supply"]),
     "Move Red's knight from Mainz space 1 to the empire city supply"),
    (step("thing", GREEN, ["MAINZ", "a0"], ["ROME", "x"]), "Move thing from Mainz space 1 to the box"),
])
def test_every_physical_step_is_told_in_words(move, words):
    assert GAME.describe_moves([move], NAMES) == [words]


@pytest.mark.parametrize("move, words", [
    (step("thaler marker", RED, ["box"], ["thaler track"], value=(None, 7)), "Put Red's thaler marker on 7"),
    (step("chip", RED, ["box"], ["thaler track"], value=(None, 7)),
     "Put Red's coloured chip beside 7 on the thaler track"),
    (step("round marker", -1, ["box"], ["round track"], value=(None, 1)), "Put the round marker on round 1"),
    (step("emperor marker", -1, ["box"], ["front", YELLOW]), "Yellow takes the emperor marker"),
    (step("card", -1, ["box"], ["stack", "doctor"], ("", "up"), (None, "doctor"), count=3),
     "Lay out the Doctor stack: 3"),
    (step("vp cards", BLUE, ["box"], ["vp", BLUE], ("", "up")), "Blue's VP cards will lie face up in front of Blue"),
    (step("vp cards", BLUE, ["box"], ["vp", BLUE], ("", "down")),
     "Blue's VP cards will lie face down in front of Blue"),
    (step("city", -1, ["box"], ["empire supply"], count=3), "Put the 3 empire cities beside the board"),
    (step("knight", GREEN, ["box"], ["supply", GREEN], count=3), "Green: take your 3 knights"),
    (step("tile", GREEN, ["box"], ["supply", GREEN], count=7), "Green: take your 7 tiles"),
    (step("city", GREEN, ["box"], ["supply", GREEN], count=3), "Green: take your 3 cities"),
    (step("city", RED, ["box"], ["supply", RED], count=3), "Red: take your 3 cities"),  # seat 0 is no one's
    (step("flag", GREEN, ["box"], ["supply", GREEN]), "Green: take your 1 flag"),
    (step("chip", GREEN, ["thaler track"], ["box"]), "Put the coloured chips back in the box"),
    (step("thaler marker", GREEN, ["thaler track"], ["box"]), "Put the thaler markers back in the box"),
    (step("round marker", -1, ["round track"], ["box"]), "Put the round marker back in the box"),
    (step("emperor marker", -1, ["front", BLUE], ["box"]), "Put the emperor marker back in the box"),
    (step("card", -1, ["stack", "doctor"], ["box"]), "Put the action cards back in the box"),
    (step("vp cards", GREEN, ["vp", GREEN], ["box"]), "Put the VP cards back in the box"),
    (step("tile", GREEN, ["supply", GREEN], ["box"]), "Put the pieces back in the box"),
])
def test_laying_out_the_table_and_putting_it_away_is_told_per_component(move, words):
    assert GAME.describe_moves([move], NAMES) == [words]


def test_a_row_of_alike_steps_shares_one_line_and_a_lone_step_keeps_its_own():
    """Rules Phase II (aging): every tile left on the board is turned a quarter turn, one age step older."""
    older = [aged(RED, 25, 35, ["SAXONY", "a0"]), aged(BLUE, 15, 25, ["MAINZ", "elector"])]
    assert GAME.describe_moves(older, NAMES) == [
        "One age step older, a quarter turn clockwise: Red's Baron 25 on Saxony space 1, "
        "Blue's Baron 15 on the Mainz elector space"]
    younger = [aged(RED, 35, 25, ["SAXONY", "a0"]), aged(BLUE, 25, 15, ["throne"])]  # an aging undone
    assert GAME.describe_moves(younger, NAMES) == [
        "One age step younger, a quarter turn anticlockwise: Red's Baron 35 on Saxony space 1, "
        "Blue's Baron 25 on the throne"]
    assert GAME.describe_moves([returned(RED, "doctor"), returned(BLUE, "move")], NAMES) == [
        "Put the cards in front of the players back on their stacks"]
    chips = [step("chip", s, ["thaler track"], ["thaler track"], value=(1, 2)) for s in (RED, BLUE)]
    assert GAME.describe_moves(chips, NAMES) == ["Put each coloured chip beside its thaler marker"]
    assert GAME.describe_moves([vp_turned(RED, ("down", "up")), vp_turned(BLUE, ("down", "up"))], NAMES) == [
        "Every player: turn your VP cards face up"]
    assert GAME.describe_moves([vp_turned(RED, ("up", "down")), vp_turned(BLUE, ("up", "down"))], NAMES) == [
        "Every player: turn your VP cards face down"]
    mixed = [vp_turned(RED, ("up", "down")), vp_turned(BLUE, ("down", "up")), aged(RED, 25, 35, ["SAXONY", "a0"]),
             aged(BLUE, 35, 25, ["MAINZ", "a0"])]
    assert GAME.describe_moves(mixed, NAMES) == [
        "Red: turn your VP cards face down", "Blue: turn your VP cards face up",
        "Turn Red's Baron 25 on Saxony space 1 to 35", "Turn Blue's Baron 35 on Mainz space 1 to 25"]


@pytest.mark.parametrize("event, words", [
    ({"type": "refused", "seat": BLUE, "bride": GREEN}, "Blue refuses Green's daughter"),
    ({"type": "nunnery", "seat": YELLOW}, "Yellow's daughter enters a nunnery"),
    ({"type": "no_child", "seat": RED, "reason": "no_room"}, "Red: a son, but no Baron or space for him"),
    ({"type": "no_child", "seat": RED, "reason": "no_card"}, "Red: no blue or red card, no child"),
    ({"type": "throne_empty", "seat": GREEN}, "Green has no tile for the throne: it stays empty"),
    ({"type": "rights", "seat": BLUE, "round": 4}, "Emperor Blue's rights for round 4"),
    ({"type": "game_over", "round": 5}, "The game ends after round 5"),
    ({"type": "done", "seat": YELLOW}, "Yellow: done"),
    ({"type": "pick", "kind": "church", "seat": RED, "area": "TRIER"}, "Red's Church influence: Trier"),
    ({"type": "pick", "kind": "excommunicate", "seat": BLUE, "area": "SAXONY"}, "Blue excommunicates Saxony's elector"),
    ({"type": "influence", "area": "MAINZ", "scores": {"0": 0, "1": 0}}, "Mainz influence: none"),
    ({"type": "placed", "seat": BLUE, "kind": "baron", "age": 45, "area": "MAINZ", "spot": "a0", "reason": "old_emperor",
      "moves": [step("tile", BLUE, ["aside"], ["MAINZ", "a0"], ("single", "single"), (45, 45))]},
     "Blue's old emperor; Put Blue's Baron 45 from aside on Mainz space 1"),
    ({"type": "aging", "died": 0, "moves": [turn("tile", RED, ["MAINZ", "a0"], ("single", "single"), (15, 25))]},
     "Turn the 1 tile left on the board a quarter turn clockwise: one age step older"),
    ({"type": "undo", "seat": BLUE, "do": "place"}, "Blue's placement is taken back"),
    ({"type": "mystery"}, "mystery"),
    ({"type": "round", "round": 3, "moves": [step("round marker", -1, ["round track"], ["round track"], value=(2, 3))]},
     "Round 3 begins; Move the round marker to round 3"),
    ({"type": "game_over", "round": 5, "moves": [vp_turned(RED, ("down", "up"))]},
     "The game ends after round 5; Red: turn your VP cards face up"),
    ({"type": "ballots", "choices": {}, "emperor": RED, "emperor_total": 3, "rival": BLUE, "rival_total": 2,
      "winner": RED}, "Ballots turned up (none): Red 3, Blue 2. Red is Emperor"),
    ({"type": "something", "seat": -1, "moves": [step("city", -1, ["empire supply"], ["MAINZ", "c1"])]},
     "Put an empire city on Mainz city 2"),
])
def test_every_public_event_is_told_in_words(event, words):
    assert GAME.describe_event(event, NAMES) == words


def _table(**options):
    return position(3, round=2, emperor=BLUE, throne="B1/45", board={"SAXONY": {"elector": "C0/35"}},
                    thalers={RED: 4, BLUE: 9, GREEN: 1}, vp={RED: 3, GREEN: 1}, options=options)


@pytest.mark.parametrize("key, value, chosen, words", [
    ("privilege", "SAXONY", {}, "+2 income"),
    ("from_area", "supply", {}, "from supply"),
    ("from_area", "MAINZ", {}, "from Mainz"),
    ("area", "supply", {}, "from supply"),
    ("area", "throne", {}, "The throne"),
    ("area", "MAINZ", {}, "Mainz"),
    ("area", "MAINZ", {"from_area": "KOELN"}, "to Mainz"),
    ("winner", GREEN, {}, "Green"),
    ("colour", 1, {}, "colour=1"),
])
def test_each_menu_choice_has_a_short_label(key, value, chosen, words):
    match = _table()
    assert GAME.label(match.view(RED), key, value, match.names, chosen) == words


@pytest.mark.parametrize("do, words", [
    ("leave_empty", "Leave it empty"), ("place", "Place"), ("done", "Done"), ("crown", "Crown"),
    ("son", "Place the son"), ("keep", "Take him back"), ("propose", "Propose marriage"), ("nunnery", "Nunnery (+1)"),
    ("accept", "Accept"), ("refuse", "Refuse"), ("buy", "Buy a card"), ("privilege", "Use a privilege"),
    ("knight", "Knight (1)"), ("pass", "Pass"), ("gray", "Choose"), ("church", "Choose"), ("excommunicate", "Choose"),
    ("tie", "Choose"), ("elect", "Seat elector"), ("return", "Push knight"), ("vote", "Vote"), ("retire", "Place"),
    ("empire_city", "Empire city"), ("move_city", "Move a city"), ("fly", "fly"),
])
def test_each_kind_of_action_has_its_own_menu_words_and_an_unknown_one_reads_as_itself(do, words):
    match = _table()
    view = dict(match.view(RED), task=None)  # no task to word the choice by (a proposal's, a son's)
    assert GAME.label(view, "do", do, match.names, {}) == words


def test_the_standings_show_thalers_the_emperor_and_victory_points_only_when_the_table_plays_them_open():
    """Rules: the thaler track is open; VP cards lie face down unless the open-VP variant is played."""
    match = _table()
    assert GAME.standings(match.view(RED), match.names) == ["Red: 4 th", "Blue: 9 th *", "Green: 1 th"]
    match = _table(vp_open=True)
    assert GAME.standings(match.view(RED), match.names) == ["Red: 4 th 3 VP", "Blue: 9 th 0 VP *", "Green: 1 th 1 VP"]


def test_tiles_places_and_names_read_short():
    match = _table()
    view = match.view(RED)
    assert text.tile(None, NAMES) == "empty"
    assert text.tile({"kind": "couple", "owner": BLUE, "age": 35}, NAMES) == "Blue C35"
    assert text.tile({"kind": "baron", "owner": GREEN, "age": 15}, NAMES, owner=False) == "B15"
    assert text.tile({"kind": "knight", "owner": GREEN, "age": 0}, NAMES, owner=False) == "knight"
    assert text.piece_at(view, "ROME", "a0") is None
    assert text.piece_at(view, "SAXONY", "elector") == {"kind": "couple", "owner": RED, "age": 35}
    assert text.piece_at(view, "throne", "") == {"kind": "baron", "owner": BLUE, "age": 45}
    assert text.area_name("supply") == "supply" and text.place_name("supply", "a1") == "supply"
    assert text.place_name("MAINZ", "") == "Mainz" and text.kind_name("monk") == "monk"
    assert text.phase_title("recess") == "recess"


@pytest.mark.parametrize("phase, words", [
    ("setup", "Setup"), ("income", "Income"), ("aging", "Aging"), ("descendants", "Descendants"),
    ("actions", "Actions"), ("electors", "New electors"), ("election", "Election"), ("emperor", "Emperor's rights"),
    ("advance", "Round marker"), ("over", "Game over"),
])
def test_every_phase_has_its_title(phase, words):
    assert text.phase_title(phase) == words


def test_pieces_and_owners_are_named_in_words():
    assert [text.kind_name(k) for k in ("baron", "couple", "knight")] == ["Baron", "Couple", "knight"]
    assert [text.tile_long(k, 25) for k in ("baron", "couple", "knight")] == ["Baron 25", "Couple 25", "knight"]
    assert text.who(NAMES, -1) == "the empire" and text.who(NAMES, GREEN) == "Green"
    assert text.place_name("throne", "a1") == "the throne"


def test_the_final_screen_lists_each_score_then_where_the_seats_own_vp_came_from_never_its_thalers():
    match = position(3, phase="emperor", round=5, emperor=RED, vp={BLUE: 2}, thalers={RED: 5, BLUE: 3, GREEN: 4})
    match.apply({"seat": RED, "do": "done"})
    assert text.final_panel(match.view(BLUE), match.names) == ["Red 1  Blu 2", "Gre 0", "Em2"]
    assert text.final_panel(match.view(GREEN), match.names) == ["Red 1  Blu 2", "Gre 0", "no VP"]


@pytest.mark.parametrize("task, choosing, words", [
    ({"kind": "turn"}, "", "Your turn: act or pass"),
    ({"kind": "turn"}, "card", "Which card?"),
    ({"kind": "turn"}, "winner", "Choose:"),
    ({"kind": "church"}, "", "Church influence: where?"),
    ({"kind": "setup", "piece": "knight"}, "", "Place your knight"),
    ({"kind": "answer", "area": "SAXONY", "spot": "elector", "other": BLUE}, "", "Marry Blue's daughter to your C35?"),
    ({"kind": "mystery"}, "", "mystery"),
])
def test_each_decision_asks_its_own_question(task, choosing, words):
    match = _table()
    view = dict(match.view(RED), pending=[RED], task=task)
    assert (text.ask(view, match.names, choosing) if choosing else text.ask(view, match.names)) == words


def test_a_field_without_a_question_of_its_own_asks_to_choose_in_every_language():
    match = _table()
    view = dict(match.view(RED), pending=[RED], task={"kind": "turn"})
    with i18n.reading("zh_Hant"):
        assert text.ask(view, match.names, "winner") == i18n._("Choose:") != "Choose:"
        assert text.ask(view, match.names, "card") == i18n._("Which card?") != "Which card?"


def test_pieces_and_vp_sources_are_named_in_the_readers_language():
    with i18n.reading("zh_Hant"):
        names = [text.kind_name(k) for k in ("baron", "couple", "knight")] + [
            text.vp_reason(r) for r in ("emperor", "electors", "votes", "cities", "marriages", "mainz", "indulgence")]
        assert names == [i18n._(w) for w in ("Baron", "Couple", "knight", "emperor", "new elector", "backed the winner",
                                             "city", "marriage", "Mainz", "Indulgence")]
    assert not set(names) & {"Baron", "Couple", "knight", "emperor", "Indulgence"}, "every one is translated"


def test_the_header_names_whose_decision_it_is_a_ballot_or_nobody():
    view = _table().view(RED)
    assert text.header(dict(view, pending=[GREEN]), NAMES) == "R2 IV Green"
    assert text.header(dict(view, pending=[RED, GREEN]), NAMES) == "R2 IV ballot"
    assert text.header(dict(view, pending=[]), NAMES) == "R2 IV"
    assert text.header(dict(view, phase="setup", pending=[]), NAMES) == "Setup"


def test_a_shared_win_names_every_winner():
    match = position(3, phase="emperor", round=5, emperor=RED, vp={BLUE: 9, GREEN: 9})
    match.apply({"seat": RED, "do": "done"})
    assert text.ask(match.view(RED), match.names) == "Winner: Blue, Green"


def test_a_voters_screen_shows_its_votes_and_ballot_from_a_view_sent_as_json():
    """The seat's view reaches a pod as JSON, where every key is text: the votes and ballots still read."""
    match = position(4, phase="election", emperor=RED, throne="B0/35", cards={BLUE: ["rival"]},
                     board={"BOHEMIA": {"elector": "B2/25"}, "MAINZ": {"elector": "B3/25"},
                            "SAXONY": {"elector": "B0/25", "spaces": ["B1/25", "K3"]}, "TRIER": {"elector": "B1/15"}})
    match.apply({"seat": GREEN, "do": "vote", "for": "rival"})
    match.apply({"seat": YELLOW, "do": "vote", "for": "emperor"})
    sent = json.loads(json.dumps(match.view(GREEN)))
    assert text.panel(sent, match.names)[-1] == "Votes 2 for Blue"
    assert text.panel(json.loads(json.dumps(match.view(YELLOW))), match.names)[-1] == "Votes 1 for Red"


@pytest.mark.parametrize("cards, line", [
    (["doctor", "move", "pope", "church"], "Cards Doc Mov Pop Chu"),  # 21 characters: the word fits
    (["doctor", "doctor", "move", "pope", "church"], "Doc2 Mov Pop Chu"),  # 22 would not: the cards alone
])
def test_the_card_line_drops_its_word_only_when_it_would_not_fit(cards, line):
    match = _table()
    match.state.seats[RED].cards = cards
    assert text.panel(match.view(RED), match.names)[1] == line


def test_a_vp_source_reads_short_as_its_word_a_cards_abbreviation_or_its_first_letters():
    assert [text.vp_short(s) for s in ("emperor", "ordinance", "mystery")] == ["Em", "Ord", "my"]


def test_a_castle_choice_names_whose_knight_holds_it():
    match = position(3, round=2, emperor=BLUE, throne="B1/45",
                     board={"SAXONY": {"castles": ["K1"]}, "MAINZ": {"castles": ["K0"]}})
    view = match.view(RED)
    assert [GAME.label(view, "spot", "k0", match.names, {"area": area}) for area in ("SAXONY", "MAINZ", "KOELN")] == [
        "castle: Blu", "castle: you", "castle"]


def test_the_tables_last_prompt_names_every_winner_and_where_each_seats_vp_came_from():
    match = position(4, phase="emperor", round=5, emperor=RED, vp={BLUE: 9, GREEN: 9},
                     thalers={RED: 2, BLUE: 3, GREEN: 4, YELLOW: 5})
    match.apply({"seat": RED, "do": "done"})
    prompt = text.prompt(match.view(RED), match.names)
    assert prompt.line == "Game over. Winner: Blue, Green"
    assert prompt.steps[-4:] == ("Red: 1 VP (emperor 1); 2 thalers", "Blue: 9 VP (emperor 9); 3 thalers",
                                 "Green: 9 VP (emperor 9); 4 thalers", "Yellow: 0 VP (-); 5 thalers")
    assert prompt.moves and all(m["what"] == "vp cards" for m in prompt.moves)


def test_the_table_is_told_each_decision_by_whom_and_an_unknown_one_by_its_name():
    view = _table().view(RED)
    assert text.instruction(view, {"seat": BLUE, "kind": "church"}, NAMES) == \
        "Blue: name an archdiocese for Church influence"
    assert text.instruction(view, {"seat": BLUE, "kind": "mystery"}, NAMES) == "mystery"


def test_every_source_of_vp_is_named_in_words():
    assert [text.vp_reason(r) for r in ("emperor", "electors", "votes", "cities", "marriages", "mainz", "indulgence",
                                        "ordinance", "mystery")] == [
        "emperor", "new elector", "backed the winner", "city", "marriage", "Mainz", "Indulgence", "Ordinance", "mystery"]


def test_the_setup_is_told_as_a_table_lays_it_out_in_one_line_per_part():
    """Rules §3: the round marker on round 1, thaler markers and chips, the VP piles, the action cards
    for this many players, the empire cities, and each player's tiles, knights and cities."""
    moves = [step("thaler marker", RED, ["box"], ["thaler track"], value=(None, 7)),
             step("card", -1, ["box"], ["stack", "doctor"], ("", "up"), (None, "doctor"), count=2),
             step("card", -1, ["box"], ["stack", "move"], ("", "up"), (None, "move"), count=1),
             step("city", -1, ["box"], ["empire supply"], count=3),
             step("tile", BLUE, ["box"], ["supply", BLUE], count=7),
             step("knight", BLUE, ["box"], ["supply", BLUE], count=3)]
    assert GAME.describe_event({"type": "setup", "moves": moves}, NAMES) == "; ".join([
        "Put the round marker on round 1", "Put every thaler marker on 7, each coloured chip beside it",
        "Sort the victory point cards into their three piles",
        "Action cards: Doctor x2, Move x1; the rest stay in the box", "Put the 3 empire cities beside the board",
        "Blue: take your 7 tiles, 3 knights and 0 cities"])


def test_the_setup_words_count_what_its_steps_bring_out_and_nothing_else():
    """A part of the setup no step brings out of the box is counted as none."""
    lines = text.setup_lines([step("tile", BLUE, ["box"], ["supply", BLUE], count=7),
                              step("knight", GREEN, ["box"], ["supply", GREEN], count=3)], NAMES)
    assert lines[1] == "Put every thaler marker on 0, each coloured chip beside it"
    assert lines[-2:] == ["Blue: take your 7 tiles, 0 knights and 0 cities",
                          "Green: take your 0 tiles, 3 knights and 0 cities"]


@pytest.mark.parametrize("moves, lines", [
    ([turn("tile", RED, ["MAINZ", "a0"], ("single", "couple"), (25, 25)),
      turn("tile", BLUE, ["KOELN", "a1"], ("single", "couple"), (15, 15))],
     ["Flip Red's Baron 25 on Mainz space 1 to its Couple side", "Flip Blue's Baron 15 on Cologne space 2 to its Couple side"]),
    ([turn("tile", RED, ["MAINZ", "a0"], ("single", "single"), (15, 25)),
      turn("tile", BLUE, ["KOELN", "a1"], ("couple", "couple"), (35, 45))],
     ["One age step older, a quarter turn clockwise: Red's Baron 15 on Mainz space 1, Blue's Couple 35 on Cologne space 2"]),
    ([step("card", -1, ["stack", "pope"], ["front", RED], ("up", "up"), ("pope", "pope")),
      step("card", -1, ["stack", "doctor"], ["front", BLUE], ("up", "up"), ("doctor", "doctor"))],
     ["Lay a card from the Pope stack face up in front of Red", "Lay a card from the Doctor stack face up in front of Blue"]),
    ([turn("vp cards", RED, ["vp", RED], ("down", "down"), (1, 3)), turn("vp cards", BLUE, ["vp", BLUE], ("down", "down"), (0, 2))],
     ["Red: VP cards from 1 to 3", "Blue: VP cards from 0 to 2"]),
    ([turn("tile", RED, ["MAINZ", "a0"], ("single", "single"), (15, 25)),
      turn("tile", BLUE, ["KOELN", "a1"], ("couple", "couple"), (35, 45)),
      turn("tile", RED, ["MAINZ", "a2"], ("single", "couple"), (25, 25))],
     ["One age step older, a quarter turn clockwise: Red's Baron 15 on Mainz space 1, Blue's Couple 35 on Cologne space 2",
      "Flip Red's Baron 25 on Mainz space 3 to its Couple side"]),
])
def test_only_steps_of_one_kind_are_told_together(moves, lines):
    """Tiles aged the same way, cards put back, chips and VP cards turned over read as one line; a flip,
    a card laid out or VP cards taken are told one by one."""
    assert GAME.describe_moves(moves, NAMES) == lines


@pytest.mark.parametrize("card", sorted(CARDS))
def test_a_card_named_in_a_sentence_after_the_or_a_reads_right(card):
    """A card's name carries no article of its own: "the Pope stack", never "the The Pope stack"."""
    name = CARDS[card].name
    laid = step("card", -1, ["stack", card], ["front", BLUE], ("up", "up"), (card, card))
    lines = [*GAME.describe_moves([laid], NAMES), *GAME.describe_moves([returned(RED, card)], NAMES),
             *GAME.describe_moves([step("knight", RED, ["MAINZ", "a0"], ["stack", card])], NAMES),
             *GAME.describe_moves([step("card", -1, ["box"], ["stack", card], ("", "up"), (None, card))], NAMES),
             GAME.describe_event({"type": "taken", "seat": RED, "card": card,
                                  "moves": [step("card", -1, ["front", BLUE], ["front", RED], ("up", "up"),
                                                 (card, card))]}, NAMES)]
    assert f"Lay a card from the {name} stack face up in front of Blue" in lines
    doubled = [line for line in lines if re.search(r"\b(the|a|an|'s) (the|a|an) ", line, re.IGNORECASE)]
    assert not doubled


def test_the_pope_is_laid_from_the_pope_stack():
    laid = step("card", -1, ["stack", "pope"], ["front", BLUE], ("up", "up"), ("pope", "pope"))
    assert GAME.describe_moves([laid], NAMES) == ["Lay a card from the Pope stack face up in front of Blue"]
