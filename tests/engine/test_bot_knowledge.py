"""The bots' game knowledge, rule by rule: what a position is worth and what each rule of thumb prefers.

The pinned games (test_pinned_bots.py) hold the weights; these hold the rules, each on a hand-laid
position, including the ones a seeded game seldom reaches (a Ronin's empty gain, a ballot, a reward
with a single choice). Tennō's table of fight values is worked out at import, so its tests ask
`_fight_value` itself.
"""

from __future__ import annotations

import math
import random

import pytest

from engine.bots.choices import decisions, kind_first
from engine.bots.games import knowledge_for
from engine.bots.knowledge import Knowledge, softmax
from engine.game import Result
from engine.games.tenno.rules import GEISHA, SHOGUN
from engine.match import Match
from engine.rng import Rng
from engine.testing import random_action, tenno_position

# --- what every game's knowledge starts from ---------------------------------------------------------


def test_a_level_of_one_iteration_stays_one_iteration_at_every_table():
    for knowledge in (Knowledge(), knowledge_for("tenno"), knowledge_for("shadow")):
        for players in (2, 5, 7):
            assert knowledge.iterations(1, players) == 1, (type(knowledge).__name__, players)


def test_without_knowledge_every_seat_has_no_points_and_an_equal_chance():
    match = Match.new("tenno", 3, seed=1)
    assert Knowledge().points(match.state) == [0.0, 0.0, 0.0]
    assert Knowledge().values(match.state) == pytest.approx([1 / 3] * 3)


def test_without_rules_of_thumb_the_rule_based_part_picks_a_kind_of_action_then_one_of_it():
    actions = [{"do": "place", "at": n} for n in range(6)] + [{"do": "pass"}]
    for k in range(6):
        assert Knowledge().rule_choice({}, actions, Rng.seeded(k)) == kind_first(actions, Rng.seeded(k))


def test_a_finished_game_gives_its_winners_the_win_and_every_seat_a_little_for_the_margin():
    knowledge = Knowledge()
    result = Result(scores={0: 12, 1: 7, 2: 12}, winners=(0, 2))
    margin = softmax([12, 7, 12], knowledge.temperature)
    assert knowledge.final_values(result) == pytest.approx([0.45 + 0.1 * margin[0], 0.1 * margin[1],
                                                           0.45 + 0.1 * margin[2]])


def test_shifted_scores_within_rounding_of_the_best_share_the_win():
    result = Result(scores={0: 0, 1: 0}, winners=(0, 1))
    values = Knowledge().final_values(result, shift=[1e-9, 0.0])
    assert values[0] == pytest.approx(values[1], abs=1e-9) and values[0] > 0.45


def test_softmax_takes_scores_too_large_for_exp():
    assert softmax([1000.0, 1000.0, 990.0], 1.0) == pytest.approx([0.5, 0.5, 0.5 * math.exp(-10)], rel=1e-3)


# --- Tennō ---------------------------------------------------------------------------------------------


def test_a_fight_is_worth_the_card_taken_or_the_card_lost():
    """A win takes the defender's card (its score); a loss or a tie sends mine to the discard, which costs
    0.6 of its score; the Shogun takes a losing attacker prisoner (its whole score, and the slot)."""
    from engine.bots.games.tenno import LOSS, _fight_value

    assert _fight_value(9, 3) == 3
    assert _fight_value(7, 6) == 6  # the Monk the defender might show is not counted
    assert _fight_value(7, 7) == pytest.approx(-LOSS * 7)  # a tie: both cards go
    assert _fight_value(3, 9) == pytest.approx(-LOSS * 3)
    assert _fight_value(9, SHOGUN) == pytest.approx(-9 - LOSS * 9)
    assert _fight_value(SHOGUN, SHOGUN) == pytest.approx(-LOSS * 10)  # a tie with the Shogun takes no prisoner
    assert _fight_value(GEISHA, SHOGUN) == 10  # she takes even the Shogun, and costs nothing when she leaves


def _ronin_view(rows: dict[int, list[int]], known: list[int | None]) -> tuple[Match, dict]:
    match = tenno_position(2, rows=rows, active=0)
    match.state.seats[1].known = list(known)
    view = match.game.view(match.state, 0)
    return match, dict(view, phase="ronin")


