"""In the Shadow of the Emperor, one test per rule (rules/shadow.md; seeds 000/001 win where they differ)."""

from __future__ import annotations

import pytest

from engine.codec import from_data, to_data
from engine.errors import BadData
from engine.games.shadow import data
from engine.games.shadow.board import EMPIRE_SUPPLY
from engine.games.shadow.position import EMPIRE, enter, position
from engine.match import Match
from engine.physical import step, turn
from engine.testing import act, actions, bare

FULL = ["B3/25", "B3/25", "B3/25", "B3/25"]  # an electorate with no room and no knight


def buy(match: Match, seat: int, card: str, **fields):
    return act(match, seat, "buy", card=card, **fields)


def elector(match: Match, eid: str):
    return next(e for e in match.state.electorates if e.id == eid).elector


def spaces(match: Match, eid: str):
    return next(e for e in match.state.electorates if e.id == eid).spaces


def tile(p):
    return None if p is None else (p.kind, p.owner, p.age)


# --- §3 setup ------------------------------------------------------------------------------

def test_setup_follows_the_start_position_card_and_round_one_starts_at_phase_four():
    match = Match.new("shadow", 3, seed=1, options={"start_seat": 1})
    state = match.state
    assert [p.thalers for p in state.seats] == [7, 7, 7]
    expected = [(1, "city", 0), (2, "elector", 45), (0, "elector", 45)]
    expected += [(s, "couple", 35) for s in (1, 2, 0)] + [(s, "baron", 25) for s in (1, 2, 0)]
    expected += [(s, "baron", 15) for s in (1, 2, 0)] + [(s, "knight", 0) for s in (1, 2, 0)]
    seen = []
    while match.state.phase == "setup":
        task = match.state.tasks[0]
        seen.append((task.seat, task.piece, task.age))
        act(match, task.seat, **{k: v for k, v in match.legal_actions(task.seat)[0].items() if k != "seat"})
    assert seen == expected
    assert tile(match.state.throne) == ("baron", 1, 45)  # the emperor's 45 Baron, with no choice to make
    assert match.state.phase == "actions" and match.state.round == 1
    assert match.pending() == [1]  # the emperor acts first
    for seat, player in enumerate(match.state.seats):
        assert (player.aristocrats, player.knights) == (3, 2), "4 tiles and a knight each on the board"
    assert match.state.empire_supply == 2


def test_every_setup_placement_is_told_as_a_setup_step_from_supply():
    """§3.5-6: the empire city, then each tile and knight of the start-position card, from supply."""
    match = Match.new("shadow", 2, seed=1, options={"start_seat": 0})
    told = []
    while match.state.phase == "setup":
        task = match.state.tasks[0]
        first = match.legal_actions(task.seat)[0]
        told.append(bare(act(match, task.seat, **{k: v for k, v in first.items() if k != "seat"}))[0])
    placed = [{"type": "placed", "seat": s, "kind": k, "age": age, "area": a, "spot": p, "reason": "setup"}
              for s, k, age, a, p in [(1, "baron", 45, "MAINZ", "elector"), (0, "couple", 35, "MAINZ", "a0"),
                                      (1, "couple", 35, "MAINZ", "a1"), (0, "baron", 25, "MAINZ", "a2"),
                                      (1, "baron", 25, "MAINZ", "a3"), (0, "baron", 15, "KOELN", "a0"),
                                      (1, "baron", 15, "KOELN", "a1")]]
    knights = [{"type": "knight", "seat": s, "from_area": "supply", "from_spot": "", "area": a, "spot": p,
                "reason": "setup"} for s, a, p in [(0, "MAINZ", "k0"), (1, "KOELN", "a2")]]
    assert told == [{"type": "city", "seat": EMPIRE, "area": "MAINZ", "spot": "c0", "reason": "setup"},
                    *placed, *knights]


def test_starting_electors_are_single_barons_of_45_and_may_sit_in_an_archdiocese():
    match = Match.new("shadow", 2, seed=0, options={"start_seat": 0})
    act(match, 0, "place", area="MAINZ", spot="c0")
    assert {a["area"] for a in match.legal_actions(1)} == set(data.BOARD.ids)
    act(match, 1, "place", area="MAINZ", spot="elector")
    assert tile(elector(match, "MAINZ")) == ("baron", 1, 45)
    assert match.state.seats[1].vp == 0  # no VP for a starting elector


def test_player_count_is_two_to_four():
    for players in (1, 5):
        with pytest.raises(Exception, match="2 to 4"):
            Match.new("shadow", players)


def test_the_first_emperor_is_told_by_seat_then_crowned_with_a_45_baron_from_supply_after_the_empire_city():
    """§3.2: the start player is the first Emperor; §3.5-6: the empire city, then the Emperor's 45 Baron
    on the throne, straight from supply (no choice, no button)."""
    match = Match.new("shadow", 2, seed=1, options={"start_seat": 1})
    assert bare(match.state.changes) == [{"type": "setup"}, {"type": "emperor_chosen", "seat": 1}]
    events = act(match, 1, "place", area="MAINZ", spot="c0")
    assert bare(events) == [{"type": "city", "seat": EMPIRE, "area": "MAINZ", "spot": "c0", "reason": "setup"},
                            {"type": "crowned", "seat": 1, "from_area": "supply", "from_spot": "", "kind": "baron",
                             "age": 45}]


# --- §5.1 income ------------------------------------------------------------------------------

def test_income_is_six_plus_own_cities_plus_others_cities_under_your_elector():
    match = position(3, phase="income", thalers={0: 0, 1: 0, 2: 0}, board={
        "MAINZ": {"elector": "B0/25", "cities": [0, 1]},  # own city pays 1, not 2; Blue's pays Red 1
        "BOHEMIA": {"cities": [0, EMPIRE]},  # empire cities pay nobody
        "TRIER": {"elector": "B2/25", "cities": [1]},
    })
    assert [p.thalers for p in match.state.seats] == [6 + 2 + 1, 6 + 2, 6 + 1]
    assert bare(match.state.changes)[1:] == [
        {"type": "thalers", "seat": seat, "amount": amount, "lost": 0, "total": amount, "reason": "income",
         "income": amount} for seat, amount in enumerate([9, 8, 7])]
    assert match.state.tasks[0].kind == "confirm" and match.pending() == [0]


def test_the_emperors_done_names_the_phase_whose_changes_the_table_has_made():
    match = position(2, phase="income")
    events = act(match, 0, "done")  # the emperor says the table has moved the markers
    assert bare(events)[0] == {"type": "done", "seat": 0, "phase": "income"}
    assert match.state.phase == "aging"


def test_a_city_of_the_empire_pays_no_elector_income():
    """§5.1: the elector earns 1 for each *other player's* city in his electorate; an empire city is nobody's."""
    match = position(2, phase="income", thalers={0: 0, 1: 0}, board={
        "MAINZ": {"elector": "B0/25", "cities": [EMPIRE, EMPIRE]},
        "TRIER": {"elector": "B1/25", "cities": [EMPIRE, 0]},
    })
    assert [p.thalers for p in match.state.seats] == [6 + 1, 6 + 1]  # Red: own city; Blue: Red's city in Trier


def test_income_is_capped_at_twelve_and_the_excess_is_lost():
    match = position(2, phase="income", thalers={0: 9, 1: 12})
    assert [p.thalers for p in match.state.seats] == [12, 12]
    lost = {e["seat"]: e["lost"] for e in match.state.changes if e["type"] == "thalers"}
    assert lost == {0: 3, 1: 6}


def test_saxony_elector_adds_two_to_income_still_capped():
    match = position(2, phase="income", thalers={0: 0, 1: 5}, board={"SAXONY": {"elector": "C1/35"}})
    assert [p.thalers for p in match.state.seats] == [6, 12]
    match = position(2, phase="income", thalers={0: 0, 1: 0}, board={"SAXONY": {"elector": "C1/35"}})
    assert match.state.seats[1].thalers == 8


def test_income_past_twelve_is_lost_and_a_marker_already_at_twelve_is_not_moved():
    """§5.1 with the thaler track's 0-12: what would pass 12 is lost; a marker that stays put is no step."""
    match = position(2, phase="income", thalers={0: 12, 1: 7})
    full, short = [e for e in match.state.changes if e["type"] == "thalers"]
    assert (full["amount"], full["lost"], full["total"], full["moves"]) == (0, 6, 12, [])
    assert (short["amount"], short["lost"], short["total"]) == (5, 1, 12)
    assert short["moves"] == [turn("thaler marker", 1, ["thaler track"], value=(7, 12))]


# --- §5.2 aging -------------------------------------------------------------------------------

def test_aging_removes_every_45_and_turns_every_other_tile():
    match = position(2, phase="aging", emperor=1, throne="B1/25", board={
        "KOELN": {"elector": "B0/45", "spaces": ["C1/35", "B0/15", "K1"]},
    })
    assert elector(match, "KOELN") is None  # an elector of 45 dies and the seat stays empty
    assert [tile(p) for p in spaces(match, "KOELN")[:3]] == [("couple", 1, 45), ("baron", 0, 25), ("knight", 1, 0)]
    assert tile(match.state.throne) == ("baron", 1, 35)
    assert match.state.seats[0].aristocrats == 7 - 1


