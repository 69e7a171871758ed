"""What a Quo Vadis state puts on the real table, read from a hand-built position.

The playthroughs on a modelled table (tests/engine/test_physical.py) check
that the steps and this projection agree over whole games; this pins the
projection itself, place by place, in a moment.
"""

from __future__ import annotations

from engine.games import get_game
from engine.games.quovadis import rules, tabletop
from engine.match import Match
from engine.physical import Table, event_moves, public
from engine.testing import bare, broken_invariant, quovadis_position

RED, BLUE, YELLOW = 0, 1, 2


def _position():
    match = quovadis_position(3, {"E2": [RED, BLUE], "S": [BLUE, RED]}, laurels={RED: ["V", "I"]})
    state = match.state
    state.diamonds = {path: "" for path in state.diamonds} | {"p02": "III", "p16": "IIC"}
    state.bag = ["IV", "IV", "II"]
    return match


def test_every_piece_lies_where_the_state_says_senators_laurels_the_bag_caesar_and_the_supply():
    """Rules A.4: "Put all 18 "I" tokens face up beside the board as the reward supply"; a diamond's
    laurel lies face up; "Laurels stay hidden, face down, until game end"; Caesar "always stands on a
    laurel diamond"; the tokens not on a diamond stay in the bag."""
    state = _position().state
    assert tabletop.physical(state).contents() == {
        ("reserve", RED): {("senator", RED, "", None): 6},
        ("reserve", BLUE): {("senator", BLUE, "", None): 6},
        ("reserve", YELLOW): {("senator", YELLOW, "", None): 8},
        ("laurels", RED): {("laurel", -1, "down", "V"): 1, ("laurel", -1, "down", "I"): 1},
        ("committee", "E2"): {("senator", RED, "", None): 1, ("senator", BLUE, "", None): 1},
        ("senate", 0): {("senator", BLUE, "", None): 1},
        ("senate", 1): {("senator", RED, "", None): 1},
        ("diamond", "p02"): {("laurel", -1, "up", "III"): 1},
        ("diamond", "p16"): {("laurel", -1, "up", "IIC"): 1, ("caesar", -1, "", None): 1},
        ("bag",): {("laurel", -1, "", "IV"): 2, ("laurel", -1, "", "II"): 1},
        ("supply",): {("laurel", -1, "up", "I"): state.supply},
    }
    assert state.supply == 17  # 18 I laurels, one of them Red's
    assert get_game("quovadis").physical(state) == tabletop.physical(state)


def test_at_the_end_every_players_laurels_lie_face_up():
    """Rules: at the end "Eligible players reveal their tokens and add up the face values"."""
    state = _position().state
    state.over = "senate"
    assert tabletop.physical(state).contents()[("laurels", RED)] == {("laurel", -1, "up", "V"): 1,
                                                                       ("laurel", -1, "up", "I"): 1}


# --- what the whole-game tests check after every action -----------------------------------------

def _true_position():
    return quovadis_position(3, {"E2": [RED, BLUE], "S": [BLUE, RED]}, laurels={RED: ["V", "I"]})


def _broken(change):
    return broken_invariant(_true_position(), change)