def test_the_search_ranks_a_ronin_s_attacks_by_their_promise_and_declining_at_nothing():
    match, view = _ronin_view({0: [9, 1, 2], 1: [SHOGUN, 1, 8]}, [SHOGUN, 1, 8])
    attacks = [a for a in decisions(match.game, match.state, 0) if a["do"] == "attack"]
    decline = {"seat": 0, "do": "decline"}
    ranks = knowledge_for("tenno").rank(view, attacks + [decline])
    assert ranks is not None and ranks[-1] == 0.0
    by_attack = {(a["slot"], a["target_slot"]): r for a, r in zip(attacks, ranks)}
    assert by_attack[0, 2] == pytest.approx(8 - 0.09)  # the Daimyo takes the Samurai 8
    assert max(ranks) == by_attack[0, 2]


def test_a_ronin_declines_an_attack_that_gains_nothing():
    """Geisha against a known Geisha is a tie that costs nothing and gains nothing: not worth the Ronin."""
    _, view = _ronin_view({0: [GEISHA, 1, 2], 1: [GEISHA, 1, 2]}, [GEISHA, None, None])
    attack = {"seat": 0, "do": "attack", "slot": 0, "target": 1, "target_slot": 0}
    decline = {"seat": 0, "do": "decline"}
    assert knowledge_for("tenno").rule_choice(view, [attack, decline], Rng.seeded(1)) == decline


def test_a_lone_choice_is_taken_in_an_attack_and_in_a_defence():
    tenno = knowledge_for("tenno")
    passing = {"seat": 0, "do": "pass"}
    assert tenno.rule_choice({"phase": "attack"}, [passing], Rng.seeded(1)) == passing
    # Samurai 7 attacks my Ronin 6: a Monk would help, but this row has none to show
    defend = {"seat": 0, "do": "defend", "monk": False}
    view = {"phase": "defend", "fight": {"attack_card": 7, "target_slot": 0}, "me": {"row": [6, 1, 2]}}
    assert tenno.rule_choice(view, [defend], Rng.seeded(1)) == defend


def test_the_yardstick_values_a_known_geisha_as_the_card_lost_and_a_blind_geisha_at_minus_one():
    from engine.bots.games.tenno import _first_values

    match = tenno_position(2, rows={0: [GEISHA, 3, 9], 1: [GEISHA, 1, 2]}, active=0)
    match.state.seats[1].known = [GEISHA, None, None]
    view = match.game.view(match.state, 0)
    attacks = [{"seat": 0, "do": "attack", "slot": s, "target": 1, "target_slot": t}
               for s, t in ((2, 0), (0, 1), (1, 1))]
    assert _first_values(view, attacks) == pytest.approx([-9, -1.0, (3 - 5.5) * 0.6 - 0.03])


def _reward_view(kind: str, known: list[int | None]) -> tuple[Match, dict]:
    match = tenno_position(2, rows={0: [9, 8, 7], 1: [1, 2, 3]}, active=0)
    match.state.seats[1].known = list(known)
    view = match.game.view(match.state, 0)
    return match, dict(view, phase="reward", reward={"kind": kind, "seat": 0, "target": 1})


def test_a_peek_looks_at_a_card_not_known_yet_or_at_any_when_all_are_known():
    tenno = knowledge_for("tenno")
    peeks = [{"seat": 0, "do": "peek", "slot": s} for s in range(3)]
    _, view = _reward_view("peek", [1, None, 3])
    assert {tenno.rule_choice(view, peeks, Rng.seeded(k))["slot"] for k in range(8)} == {1}
    _, view = _reward_view("peek", [1, 2, 3])
    assert {tenno.rule_choice(view, peeks, Rng.seeded(k))["slot"] for k in range(12)} == {0, 1, 2}
    assert tenno.rule_choice(view, peeks[2:], Rng.seeded(1)) == peeks[2]  # a row of one card


def test_a_reorder_is_always_a_fake_and_a_lone_skip_is_taken():
    tenno = knowledge_for("tenno")
    _, view = _reward_view("reorder", [None, None, None])
    reorders = [{"seat": 0, "do": "reorder", "first": a, "second": b, "fake": fake}
                for a, b, fake in ((0, 1, False), (0, 1, True), (1, 2, False), (1, 2, True))]
    assert all(tenno.rule_choice(view, reorders, Rng.seeded(k))["fake"] for k in range(12))
    skip = {"seat": 0, "do": "skip"}
    assert tenno.rule_choice(view, [skip], Rng.seeded(1)) == skip


