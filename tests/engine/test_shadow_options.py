"""In the Shadow of the Emperor: each [ASSUMPTION] a table may read otherwise, played both ways.

One test per rule option (docs/rules/shadow.md names the item each one settles): the default is
the reading the rules file proposes, and the other value is the reading a table might play
instead. A seed sentence bearing on the item is quoted in the test that relies on it.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.shadow import data
from engine.games.shadow.position import EMPIRE, enter, position
from engine.match import Match
from engine.testing import act, actions, bare

FULL = ["B3/25", "B3/25", "B3/25", "B3/25"]  # an electorate with no room and no knight


def area(match: Match, eid: str):
    return next(e for e in match.state.electorates if e.id == eid)


def tile(p):
    return None if p is None else (p.kind, p.owner, p.age)


def words(match: Match, events) -> list[str]:
    return [match.game.describe_event(e, match.names) for e in events]


# --- §2.3: the elector tile on its privilege space ---------------------------------------------

@pytest.mark.parametrize("votes, expected", [(True, {0: 1, 1: 0, 2: 1}), (False, {0: 0, 1: 0, 2: 1})])
def test_an_elector_whose_privilege_was_used_still_votes_unless_the_option_empties_its_seat(votes, expected):
    """§2.3 [ASSUMPTION]: the tile on the privilege space still counts as the elector. The seed:
    "若選帝侯位置懸空，則該領地之選帝侯票在第 6 階段「推選皇帝」時將不獲計算" (an empty seat's vote is
    not counted), so a table that reads the moved tile as leaving the seat empty plays `false`."""
    match = position(3, phase="actions", emperor=0, cards={1: ["rival"]}, options={"privilege_tile_votes": votes},
                     board={"KOELN": {"elector": "B0/25", "spaces": ["B2/25"]}, "SAXONY": {"elector": "B2/25"}})
    act(match, 0, "privilege", privilege="KOELN", area="KOELN", spot="a0")  # the free Doctor ages Green's tile
    assert area(match, "KOELN").used and tile(area(match, "KOELN").elector) == ("baron", 0, 25)
    for seat in (1, 2, 0):
        act(match, seat, "pass")
    act(match, 0, "tie", winner=0)  # Phase V: 1 each in Cologne, the Emperor keeps his elector
    assert match.state.phase == "electors" and area(match, "KOELN").used  # Red kept Cologne: still on its space
    act(match, 0, "done")
    assert match.state.phase == "election" and match.state.election.votes == expected


@pytest.mark.parametrize("votes, bonus", [(True, 1 + 2), (False, 0)])
def test_a_church_influence_bonus_follows_the_seat_that_votes(votes, bonus):
    """§2.3 with §5.7.1: an archdiocese whose elector tile lies on its privilege space gives its owner no
    Church influence either, when the option says the seat counts as empty."""
    match = position(3, phase="election", emperor=0, cards={1: ["rival"], 2: ["church"]},
                     options={"privilege_tile_votes": votes},
                     board={"KOELN": {"elector": "B0/25", "spaces": ["B0/15", "K0"]}})
    area(match, "KOELN").used = True  # Cologne's privilege was used this round
    act(match, 2, "church", area="KOELN")
    assert match.state.election.votes[0] == bonus


# --- §3.6 b-e: where the start position's pieces go ---------------------------------------------

def test_the_start_position_may_go_anywhere_or_spread_over_electorates_by_option():
    """§3.6 [ASSUMPTION]: no restriction on which electorates steps b-e use; `setup_spread` sends each
    player's pieces to electorates where that player has none yet."""
    for spread in (False, True):
        match = Match.new("shadow", 2, seed=0, options={"start_seat": 0, "setup_spread": spread})
        act(match, 0, "place", area="MAINZ", spot="c0")
        act(match, 1, "place", area="SAXONY", spot="elector")
        act(match, 0, "place", area="TRIER", spot="a0")  # Red's Couple 35
        offered = {a["area"] for a in match.legal_actions(1)}  # Blue's Couple 35
        if spread:
            assert offered == set(data.BOARD.ids) - {"SAXONY"}
        else:
            assert offered == set(data.BOARD.ids)
        act(match, 1, "place", area="TRIER", spot="a1")
        offered = {a["area"] for a in match.legal_actions(0)}  # Red's Baron 25
        assert ("TRIER" in offered) is not spread


