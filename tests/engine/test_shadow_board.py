"""Shadow's board as pure functions: where a piece may go, what stands where, and each seat's
influence in an electorate (rules/shadow.md §1, §5.4, §5.6), from hand-laid boards."""

from __future__ import annotations

import pytest

from engine.games.shadow import board
from engine.games.shadow.position import EMPIRE, piece, position
from engine.games.shadow.state import Piece

FULL = ["B3/25", "B3/25", "B3/25", "B3/25"]


def _state(**laid):
    return position(4, **laid).state


def test_a_tile_goes_on_each_electorates_first_empty_space_or_else_pushes_a_knight_off_one():
    """§5.4: "the placing player may remove a knight (any owner) from one of that electorate's
    aristocrat spaces ... If the electorate has no empty aristocrat space and no knight on one,
    placement there is illegal." Alike empty spaces are offered once, the first."""
    state = _state(board={"MAINZ": {"spaces": [None, "K1", None, None]},
                          "KOELN": {"spaces": ["B0/15", "K1", "K2", "C3/35"]},
                          "TRIER": {"spaces": FULL}})
    places = board.aristocrat_places(state)
    assert ("MAINZ", "a0") in places and ("MAINZ", "a2") not in places
    assert [p for p in places if p[0] == "KOELN"] == [("KOELN", "a1"), ("KOELN", "a2")]
    assert not [p for p in places if p[0] == "TRIER"]
    assert [p[0] for p in board.aristocrat_places(state, exclude="MAINZ")].count("MAINZ") == 0
    mainz = board.electorate(state, "MAINZ")
    assert board.places_in(mainz, skip="a0") == [("MAINZ", "a2")]  # the space named does not count as empty
    assert board.places_in(mainz) == [("MAINZ", "a0")]


def test_a_knight_goes_on_an_electorates_first_empty_aristocrat_space_or_its_empty_castle():
    """§5.5: "place one of your knights from supply on any empty aristocrat or castle space"."""
    state = _state(board={"MAINZ": {"spaces": ["K1", None, None, None], "castles": ["K0"]},
                          "KOELN": {"spaces": FULL}, "TRIER": {"spaces": FULL, "castles": ["K2"]}})
    places = board.knight_places(state)
    assert [p for p in places if p[0] in ("MAINZ", "KOELN", "TRIER")] == [("MAINZ", "a1"), ("KOELN", "k0")]
    assert ("BOHEMIA", "a0") in places and ("BOHEMIA", "k0") in places


def test_a_city_goes_on_each_electorates_first_empty_city_space_but_the_one_it_leaves():
    state = _state(board={"MAINZ": {"cities": [0, None]}, "KOELN": {"cities": [1, EMPIRE]}})
    places = board.city_places(state)
    assert ("MAINZ", "c1") in places and not [p for p in places if p[0] == "KOELN"]
    assert ("TRIER", "c0") in places
    assert ("MAINZ", "c1") not in board.city_places(state, exclude=("MAINZ", "c1"))
    assert len(board.city_places(state, exclude=("MAINZ", "c1"))) == len(places) - 1


def test_the_board_lists_every_tile_knight_and_city_with_its_place():
    state = _state(board={"MAINZ": {"elector": "B1/45", "spaces": ["C0/35", "K2"], "castles": ["K1"],
                                    "cities": [0, EMPIRE]}}, throne="B2/45")
    assert [(a, s, (p.kind, p.owner)) for a, s, p in board.aristocrats(state)] == [
        ("throne", "", ("baron", 2)), ("MAINZ", "elector", ("baron", 1)), ("MAINZ", "a0", ("couple", 0))]
    assert [(a, s, (p.kind, p.owner)) for a, s, p in board.knights(state)] == [
        ("MAINZ", "a1", ("knight", 2)), ("MAINZ", "k0", ("knight", 1))]
    assert list(board.cities(state)) == [("MAINZ", "c0", 0), ("MAINZ", "c1", EMPIRE)]
    assert board.on_board(state, 2) == {"aristocrats": 1, "knights": 1, "cities": 0}
    state.limbo = Piece("baron", 2, 25)  # a tile between places still counts as on the board
    assert board.on_board(state, 2) == {"aristocrats": 2, "knights": 1, "cities": 0}
    assert board.on_board(state, 0) == {"aristocrats": 1, "knights": 0, "cities": 1}
    scan = board.Scan(state)
    assert (scan.aristocrats, scan.knights) == (board.aristocrats(state), board.knights(state))
    assert scan.aristocrat_places == board.aristocrat_places(state)
    assert scan.knight_places == board.knight_places(state) and scan.city_places == board.city_places(state)
    assert scan.aristocrats is scan.aristocrats  # one look per decision