def test_the_throne_after_aging_is_refilled_from_the_same_family():
    match = position(2, phase="aging", emperor=0, throne="B0/45", board={
        "MAINZ": {"spaces": ["B0/25", "C0/35", "B1/15"]},
        "TRIER": {"elector": "B0/15"},  # an elector never goes to the throne
    })
    assert match.pending() == [0] and match.state.tasks[0].kind == "crown"
    spots = {(a["area"], a["spot"]) for a in actions(match, 0, "crown")}
    assert spots == {("MAINZ", "a0"), ("MAINZ", "a1")}
    died, aging = match.state.changes[-2:]
    assert bare([died, aging]) == [{"type": "removed", "seat": 0, "kind": "baron", "age": 45, "area": "throne", "spot": "",
                                    "reason": "aging"}, {"type": "aging", "died": 1}]
    assert aging["moves"] == [turn("tile", 0, ["MAINZ", "a0"], ("single", "single"), (25, 35)),
                              turn("tile", 0, ["MAINZ", "a1"], ("couple", "couple"), (35, 45)),
                              turn("tile", 1, ["MAINZ", "a2"], ("single", "single"), (15, 25)),
                              turn("tile", 0, ["TRIER", "elector"], ("single", "single"), (15, 25))]
    events = act(match, 0, "crown", area="MAINZ", spot="a1")
    assert bare(events)[0] == {"type": "crowned", "seat": 0, "from_area": "MAINZ", "from_spot": "a1", "kind": "couple",
                               "age": 45}
    assert events[0]["moves"] == [step("tile", 0, ["MAINZ", "a1"], ["throne"], ("couple", "couple"), (45, 45))]
    assert tile(match.state.throne) == ("couple", 0, 45)  # aged first, then it moved up
    assert spaces(match, "MAINZ")[1] is None and match.state.emperor == 0


def test_an_emperor_without_tiles_on_aristocrat_spaces_takes_a_45_baron_from_supply():
    match = position(2, phase="aging", emperor=1, throne="B1/45", board={"TRIER": {"elector": "B1/15"}})
    assert [(a["area"], a["spot"]) for a in actions(match, 1, "crown")] == [("supply", "")]
    act(match, 1, "crown", area="supply", spot="")
    assert tile(match.state.throne) == ("baron", 1, 45)
    assert match.state.tasks[0].kind == "confirm"


# --- §5.3 descendants ---------------------------------------------------------------------------

def test_more_blue_than_red_gives_a_son_otherwise_a_daughter_and_no_colour_no_child():
    match = position(3, phase="descendants", emperor=0,
                     cards={0: ["doctor", "move", "pope"], 1: ["pope", "doctor"], 2: ["rival"]})
    assert match.state.tasks[0].kind == "son" and match.pending() == [0]
    act(match, 0, "son", area="BOHEMIA", spot="a0")
    assert tile(spaces(match, "BOHEMIA")[0]) == ("baron", 0, 15)
    assert match.state.tasks[0].kind == "daughter" and match.pending() == [1]
    moved = act(match, 1, "nunnery")
    events = bare(moved)
    assert events[:2] == [{"type": "nunnery", "seat": 1},
                          {"type": "thalers", "seat": 1, "amount": 1, "lost": 0, "total": 8, "reason": "nunnery"}]
    assert events[2:4] == [{"type": "no_child", "seat": 2, "reason": "no_cards"},
                           {"type": "cards_returned", "count": 6}]
    # the cards go back to their stacks after Phase III; the chips mark the thalers Phase IV starts with
    assert moved[3]["moves"] == [step("card", -1, ["front", seat], ["stack", card], ("up", "up"), (card, card))
                                 for seat, card in [(0, "doctor"), (0, "move"), (0, "pope"), (1, "pope"),
                                                    (1, "doctor"), (2, "rival")]]
    assert events[5] == {"type": "chips"}
    assert moved[5]["moves"] == [turn("chip", 1, ["thaler track"], value=(7, 8))]
    assert match.state.seats[1].thalers == 8
    assert match.state.phase == "actions"  # Green's Rival has no colour: no child
    assert all(not p.cards for p in match.state.seats) and match.state.stacks["doctor"] == 2


@pytest.mark.parametrize("on_board, son", [(6, True), (7, False)])
def test_a_son_needs_a_baron_left_in_supply(on_board, son):
    """Seed: "玩家可将1名15岁的独身贵族放到任何选帝侯领内", from supply: with the last of 7 tiles still there he
    is born; with all 7 on the board there is none ([ASSUMPTION] §5.3: no son, no compensation)."""
    board = {"MAINZ": {"spaces": ["B0/25"] * 4}, "KOELN": {"spaces": ["B0/25"] * (on_board - 4)}}
    match = position(3, phase="descendants", emperor=0, cards={0: ["doctor"]}, board=board)
    assert match.state.seats[0].aristocrats == 7 - on_board
    if son:
        assert match.pending() == [0] and match.state.tasks[0].kind == "son"
    else:
        assert bare(match.state.changes)[1] == {"type": "no_child", "seat": 0, "reason": "no_room"}
        assert match.state.phase == "actions"


def test_a_son_pushes_a_knight_off_an_aristocrat_space_only_when_the_electorate_is_full():
    full = {eid: {"spaces": FULL} for eid in data.BOARD.ids}
    full["MAINZ"] = {"spaces": ["B1/25", "K2", "K3", "C1/35"], "castles": ["K2"]}
    full["KOELN"] = {"spaces": ["K2", None, "B3/25", "B3/25"]}
    match = position(4, phase="descendants", emperor=0, cards={0: ["doctor"]}, board=full)
    spots = {(a["area"], a["spot"]) for a in actions(match, 0, "son")}
    assert spots == {("MAINZ", "a1"), ("MAINZ", "a2"), ("KOELN", "a1")}  # never a castle, never by choice
    events = act(match, 0, "son", area="MAINZ", spot="a1")
    assert tile(spaces(match, "MAINZ")[1]) == ("baron", 0, 15)
    assert match.state.seats[2].knights == 1  # three on the board, one pushed back to supply
    assert {"type": "pushed", "seat": 2, "area": "MAINZ", "spot": "a1"} in bare(events)


def test_a_daughter_may_marry_another_players_single_baron_but_no_archbishop():
    match = position(3, phase="descendants", emperor=1, throne="B1/35", cards={0: ["pope"]}, board={
        "MAINZ": {"elector": "B1/25", "spaces": ["B2/15", "C1/25", "B0/35"]},
        "SAXONY": {"elector": "B2/35"},
    })
    grooms = {(a["area"], a["spot"]) for a in actions(match, 0, "propose")}
    assert grooms == {("throne", ""), ("MAINZ", "a0"), ("SAXONY", "elector")}
    assert {"seat": 0, "do": "nunnery"} in match.legal_actions(0)
    act(match, 0, "propose", area="SAXONY", spot="elector")
    assert match.pending() == [2] and match.legal_actions(1) == [] and match.legal_actions(0) == []
    assert {a["do"] for a in match.legal_actions(2)} == {"accept", "refuse"}
    events = bare(act(match, 2, "accept"))
    assert [e for e in events if e["type"] == "married"] == [
        {"type": "married", "seat": 2, "area": "SAXONY", "spot": "elector", "age": 35, "reason": "daughter", "bride": 0}]
    assert tile(elector(match, "SAXONY")) == ("couple", 2, 35)
    assert match.state.seats[0].vp == 1 and match.state.seats[0].vp_from == {"marriages": 1}


def test_a_refused_daughter_enters_the_nunnery_for_a_thaler():
    match = position(2, phase="descendants", emperor=0, cards={0: ["pope"]}, thalers={0: 12, 1: 3},
                     board={"PALATINATE": {"spaces": ["B1/25"]}})
    act(match, 0, "propose", area="PALATINATE", spot="a0")
    events = bare(act(match, 1, "refuse"))
    assert events[:3] == [{"type": "refused", "seat": 1, "bride": 0}, {"type": "nunnery", "seat": 0},
                          {"type": "thalers", "seat": 0, "amount": 0, "lost": 1, "total": 12, "reason": "nunnery"}]
    assert tile(spaces(match, "PALATINATE")[0]) == ("baron", 1, 25)
    assert match.state.seats[0].thalers == 12 and match.state.seats[0].vp == 0  # capped at 12


# --- §5.5 Phase IV ---------------------------------------------------------------------------------

def test_turns_go_clockwise_from_the_emperor_until_everyone_passed():
    match = position(3, phase="actions", emperor=1)
    assert match.pending() == [1]
    act(match, 1, "pass")
    assert match.pending() == [2]
    act(match, 2, "knight", from_area="supply", from_spot="", area="MAINZ", spot="k0")
    assert match.state.seats[2].thalers == 6  # the knight action costs one thaler
    act(match, 0, "pass")
    assert match.pending() == [2]  # passed seats take no more turns
    act(match, 2, "pass")
    assert match.state.phase != "actions"