def test_a_spread_start_position_goes_anywhere_when_its_player_is_everywhere():
    from engine.games.shadow.board import aristocrat_places
    from engine.games.shadow.decisions import spread
    from engine.games.shadow.state import Piece

    match = Match.new("shadow", 2, seed=0, options={"start_seat": 0, "setup_spread": True})
    for e in match.state.electorates:
        e.spaces[0] = Piece("baron", 0, 25)
    places = aristocrat_places(match.state)
    assert spread(match.state, 0, places) == places  # any electorate rather than none


# --- §5.2: an empty throne ---------------------------------------------------------------------

def test_an_emperor_with_an_empty_throne_keeps_his_rights_unless_the_option_takes_them():
    """§5.2 [ASSUMPTION]: with no tile for the throne the player keeps the marker and the Emperor's
    rights; `empty_throne_rights=false` gives an empty throne no VP, thalers or empire city."""
    kept = position(2, phase="emperor", round=3, emperor=1, thalers={1: 5}, board={"MAINZ": {"cities": [EMPIRE]}})
    assert kept.state.throne is None and kept.state.seats[1].vp == 2 and kept.state.seats[1].thalers == 6
    assert {a["do"] for a in kept.legal_actions(1)} == {"move_city", "done"}
    lost = position(2, phase="emperor", round=3, emperor=1, thalers={1: 5}, board={"MAINZ": {"cities": [EMPIRE]}},
                    options={"empty_throne_rights": False})
    assert lost.state.seats[1].vp == 0 and lost.state.seats[1].thalers == 5
    assert lost.legal_actions(1) == [{"seat": 1, "do": "done"}]
    assert "Emperor Blue's throne is empty: no rights in round 3" in words(lost, lost.state.changes)
    seated = position(2, phase="emperor", round=3, emperor=1, throne="B1/25", options={"empty_throne_rights": False})
    assert seated.state.seats[1].vp == 2  # a tile on the throne: the rights as printed


def test_an_emperor_without_rights_ends_the_round_with_one_done():
    """With `empty_throne_rights=false` an empty throne asks only for Done, once: the round then moves on."""
    lost = position(2, phase="emperor", round=3, emperor=1, options={"empty_throne_rights": False})
    assert bare(lost.state.changes)[-1] == {"type": "no_rights", "seat": 1, "round": 3}
    act(lost, 1, "done")
    assert (lost.state.phase, lost.state.round) == ("income", 4)


def test_with_open_vp_the_emperors_rights_say_how_many_vp_they_give():
    """`vp_open`: VP are public, so the round track's VP are told with the rights; hidden, they are not."""
    match = position(2, phase="emperor", round=4, emperor=1, options={"vp_open": True})
    assert bare(match.state.changes)[1:3] == [{"type": "rights", "seat": 1, "round": 4, "thalers": 2, "vp": 1},
                                              {"type": "vp", "seat": 1, "reason": "emperor", "amount": 1}]
    hidden = position(2, phase="emperor", round=4, emperor=1)
    assert bare(hidden.state.changes)[1] == {"type": "rights", "seat": 1, "round": 4, "thalers": 2}


@pytest.mark.parametrize("counts", [False, True])
def test_a_card_copied_with_trier_counts_for_descendants_only_by_option(counts):
    """`trier_copy_counts` (§2.3 Trier: no card is taken): a copied Doctor, a blue card, gives a son only
    when copies count; by default Red has no coloured card and no child."""
    match = position(3, phase="actions", emperor=0, options={"trier_copy_counts": counts})
    match.state.seats[0].copies = ["doctor"]
    enter(match, "descendants")
    if counts:
        assert match.pending() == [0] and match.state.tasks[0].kind == "son"
    else:
        assert {"type": "no_child", "seat": 0, "reason": "no_cards"} in bare(match.state.changes)
        assert match.state.phase == "actions"


def test_an_empty_throne_gives_the_empire_cities_influence_only_by_default():
    board = {"BRANDENBURG": {"spaces": ["B0/25", "B1/25"], "cities": [EMPIRE]}}
    kept = position(2, phase="electors", emperor=1, board=board)
    assert tile(area(kept, "BRANDENBURG").elector) == ("baron", 1, 25)  # the empire city tips it to Blue
    lost = position(2, phase="electors", emperor=1, board=board, options={"empty_throne_rights": False})
    assert lost.pending() == [1] and lost.state.tasks[0].kind == "tie"  # 1 each: the Emperor still breaks ties