def test_the_invariants_hold_for_a_true_position_and_name_each_thing_lost_or_made():
    """Rules: "laurel tokens | 62"; each player has 8 senators; a committee holds at most its seats;
    Caesar "always stands on a laurel diamond"."""
    rules.check_invariants(_true_position().state)
    rules.check_invariants(quovadis_position(4, {}, limited_rewards=True).state)  # 14 I laurels out, 4 boxed
    assert _broken(lambda s: s.bag.pop()) == "61 laurels, not 62"
    assert _broken(lambda s: s.bag.append("V")).startswith("63 laurels, not 62")
    assert _broken(lambda s: setattr(s, "supply", s.supply - 1)).startswith("61 laurels")
    assert _broken(lambda s: setattr(s, "unused", s.unused + 1)).startswith("63 laurels")
    assert _broken(lambda s: s.seats[RED].laurels.pop()).startswith("61 laurels")
    assert _broken(lambda s: s.diamonds.update(p02="")).startswith("61 laurels")
    assert _broken(lambda s: s.bag.__setitem__(0, "V")).startswith("every kind of laurel is conserved")
    assert _broken(lambda s: s.seats[RED].laurels.__setitem__(1, "II")).startswith("every kind")
    assert _broken(lambda s: (s.bag.remove("II"), setattr(s, "supply", s.supply + 1))).startswith("every kind")
    assert _broken(lambda s: (s.bag.remove("II"), setattr(s, "unused", s.unused + 1))).startswith("every kind")
    assert _broken(lambda s: s.diamonds.update(p16="V")).startswith("every kind")
    assert _broken(lambda s: setattr(s.seats[BLUE], "reserve", 7)).startswith("seat 1 has 8 senators")
    assert _broken(lambda s: s.committees["E2"].remove(RED)).startswith("seat 0 has 8 senators")
    assert _broken(lambda s: (s.committees["E1"].extend([YELLOW, YELLOW]),
                              setattr(s.seats[YELLOW], "reserve", 6))).startswith("E1 is over-full")
    assert _broken(lambda s: setattr(s, "caesar", "p01")) == ""  # E1>A1: a path with no diamond


# --- every kind of action: its events, and steps that carry the real table from before to after ---------

def played(match, seat, do, **fields):
    """Make the action and check its steps on a model of the table; return its events without the steps."""
    model = tabletop.physical(match.state)
    events = match.apply({"seat": seat, "do": do, **fields})
    steps = match.game.last_moves(match.state)
    for s in steps:
        model.apply(s)
    real = tabletop.physical(match.state)
    assert model == real, model.diff(real)
    assert event_moves(events) == [public(s) for s in steps]
    return bare(events)


def test_placing_and_advancing_without_a_vote_move_one_senator():
    """A.5, A.6: a new senator enters an entry committee; leaving a 1-seat committee needs no vote, nor does a
    path Caesar stands on, whose laurel stays."""
    match = quovadis_position(3, {})
    assert played(match, RED, "place", committee="E1") == [{"type": "place", "seat": RED, "committee": "E1"}]
    match = quovadis_position(3, {"E1": [RED]})
    assert played(match, RED, "advance", committee="E1", path="p01") == [
        {"type": "advance", "seat": RED, "committee": "E1", "path": "p01", "dest": "A1", "free": True,
         "caesar": False}]
    match = quovadis_position(3, {"E3": [RED, BLUE]}, caesar="p04")
    assert played(match, RED, "advance", committee="E3", path="p04") == [
        {"type": "advance", "seat": RED, "committee": "E3", "path": "p04", "dest": "A3", "free": True,
         "caesar": True}]


def test_a_passed_vote_moves_the_senator_takes_the_laurel_refills_the_diamond_and_pays_each_backer():
    """A.6: the mover collects the laurel on the path, the diamond is refilled from the bag, and each
    supporter needed takes one "I" token from the supply."""
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]})
    match.state.diamonds["p02"], match.state.bag[-1] = "III", "IV"
    assert played(match, RED, "advance", committee="E2", path="p02") == [
        {"type": "ask", "seat": RED, "committee": "E2", "path": "p02", "voters": [BLUE, YELLOW]}]
    assert played(match, BLUE, "support") == [{"type": "voted", "seat": BLUE}]
    assert played(match, YELLOW, "support") == [
        {"type": "votes", "seat": RED, "committee": "E2", "path": "p02", "answers": {"1": True, "2": True},
         "passed": True},
        {"type": "advance", "seat": RED, "committee": "E2", "path": "p02", "dest": "A1", "free": False,
         "caesar": False},
        {"type": "collect", "seat": RED, "path": "p02", "token": "III", "refill": "IV"},
        {"type": "reward", "seat": BLUE, "token": "I"}, {"type": "reward", "seat": YELLOW, "token": "I"}]
    assert match.state.seats[RED].laurels == ["III"] and match.state.diamonds["p02"] == "IV"
    chosen = quovadis_position(3, {"E2": [RED, BLUE, YELLOW, YELLOW]})
    played(chosen, RED, "advance", committee="E2", path="p02")
    played(chosen, BLUE, "support")
    played(chosen, YELLOW, "support")
    assert played(chosen, RED, "reward", to=YELLOW) == [{"type": "reward", "seat": YELLOW, "token": "I"}]
    assert played(chosen, RED, "reward", to=BLUE) == [{"type": "reward", "seat": BLUE, "token": "I"}]  # the last