def test_the_knight_action_is_open_with_exactly_its_cost_and_closed_below_it():
    """§5.5 c: placing or moving a knight costs 1 thaler; a player with 1 may, with 0 may not."""
    match = position(2, phase="actions", emperor=0, thalers={0: 1})
    assert actions(match, 0, "knight")
    events = act(match, 0, "knight", from_area="supply", from_spot="", area="MAINZ", spot="k0")
    assert bare(events)[0] == {"type": "knight", "seat": 0, "from_area": "supply", "from_spot": "", "area": "MAINZ",
                               "spot": "k0", "reason": "action", "cost": 1}
    assert match.state.seats[0].thalers == 0
    poor = position(2, phase="actions", emperor=0, thalers={0: 0})
    assert not actions(poor, 0, "knight") and actions(poor, 0, "pass")


def test_a_knight_goes_to_an_empty_space_or_castle_and_never_pushes():
    match = position(2, phase="actions", emperor=0, board={
        "MAINZ": {"spaces": ["K1", "K1", "K1", "B1/25"]}, "KOELN": {"castles": ["K1"]}})
    targets = {(a["area"], a["spot"]) for a in actions(match, 0, "knight")}
    assert ("MAINZ", "k0") in targets and ("KOELN", "a0") in targets
    assert not any(area == "MAINZ" and spot.startswith("a") for area, spot in targets)
    assert ("KOELN", "k0") not in targets


def test_a_bought_card_is_paid_for_and_laid_face_up_in_front_of_its_buyer():
    """Seed: "玩家可依行动牌的价值支付费用，将玩家的塔勒标记沿着财富记录往下移相应的格数"; the card lies in
    front of its buyer until Phase III (§5.3)."""
    match = position(2, phase="actions", emperor=1, thalers={1: 6})
    events = buy(match, 1, "pope")
    assert bare(events)[0] == {"type": "bought", "seat": 1, "card": "pope", "cost": 1}
    assert events[0]["moves"] == [turn("thaler marker", 1, ["thaler track"], value=(6, 5)),
                                  step("card", -1, ["stack", "pope"], ["front", 1], ("up", "up"), ("pope", "pope"))]
    assert match.state.seats[1].cards == ["pope"] and match.state.stacks["pope"] == data.CARDS["pope"].copies[2] - 1


def test_rival_ends_the_buyers_phase_and_the_emperor_cannot_take_it():
    match = position(3, phase="actions", emperor=0, board={"MAINZ": {"spaces": ["B1/25", "B2/25"]}})
    assert not [a for a in actions(match, 0, "buy") if a["card"] == "rival"]
    act(match, 0, "pass")
    buy(match, 1, "rival")
    assert match.state.seats[1].passed and match.state.seats[1].thalers == 7
    assert match.pending() == [2]
    assert not [a for a in actions(match, 2, "buy") if a["card"] == "rival"]  # one copy


def test_rival_needs_a_tile_that_could_take_the_throne_unless_the_option_is_off():
    board = {eid: {"spaces": FULL} for eid in data.BOARD.ids}
    match = position(4, phase="actions", emperor=3, board=board, options={"rival_needs_heir": True})
    match.state.seats[0].aristocrats = 0
    act(match, 3, "pass")
    assert not [a for a in actions(match, 0, "buy") if a["card"] == "rival"]
    relaxed = position(4, phase="actions", emperor=3, board=board)  # the seed's reading: no such limit
    relaxed.state.seats[0].aristocrats = 0
    act(relaxed, 3, "pass")
    assert [a for a in actions(relaxed, 0, "buy") if a["card"] == "rival"]


# --- §6 each card ----------------------------------------------------------------------------------

def test_doctor_makes_an_own_tile_younger_or_an_opponents_older():
    match = position(4, phase="actions", emperor=0, board={
        "MAINZ": {"spaces": ["B0/35", "B0/15", "C1/25", "B1/45"]}})
    targets = {(a["area"], a["spot"]) for a in actions(match, 0, "buy") if a["card"] == "doctor"}
    assert targets == {("MAINZ", "a0"), ("MAINZ", "a2"), ("MAINZ", "a3")}  # an own 15 cannot get younger
    buy(match, 0, "doctor", area="MAINZ", spot="a0")
    assert spaces(match, "MAINZ")[0].age == 25 and match.state.seats[0].thalers == 6
    for seat in (1, 2, 3):
        act(match, seat, "pass")
    buy(match, 0, "doctor", area="MAINZ", spot="a2")
    assert spaces(match, "MAINZ")[2].age == 35
    buy(match, 0, "doctor", area="MAINZ", spot="a3")
    assert spaces(match, "MAINZ")[3] is None and match.state.seats[1].aristocrats == 6  # a 45 dies


def test_doctor_killing_the_emperor_sends_him_to_refill_the_throne_at_once():
    match = position(2, phase="actions", emperor=1, throne="B1/45",
                     board={"MAINZ": {"spaces": ["B1/25", "C1/35"]}})
    act(match, 1, "pass")
    buy(match, 0, "doctor", area="throne", spot="")
    assert match.state.throne is None and match.pending() == [1]
    assert match.state.tasks[0].kind == "crown"
    act(match, 1, "crown", area="MAINZ", spot="a0")
    assert tile(match.state.throne) == ("baron", 1, 25) and match.pending() == [0]


def test_move_takes_an_own_tile_off_an_aristocrat_space_to_another_electorate():
    match = position(2, phase="actions", emperor=0, board={
        "MAINZ": {"elector": "B0/25", "spaces": ["C0/35"]},
        "KOELN": {"spaces": ["K1", "K1", "B1/25", "B1/25"]}})
    moves = actions(match, 0, "buy")
    moves = [a for a in moves if a["card"] == "move"]
    assert {(a["from_area"], a["from_spot"]) for a in moves} == {("MAINZ", "a0")}  # never an elector
    assert "MAINZ" not in {a["area"] for a in moves}
    assert {a["spot"] for a in moves if a["area"] == "KOELN"} == {"a0", "a1"}  # push a knight there
    buy(match, 0, "move", from_area="MAINZ", from_spot="a0", area="KOELN", spot="a1")
    assert tile(spaces(match, "KOELN")[1]) == ("couple", 0, 35) and spaces(match, "MAINZ")[0] is None
    assert match.state.seats[1].knights == 3 - 1


def test_the_pope_gives_its_holder_one_more_vote():
    match = position(3, phase="election", emperor=0, cards={1: ["rival"], 2: ["pope"]},
                     board={"MAINZ": {"elector": "B2/25"}})
    assert match.state.election.votes == {0: 0, 1: 0, 2: 2}


def test_church_influence_adds_the_electors_colour_in_the_named_archdiocese():
    match = position(3, phase="election", emperor=0, cards={1: ["rival"], 0: ["church"]}, board={
        "TRIER": {"elector": "B2/25", "spaces": ["B2/15", "K2", "C1/35"], "castles": ["K2"]},
        "MAINZ": {"elector": "B1/25", "spaces": ["B1/15"]}})
    assert match.pending() == [0]
    assert {a["area"] for a in match.legal_actions(0)} == {"MAINZ", "KOELN", "TRIER"}
    events = bare(act(match, 0, "church", area="TRIER"))
    assert events[:2] == [{"type": "pick", "kind": "church", "seat": 0, "area": "TRIER"},
                          {"type": "votes", "emperor": 0, "rival": 1, "votes": {"0": 0, "1": 1, "2": 4}}]
    assert match.state.election.votes == {0: 0, 1: 1, 2: 1 + 3}  # the buyer chose; Green's elector gains


def test_excommunication_silences_one_secular_electors_votes():
    match = position(3, phase="election", emperor=0, cards={1: ["rival"], 2: ["excommunication"]}, board={
        "BOHEMIA": {"elector": "B0/25"}, "SAXONY": {"elector": "B2/25"}, "MAINZ": {"elector": "B0/25"}})
    assert {a["area"] for a in match.legal_actions(2)} == {"BOHEMIA", "PALATINATE", "SAXONY", "BRANDENBURG"}
    act(match, 2, "excommunicate", area="BOHEMIA")
    assert match.state.election.votes == {0: 1, 1: 0, 2: 1}


def test_a_second_church_influence_cannot_name_the_archdiocese_already_named():
    """§5.7.1 (UBG-A): when two church cards are held, the owners must choose different electorates."""
    match = position(3, phase="actions", emperor=0, cards={1: ["church", "rival"]},
                     board={"TRIER": {"elector": "B0/25"}, "KOELN": {"elector": "B2/25"}})
    act(match, 0, "privilege", privilege="TRIER", card="church")  # Trier's copy of the sold-out card
    enter(match, "election")
    assert match.pending() == [0]
    assert {a["area"] for a in match.legal_actions(0)} == {"MAINZ", "KOELN", "TRIER"}
    act(match, 0, "church", area="KOELN")
    assert match.pending() == [1]
    assert {a["area"] for a in match.legal_actions(1)} == {"MAINZ", "TRIER"}


def test_the_church_cards_are_named_in_turn_order_from_the_emperor():
    """§5.7.1: "the owners choose in clockwise order from the current Emperor" (§4: "the order of
    choices in Phase VI" starts with the Emperor): Blue is emperor, so Green names before Red."""
    match = position(3, phase="election", emperor=1, cards={0: ["rival", "church"], 2: ["excommunication"]},
                     board={"KOELN": {"elector": "B1/25"}})
    assert match.pending() == [2] and match.state.tasks[0].kind == "excommunicate"
    act(match, 2, "excommunicate", area="SAXONY")
    assert match.pending() == [0] and match.state.tasks[0].kind == "church"