def test_a_piece_is_read_and_set_at_every_kind_of_place():
    state = _state()
    for area, spot, code in (("throne", "", "B0/45"), ("MAINZ", "elector", "B1/45"), ("MAINZ", "a3", "C2/35"),
                             ("MAINZ", "k0", "K3")):
        board.set_piece(state, area, spot, piece(code))
        assert board.piece_at(state, area, spot) == piece(code)
    mainz = board.electorate(state, "MAINZ")
    assert (mainz.spaces[3], mainz.castles[0], state.throne) == (piece("C2/35"), piece("K3"), piece("B0/45"))
    mainz.used = True
    assert board.where(state, "MAINZ", "elector") == ["MAINZ", "privilege"]  # §2.3: on its privilege space
    assert board.where(state, "MAINZ", "a3") == ["MAINZ", "a3"] and board.where(state, "throne", "") == ["throne"]
    board.set_piece(state, "MAINZ", "elector", None)
    assert mainz.used is False and mainz.elector is None  # the tile marking the use has left
    with pytest.raises(KeyError, match="ATLANTIS"):
        board.electorate(state, "ATLANTIS")


def test_ages_run_15_25_35_45_and_past_the_last_a_tile_leaves():
    assert [board.older(a) for a in (15, 25, 35, 45)] == [25, 35, 45, None]
    assert [board.younger(a) for a in (15, 25, 35, 45)] == [None, 15, 25, 35]


def test_a_tile_in_a_supply_shows_neither_side_nor_age_and_a_knight_never_does():
    couple = Piece("couple", 1, 35)
    on_board = board.carry(couple, ["MAINZ", "a0"], ["KOELN", "a1"])
    assert (on_board["what"], on_board["face"], on_board["value"]) == ("tile", ["couple", "couple"], [35, 35])
    home = board.carry(couple, ["MAINZ", "a0"], board.supply_of(1))
    assert (home["face"], home["value"], home["dst"]) == (["couple", ""], [35, None], ["supply", 1])
    out = board.carry(Piece("baron", 2, 15), board.supply_of(2), ["MAINZ", "a0"])
    assert (out["face"], out["value"], out["owner"]) == (["", "single"], [None, 15], 2)
    assert board.looks(Piece("knight", 0)) == ("knight", "", None)


def test_placing_a_tile_on_a_knight_pushes_the_knight_home_first():
    """§5.4: "The knight returns to its owner's supply, and the aristocrat takes its place"."""
    state = _state(board={"MAINZ": {"spaces": FULL[:3] + ["K2"]}})
    knights = state.seats[2].knights
    events = board.place(state, Piece("baron", 0, 15), "MAINZ", "a3", "bought", board.supply_of(0), card="move")
    assert [{k: v for k, v in e.items() if k != "moves"} for e in events] == [
        {"type": "placed", "seat": 0, "kind": "baron", "age": 15, "area": "MAINZ", "spot": "a3", "reason": "bought",
         "card": "move"},
        {"type": "pushed", "seat": 2, "area": "MAINZ", "spot": "a3"}]
    assert [(m["what"], m["src"], m["dst"]) for m in events[0]["moves"]] == [
        ("knight", ["MAINZ", "a3"], ["supply", 2]), ("tile", ["supply", 0], ["MAINZ", "a3"])]
    assert state.seats[2].knights == knights + 1 and board.piece_at(state, "MAINZ", "a3") == Piece("baron", 0, 15)


def test_removing_a_piece_returns_it_to_its_owners_supply():
    state = _state(board={"MAINZ": {"spaces": ["C1/35", "K2"]}})
    tiles, knights = state.seats[1].aristocrats, state.seats[2].knights
    (gone,) = board.remove(state, "MAINZ", "a0", "aged")
    assert {k: v for k, v in gone.items() if k != "moves"} == {
        "type": "removed", "seat": 1, "kind": "couple", "age": 35, "area": "MAINZ", "spot": "a0", "reason": "aged"}
    assert [(m["src"], m["dst"]) for m in gone["moves"]] == [(["MAINZ", "a0"], ["supply", 1])]
    board.remove(state, "MAINZ", "a1", "pushed")
    assert (state.seats[1].aristocrats, state.seats[2].knights) == (tiles + 1, knights + 1)
    assert board.electorate(state, "MAINZ").spaces[:2] == [None, None]


def test_influence_counts_barons_1_couples_2_knights_1_own_cities_1_and_empire_cities_for_the_throne():
    """§5.6: "their Barons (1) and Couples (2) on its aristocrat spaces; their knights on its aristocrat
    and castle spaces (1 each); their cities in it (1 each); +1 per empire city in it, for the player
    holding the throne"; the elector tile counts for its owner (an option)."""
    state = _state(emperor=3, throne="B3/45",
                   board={"MAINZ": {"elector": "C2/35", "spaces": ["B0/15", "C0/35", "K1"], "castles": ["K1"],
                                    "cities": [1, EMPIRE]}})
    mainz = board.electorate(state, "MAINZ")
    assert board.influence(state, mainz, True) == {0: 3, 1: 3, 2: 2, 3: 1}
    assert board.influence(state, mainz, False) == {0: 3, 1: 3, 2: 0, 3: 1}
    assert board.influence(state, mainz, False, {2: 4, 0: 1}) == {0: 4, 1: 3, 2: 4, 3: 1}
    state.throne = None  # an empty throne: its Emperor keeps the empire cities' rights only by option
    assert board.influence(state, mainz, False)[3] == (1 if state.options["empty_throne_rights"] else 0)
    state.options["empty_throne_rights"] = not state.options["empty_throne_rights"]
    assert board.influence(state, mainz, False)[3] == (1 if state.options["empty_throne_rights"] else 0)