@pytest.mark.parametrize("discard_public", [True, False])
def test_a_rollout_reads_what_the_seat_s_view_would_show(discard_public):
    """A rollout's rules of thumb read a world through `_facts`, not the built view: they must agree."""
    from engine.bots.games.tenno import _facts

    rng = random.Random(4)
    match = Match.new("tenno", 3, seed=4, options={"discard_public": discard_public})
    checked = set()
    while not match.is_over:
        for seat in range(3):
            facts, view = _facts(match.state, seat), match.game.view(match.state, seat)
            assert facts["phase"] == view["phase"] and facts["me"]["row"] == view["me"]["row"]
            assert facts["me"]["peeks"] == [{k: p[k] for k in ("target", "slot", "card", "stale")}
                                            for p in view["me"]["peeks"]]
            for other in range(3):
                assert facts["players"][other] == {k: view["players"][other][k] for k in ("row", "hand")}
            fight = view["fight"]
            assert facts["fight"] == (fight and {k: fight[k] for k in ("attack_card", "target_slot")})
            assert facts["reward"] == (view["reward"] and {"target": view["reward"]["target"]})
            assert facts["discard"] == (view["discard"] if discard_public else None)
            checked.add(view["phase"])
            checked.update("?" for p in view["players"] for c in p["row"] if c == "?")
            checked.update("gap" for p in view["players"] for c in p["row"] if c is None)
        match.apply(random_action(match, rng, free=0))
    assert {"attack", "reward", "?", "gap"} <= checked


# --- In the Shadow of the Emperor ------------------------------------------------------------------------


def test_a_shadow_position_is_worth_vp_electors_thalers_and_tiles():
    """VP count whole, an elector 1.2 (its votes and privilege), a thaler 0.1, each influence of a tile
    on an electorate's spaces 0.15 (a Couple two, a knight one; an elector is counted as an elector)."""
    from engine.games.shadow.position import position

    match = position(3, board={"SAXONY": {"elector": "B0/25", "spaces": ["C1/35", "K1", None]},
                               "MAINZ": {"elector": "B1/25"}},
                     thalers={0: 5, 1: 3, 2: 0}, vp={0: 2, 1: 0, 2: 1})
    points = knowledge_for("shadow").points(match.state)
    assert points == pytest.approx([2 + 1.2 + 0.5, 1.2 + 0.3 + 0.15 * 3, 1])


def _shadow_view(board: dict) -> dict:
    from engine.games.shadow.position import position

    match = position(3, phase="actions", emperor=0, thalers={0: 10}, board=board)
    return match.game.view(match.state, 0)


def test_the_supply_and_the_throne_are_no_electorate_so_tiles_there_count_nothing():
    from engine.bots.games.shadow import _arrive, _gain

    view = _shadow_view({"SAXONY": {"spaces": ["B1/25", None, None]}})
    for place in ("supply", "throne", ""):
        assert _gain(view, place, 1) == 0.0 and _arrive(view, place, "", "knight") == 0.0
    assert _arrive(view, "SAXONY", "", "knight") == _gain(view, "SAXONY", 1) == pytest.approx(1.0 + 0.3)


def test_a_tile_retired_from_the_throne_or_a_son_counts_as_a_baron_arriving():
    from engine.bots.games.shadow import _arrive

    view = _shadow_view({"SAXONY": {"spaces": ["B1/25", None, None]}})
    actions = [{"seat": 0, "do": kind, "area": "SAXONY", "spot": "a1"} for kind in ("retire", "son")]
    ranks = knowledge_for("shadow").rank(view, actions)
    assert ranks == [_arrive(view, "SAXONY", "a1", "baron")] * 2 and ranks[0] == pytest.approx(1.3)