def test_a_second_excommunication_cannot_name_the_electorate_already_named():
    """§5.7.1 (UBG-A): two Excommunications silence two different secular electors."""
    match = position(3, phase="actions", emperor=0, cards={1: ["excommunication"], 2: ["rival"]},
                     board={"TRIER": {"elector": "B0/25"}, "BOHEMIA": {"elector": "B2/25"},
                            "SAXONY": {"elector": "B2/25"}})
    act(match, 0, "privilege", privilege="TRIER", card="excommunication")
    enter(match, "election")
    act(match, 0, "excommunicate", area="BOHEMIA")
    assert {a["area"] for a in match.legal_actions(1)} == {"PALATINATE", "SAXONY", "BRANDENBURG"}
    act(match, 1, "excommunicate", area="SAXONY")
    assert match.state.election.votes == {0: 1, 1: 0, 2: 0}  # Red keeps Trier; both of Green's are silenced


def test_indulgence_gives_one_vp_at_once():
    match = position(2, phase="actions", emperor=0)
    buy(match, 0, "indulgence")
    assert match.state.seats[0].vp == 1 and match.state.seats[0].thalers == 5


def test_permit_builds_a_city_for_three_four_then_five_thalers_worth_one_one_two_vp():
    match = position(4, phase="actions", emperor=0, thalers={0: 12})
    paid, vps = [], []
    for area in ("MAINZ", "KOELN", "TRIER"):
        before, vp = match.state.seats[0].thalers, match.state.seats[0].vp
        buy(match, 0, "permit", area=area, spot="c0")
        paid.append(before - match.state.seats[0].thalers)
        vps.append(match.state.seats[0].vp - vp)
        for seat in (1, 2, 3):
            if not match.state.seats[seat].passed:
                act(match, seat, "pass")
        match.state.seats[0].thalers = 12
    assert paid == [3, 4, 5] and vps == [1, 1, 2]
    assert match.state.seats[0].cities == 0
    assert not [a for a in actions(match, 0, "buy") if a["card"] == "permit"]  # no city left to build


def test_ordinance_places_a_15_baron_from_supply():
    match = position(2, phase="actions", emperor=0)
    buy(match, 0, "ordinance", area="SAXONY", spot="a0")
    assert tile(spaces(match, "SAXONY")[0]) == ("baron", 0, 15) and match.state.seats[0].thalers == 5


def test_promotion_turns_an_own_knight_on_an_aristocrat_space_into_a_25_baron():
    match = position(2, phase="actions", emperor=0, board={"SAXONY": {"spaces": ["K0", "K1"], "castles": ["K0"]}})
    targets = {(a["area"], a["spot"]) for a in actions(match, 0, "buy") if a["card"] == "promotion"}
    assert targets == {("SAXONY", "a0")}
    events = bare(buy(match, 0, "promotion", area="SAXONY", spot="a0"))
    assert events[1:] == [
        {"type": "removed", "seat": 0, "kind": "knight", "age": 0, "area": "SAXONY", "spot": "a0", "reason": "promotion"},
        {"type": "placed", "seat": 0, "kind": "baron", "age": 25, "area": "SAXONY", "spot": "a0", "reason": "promotion"}]
    assert tile(spaces(match, "SAXONY")[0]) == ("baron", 0, 25) and match.state.seats[0].knights == 2


def test_foreign_kings_daughter_marries_an_own_single_baron_but_never_an_archbishop():
    match = position(2, phase="actions", emperor=0, throne="B0/35", board={
        "MAINZ": {"elector": "B0/25", "spaces": ["B0/15", "C0/25"]}, "SAXONY": {"elector": "B0/45"}})
    targets = {(a["area"], a["spot"]) for a in actions(match, 0, "buy") if a["card"] == "kings_daughter"}
    assert targets == {("throne", ""), ("MAINZ", "a0"), ("SAXONY", "elector")}
    buy(match, 0, "kings_daughter", area="SAXONY", spot="elector")
    assert tile(elector(match, "SAXONY")) == ("couple", 0, 45) and match.state.seats[0].vp == 0


def test_knight_card_places_or_moves_an_own_knight_for_its_cost():
    match = position(2, phase="actions", emperor=0, board={"MAINZ": {"spaces": ["K0"]}})
    moves = [a for a in actions(match, 0, "buy") if a["card"] == "knight"]
    assert {a["from_area"] for a in moves} == {"supply", "MAINZ"}
    buy(match, 0, "knight", from_area="MAINZ", from_spot="a0", area="KOELN", spot="k0")
    assert next(e for e in match.state.electorates if e.id == "KOELN").castles[0].owner == 0
    assert match.state.seats[0].cards == ["knight"] and match.state.seats[0].thalers == 6


def test_gray_eminence_adds_one_influence_where_its_holder_chooses():
    match = position(3, phase="electors", emperor=0, cards={2: ["gray_eminence"]}, board={
        "MAINZ": {"spaces": ["B1/25", "B2/15"]}})
    assert match.pending() == [2] and match.state.tasks[0].kind == "gray"
    act(match, 2, "gray", area="MAINZ")
    assert tile(elector(match, "MAINZ")) == ("baron", 2, 15)
    assert match.state.seats[2].vp == 2 + 1  # elector, then Mainz's privilege


def test_gray_eminence_as_a_tiebreaker_by_option():
    match = position(3, phase="electors", emperor=0, cards={2: ["gray_eminence"]},
                     options={"gray_eminence": "tiebreak"}, board={"KOELN": {"spaces": ["B1/25", "B0/15"]}})
    assert match.state.tasks[0].kind == "tie" and match.pending() == [2]
    act(match, 2, "tie", winner=1)
    assert tile(elector(match, "KOELN")) == ("baron", 1, 25)


def test_the_move_card_tells_where_the_tile_came_from_and_the_knight_it_pushed():
    match = position(2, phase="actions", emperor=0, board={
        "MAINZ": {"elector": "B0/25", "spaces": ["C0/35"]},
        "KOELN": {"spaces": ["K1", "K1", "B1/25", "B1/25"]}})
    events = bare(buy(match, 0, "move", from_area="MAINZ", from_spot="a0", area="KOELN", spot="a1"))
    assert events[1:] == [
        {"type": "moved", "seat": 0, "kind": "couple", "age": 35, "area": "KOELN", "spot": "a1", "reason": "move",
         "from_area": "MAINZ", "from_spot": "a0"},
        {"type": "pushed", "seat": 1, "area": "KOELN", "spot": "a1"}]


def test_the_knight_card_tells_its_knight_as_the_cards_and_the_knight_it_pushed():
    """§6.2 Knight with `knight_card_pushes`: the pushed knight's owner is told, apart from the card's knight."""
    match = position(2, phase="actions", emperor=0, options={"knight_card_pushes": True},
                     board={"SAXONY": {"spaces": ["K1"]}})
    events = bare(buy(match, 0, "knight", from_area="supply", from_spot="", area="SAXONY", spot="a0"))
    assert events[1:] == [
        {"type": "knight", "seat": 0, "from_area": "supply", "from_spot": "", "area": "SAXONY", "spot": "a0",
         "reason": "card"},
        {"type": "pushed", "seat": 1, "area": "SAXONY", "spot": "a0"}]


def test_a_permit_tells_the_city_it_built_then_its_vp():
    match = position(2, phase="actions", emperor=0, options={"vp_open": True})
    events = bare(buy(match, 0, "permit", area="KOELN", spot="c0"))
    assert events[1:] == [{"type": "city", "seat": 0, "area": "KOELN", "spot": "c0", "reason": "permit"},
                          {"type": "vp", "seat": 0, "reason": "cities", "amount": 1}]


def test_the_ordinance_baron_is_told_as_the_ordinances():
    match = position(2, phase="actions", emperor=0)
    events = bare(buy(match, 0, "ordinance", area="SAXONY", spot="a0"))
    assert events[1:] == [{"type": "placed", "seat": 0, "kind": "baron", "age": 15, "area": "SAXONY", "spot": "a0",
                           "reason": "ordinance"}]


@pytest.mark.parametrize("reading", ["flip", "new_couple"])
def test_the_foreign_kings_daughters_couple_is_told_as_hers(reading):
    match = position(2, phase="actions", emperor=0, options={"kings_daughter": reading},
                     board={"SAXONY": {"spaces": ["B0/15"]}})
    spot = "a0" if reading == "flip" else "a1"
    events = bare(buy(match, 0, "kings_daughter", area="SAXONY", spot=spot))
    if reading == "flip":
        assert events[1:] == [{"type": "married", "seat": 0, "area": "SAXONY", "spot": "a0", "age": 15,
                               "reason": "kings_daughter"}]
    else:
        assert events[1:] == [{"type": "placed", "seat": 0, "kind": "couple", "age": 25, "area": "SAXONY",
                               "spot": "a1", "reason": "kings_daughter"}]


# --- §2.3 each privilege ---------------------------------------------------------------------------