# --- §5.3: a son with no room, a refused daughter ------------------------------------------------

@pytest.mark.parametrize("thaler", [False, True])
def test_a_son_who_cannot_be_placed_brings_nothing_unless_the_option_gives_the_nunnerys_thaler(thaler):
    """§5.3 [ASSUMPTION]: no Baron in supply or no space means no son and no compensation; the seed
    pays a thaler only for the nunnery ("女兒只有去當修女。玩家可獲得 1 個塔勒")."""
    board = {eid: {"spaces": FULL} for eid in data.BOARD.ids}
    match = position(4, phase="descendants", emperor=0, thalers={0: 4}, cards={0: ["doctor"]}, board=board,
                     options={"unborn_son_thaler": thaler})
    assert {"type": "no_child", "seat": 0, "reason": "no_room"} in bare(match.state.changes)
    assert match.state.seats[0].thalers == 4 + (1 if thaler else 0)


def test_the_thaler_for_an_unborn_son_is_told_as_the_nunnerys():
    """`unborn_son_thaler`: the son who finds no room pays what a daughter in the nunnery pays, told alike."""
    board = {eid: {"spaces": FULL} for eid in data.BOARD.ids}
    match = position(4, phase="descendants", emperor=0, thalers={0: 4}, cards={0: ["doctor"]}, board=board,
                     options={"unborn_son_thaler": True})
    told = bare(match.state.changes)
    start = told.index({"type": "no_child", "seat": 0, "reason": "no_room"})
    assert told[start + 1] == {"type": "thalers", "seat": 0, "amount": 1, "lost": 0, "total": 5, "reason": "nunnery"}


@pytest.mark.parametrize("again", [False, True])
def test_a_refused_daughter_goes_to_the_nunnery_or_by_option_to_another_players_baron(again):
    """§5.3 [ASSUMPTION]: one proposal per daughter. The seed: "若對方拒絕這婚姻，則女兒只有去當修女"
    (refused, she can only become a nun); `repeat_proposals` lets her be offered again, once per player."""
    match = position(3, phase="descendants", emperor=0, cards={0: ["pope"]}, thalers={0: 3},
                     options={"repeat_proposals": again},
                     board={"PALATINATE": {"spaces": ["B1/25", "B1/15", "B2/35"]}})
    act(match, 0, "propose", area="PALATINATE", spot="a0")
    act(match, 1, "refuse")
    if not again:
        assert match.state.seats[0].thalers == 4 and match.state.phase == "actions"
        return
    assert match.pending() == [0] and match.state.seats[0].thalers == 3
    grooms = {a["spot"] for a in actions(match, 0, "propose")}
    assert grooms == {"a2"}  # Blue refused her: none of Blue's Barons again
    act(match, 0, "propose", area="PALATINATE", spot="a2")
    act(match, 2, "refuse")
    assert match.state.seats[0].thalers == 4 and match.state.phase == "actions"  # nobody left: the nunnery


def test_a_daughter_offered_again_may_still_marry():
    match = position(3, phase="descendants", emperor=0, cards={0: ["pope"]}, options={"repeat_proposals": True},
                     board={"PALATINATE": {"spaces": ["B1/25", "B2/35"]}})
    act(match, 0, "propose", area="PALATINATE", spot="a0")
    act(match, 1, "refuse")
    act(match, 0, "propose", area="PALATINATE", spot="a1")
    act(match, 2, "accept")
    assert tile(area(match, "PALATINATE").spaces[1]) == ("couple", 2, 35) and match.state.seats[0].vp == 1


# --- §5.6: nobody with influence; who finds a space first ----------------------------------------

