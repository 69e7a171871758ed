"""Shadow's views: the public view is the whole table as it lies (rules/shadow.md: the board, the
thaler track, the supplies and the cards in front of each player are open), and a seat's view adds
only its own secrets: its victory points, where they came from, and its ballot until the count."""

from __future__ import annotations

from engine.games.shadow import views
from engine.games.shadow.position import EMPIRE, position
from engine.games.shadow.state import Contest, Election, Pick, Piece, Task


def laid_out():
    """A hand-laid table with every field a view carries set to a value of its own (a view is a
    function of the state alone, so the fields are set as they stand, not played to)."""
    match = position(3, board={"MAINZ": {"elector": "B1/45", "spaces": ["C0/35", "K2"], "castles": ["K1"],
                                         "cities": [0, EMPIRE]}},
                     throne="B0/45", thalers={0: 5, 1: 9, 2: 1}, vp={0: 3, 1: 4}, cards={1: ["permit"]})
    state = match.state
    state.electorates[0].used = True
    state.seats[2].copies = ["move"]
    state.seats[1].passed = True
    state.seats[0].chip, state.seats[1].chip, state.seats[2].chip = 6, 8, 2
    state.seats[2].vp_from = {"electors": 2}
    state.picks = [Pick("church", 2, "TRIER")]
    state.contest = Contest("KOELN", stage="winner", winner=1, scores={0: 2, 1: 3})
    state.limbo = Piece("baron", 2, 25)
    state.tasks = [Task("vote", 2, area="TRIER", spot="a1", other=1, seats=[0, 2], piece="baron", age=25),
                   Task("vote", 0)]
    state.ballots = {1: "rival"}
    state.election = Election(emperor=0, rival=1, votes={0: 3, 1: 2, 2: 1}, revealed={2: "emperor"},
                              emperor_total=1, rival_total=0, winner=-1)
    state.changes = [{"type": "voted", "seat": 1}]
    return match


def test_the_public_view_is_the_table_as_it_lies_and_hides_every_victory_point_and_ballot():
    state = laid_out().state
    view = views.public_view(state)
    empty = {"elector": None, "spaces": [None] * 4, "castles": [None], "cities": [None, None], "used": False}
    assert view["electorates"][0] == {
        "id": "MAINZ", "elector": {"kind": "baron", "owner": 1, "age": 45},
        "spaces": [{"kind": "couple", "owner": 0, "age": 35}, {"kind": "knight", "owner": 2, "age": 0}, None, None],
        "castles": [{"kind": "knight", "owner": 1, "age": 0}], "cities": [0, EMPIRE], "used": True}
    assert view["electorates"][1:] == [{"id": e.id, **empty} for e in state.electorates[1:]]
    assert {k: v for k, v in view.items() if k not in ("electorates", "stacks")} == {
        "game": "shadow", "phase": "actions", "round": 2, "rounds": 5, "emperor": 0,
        "pending": [0, 2],  # every voter still to vote, at once
        "task": {"kind": "vote", "seat": 2, "area": "TRIER", "spot": "a1", "other": 1, "seats": [0, 2],
                 "piece": "baron", "age": 25},
        "throne": {"kind": "baron", "owner": 0, "age": 45},
        "empire_supply": state.empire_supply,
        "players": [
            {"thalers": 5, "vp": None, "aristocrats": 5, "knights": 3, "cities": 2, "cards": [], "copies": [],
             "passed": False, "chip": 6},
            {"thalers": 9, "vp": None, "aristocrats": 6, "knights": 2, "cities": 3, "cards": ["permit"],
             "copies": [], "passed": True, "chip": 8},
            {"thalers": 1, "vp": None, "aristocrats": 7, "knights": 2, "cities": 3, "cards": [], "copies": ["move"],
             "passed": False, "chip": 2}],
        "picks": [{"kind": "church", "seat": 2, "area": "TRIER"}],
        "contest": {"area": "KOELN", "scores": {0: 2, 1: 3}, "winner": 1},
        "limbo": {"kind": "baron", "owner": 2, "age": 25},
        "voted": [1],  # who has voted, never how
        "election": {"emperor": 0, "rival": 1, "votes": {0: 3, 1: 2, 2: 1}, "revealed": {2: "emperor"},
                     "emperor_total": 1, "rival_total": 0, "winner": -1},
        "changes": [{"type": "voted", "seat": 1}],
        "vp_open": False,
        "over": None,
    }
    assert view["stacks"] == state.stacks and view["stacks"]["permit"] == state.stacks["permit"]
    assert "rival" not in str(view["voted"]) and "ballot" not in str(view)


def test_a_seats_view_adds_its_own_victory_points_their_sources_and_its_own_ballot_alone():
    state = laid_out().state
    public = views.public_view(state)
    for seat, (vp, sources, ballot) in enumerate([(3, {"emperor": 3}, None), (4, {"emperor": 4}, "rival"),
                                                  (0, {"electors": 2}, None)]):
        view = views.view(state, seat)
        assert view == {**public, "seat": seat, "me": {"vp": vp, "vp_from": sources, "ballot": ballot}}
    state.seats[2].vp_from["electors"] = 5
    assert views.view(state, 2)["me"]["vp_from"] == {"electors": 5}


def test_victory_points_are_open_to_all_only_with_vp_open():
    match = position(3, vp={0: 3, 1: 4}, options={"vp_open": True})
    view = views.public_view(match.state)
    assert [p["vp"] for p in view["players"]] == [3, 4, 0] and view["vp_open"] is True


def test_a_finished_game_asks_no_one_and_shows_its_result():
    match = position(3, vp={0: 3, 1: 4})
    state = match.state
    state.phase = "over"
    view = views.public_view(state)
    assert view["pending"] == [] and state.tasks  # the task left over asks no one
    assert view["over"]["winners"] == [1] and view["over"]["scores"] == {"0": 3, "1": 4, "2": 0}
    assert views.public_view(position(3).state)["task"] is not None
    state.tasks = []
    assert views.public_view(state)["task"] is None