@pytest.mark.parametrize("setup_city", ["first", "last"])
def test_a_start_city_counts_one_influence_where_it_goes(setup_city):
    """Placed last, the city comes after the knights, some of them in castles: still it counts one."""
    from engine.bots.games.shadow import _gain

    rng = random.Random(2)
    match = Match.new("shadow", 3, seed=2, options={"setup_city": setup_city})
    while not (match.state.tasks and match.state.tasks[0].piece == "city"):
        match.apply(random_action(match, rng, free=0))
    seat = match.pending()[0]
    view = match.game.view(match.state, seat)
    actions = decisions(match.game, match.state, seat)
    ranks = knowledge_for("shadow").rank(view, actions)
    assert ranks == [_gain(view, a["area"], 1) for a in actions]
    assert max(ranks) > 0
    castles = [k for e in view["electorates"] for k in e["castles"] if k is not None]
    assert bool(castles) == (setup_city == "last")


ELECTIONS = [
    # Bohemia's elector has two votes: the Rival's two beat the Emperor's one
    ({"BOHEMIA": {"elector": "B1/25"}, "SAXONY": {"elector": "B0/25"}, "MAINZ": {"elector": "B2/25"}}, "rival"),
    # two votes each: a tie keeps the Emperor
    ({"BOHEMIA": {"elector": "B0/25"}, "SAXONY": {"elector": "B1/25"}, "MAINZ": {"elector": "B1/25"},
      "TRIER": {"elector": "B2/25"}}, "emperor"),
    ({"BOHEMIA": {"elector": "B1/25"}, "SAXONY": {"elector": "B0/25"}, "MAINZ": {"elector": "B0/25"},
      "TRIER": {"elector": "B2/25"}}, "emperor"),
]


@pytest.mark.parametrize("board, favourite", ELECTIONS)
def test_a_voter_backs_the_candidate_the_electors_already_favour(board, favourite):
    """A voter who backs the winner scores a VP: the rules of thumb back whoever holds more votes (Bohemia's
    elector two) among the candidates' own electors, the Emperor on a tie (a tie keeps him)."""
    from engine.games.shadow.position import position

    match = position(3, phase="election", emperor=0, cards={1: ["rival"]}, board=board)
    assert match.pending() == [2]
    view, actions = match.game.view(match.state, 2), match.legal_actions(2)
    assert [a["for"] for a in actions] == ["emperor", "rival"]
    shadow = knowledge_for("shadow")
    assert shadow.rank(view, actions) == ([1.0, 0.0] if favourite == "emperor" else [0.0, 1.0])
    assert shadow.rule_choice(view, actions, Rng.seeded(1))["for"] == favourite


# --- Quo Vadis ---------------------------------------------------------------------------------------


def test_the_quovadis_position_value_counts_the_laurel_a_senator_waits_below():
    """Quo Vadis: nearly every laurel goes to a senator already standing under it, so a senator below a V
    laurel is worth more than one as far from the Senate below a path that carries none; Caesar's laurel
    cannot be taken, so waiting below it is worth nothing."""
    from engine.testing import quovadis_position

    match = quovadis_position(3, {"E2": [0], "E1": [1]}, caesar="p16")
    match.state.diamonds.update({"p02": "V", "p03": "II"})
    knowledge = knowledge_for("quovadis")
    points = knowledge.points(match.state)
    assert points[0] - points[1] == pytest.approx(5 * knowledge.waiting) and knowledge.waiting > 0
    match.state.caesar = "p02"
    points = knowledge.points(match.state)
    assert points[0] - points[1] == pytest.approx(2 * knowledge.waiting)


def test_quovadis_knows_how_many_steps_each_committee_is_from_the_senate():
    """The shortest way up the board: the top row (C) is one step from the Senate; E3 is three, by its
    path to A3, which leads straight to C3. The table is worked out at import, so it is asked anew here."""
    from engine.bots.games.quovadis import _steps_to_senate

    assert _steps_to_senate() == {
        "S": 0, "C1": 1, "C2": 1, "C3": 1, "B1": 2, "B2": 2, "B3": 2, "A3": 2,
        "A1": 3, "A2": 3, "A4": 3, "E3": 3, "E1": 4, "E2": 4, "E4": 4}


def test_a_quovadis_seat_with_nothing_on_the_board_and_no_laurels_promises_nothing():
    match = Match.new("quovadis", 3, seed=1)
    assert list(knowledge_for("quovadis").points(match.state)) == [0.0, 0.0, 0.0]


def _quovadis_view(**parts):
    view = {"phase": "turn", "seat": 0, "senate": [], "diamonds": {}, "caesar": None, "recent": [], "vote": None,
            "committees": {"E1": [], "E2": [], "E3": [], "C1": [], "C2": [], "S": []}}
    view.update(parts)
    return view


