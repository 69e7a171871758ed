"""What a Shadow state puts on the real table, and what the whole-game tests check of it.

The games on a modelled table (tests/engine/test_physical.py) check that the
steps and this projection agree over whole games; these pin the projection
itself, place by place, and each invariant of `check_invariants`, in a moment.
"""

from __future__ import annotations

import pytest

from engine.games.shadow import rules, tabletop
from engine.games.shadow.board import on_board
from engine.games.shadow.data import CARDS
from engine.games.shadow.position import EMPIRE, piece, position
from engine.physical import event_moves, public
from engine.testing import bare, broken_invariant

SAXONY = {"elector": "C0/35", "spaces": ["B0/25", "K1"], "castles": ["K0"], "cities": [0, EMPIRE]}


def _position(**options):
    match = position(2, round=3, emperor=1, throne="B1/45", board={"SAXONY": SAXONY}, thalers={0: 4, 1: 9},
                     cards={0: ["knight"]}, vp={0: 3}, options=options)
    match.state.seats[0].chip = 2
    return match


def test_every_piece_lies_where_the_state_says():
    """Rules: the thaler track (0-12) holds each player's thaler marker and coloured chip; the round
    marker and the emperor marker; each player's 7 aristocrat tiles, 3 knights and 3 cities; VP cards
    face down; bought action cards in front of their buyer, the rest in their stacks."""
    state = _position().state
    table = tabletop.physical(state).contents()
    stacks = {place: held for place, held in table.items() if place[0] == "stack"}
    assert {place: held for place, held in table.items() if place[0] != "stack"} == {
        ("round track",): {("round marker", -1, "", 3): 1},
        ("front", 1): {("emperor marker", -1, "", None): 1},
        ("front", 0): {("card", -1, "up", "knight"): 1},
        ("empire supply",): {("city", -1, "", None): 2},
        ("thaler track",): {("thaler marker", 0, "", 4): 1, ("chip", 0, "", 2): 1,
                            ("thaler marker", 1, "", 9): 1, ("chip", 1, "", 9): 1},
        ("vp", 0): {("vp cards", 0, "down", 3): 1},
        ("vp", 1): {("vp cards", 1, "down", 0): 1},
        ("supply", 0): {("tile", 0, "", None): 5, ("knight", 0, "", None): 2, ("city", 0, "", None): 2},
        ("supply", 1): {("tile", 1, "", None): 6, ("knight", 1, "", None): 2, ("city", 1, "", None): 3},
        ("throne",): {("tile", 1, "single", 45): 1},
        ("SAXONY", "elector"): {("tile", 0, "couple", 35): 1},
        ("SAXONY", "a0"): {("tile", 0, "single", 25): 1},
        ("SAXONY", "a1"): {("knight", 1, "", None): 1},
        ("SAXONY", "k0"): {("knight", 0, "", None): 1},
        ("SAXONY", "c0"): {("city", 0, "", None): 1},
        ("SAXONY", "c1"): {("city", -1, "", None): 1},
    }
    assert stacks[("stack", "permit")] == {("card", -1, "up", "permit"): 2}
    assert on_board(state, 0) == {"aristocrats": 2, "knights": 1, "cities": 1}
    assert on_board(state, 1) == {"aristocrats": 1, "knights": 1, "cities": 0}
    assert ("stack", "knight") not in stacks  # its one copy at two players lies in front of Red
    assert sum(n for held in stacks.values() for n in held.values()) == sum(
        c.copies[2] for c in CARDS.values()) - 1


def test_an_elector_whose_privilege_was_used_sits_on_the_privilege_space_and_a_tile_set_aside_lies_aside():
    """Rules §2.3: "After use, move the elector tile onto the privilege space as a marker"."""
    match = _position()
    state = match.state
    next(e for e in state.electorates if e.id == "SAXONY").used = True
    state.limbo = piece("B1/15")
    table = tabletop.physical(state).contents()
    assert table[("SAXONY", "privilege")] == {("tile", 0, "couple", 35): 1}
    assert ("SAXONY", "elector") not in table
    assert table[("aside",)] == {("tile", 1, "single", 15): 1}


def test_open_victory_points_lie_face_up():
    """Rules: the open-VP variant plays the VP cards face up."""
    table = tabletop.physical(_position(vp_open=True).state).contents()
    assert table[("vp", 0)] == {("vp cards", 0, "up", 3): 1}