@pytest.mark.parametrize("reading", ["keep", "tie"])
def test_an_electorate_where_nobody_has_influence(reading):
    """§5.6.2 [ASSUMPTION]: if every player has 0 influence nothing changes. The seed:
    "擁有最大影響力之玩家即可贏得選帝侯的位置。若多於一位玩家擁有最大影響力，則由掌控皇帝的玩家裁判" read
    literally makes everyone tie at 0 and the Emperor choose (`no_influence=tie`). It shows only when the
    elector tile does not count for its owner."""
    options = {"elector_counts": False, "no_influence": reading}
    match = position(3, phase="electors", emperor=0, options=options, board={"SAXONY": {"elector": "B1/25"}})
    if reading == "keep":
        assert tile(area(match, "SAXONY").elector) == ("baron", 1, 25) and not match.state.tasks[0].kind == "tie"
        return
    assert match.state.tasks[0].kind == "tie" and [a["winner"] for a in match.legal_actions(0)] == [0, 1, 2]
    kept = position(3, phase="electors", emperor=0, options=options, board={"SAXONY": {"elector": "B1/25"}})
    act(kept, 0, "tie", winner=1)
    assert tile(area(kept, "SAXONY").elector) == ("baron", 1, 25)  # its owner chosen: nothing changes
    act(match, 0, "tie", winner=2)
    assert area(match, "SAXONY").elector is None  # Green has no tile there: the seat falls empty
    assert tile(area(match, "SAXONY").spaces[0]) == ("baron", 1, 25)


def test_an_empty_seat_with_nobody_there_asks_nothing_either_way():
    match = position(3, phase="electors", emperor=0, options={"no_influence": "tie"})
    assert match.state.tasks[0].kind == "confirm"  # seven empty seats, nobody anywhere: no tie to break


@pytest.mark.parametrize("first", [False, True])
def test_the_displaced_elector_and_the_new_electors_freed_space(first):
    """§5.6.4 [ASSUMPTION]: the new elector leaves its space first, so the old one takes it. The seed:
    "退下選帝侯位置的貴族必須放回該領地內之權貴位置上。若領地中並無空的權貴位置，可移走 1 名在權貴位置上
    的騎士來讓出空位" with `displaced_first`: the old elector looks for room before that space is free."""
    board = {"BOHEMIA": {"elector": "B1/25", "spaces": ["C0/35", "K2", "B0/15", "K0"]}}
    match = position(3, phase="electors", emperor=0, options={"displaced_first": first}, board=board)
    act(match, 0, "elect", spot="a0")
    if not first:
        assert tile(area(match, "BOHEMIA").spaces[0]) == ("baron", 1, 25)
        return
    assert match.pending() == [1] and match.state.tasks[0].kind == "return"
    assert {a.get("spot") for a in match.legal_actions(1)} == {"a1", "a3", None}  # a knight, or supply
    act(match, 1, "return", spot="a1")
    spaces = [tile(p) for p in area(match, "BOHEMIA").spaces]
    assert spaces == [None, ("baron", 1, 25), ("baron", 0, 15), ("knight", 0, 0)]
    assert match.state.seats[2].knights == 3


def test_displaced_first_still_takes_another_empty_space_without_a_choice():
    board = {"BOHEMIA": {"elector": "B1/25", "spaces": ["C0/35", None, "B0/15"]}}
    match = position(3, phase="electors", emperor=0, options={"displaced_first": True}, board=board)
    act(match, 0, "elect", spot="a0")
    assert [tile(p) for p in area(match, "BOHEMIA").spaces][:2] == [None, ("baron", 1, 25)]


# --- §5.7.1: what Church influence counts -------------------------------------------------------

@pytest.mark.parametrize("count, elector, bonus", [
    ("pieces", False, 3), ("pieces", True, 4), ("influence", False, 2 + 1 + 1 + 1 + 1), ("influence", True, 7)])
def test_church_influence_counts_pieces_or_influence(count, elector, bonus):
    """§5.7.1 [ASSUMPTION]: 1 per aristocrat and knight of the elector's colour (the elector tile only by
    `church_count_elector`); `church_count=influence` adds that colour's Phase V influence there instead."""
    match = position(3, phase="election", emperor=2, cards={1: ["rival"], 0: ["church"]},
                     options={"church_count": count, "church_count_elector": elector},
                     board={"TRIER": {"elector": "B2/25", "spaces": ["C2/15", "K2", "B1/35"], "castles": ["K2"],
                                      "cities": [2, EMPIRE]}})
    act(match, 0, "church", area="TRIER")
    assert match.state.election.votes[2] == 1 + bonus


# --- §6.2: the Doctor's targets, the Permit's place, a card's VP -----------------------------------