def test_trier_copies_a_sold_out_card_at_its_cost_without_taking_a_card():
    match = position(2, phase="actions", emperor=0, cards={1: ["indulgence"]},
                     board={"TRIER": {"elector": "B0/25"}})
    copies = [a for a in actions(match, 0, "privilege") if a["privilege"] == "TRIER"]
    assert {a["card"] for a in copies} == {"indulgence"}  # only sold-out stacks, never Rival
    act(match, 0, "privilege", privilege="TRIER", card="indulgence")
    player = match.state.seats[0]
    assert (player.vp, player.thalers, player.cards, player.copies) == (1, 5, [], ["indulgence"])
    act(match, 1, "pass")
    assert not [a for a in actions(match, 0, "privilege") if a["privilege"] == "TRIER"]  # once a round


def test_trier_offers_each_sold_out_card_the_elector_can_pay_for_with_exactly_its_cost_enough():
    """§2.3 Trier: a sold-out card at its cost, "you must be able to afford it" (§5.5 a): Church influence
    (2) is out of reach with 1 thaler, Excommunication (1) is not."""
    match = position(2, phase="actions", emperor=0, thalers={0: 1}, cards={1: ["church", "excommunication"]},
                     board={"TRIER": {"elector": "B0/25"}})
    assert [a["card"] for a in actions(match, 0, "privilege")] == ["excommunication"]


def test_trier_copies_a_sold_out_permit_at_the_price_of_the_copiers_next_city():
    """§2.3 Trier: the copy costs what the card would cost the copier; a Permit's price rises with the
    cities already built (§6.2: 3, 4, then 5), and the copy builds one and scores its VP."""
    match = position(2, phase="actions", emperor=0, cards={1: ["permit", "permit"]},
                     board={"TRIER": {"elector": "B0/25"}, "MAINZ": {"cities": [0]}})
    events = act(match, 0, "privilege", privilege="TRIER", card="permit", area="KOELN", spot="c0")
    assert bare(events)[:2] == [{"type": "privilege", "seat": 0, "area": "TRIER", "effect": "copy_sold_out"},
                                {"type": "copied", "seat": 0, "card": "permit", "cost": 4}]
    player = match.state.seats[0]
    assert (player.thalers, player.vp, player.cities, player.copies) == (3, 1, 1, ["permit"])
    assert next(e for e in match.state.electorates if e.id == "KOELN").cities[0] == 0


def test_cologne_is_a_free_doctor():
    match = position(2, phase="actions", emperor=0, board={"KOELN": {"elector": "B0/25", "spaces": ["C1/25"]}})
    events = bare(act(match, 0, "privilege", privilege="KOELN", area="KOELN", spot="a0"))
    assert events == [{"type": "privilege", "seat": 0, "area": "KOELN", "effect": "doctor"},
                      {"type": "aged", "seat": 1, "kind": "couple", "age": 35, "area": "KOELN", "spot": "a0",
                       "younger": False, "reason": "privilege"}]
    assert spaces(match, "KOELN")[0].age == 35 and match.state.seats[0].thalers == 7


def test_mainz_gives_its_elector_one_vp_after_phase_five():
    match = position(2, phase="electors", emperor=0, board={"MAINZ": {"elector": "B1/25"}})
    assert match.state.seats[1].vp == 1
    early = position(2, phase="electors", emperor=0, options={"mainz_after_changes": False},
                     board={"MAINZ": {"elector": "B1/25", "spaces": ["C0/35", "B0/15"]}})
    assert early.state.seats[1].vp == 1 and early.state.seats[0].vp == 2  # Blue held it before the change


def test_palatinate_places_a_free_15_baron():
    match = position(2, phase="actions", emperor=0, board={"PALATINATE": {"elector": "C0/25"}})
    events = bare(act(match, 0, "privilege", privilege="PALATINATE", area="BOHEMIA", spot="a0"))
    assert events == [{"type": "privilege", "seat": 0, "area": "PALATINATE", "effect": "place_baron"},
                      {"type": "placed", "seat": 0, "kind": "baron", "age": 15, "area": "BOHEMIA", "spot": "a0",
                       "reason": "privilege"}]
    assert tile(spaces(match, "BOHEMIA")[0]) == ("baron", 0, 15) and match.state.seats[0].thalers == 7


def test_saxony_privilege_is_income():
    match = position(2, phase="actions", emperor=0, board={"SAXONY": {"elector": "C0/25"}})
    assert not [a for a in actions(match, 0, "privilege") if a["privilege"] == "SAXONY"]


def test_brandenburg_takes_the_gray_eminence_card_free_while_it_is_in_its_stack():
    match = position(2, phase="actions", emperor=0, board={"BRANDENBURG": {"elector": "C0/25"}})
    events = bare(act(match, 0, "privilege", privilege="BRANDENBURG"))
    assert events == [{"type": "privilege", "seat": 0, "area": "BRANDENBURG", "effect": "take_card"},
                      {"type": "taken", "seat": 0, "card": "gray_eminence"}]
    assert match.state.seats[0].cards == ["gray_eminence"] and match.state.seats[0].thalers == 7
    assert match.state.stacks["gray_eminence"] == 0


def test_bohemias_elector_has_two_votes():
    match = position(3, phase="election", emperor=0, cards={1: ["rival"]},
                     board={"BOHEMIA": {"elector": "C2/25"}, "SAXONY": {"elector": "B0/25"}})
    assert match.state.election.votes == {0: 1, 1: 0, 2: 2}


def test_only_the_elector_uses_a_privilege():
    match = position(2, phase="actions", emperor=0, board={"KOELN": {"elector": "B1/25"}})
    assert not actions(match, 0, "privilege")


def test_cologne_makes_the_electors_own_tile_younger():
    """§2.3 Cologne is a free Doctor: one's own tile gets younger, as the card's does (§6.2)."""
    match = position(2, phase="actions", emperor=0, board={"KOELN": {"elector": "B0/25", "spaces": ["C0/35"]}})
    events = bare(act(match, 0, "privilege", privilege="KOELN", area="KOELN", spot="a0"))
    assert events[1:] == [{"type": "aged", "seat": 0, "kind": "couple", "age": 25, "area": "KOELN", "spot": "a0",
                           "younger": True, "reason": "privilege"}]


# --- §5.6 new electors ------------------------------------------------------------------------------

def test_the_most_influence_seats_a_tile_of_the_winner_for_two_vp_and_the_old_elector_steps_back():
    match = position(2, phase="electors", emperor=0, board={
        "BOHEMIA": {"elector": "B1/25", "spaces": ["C0/35", "K0", "B0/15"], "cities": [0]}})
    assert match.pending() == [0] and match.state.tasks[0].kind == "elect"
    assert {a["spot"] for a in match.legal_actions(0)} == {"a0", "a2"}
    # Red: Couple 2 + knight 1 + Baron 1 + city 1; Blue: the elector tile
    assert {"type": "influence", "area": "BOHEMIA", "scores": {"0": 5, "1": 1}} in match.state.changes
    events = act(match, 0, "elect", spot="a0")
    assert bare(events)[:4] == [
        {"type": "unseated", "area": "BOHEMIA", "seat": 1, "kind": "baron", "age": 25},
        {"type": "elector", "area": "BOHEMIA", "seat": 0, "from_spot": "a0", "kind": "couple", "age": 35},
        {"type": "vp", "seat": 0, "reason": "electors"},
        {"type": "placed", "seat": 1, "kind": "baron", "age": 25, "area": "BOHEMIA", "spot": "a0",
         "reason": "displaced"}]
    assert [e["moves"] for e in events[:2]] == [
        [step("tile", 1, ["BOHEMIA", "elector"], ["aside"], ("single", "single"), (25, 25))],
        [step("tile", 0, ["BOHEMIA", "a0"], ["BOHEMIA", "elector"], ("couple", "couple"), (35, 35))]]
    assert tile(elector(match, "BOHEMIA")) == ("couple", 0, 35)
    assert tile(spaces(match, "BOHEMIA")[0]) == ("baron", 1, 25)  # back into the freed space
    assert match.state.seats[0].vp == 2


def test_holding_the_elector_again_scores_nothing():
    match = position(2, phase="electors", emperor=0, board={"SAXONY": {"elector": "C0/25"}})
    assert match.state.seats[0].vp == 0
    assert {"type": "holds", "area": "SAXONY", "seat": 0} in match.state.changes


def test_elector_ties_are_broken_by_the_emperor_on_his_seat():
    match = position(3, phase="electors", emperor=0, board={"SAXONY": {"spaces": ["B1/25", "B2/15"]}})
    assert match.pending() == [0] and match.state.tasks[0].kind == "tie"
    assert bare(match.state.changes)[-1] == {"type": "tie", "area": "SAXONY", "seats": [1, 2], "breaker": 0}
    assert [a["winner"] for a in match.legal_actions(0)] == [1, 2]
    assert match.legal_actions(1) == []
    act(match, 0, "tie", winner=2)
    assert tile(elector(match, "SAXONY")) == ("baron", 2, 15) and match.state.seats[2].vp == 2