# --- what the whole-game tests check after every action -----------------------------------------

def _saxony(state):
    return next(e for e in state.electorates if e.id == "SAXONY")


@pytest.mark.parametrize("change, message", [
    (lambda s: setattr(s.seats[0], "aristocrats", -1), "seat 0 has -1 aristocrats in supply"),
    (lambda s: setattr(s.seats[1], "aristocrats", 5), "seat 1's aristocrats are not all accounted for"),
    (lambda s: setattr(s.seats[0], "knights", 3), "seat 0's knights are not all accounted for"),
    (lambda s: setattr(s.seats[1], "cities", 2), "seat 1's cities are not all accounted for"),
    (lambda s: setattr(s.seats[0], "thalers", 13), "seat 0 has 13 thalers"),
    (lambda s: setattr(s.seats[1], "thalers", -1), "seat 1 has -1 thalers"),
    (lambda s: setattr(s.seats[0], "vp", 4), "seat 0's VP do not add up"),
    (lambda s: (setattr(s.seats[1], "vp", -1), s.seats[1].vp_from.update(emperor=-1)),
     "seat 1's VP do not add up"),
    (lambda s: setattr(s, "empire_supply", 3), "the empire cities are not all accounted for"),
    (lambda s: s.stacks.update(knight=-1), "the knight stack is negative"),
    (lambda s: s.stacks.update(permit=1), "the permit cards do not add up"),
    (lambda s: setattr(_saxony(s).spaces[0], "age", 30), "bad tile at SAXONY a0"),
    (lambda s: setattr(s, "throne", piece("K1")), "bad tile at throne "),
    (lambda s: (setattr(next(e for e in s.electorates if e.id == "MAINZ"), "elector", piece("C0/45")),
                setattr(s.seats[0], "aristocrats", 4)), "MAINZ's elector must be a single Baron"),
    (lambda s: _saxony(s).castles.__setitem__(0, piece("B0/15")), "only knights stand in SAXONY's castles"),
    (lambda s: setattr(_saxony(s).spaces[1], "age", 15), ""),
])
def test_the_invariants_name_each_thing_lost_made_or_misplaced(change, message):
    """Rules: 7 tiles, 3 knights and 3 cities a colour; the thaler track runs 0-12; a card's copies by
    player count; ages 15/25/35/45; an archdiocese's elector "must be a single Baron"; knights in castles."""
    rules.check_invariants(_position().state)
    assert broken_invariant(_position(), change) == message


def test_a_tile_set_aside_that_finds_no_place_goes_back_to_its_owners_supply():
    """Rules §5.6: "If that is also impossible, the tile returns to its owner's supply"; §5.7, the old
    emperor's tile: "if no legal space exists anywhere, the tile returns to supply"."""
    from engine.games.shadow import phases

    match = _position()
    state = match.state
    state.limbo = piece("C1/35")
    state.seats[1].aristocrats -= 1  # the tile aside is one of Blue's seven
    rules.check_invariants(state)
    model, state.moves, state.news = tabletop.physical(state), [], []
    phases.to_supply(state, "throne")
    for s in state.moves:
        model.apply(s)
    assert model == tabletop.physical(state) and state.limbo is None and state.seats[1].aristocrats == 6
    assert bare(state.news) == [{"type": "to_supply", "seat": 1, "kind": "couple", "age": 35, "area": "throne"}]
    assert event_moves(state.news) == [public(s) for s in state.moves]


def test_a_hand_laid_position_is_the_same_every_time_and_saves_like_a_played_one():
    """Tests build positions by hand: the same call lays the same table, and the state is one a game could save."""
    from engine.codec import from_data, to_data

    first, again = position(), position()
    assert first.state == again.state and first.state.players == 4 and first.state.round == 2
    state = _position().state
    assert from_data(type(state), to_data(state)) == state
    assert state.seats[0].vp_from == {"emperor": 3}
    assert position(2, vp={0: 3, 1: 0}).state.seats[1].vp_from == {}  # no VP, no source of any


def test_a_hand_laid_position_may_name_a_space_or_a_castle_empty():
    state = position(2, board={"SAXONY": {"spaces": [None, "K1"], "castles": [None]}}).state
    saxony = next(e for e in state.electorates if e.id == "SAXONY")
    assert saxony.spaces[:2] == [None, piece("K1")] and saxony.castles == [None]