@pytest.mark.parametrize("targets", ["any", "spaces"])
def test_the_doctor_and_colognes_privilege_reach_electors_and_the_emperor_unless_the_option_says_spaces(targets):
    """§6.2 Doctor [ASSUMPTION]: any aristocrat on the board, electors and the Emperor included."""
    match = position(2, phase="actions", emperor=1, throne="B1/35", options={"doctor_targets": targets},
                     board={"KOELN": {"elector": "B0/25", "spaces": ["B1/25"]}, "SAXONY": {"elector": "C1/15"}})
    bought = {(a["area"], a["spot"]) for a in actions(match, 1, "buy") if a["card"] == "doctor"}
    act(match, 1, "pass")
    free = {(a["area"], a["spot"]) for a in actions(match, 0, "privilege")}
    if targets == "any":
        assert bought == {("throne", ""), ("KOELN", "elector"), ("KOELN", "a0")}  # its own 15 cannot get younger
        assert free == {("throne", ""), ("KOELN", "elector"), ("KOELN", "a0"), ("SAXONY", "elector")}
    else:
        assert bought == {("KOELN", "a0")} and free == {("KOELN", "a0")}


@pytest.mark.parametrize("where", ["any", "present"])
def test_a_permit_builds_anywhere_or_by_option_where_the_builder_has_an_aristocrat(where):
    """§6.2 Permit [ASSUMPTION]: any empty city space; no restriction to electorates where the builder
    has an aristocrat was found (`permit_where=present` makes one)."""
    match = position(2, phase="actions", emperor=0, options={"permit_where": where},
                     board={"MAINZ": {"elector": "B0/25"}, "SAXONY": {"spaces": ["K0", "C0/15"]},
                            "TRIER": {"spaces": ["K0"]}})
    built = {a["area"] for a in actions(match, 0, "buy") if a["card"] == "permit"}
    assert built == (set(data.BOARD.ids) if where == "any" else {"MAINZ", "SAXONY"})


def test_a_card_scores_the_vp_its_data_gives_it(monkeypatch):
    """§7 [ASSUMPTION]: the cards whose effect was not found give no VP; cards.toml's `vp` corrects that."""
    plain = position(2, phase="actions", emperor=0)
    act(plain, 0, "buy", card="ordinance", area="SAXONY", spot="a0")
    assert plain.state.seats[0].vp == 0
    monkeypatch.setitem(data.CARDS, "ordinance", dataclasses.replace(data.CARDS["ordinance"], vp=2))
    match = position(2, phase="actions", emperor=0, options={"vp_open": True})
    events = act(match, 0, "buy", card="ordinance", area="SAXONY", spot="a0")
    assert match.state.seats[0].vp == 2 and match.state.seats[0].vp_from == {"ordinance": 2}
    assert "Red takes 2 VP (Ordinance)" in words(match, events)
    assert data.CARDS["indulgence"].vp == 1  # the one card a source gives VP


def test_a_card_the_data_gives_vp_still_tells_what_it_did(monkeypatch):
    """§7: a card's VP come on top of its effect, never in its place."""
    monkeypatch.setitem(data.CARDS, "ordinance", dataclasses.replace(data.CARDS["ordinance"], vp=2))
    match = position(2, phase="actions", emperor=0, options={"vp_open": True})
    events = bare(act(match, 0, "buy", card="ordinance", area="SAXONY", spot="a0"))
    assert [e["type"] for e in events] == ["bought", "placed", "vp"]


def test_a_card_vp_that_is_not_a_whole_number_is_refused():
    raw = {"card": [{"id": "x", "name": "X", "short": "X", "abbr": "X", "cost": 0, "colour": "blue",
                     "copies": {2: 1, 3: 1, 4: 1}, "effect": "rival", "vp": -1}]}
    with pytest.raises(Exception, match="x.vp must be a whole number"):
        data.parse_cards(raw, data.BOARD)


# --- §6.2: the readings of the cards no source describes ---------------------------------------