def test_an_empty_bag_refill_from_the_supply_and_a_short_supply_in_turn_order_are_told_step_by_step():
    """A.6, A.12: under empty_bag=reward_token an "I" goes face up from the supply onto the emptied
    diamond; under short_supply=turn_order the last token goes to the next backer from the mover's left."""
    match = quovadis_position(3, {"E3": [RED, RED]}, empty_bag="reward_token")
    match.state.seats[BLUE].laurels += match.state.bag
    match.state.bag = []
    token = match.state.diamonds["p04"]
    assert played(match, RED, "advance", committee="E3", path="p04")[1] == {
        "type": "collect", "seat": RED, "path": "p04", "token": token, "refill": "I"}
    assert match.state.diamonds["p04"] == "I"
    short = quovadis_position(3, {"E2": [YELLOW, BLUE, RED]}, active=YELLOW, short_supply="turn_order")
    short.state.seats[BLUE].laurels += ["I"] * (short.state.supply - 1)
    short.state.supply = 1
    played(short, YELLOW, "advance", committee="E2", path="p02")
    played(short, RED, "support")
    assert played(short, BLUE, "support")[-1] == {"type": "reward", "seat": RED, "token": "I"}
    assert short.state.supply == 0 and short.state.active == RED


def test_caesar_moves_by_turn_or_bonus_and_a_laurel_changes_hands_face_down():
    """A.7: Caesar moves from diamond to diamond; a II-Caesar laurel gives an extra move. A.8: laurels
    are handed over face down."""
    match = quovadis_position(3, {})
    assert played(match, RED, "caesar", path="p07") == [{"type": "caesar", "seat": RED, "path": "p07", "bonus": False}]
    bonus = quovadis_position(3, {"E3": [RED, RED]})
    bonus.state.diamonds["p04"], bonus.state.bag[-1] = "IIC", "II"
    played(bonus, RED, "advance", committee="E3", path="p04")
    assert played(bonus, RED, "caesar", path="p10") == [{"type": "caesar", "seat": RED, "path": "p10", "bonus": True}]
    assert bonus.state.bonus is False and bonus.state.active == BLUE
    gift = quovadis_position(3, {}, laurels={RED: ["V"]})
    assert played(gift, RED, "pay", to=BLUE, token="V") == [{"type": "pay", "seat": RED, "to": BLUE}]
    assert gift.state.seats[BLUE].laurels == ["V"] and gift.state.seats[RED].laurels == []


def test_the_move_that_fills_the_senate_turns_every_players_laurels_face_up():
    """A.9: the game ends immediately; the players reveal their tokens."""
    match = quovadis_position(3, {"S": [BLUE, RED, BLUE, YELLOW], "C1": [RED]}, laurels={RED: ["V", "IV"],
                                                                                          BLUE: ["II"]})
    assert played(match, RED, "advance", committee="C1", path="p15")[-1] == {"type": "end"}
    assert match.result().reason == "senate"
    assert [s["value"][0] for s in match.game.last_moves(match.state)[1:]] == ["V", "IV", "II"]


def test_the_setups_steps_lay_the_whole_table_out_of_the_box():
    """A.4: the senators by colour, the 18 (or, limited, 10/14/18) I laurels face up beside the board, the
    other laurels into the bag, one drawn face up onto each diamond, and Caesar on his start."""
    for options in ({"start_seat": 2}, {"start_seat": 1, "limited_rewards": True}):
        match = Match.new("quovadis", 4, seed=3, options=options)
        table = Table()
        for s in match.game.last_moves(match.state):
            table.apply(s)
        assert table == tabletop.physical(match.state), table.diff(tabletop.physical(match.state))
        assert [e["type"] for e in match.state.recent] == ["setup"]
        assert event_moves(match.state.recent) == [public(s) for s in match.game.last_moves(match.state)]
        assert match.state.start == match.state.active == options["start_seat"]
        assert (match.state.supply, match.state.unused) == ((14, 4) if options.get("limited_rewards") else (18, 0))