def test_the_quovadis_rules_of_thumb_value_each_kind_of_move():
    """A new senator is worth 1 and a tenth for each seat of its committee; a step up 2 and 4 less the
    steps it leaves to the Senate, plus the laurel on its path (unless Caesar stands on it), plus 6 for a
    first place in the Senate, less 3 where a vote is needed; moving Caesar nothing."""
    knowledge = knowledge_for("quovadis")
    view = _quovadis_view(senate=[0], committees={"E1": [0], "E2": [], "E3": [0], "C1": [0], "C2": [1], "S": [0]},
                          diamonds={"p01": "III"})
    actions = [{"do": "place", "committee": "E2"},
               {"do": "advance", "committee": "E1", "path": "p01"},  # to A1, 3 steps left, a III laurel
               {"do": "advance", "committee": "C1", "path": "p15"},  # into the Senate, where it has a seat
               {"do": "advance", "committee": "E3", "path": "p04"},  # to A3 (2 steps left), a vote: 1 of the 2 senators it needs
               {"do": "caesar", "path": "p07"}]
    assert knowledge.rank(view, actions) == pytest.approx([1.5, 6.0, 6.0, 1.0, 0.0])
    first = _quovadis_view(committees={"E1": [], "E2": [], "E3": [], "C1": [0], "C2": [], "S": [1]})
    assert knowledge.rank(first, [actions[2]]) == pytest.approx([12.0])
    covered = dict(view, caesar="p01")
    assert knowledge.rank(covered, [actions[1]]) == pytest.approx([3.0])
    for phase in ("vote", "reward", "bonus"):
        assert knowledge.rank(dict(view, phase=phase), actions) is None


def test_a_quovadis_bot_refused_once_still_moves_where_its_own_senators_carry_the_vote():
    """After a committee said no this turn, moves that need a vote are dropped; a move the seat's own
    senators decide (3 of E2's 5 seats) is no vote and stays."""
    knowledge = knowledge_for("quovadis")
    refused = _quovadis_view(recent=[{"type": "votes", "passed": False, "seat": 0}],
                             committees={"E1": [], "E2": [0, 0, 0, 1], "E3": [0, 1], "C1": [], "C2": [], "S": []})
    own = {"do": "advance", "committee": "E2", "path": "p02"}
    voted = {"do": "advance", "committee": "E3", "path": "p04"}
    place = {"do": "place", "committee": "E1"}
    assert knowledge.prune(refused, [own, voted, place]) == [own, place]
    assert knowledge.prune(_quovadis_view(), [own, voted, place]) == [own, voted, place]


def test_the_quovadis_rules_of_thumb_answer_a_vote_and_keep_a_bonus():
    """Let a senator pass, unless it takes the last seats of the Senate while this seat has none there;
    keep a bonus; with neither answer offered, the first action."""
    knowledge = knowledge_for("quovadis")
    answers = [{"do": "refuse"}, {"do": "support"}]
    up = {"path": "p07"}  # A1 to B1
    into = {"path": "p16"}  # C2 to the Senate
    rng = Rng.seeded(1)
    assert knowledge.rule_choice(_quovadis_view(phase="vote", vote=up), answers, rng) == {"do": "support"}
    assert knowledge.rule_choice(_quovadis_view(phase="vote", vote=into, senate=[1, 2]), answers, rng) == {"do": "support"}
    assert knowledge.rule_choice(_quovadis_view(phase="vote", vote=into, senate=[1, 2, 2]), answers, rng) == {"do": "refuse"}
    assert knowledge.rule_choice(_quovadis_view(phase="vote", vote=into, senate=[0, 1, 2]), answers, rng) == {"do": "support"}
    other = [{"do": "pay"}, {"do": "wait"}]
    assert knowledge.rule_choice(_quovadis_view(phase="vote", vote=up), other, rng) == {"do": "pay"}
    bonus = [{"do": "take"}, {"do": "keep"}]
    assert knowledge.rule_choice(_quovadis_view(phase="bonus"), bonus, rng) == {"do": "keep"}
    assert knowledge.rule_choice(_quovadis_view(phase="bonus"), [{"do": "take"}, {"do": "swap"}], rng) == {"do": "take"}