@pytest.mark.parametrize("reading", ["flip", "new_couple"])
def test_the_foreign_kings_daughter_flips_an_own_baron_or_by_option_brings_a_new_couple(reading):
    """§6.2 Foreign king's daughter [ASSUMPTION, L]: flip one of your single Barons; the rules file's
    alternative, a new Couple from supply, is 25 (the card's age) and goes where a Baron would."""
    match = position(2, phase="actions", emperor=0, options={"kings_daughter": reading},
                     board={"SAXONY": {"spaces": ["B0/15", "K1", "K1", "K1"]}, "MAINZ": {"elector": "B0/25"}})
    targets = {(a["area"], a["spot"]) for a in actions(match, 0, "buy") if a["card"] == "kings_daughter"}
    supply = match.state.seats[0].aristocrats
    if reading == "flip":
        assert targets == {("SAXONY", "a0")}  # not Mainz's elector: an archbishop stays single
        act(match, 0, "buy", card="kings_daughter", area="SAXONY", spot="a0")
        assert tile(area(match, "SAXONY").spaces[0]) == ("couple", 0, 15)
        assert match.state.seats[0].aristocrats == supply
    else:
        assert ("SAXONY", "a1") in targets and ("SAXONY", "a0") not in targets  # a knight pushed, not a tile
        assert ("MAINZ", "a0") in targets and len(targets) == len(data.BOARD.ids) + 2
        events = act(match, 0, "buy", card="kings_daughter", area="SAXONY", spot="a1")
        assert tile(area(match, "SAXONY").spaces[1]) == ("couple", 0, 25)
        assert match.state.seats[0].aristocrats == supply - 1 and match.state.seats[1].knights == 1
        assert tile(area(match, "SAXONY").spaces[0]) == ("baron", 0, 15)
        assert any("Couple" in line for line in words(match, events))


def test_a_new_couple_needs_a_tile_in_supply():
    def targets(board):
        match = position(2, phase="actions", emperor=0, options={"kings_daughter": "new_couple"}, board=board)
        return [a for a in actions(match, 0, "buy") if a["card"] == "kings_daughter"]

    assert targets({"SAXONY": {"spaces": ["C0/15"] * 4}, "MAINZ": {"spaces": ["C0/15"] * 2}})  # one left
    assert not targets({"SAXONY": {"spaces": ["C0/15"] * 4}, "MAINZ": {"spaces": ["C0/15"] * 3}})  # all 7 out


@pytest.mark.parametrize("side", ["baron", "couple"])
def test_promotion_puts_a_baron_or_by_option_a_couple_in_the_knights_place(side):
    """§6.2 Promotion [ASSUMPTION, L]: a 25 Baron from supply replaces one's knight; the alternative,
    "place a Couple from supply", read as a Couple of the same age in the same place."""
    match = position(2, phase="actions", emperor=0, options={"promotion_side": side},
                     board={"SAXONY": {"spaces": ["K0"]}})
    act(match, 0, "buy", card="promotion", area="SAXONY", spot="a0")
    assert tile(area(match, "SAXONY").spaces[0]) == (side, 0, 25)
    assert match.state.seats[0].knights == 3


@pytest.mark.parametrize("pushes", [False, True])
def test_the_knight_card_takes_an_empty_space_or_by_option_pushes_another_players_knight(pushes):
    """§6.2 Knight [ASSUMPTION, L]: like the knight action (§5.5 c, "knights cannot push other knights");
    the alternative lets the card displace an opponent's knight, never a castle's (§5.4)."""
    match = position(2, phase="actions", emperor=0, options={"knight_card_pushes": pushes},
                     board={"SAXONY": {"spaces": ["K1", "K0", "B1/25", "B1/25"], "castles": ["K1"]}})
    card = {(a["area"], a["spot"]) for a in actions(match, 0, "buy") if a["card"] == "knight"}
    action = {(a["area"], a["spot"]) for a in actions(match, 0, "knight")}
    assert ("SAXONY", "k0") not in card and ("SAXONY", "a1") not in card  # a castle, and one's own knight
    assert (("SAXONY", "a0") in card) is pushes and ("SAXONY", "a0") not in action
    if pushes:
        events = act(match, 0, "buy", card="knight", from_area="supply", from_spot="", area="SAXONY", spot="a0")
        assert tile(area(match, "SAXONY").spaces[0]) == ("knight", 0, 0)
        assert (match.state.seats[0].knights, match.state.seats[1].knights) == (1, 2)
        told = next(e for e in events if e["type"] == "knight")
        assert [m["dst"][:2] for m in told["moves"]] == [["supply", 1], ["SAXONY", "a0"]]  # Blue's first
        assert "Take Blue's knight off Saxony space 1, back to supply; Put Red's knight on Saxony space 1" in \
            words(match, events)