def test_an_archdiocese_elector_must_be_a_single_baron():
    match = position(2, phase="electors", emperor=1, board={
        "TRIER": {"elector": "B1/25", "spaces": ["C0/35", "C0/15"]}})
    assert elector(match, "TRIER") is None  # Red wins but has no single Baron: the seat is empty
    told = bare(match.state.changes)
    start = told.index({"type": "no_candidate", "area": "TRIER", "seat": 0})
    assert told[start:start + 3] == [
        {"type": "no_candidate", "area": "TRIER", "seat": 0},
        {"type": "unseated", "area": "TRIER", "seat": 1, "kind": "baron", "age": 25},
        {"type": "placed", "seat": 1, "kind": "baron", "age": 25, "area": "TRIER", "spot": "a2", "reason": "displaced"}]
    assert tile(spaces(match, "TRIER")[2]) == ("baron", 1, 25) and match.state.seats[0].vp == 0


def test_empire_cities_count_for_the_emperor():
    match = position(2, phase="electors", emperor=1, board={
        "BRANDENBURG": {"spaces": ["B0/25", "B1/25"], "cities": [EMPIRE]}})
    assert tile(elector(match, "BRANDENBURG")) == ("baron", 1, 25)


def test_the_elector_tile_counts_for_its_owner_unless_the_option_says_no():
    board = {"PALATINATE": {"elector": "B1/25", "spaces": ["B0/25"]}}
    assert match_elector(position(2, phase="electors", emperor=1, board=board)) == ("baron", 1, 25)
    other = position(2, phase="electors", emperor=1, board=board, options={"elector_counts": False})
    assert match_elector(other) == ("baron", 0, 25)


def match_elector(match):
    return tile(elector(match, "PALATINATE"))


def test_gray_eminences_are_played_in_turn_order_from_the_emperor_trier_copies_included():
    """§5.6.1 (option `gray_eminence` = influence): each holder picks in clockwise order from the Emperor."""
    match = position(4, phase="actions", emperor=0, cards={3: ["gray_eminence"]}, options={"gray_eminence": "influence"})
    match.state.seats[1].copies = ["gray_eminence"]
    enter(match, "electors")
    assert [(t.kind, t.seat) for t in match.state.tasks] == [("gray", 1), ("gray", 3)]


def test_two_gray_eminences_of_one_player_on_one_electorate_add_two_influence():
    match = position(2, phase="actions", emperor=0, cards={0: ["gray_eminence"]},
                     board={"MAINZ": {"spaces": ["B1/25", "B0/15"]}})
    match.state.seats[0].copies = ["gray_eminence"]
    enter(match, "electors")
    act(match, 0, "gray", area="MAINZ")
    events = bare(act(match, 0, "gray", area="MAINZ"))
    assert {"type": "influence", "area": "MAINZ", "scores": {"0": 1 + 2, "1": 1}} in events


def test_a_displaced_elector_with_no_space_left_goes_to_its_owners_supply():
    """§5.6.4 with `displaced_first`: the old elector steps down before the new one leaves its space; with
    every space taken by tiles it goes back to supply, told with its electorate."""
    match = position(2, phase="electors", emperor=0, options={"displaced_first": True},
                     board={"BOHEMIA": {"elector": "B1/25", "spaces": ["C0/35", "B0/25", "B0/15", "B0/15"]}})
    events = bare(act(match, 0, "elect", spot="a0"))
    assert {"type": "to_supply", "seat": 1, "kind": "baron", "age": 25, "area": "BOHEMIA"} in events
    assert elector(match, "BOHEMIA").owner == 0 and match.state.seats[1].aristocrats == 7
    assert from_data(type(match.state), to_data(match.state)) == match.state  # the unseated elector saves


def test_a_new_emperor_with_no_tile_to_put_on_the_throne_leaves_it_empty():
    """§5.2: with no own tile on an aristocrat space and none in supply, the throne stays empty."""
    match = position(2, phase="election", emperor=0, throne="B0/45", cards={1: ["rival"]},
                     board={eid: {"elector": "B1/25"} for eid in data.BOARD.ids})
    assert bare(match.state.changes)[-1] == {"type": "throne_empty", "seat": 1}
    assert match.state.throne is None and match.state.emperor == 1


def test_rival_needing_an_heir_may_be_taken_with_the_last_tile_in_supply():
    """Option `rival_needs_heir`: the buyer needs a tile for the throne; one left in supply is enough."""
    match = position(2, phase="actions", emperor=0, options={"rival_needs_heir": True},
                     board={eid: {"elector": "B1/25"} for eid in data.BOARD.ids[:6]})
    assert match.state.seats[1].aristocrats == 1
    act(match, 0, "pass")
    assert [a for a in actions(match, 1, "buy") if a["card"] == "rival"]


# --- §5.7 the election -------------------------------------------------------------------------------

def election(**options):
    """Red emperor, Blue rival; Green (Bohemia) and Yellow (Mainz) vote."""
    return position(4, phase="election", emperor=0, throne="B0/35", cards={1: ["rival"]}, options=options,
                    board={"BOHEMIA": {"elector": "B2/25"}, "MAINZ": {"elector": "B3/25"},
                           "SAXONY": {"elector": "B0/25", "spaces": ["B1/25", "K3"]},
                           "TRIER": {"elector": "B1/15"}})


def test_the_secret_ballot_reveals_no_vote_before_all_are_in():
    match = election()
    assert match.pending() == [2, 3]
    assert match.legal_actions(2) == [{"seat": 2, "do": "vote", "for": "emperor"},
                                      {"seat": 2, "do": "vote", "for": "rival"}]
    public_before = match.public_view()
    events = act(match, 2, "vote", **{"for": "rival"})
    assert events == [{"type": "voted", "seat": 2}]
    assert match.pending() == [3]
    for seat in (0, 1, 3):
        assert "rival" not in str(match.view(seat)["me"]) and match.view(seat)["election"]["revealed"] == {}
    assert match.view(2)["me"]["ballot"] == "rival"
    after = match.public_view()
    assert after["election"] == public_before["election"]
    events = act(match, 3, "vote", **{"for": "emperor"})
    reveal = next(e for e in events if e["type"] == "ballots")
    assert reveal["choices"] == {"2": "rival", "3": "emperor"}
    assert (reveal["emperor_total"], reveal["rival_total"], reveal["winner"]) == (2, 3, 1)


def test_the_ballot_line_names_the_voters_left_in_good_grammar():
    match = election()
    assert "Secret ballot: Green, Yellow choose on their own screens" in match.prompt().steps
    act(match, 2, "vote", **{"for": "rival"})
    assert "Secret ballot: Yellow chooses on their own screen" in match.prompt().steps


def test_non_candidates_who_backed_the_winner_score_one_vp_and_the_new_emperor_takes_the_throne():
    """Seed: "票数较多者赢得皇位" ... "新登皇位的玩家，则需将 1 名在权贵位置上的己方贵族放到王座上" ...
    "皇帝标记由掌控皇位的玩家持有" ... "投票予赢得皇位者，玩家可获得 1 分"."""
    match = election()
    act(match, 2, "vote", **{"for": "rival"})
    events = act(match, 3, "vote", **{"for": "rival"})
    assert bare(events)[1:] == [
        {"type": "ballots", "choices": {"2": "rival", "3": "rival"}, "emperor": 0, "rival": 1, "emperor_total": 1,
         "rival_total": 4, "winner": 1},
        {"type": "vp", "seat": 2, "reason": "votes"}, {"type": "vp", "seat": 3, "reason": "votes"},
        {"type": "new_emperor", "seat": 1, "old": 0},
        {"type": "off_throne", "seat": 0, "kind": "baron", "age": 35},
        {"type": "crowned", "seat": 1, "from_area": "SAXONY", "from_spot": "a0", "kind": "baron", "age": 25}]
    assert [e["moves"] for e in events[4:]] == [
        [step("emperor marker", -1, ["front", 0], ["front", 1])],
        [step("tile", 0, ["throne"], ["aside"], ("single", "single"), (35, 35))],
        [step("tile", 1, ["SAXONY", "a0"], ["throne"], ("single", "single"), (25, 25))]]
    assert match.state.emperor == 1
    assert (match.state.seats[2].vp, match.state.seats[3].vp, match.state.seats[1].vp) == (1, 1, 0)
    assert tile(match.state.throne) == ("baron", 1, 25)  # Blue's only tile on an aristocrat space
    assert match.pending() == [0] and match.state.tasks[0].kind == "retire"
    act(match, 0, "retire", area="KOELN", spot="a0")
    assert tile(spaces(match, "KOELN")[0]) == ("baron", 0, 35)


def test_when_the_emperor_wins_only_those_who_backed_him_score_and_nothing_moves():
    """Seed: "投票予赢得皇位者，玩家可获得 1 分": Green's 2 votes keep Red (1 + 2 against Blue's 1 + 1)."""
    match = election()
    act(match, 2, "vote", **{"for": "emperor"})
    events = bare(act(match, 3, "vote", **{"for": "rival"}))
    assert events[1:3] == [
        {"type": "ballots", "choices": {"2": "emperor", "3": "rival"}, "emperor": 0, "rival": 1, "emperor_total": 3,
         "rival_total": 2, "winner": 0},
        {"type": "vp", "seat": 2, "reason": "votes"}]
    assert [p.vp for p in match.state.seats] == [0, 0, 1, 0]
    assert match.state.emperor == 0 and tile(match.state.throne) == ("baron", 0, 35)
    assert match.pending() == [0] and match.state.tasks[0].kind == "confirm"


def test_a_tied_election_keeps_the_emperor():
    match = position(3, phase="election", emperor=0, cards={1: ["rival"]},
                     board={"MAINZ": {"elector": "B0/25"}, "KOELN": {"elector": "B2/25"}})
    act(match, 2, "vote", **{"for": "rival"})
    assert match.state.emperor == 0 and match.state.election.winner == 0
    assert match.state.seats[2].vp == 0


def test_players_without_votes_do_not_vote_and_candidates_vote_for_themselves():
    match = position(4, phase="election", emperor=0, cards={1: ["rival"]},
                     board={"MAINZ": {"elector": "B3/25"}, "KOELN": {"elector": "B0/25"}})
    assert match.pending() == [3]


def test_no_rival_no_election():
    match = position(2, phase="electors", emperor=0)
    act(match, 0, "done")
    assert match.state.phase == "emperor"


# --- §5.8 emperor's rights ------------------------------------------------------------------------

@pytest.mark.parametrize("round_, vp, thalers, kinds", [
    (1, 2, 0, {"empire_city", "move_city", "done"}),
    (2, 2, 0, {"empire_city", "move_city", "done"}),
    (3, 2, 1, {"move_city", "done"}),
    (4, 1, 2, {"done"}),
    (5, 1, 0, {"done"}),
])
def test_emperor_rights_per_round(round_, vp, thalers, kinds):
    match = position(2, phase="emperor", round=round_, emperor=1, thalers={1: 5},
                     board={"MAINZ": {"cities": [EMPIRE]}})
    assert match.state.seats[1].vp == vp and match.state.seats[1].thalers == 5 + thalers
    told = bare(match.state.changes)
    assert told[1:3] == [{"type": "rights", "seat": 1, "round": round_, "thalers": thalers},
                         {"type": "vp", "seat": 1, "reason": "emperor"}]
    assert told[3:] == ([{"type": "thalers", "seat": 1, "amount": thalers, "lost": 0, "total": 5 + thalers,
                          "reason": "emperor"}] if thalers else [])
    assert {a["do"] for a in match.legal_actions(1)} == kinds


def test_with_all_three_empire_cities_on_the_board_the_emperor_can_only_move_one():
    """Seed: "帝国市 empire city 3 个": none is left to place, so rounds 1 and 2 offer the move alone."""
    board = {"MAINZ": {"cities": [EMPIRE]}, "TRIER": {"cities": [EMPIRE]}, "KOELN": {"cities": [EMPIRE]}}
    match = position(2, phase="emperor", round=2, emperor=0, board=board)
    assert match.state.empire_supply == 0
    assert {a["do"] for a in match.legal_actions(0)} == {"move_city", "done"}


def test_the_empire_city_action_is_a_place_or_instead_a_move():
    """Seed: "可将 1 个帝国市放到图板上任何空的城市位置。若玩家放弃放置帝国市，则可将图板上 1 个帝国市改放到另一个空的城市位置"."""
    match = position(2, phase="emperor", round=1, emperor=0, board={"MAINZ": {"cities": [EMPIRE]}})
    events = act(match, 0, "move_city", from_area="MAINZ", from_spot="c0", area="SAXONY", spot="c0")
    assert bare(events)[0] == {"type": "city_moved", "from_area": "MAINZ", "from_spot": "c0",
                               "area": "SAXONY", "spot": "c0"}
    assert events[0]["moves"] == [step("city", EMPIRE, ["MAINZ", "c0"], ["SAXONY", "c0"])]
    assert match.state.phase == "income" and match.state.round == 2
    assert next(e for e in match.state.electorates if e.id == "SAXONY").cities[0] == EMPIRE
    assert next(e for e in match.state.electorates if e.id == "MAINZ").cities[0] is None
    assert match.state.empire_supply == 2


def test_the_emperor_places_an_empire_city_from_the_supply():
    """Seed: "可将 1 个帝国市放到图板上任何空的城市位置"."""
    placed = position(2, phase="emperor", round=2, emperor=1, board={"MAINZ": {"cities": [EMPIRE]}})
    events = act(placed, 1, "empire_city", area="TRIER", spot="c0")
    assert bare(events)[0] == {"type": "city", "seat": EMPIRE, "area": "TRIER", "spot": "c0", "reason": "emperor"}
    assert events[0]["moves"] == [step("city", EMPIRE, EMPIRE_SUPPLY, ["TRIER", "c0"])]
    assert next(e for e in placed.state.electorates if e.id == "TRIER").cities[0] == EMPIRE
    assert placed.state.empire_supply == 1


# --- §8 the end ------------------------------------------------------------------------------------

def test_the_game_ends_after_round_five_and_the_most_vp_wins():
    match = position(3, phase="emperor", round=5, emperor=0, vp={1: 9, 2: 4})
    assert match.result() is None
    act(match, 0, "done")
    assert match.state.phase == "over" and match.is_over
    result = match.result()
    assert result.scores == {0: 1, 1: 9, 2: 4} and result.winners == (1,)
    assert result.breakdown[0]["emperor"] == 1


def test_a_tie_on_vp_is_shared_as_the_seed_says_the_highest_score_wins():
    """Seed: "遊戲結束後，計算各玩家的總分，分數最高者獲勝" names no tie-break; thalers decide only by option."""
    shared = position(3, phase="emperor", round=5, emperor=0, vp={1: 9, 2: 9}, thalers={1: 3, 2: 4})
    act(shared, 0, "done")
    assert shared.result().winners == (1, 2)
    match = position(3, phase="emperor", round=5, emperor=0, vp={1: 9, 2: 9}, thalers={1: 3, 2: 4},
                     options={"tiebreak": "thalers"})
    act(match, 0, "done")
    assert match.result().winners == (2,)
    match = position(3, phase="emperor", round=5, emperor=0, vp={1: 9, 2: 9}, thalers={1: 4, 2: 4},
                     options={"tiebreak": "thalers"})
    act(match, 0, "done")
    assert match.result().winners == (1, 2)


def test_round_four_does_not_end_the_game():
    match = position(2, phase="emperor", round=4, emperor=0)
    act(match, 0, "done")
    assert match.state.phase == "income" and match.state.round == 5


def test_the_tie_on_vp_broken_by_thalers_says_so():
    match = position(3, phase="emperor", round=5, emperor=0, vp={1: 9, 2: 9}, thalers={1: 3, 2: 4},
                     options={"tiebreak": "thalers"})
    act(match, 0, "done")
    assert match.result().reason == "most VP, then most thalers"
    plain = position(3, phase="emperor", round=5, emperor=0, vp={1: 9, 2: 8})
    act(plain, 0, "done")
    assert plain.result().reason == "most VP"


def test_vp_a_card_file_gives_any_card_show_in_the_result_under_its_own_name():
    match = position(2, phase="emperor", round=5, emperor=0, vp={0: 3})
    match.state.seats[0].vp_from = {"emperor": 1, "ordinance": 2}
    act(match, 0, "done")
    assert match.result().breakdown[0]["ordinance"] == 2 and match.result().breakdown[0]["emperor"] == 1


def test_the_round_after_a_used_privilege_saves_and_loads_as_it_was():
    """Phase VIII puts the privilege tiles back: the state is still one a saved game can hold."""
    match = position(2, phase="emperor", round=2, emperor=0, board={"KOELN": {"elector": "B0/25"}})
    next(e for e in match.state.electorates if e.id == "KOELN").used = True
    act(match, 0, "done")
    assert match.state.round == 3 and not any(e.used for e in match.state.electorates)
    assert from_data(type(match.state), to_data(match.state)) == match.state


# --- hidden VP and the data files -----------------------------------------------------------------

def test_victory_points_are_hidden_from_other_players_unless_open():
    match = position(2, phase="actions", emperor=0, vp={0: 5})
    assert match.view(0)["me"]["vp"] == 5
    assert match.view(1)["players"][0]["vp"] is None and match.public_view()["players"][0]["vp"] is None
    open_ = position(2, phase="actions", emperor=0, vp={0: 5}, options={"vp_open": True})
    assert open_.view(1)["players"][0]["vp"] == 5


def test_every_assumption_option_names_its_source():
    game = Match.new("shadow", 2).game
    assert all(o.source.startswith("[") and "rules/shadow.md" in o.source for o in game.options)


def test_a_broken_data_file_is_refused_naming_the_rule():
    board_data = {"colours": ["A", "B", "C", "D"], "electorate": [], "rules": {}, "pieces": {}}
    with pytest.raises(BadData, match="seven different electorates"):
        data.parse_board(board_data)
    cards = {"card": [{"id": "rival", "name": "Rival", "short": "R", "abbr": "R", "cost": 0, "colour": "green",
                       "copies": {2: 1, 3: 1, 4: 1}, "effect": "rival"}]}
    with pytest.raises(BadData, match="colour 'green'"):
        data.parse_cards(cards, data.BOARD)
    privileges = {"privilege": [{"electorate": "SAXONY", "phase": "IV", "effect": "income", "name": "x"}]}
    with pytest.raises(BadData, match="not a phase IV effect"):
        data.parse_privileges(privileges, data.BOARD, data.CARDS)


def test_card_counts_follow_the_player_count():
    assert sum(c.copies[4] for c in data.CARDS.values()) == 21
    for players, doctors in ((2, 1), (3, 2), (4, 3)):
        assert Match.new("shadow", players).state.stacks["doctor"] == doctors


def test_the_emperor_is_asked_about_an_empire_city_only_in_rounds_whose_track_gives_one():
    import random as _random

    from engine.games.shadow.data import BOARD
    from engine.testing import play_random

    seen = {}

    def note(m):
        state = m.state
        if state.phase == "emperor" and state.tasks:
            seen.setdefault(state.round, state.tasks[0].kind)

    for seed in range(3):
        play_random(Match.new("shadow", 3, seed=seed), _random.Random(seed), each=note)
    assert seen, "a random game reaches phase VII"
    for round_, kind in seen.items():
        expected = "confirm" if BOARD.rounds[round_ - 1].empire_city == "none" else "rights"
        assert kind == expected, (round_, kind)
    assert "confirm" in seen.values() and "rights" in seen.values()


# --- what the seed leaves to the player ("可", may) ---------------------------------------------

def test_the_emperor_may_leave_the_throne_empty_after_aging():
    """Seed: "若王座上的貴族亦因年老而被移走，原擁有帝位的玩家，可將 1 名權貴位置上的己方貴族放到王座上"."""
    match = position(2, phase="aging", emperor=0, throne="B0/45", board={"MAINZ": {"spaces": ["B0/25"]}})
    assert {"seat": 0, "do": "leave_empty"} in match.legal_actions(0)
    events = act(match, 0, "leave_empty")
    assert {"type": "throne_empty", "seat": 0, "chosen": True} in bare(events)
    assert match.state.throne is None and match.state.emperor == 0  # he keeps the emperor's rights
    assert tile(spaces(match, "MAINZ")[0]) == ("baron", 0, 35)
    assert "Red leaves the throne empty" in [match.game.describe_event(e, match.names) for e in events]


def test_a_card_that_ages_the_emperor_off_the_board_also_lets_the_throne_stay_empty():
    match = position(2, phase="actions", emperor=1, throne="B1/45", board={"MAINZ": {"spaces": ["B1/25"]}})
    act(match, 1, "pass")
    events = bare(buy(match, 0, "doctor", area="throne", spot=""))
    assert {"type": "removed", "seat": 1, "kind": "baron", "age": 45, "area": "throne", "spot": "",
            "reason": "doctor"} in events
    assert (match.state.tasks[0].kind, match.state.tasks[0].area) == ("crown", "doctor")  # the throne's why, told
    assert {"seat": 1, "do": "leave_empty"} in match.legal_actions(1)


def test_an_elected_rival_must_take_the_throne():
    match = election()
    act(match, 2, "vote", **{"for": "rival"})
    act(match, 3, "vote", **{"for": "rival"})
    assert match.state.throne is not None  # his one tile went up at once: no "leave it empty" for him
    assert not [a for a in match.legal_actions(1) if a["do"] == "leave_empty"]


def test_a_son_may_be_kept_back():
    """Seed: "玩家可將1名15歲的獨身貴族放到任何選帝侯領內" (may)."""
    match = position(3, phase="descendants", emperor=0, cards={0: ["doctor", "move", "pope"]})
    assert match.state.tasks[0].kind == "son" and {"seat": 0, "do": "keep"} in match.legal_actions(0)
    before = match.state.seats[0].aristocrats
    events = act(match, 0, "keep")
    assert bare(events)[0] == {"type": "son_kept", "seat": 0}
    assert match.state.seats[0].aristocrats == before and match.state.phase == "actions"


def test_the_old_emperor_may_stay_in_hand():
    """Seed: "退下皇位的貴族可放到任何選帝侯領內" (may): he may also go back to his owner's supply."""
    match = election()
    act(match, 2, "vote", **{"for": "rival"})
    act(match, 3, "vote", **{"for": "rival"})
    assert match.state.tasks[0].kind == "retire" and {"seat": 0, "do": "keep"} in match.legal_actions(0)
    before = match.state.seats[0].aristocrats
    events = act(match, 0, "keep")
    assert match.state.limbo is None and match.state.seats[0].aristocrats == before + 1
    assert {"type": "to_supply", "seat": 0, "kind": "baron", "age": 35, "area": "throne"} in bare(events)


def test_the_old_emperor_goes_back_to_supply_when_no_electorate_has_room_and_a_rival_without_tiles_takes_a_45():
    """Seed: "若在权贵位置上并无己方贵族，则从玩家手中将 1 名45 岁的独身贵族放到王座上"; with every aristocrat
    space full and no knight to push, the old emperor's tile has nowhere to go ([ASSUMPTION] §5.7.5: supply)."""
    board = {eid: {"spaces": FULL} for eid in data.BOARD.ids}
    board["MAINZ"]["elector"] = "B1/25"
    match = position(4, phase="election", emperor=0, throne="B0/35", cards={1: ["rival"]}, board=board)
    told = bare(match.state.changes)
    assert told[-2:] == [{"type": "crowned", "seat": 1, "from_area": "supply", "from_spot": "", "kind": "baron", "age": 45},
                         {"type": "to_supply", "seat": 0, "kind": "baron", "age": 35, "area": "throne"}]
    assert match.state.changes[-1]["moves"] == [step("tile", 0, ["aside"], ["supply", 0], ("single", ""), (35, None))]
    assert match.state.limbo is None and match.state.seats[0].aristocrats == 7
    assert match.pending() == [1] and match.state.tasks[0].kind == "confirm"


def test_the_old_emperor_may_go_to_an_aristocrat_space():
    """Seed: "退下皇位的貴族可放到任何選帝侯領內" (may): placed, he is told as the old emperor."""
    match = election()
    act(match, 2, "vote", **{"for": "rival"})
    act(match, 3, "vote", **{"for": "rival"})
    events = bare(act(match, 0, "retire", area="KOELN", spot="a0"))
    assert events[0] == {"type": "placed", "seat": 0, "kind": "baron", "age": 35, "area": "KOELN", "spot": "a0",
                         "reason": "old_emperor"}
    assert tile(spaces(match, "KOELN")[0]) == ("baron", 0, 35) and match.state.limbo is None


def test_a_displaced_elector_may_push_a_knight_or_go_back_to_supply():
    """Seed: "若領地中並無空的權貴位置，可移走 1 名在權貴位置上的騎士來讓出空位" (may push a knight)."""
    board = {"TRIER": {"elector": "B1/25", "spaces": ["C0/35", "C0/25", "K2", "K2"]}}
    match = position(3, phase="electors", emperor=0, board=board)
    assert elector(match, "TRIER") is None  # Red wins Trier but has no single Baron: Blue's tile steps down
    assert match.state.tasks[0].kind == "return" and match.pending() == [1]
    assert {a.get("spot") for a in match.legal_actions(1)} == {"a2", "a3", None}  # push either knight, or keep
    events = bare(act(match, 1, "keep"))
    assert {"type": "to_supply", "seat": 1, "kind": "baron", "age": 25, "area": "TRIER"} in events
    assert match.state.limbo is None and [tile(p) for p in spaces(match, "TRIER")][2:] == [("knight", 2, 0)] * 2
    pushed = position(3, phase="electors", emperor=0, board=board)
    events = bare(act(pushed, 1, "return", spot="a3"))
    assert events[:2] == [{"type": "placed", "seat": 1, "kind": "baron", "age": 25, "area": "TRIER", "spot": "a3",
                           "reason": "displaced"}, {"type": "pushed", "seat": 2, "area": "TRIER", "spot": "a3"}]
    assert tile(spaces(pushed, "TRIER")[3]) == ("baron", 1, 25) and pushed.state.seats[2].knights == 2


def test_a_displaced_elector_must_take_an_empty_space():
    """Seed: "退下選帝侯位置的貴族必須放回該領地內之權貴位置上" (must): no choice while a space is empty."""
    match = position(3, phase="electors", emperor=0, board={"TRIER": {"elector": "B1/25", "spaces": ["C0/35", "K2"]}})
    assert tile(spaces(match, "TRIER")[2]) == ("baron", 1, 25)
    assert not match.state.tasks or match.state.tasks[0].kind != "return"


def test_one_survey_of_the_board_reads_the_same_four_lists_as_their_own_functions():
    """`board.survey` (what a decision's `Scan` reads in one pass) lists the tiles, the knights and the
    places for each exactly as `aristocrats`, `knights`, `aristocrat_places` and `knight_places` do,
    at every step of random games (full electorates and pushed knights included)."""
    import random

    from engine.games.shadow import board
    from engine.testing import random_action

    full = 0
    for seed in range(4):
        match = Match.new("shadow", 4, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            state = match.state
            assert board.survey(state) == (board.aristocrats(state), board.knights(state),
                                           board.aristocrat_places(state), board.knight_places(state))
            full += any(None not in e.spaces for e in state.electorates)
            match.apply(random_action(match, rng))
    assert full > 0, "no electorate ever filled: the pushed knights' places went untested"
