"""Quo Vadis rules, one test per rule (rules/quovadis.md A; seed 002 wins where they differ)."""

from __future__ import annotations

import pytest

from engine.errors import BadOptions, IllegalAction
from engine.match import Match
from engine.physical import public, step
from engine.rng import Rng
from engine.testing import act, bare, quovadis_position

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3


def kinds(match, seat):
    return {a["do"] for a in match.legal_actions(seat)}


def advances(match, seat):
    return {(a["committee"], a["path"]) for a in match.legal_actions(seat) if a["do"] == "advance"}


# --- A.4 setup -------------------------------------------------------------------

def test_setup_lays_ten_face_up_laurels_covers_the_senate_diamond_and_keeps_the_rest_hidden():
    match = Match.new("quovadis", 4, seed=3)
    state = match.state
    assert len(state.diamonds) == 10 and all(state.diamonds.values())
    assert "I" not in state.diamonds.values()
    assert len(state.bag) == 34 and state.supply == 18
    assert state.caesar == "p16"
    assert all(p.reserve == 8 and p.laurels == [] for p in state.seats)
    public = match.public_view()
    assert public["bag"] == 34 and public["diamonds"] == state.diamonds
    assert "Draw a" in " ".join(match.prompt().steps)


def test_limited_reward_variant_gives_10_14_18_i_tokens_for_3_4_5_players():
    for players, supply in ((3, 10), (4, 14), (5, 18)):
        assert Match.new("quovadis", players, options={"limited_rewards": True}).state.supply == supply


def test_three_to_five_players():
    for players in (2, 6):
        with pytest.raises(BadOptions, match="3 to 5"):
            Match.new("quovadis", players)


# --- A.5 the three actions ---------------------------------------------------------

def test_place_puts_a_new_senator_on_a_free_seat_of_an_entry_committee_only():
    match = quovadis_position(3, {"E1": [BLUE]})
    places = {a["committee"] for a in match.legal_actions(RED) if a["do"] == "place"}
    assert places == {"E2", "E3", "E4"}  # E1's only seat is taken; no other committee takes new senators
    act(match, RED, "place", committee="E3")
    assert match.state.committees["E3"] == [RED] and match.state.seats[RED].reserve == 7
    assert match.state.active == BLUE


def test_no_place_once_all_eight_senators_are_out():
    match = quovadis_position(3, {"E2": [RED] * 5, "E3": [RED] * 3})
    assert "place" not in kinds(match, RED)
    last = quovadis_position(3, {"E2": [RED] * 5, "E3": [RED] * 2})
    assert last.state.seats[RED].reserve == 1 and "place" in kinds(last, RED)


def test_passing_is_not_allowed_and_moving_caesar_is_always_possible():
    match = quovadis_position(3, {})
    assert "pass" not in kinds(match, RED)
    caesar = {a["path"] for a in match.legal_actions(RED) if a["do"] == "caesar"}
    assert len(caesar) == 9 and "p16" not in caesar  # any diamond but his own
    relaxed = quovadis_position(3, {}, caesar_stay_is_move=True)
    assert len([a for a in relaxed.legal_actions(RED) if a["do"] == "caesar"]) == 10


def test_moving_caesar_takes_the_turn():
    match = quovadis_position(3, {})
    act(match, RED, "caesar", path="p07")
    assert match.state.caesar == "p07" and match.state.active == BLUE


def test_a_senator_in_a_one_seat_committee_advances_freely_and_collects_nothing_without_a_diamond():
    match = quovadis_position(3, {"E1": [RED]})
    assert ("E1", "p01") in advances(match, RED)
    act(match, RED, "advance", committee="E1", path="p01")
    assert match.state.committees["A1"] == [RED] and match.state.committees["E1"] == []
    assert match.state.seats[RED].laurels == [] and match.state.phase == "turn"


def test_a_senator_cannot_move_into_a_full_committee():
    match = quovadis_position(3, {"A2": [RED], "B2": [BLUE]})
    assert ("A2", "p08") not in advances(match, RED)


# --- A.6 votes ---------------------------------------------------------------------

def test_majority_counts_seats_not_occupants_and_needs_that_many_present():
    # A 3-seat committee with one senator: no majority possible.
    lone = quovadis_position(3, {"E3": [RED]})
    assert not {c for c, _ in advances(lone, RED)} & {"E3"}
    # A 5-seat committee with 2 senators: still short of 3 present.
    short = quovadis_position(3, {"E2": [RED, BLUE]})
    assert not {c for c, _ in advances(short, RED)} & {"E2"}
    # 3 present in the 5-seat committee: a vote is possible even though 2 seats are empty.
    enough = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]})
    assert ("E2", "p02") in advances(enough, RED)


def test_the_movers_own_senators_count_so_no_one_is_asked():
    match = quovadis_position(3, {"E3": [RED, RED, BLUE]})
    events = act(match, RED, "advance", committee="E3", path="p04")
    assert match.state.phase == "turn" and match.state.active == BLUE
    assert not any(e["type"] == "ask" for e in events)
    assert match.state.committees["A3"] == [RED]


def test_each_other_owner_present_answers_on_their_own_seat():
    match = quovadis_position(4, {"E2": [RED, BLUE, BLUE, YELLOW]})
    act(match, RED, "advance", committee="E2", path="p02")
    assert match.state.phase == "vote" and sorted(match.pending()) == [BLUE, YELLOW]
    assert kinds(match, BLUE) == {"support", "refuse"}
    assert kinds(match, GREEN) == set()


def test_an_answer_stays_secret_until_every_answer_is_in():
    match = quovadis_position(4, {"E2": [RED, BLUE, YELLOW]})
    act(match, RED, "advance", committee="E2", path="p02")
    events = act(match, BLUE, "refuse")
    assert events == [{"type": "voted", "seat": BLUE}]
    for seat in (RED, YELLOW, GREEN):
        assert match.view(seat)["me"]["answer"] is None
        assert "False" not in str(match.view(seat)["vote"])
    assert match.view(BLUE)["me"]["answer"] is False
    assert match.public_view()["vote"]["answered"] == [BLUE]
    events = act(match, YELLOW, "support")
    assert events[0]["answers"] == {"1": False, "2": True}


def test_a_failed_vote_does_not_end_the_turn():
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]})
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "refuse")
    events = act(match, YELLOW, "support")  # 2 yes of 3 needed
    assert events[0]["passed"] is False
    assert match.state.phase == "turn" and match.state.active == RED
    assert match.state.committees["E2"] == [RED, BLUE, YELLOW]
    act(match, RED, "place", committee="E1")
    assert match.state.active == BLUE


def test_a_passed_vote_moves_the_senator_collects_the_laurel_and_refills_the_diamond():
    match = quovadis_position(3, {"E3": [RED, BLUE]})
    token = match.state.diamonds["p04"]
    refill = match.state.bag[-1]
    act(match, RED, "advance", committee="E3", path="p04")
    events = act(match, BLUE, "support")
    assert match.state.committees["A3"] == [RED]
    assert match.state.seats[RED].laurels == [token]
    assert match.state.diamonds["p04"] == refill
    assert {"type": "collect", "seat": RED, "path": "p04", "token": token, "refill": refill} in bare(events)


def test_only_the_supporters_needed_are_paid_one_i_each():
    # 5-seat committee, Red has 1 senator: needs 2 more; Blue offers 2, Yellow 1.
    match = quovadis_position(3, {"E2": [RED, BLUE, BLUE, YELLOW]})
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "support")
    act(match, YELLOW, "support")
    assert match.state.phase == "reward" and match.pending() == [RED]
    assert {a["to"] for a in match.legal_actions(RED) if a["do"] == "reward"} == {BLUE, YELLOW}
    act(match, RED, "reward", to=YELLOW)
    assert {a["to"] for a in match.legal_actions(RED) if a["do"] == "reward"} == {BLUE, YELLOW} - {YELLOW}
    act(match, RED, "reward", to=BLUE)
    assert match.state.seats[BLUE].laurels == ["I"] and match.state.seats[YELLOW].laurels == ["I"]
    assert match.state.supply == 16 and match.state.active == BLUE


def test_when_every_supporter_was_needed_they_are_paid_without_asking():
    match = quovadis_position(3, {"E3": [RED, BLUE]})
    act(match, RED, "advance", committee="E3", path="p04")
    act(match, BLUE, "support")
    assert match.state.seats[BLUE].laurels == ["I"] and match.state.phase == "turn"


def test_rewards_stop_when_the_supply_is_empty():
    match = quovadis_position(3, {"E3": [RED, BLUE]})
    match.state.supply = 0
    act(match, RED, "advance", committee="E3", path="p04")
    act(match, BLUE, "support")
    assert match.state.seats[BLUE].laurels == [] and match.state.phase == "turn"


def test_a_short_supply_is_shared_out_by_the_mover_by_default():
    """A.6, A.12 [ASSUMPTION] "If the supply runs out partway through a payout, the mover chooses who gets
    the remaining tokens" (short_supply=mover_chooses); seed: "離開的元老有權決定哪些元老獲得“I”月桂標記"."""
    match = quovadis_position(4, {"E2": [BLUE, GREEN, RED]}, active=BLUE)
    match.state.supply = 1
    act(match, BLUE, "advance", committee="E2", path="p02")
    act(match, RED, "support")
    act(match, GREEN, "support")
    assert match.state.phase == "reward" and match.pending() == [BLUE]
    assert {a["to"] for a in match.legal_actions(BLUE) if a["do"] == "reward"} == {RED, GREEN}
    act(match, BLUE, "reward", to=RED)
    assert match.state.seats[RED].laurels == ["I"] and match.state.seats[GREEN].laurels == []
    assert match.state.supply == 0 and match.state.active == YELLOW


def test_a_short_supply_goes_in_turn_order_from_the_movers_left_under_short_supply_turn_order():
    """A.6, A.12 [ASSUMPTION], the other reading: Blue moves; from Blue's left Yellow backed nothing,
    Green is next, then Red, so the one token left is Green's and no one is asked."""
    match = quovadis_position(4, {"E2": [BLUE, GREEN, RED]}, active=BLUE, short_supply="turn_order")
    match.state.supply = 1
    act(match, BLUE, "advance", committee="E2", path="p02")
    act(match, RED, "support")
    events = act(match, GREEN, "support")
    assert [e["seat"] for e in events if e["type"] == "reward"] == [GREEN]
    assert match.state.seats[GREEN].laurels == ["I"] and match.state.seats[RED].laurels == []
    assert match.state.phase == "turn" and match.state.supply == 0 and match.state.active == YELLOW


def test_under_turn_order_a_backer_takes_one_for_each_of_its_senators_and_the_next_takes_the_rest():
    """A.6: the reward is paid per supporting senator; a short supply under turn_order goes to each
    backer from the mover's left, one token for each of its backing senators, until none is left."""
    from engine.games.quovadis.rules import unchosen_rewards

    state = quovadis_position(4, {}, short_supply="turn_order").state
    assert unchosen_rewards(state, BLUE, {GREEN: 2, RED: 1}, tokens=2, short=True) == {GREEN: 2}
    assert unchosen_rewards(state, BLUE, {GREEN: 1, RED: 2}, tokens=2, short=True) == {GREEN: 1, RED: 1}
    assert unchosen_rewards(state, RED, {GREEN: 1, BLUE: 1}, tokens=1, short=True) == {BLUE: 1}
    assert unchosen_rewards(state, BLUE, {GREEN: 1, RED: 1}, tokens=0, short=True) == {}
    assert unchosen_rewards(state, BLUE, {GREEN: 1, RED: 1}, tokens=2, short=False) == {GREEN: 1, RED: 1}
    assert unchosen_rewards(state, BLUE, {GREEN: 2, RED: 1}, tokens=2, short=False) is None  # the mover's
    match = quovadis_position(4, {"E2": [BLUE, GREEN, GREEN, RED]}, active=BLUE, short_supply="turn_order")
    match.state.supply = 1
    act(match, BLUE, "advance", committee="E2", path="p02")
    act(match, RED, "support")
    act(match, GREEN, "support")
    assert match.state.seats[GREEN].laurels == ["I"] and match.state.phase == "turn"


def test_under_turn_order_a_full_supply_still_lets_the_mover_choose_among_more_supporters_than_needed():
    """A.6 [HIGH], the seed: "離開的元老有權決定哪些元老獲得“I”月桂標記": short_supply only settles a supply
    that runs out; two backers for one needed vote are still the mover's to choose between."""
    match = quovadis_position(4, {"E3": [BLUE, GREEN, RED]}, active=BLUE, short_supply="turn_order")
    act(match, BLUE, "advance", committee="E3", path="p04")
    act(match, RED, "support")
    act(match, GREEN, "support")
    assert match.state.phase == "reward" and match.state.payout_left == 1
    act(match, BLUE, "reward", to=RED)
    assert match.state.seats[RED].laurels == ["I"] and match.state.seats[GREEN].laurels == []


def _empty_the_bag(match):
    """The bag drawn empty over a long game: its laurels are in Blue's pile."""
    match.state.seats[BLUE].laurels += match.state.bag
    match.state.bag = []


def test_an_empty_bag_leaves_the_diamond_empty_by_default():
    """A.6, A.12 [ASSUMPTION] "If the bag is empty, the diamond stays empty" (empty_bag=stays_empty); the
    seed only says the emptied diamond is refilled at once from the top of the pile ("空出來的菱形位置馬上用
    月桂標記堆最上面一張所填滿")."""
    match = quovadis_position(3, {"E3": [RED, RED]})
    _empty_the_bag(match)
    token = match.state.diamonds["p04"]
    events = act(match, RED, "advance", committee="E3", path="p04")
    assert {"type": "collect", "seat": RED, "path": "p04", "token": token, "refill": ""} in bare(events)
    assert match.state.diamonds["p04"] == "" and match.state.supply == 18
    match.game.check_invariants(match.state)


def test_an_empty_bag_refills_the_diamond_with_an_i_from_the_supply_under_empty_bag_reward_token():
    """A.6, A.12 [ASSUMPTION], the other reading: an "I" from the open supply is laid face up on the
    diamond while the supply lasts; once it is empty too, the diamond stays empty."""
    match = quovadis_position(3, {"E3": [RED, RED]}, empty_bag="reward_token")
    _empty_the_bag(match)
    token = match.state.diamonds["p04"]
    events = act(match, RED, "advance", committee="E3", path="p04")
    assert {"type": "collect", "seat": RED, "path": "p04", "token": token, "refill": "I"} in bare(events)
    assert match.state.diamonds["p04"] == "I" and match.state.supply == 17
    match.game.check_invariants(match.state)
    spent = quovadis_position(3, {"E3": [RED, RED]}, empty_bag="reward_token")
    _empty_the_bag(spent)
    spent.state.seats[BLUE].laurels += ["I"] * spent.state.supply
    spent.state.supply = 0
    act(spent, RED, "advance", committee="E3", path="p04")
    assert spent.state.diamonds["p04"] == "" and spent.state.supply == 0
    spent.game.check_invariants(spent.state)


# --- A.7 Caesar ---------------------------------------------------------------------

def test_caesar_on_the_path_lifts_the_vote_and_blocks_its_laurel():
    match = quovadis_position(3, {"E3": [RED, BLUE]}, caesar="p04")
    token = match.state.diamonds["p04"]
    events = act(match, RED, "advance", committee="E3", path="p04")
    assert not any(e["type"] in ("ask", "collect", "reward") for e in events)
    assert match.state.committees["A3"] == [RED]
    assert match.state.diamonds["p04"] == token and match.state.seats[RED].laurels == []
    assert match.state.seats[BLUE].laurels == [] and match.state.caesar == "p04"


def test_caesar_frees_only_his_own_path_of_a_two_exit_committee():
    match = quovadis_position(3, {"E3": [RED, BLUE]}, caesar="p04")
    act(match, RED, "advance", committee="E3", path="p05")
    assert match.state.phase == "vote"


def test_caesar_waives_the_vote_but_not_the_quorum_unless_the_option_says_otherwise():
    """Seed: "在一個元老前進之前，該委員會必須多數位置已占據" holds before any senator leaves; Caesar
    ("該委員會的元老可以不用獲得多數支持就可以前進") waives only the majority's support."""
    strict = quovadis_position(3, {"E3": [RED]}, caesar="p04")
    assert ("E3", "p04") not in advances(strict, RED)
    quorum = quovadis_position(3, {"E3": [RED, BLUE]}, caesar="p04")
    assert ("E3", "p04") in advances(quorum, RED)
    events = act(quorum, RED, "advance", committee="E3", path="p04")  # 2 present of 3 seats: quorum, no vote
    assert [e["type"] for e in events] == ["advance"] and events[0]["free"] is True
    alone = quovadis_position(3, {"E3": [RED]}, caesar="p04", caesar_waives_quorum=True)
    assert ("E3", "p04") in advances(alone, RED)


def test_caesar_frees_the_whole_committee_below_him_only_by_option():
    """The seed's "凱撒出現在一個委會員的正上方" read committee-wide: every path out is free, and the
    path he stands on stays the covered one."""
    match = quovadis_position(3, {"E3": [RED, BLUE]}, caesar="p04", caesar_frees_committee=True)
    token = match.state.diamonds["p05"]
    events = act(match, RED, "advance", committee="E3", path="p05")
    assert not any(e["type"] == "ask" for e in events) and match.state.phase != "vote"
    assert token in match.state.seats[RED].laurels
    assert "Red advances E3 > " in match.game.describe_event(events[0], match.names)
    assert "(Caesar)" in match.game.describe_event(events[0], match.names)


def test_a_ii_caesar_laurel_gives_an_extra_caesar_move_at_the_end_of_the_turn():
    match = quovadis_position(3, {"E3": [RED, RED]})
    match.state.diamonds["p04"] = "IIC"
    match.state.bag.remove("IIC")
    match.state.bag.append("III")
    act(match, RED, "advance", committee="E3", path="p04")
    assert match.state.phase == "bonus" and match.pending() == [RED]
    assert "keep" in kinds(match, RED)
    act(match, RED, "caesar", path="p10")
    assert match.state.caesar == "p10" and match.state.active == BLUE


def test_the_extra_caesar_move_may_be_declined():
    match = quovadis_position(3, {"E3": [RED, RED]})
    match.state.diamonds["p04"] = "IIC"
    match.state.bag.remove("IIC")
    match.state.bag.append("III")
    act(match, RED, "advance", committee="E3", path="p04")
    assert match.state.bonus is True
    events = act(match, RED, "keep")
    assert match.state.caesar == "p16" and match.state.active == BLUE
    assert match.state.bonus is False and events[0] == {"type": "keep", "seat": RED}


# --- laurels are secret; payments -------------------------------------------------------

def test_laurels_are_seen_only_by_their_owner():
    match = quovadis_position(3, {}, laurels={RED: ["V", "III"], BLUE: ["II"]})
    assert match.view(RED)["me"]["laurels"] == ["III", "V"] and match.view(RED)["me"]["total"] == 8
    assert match.view(BLUE)["me"]["total"] == 2
    assert match.public_view()["players"][RED] == {"reserve": 8, "laurels": 2}
    assert "V" not in str(match.view(BLUE)["players"])


def test_a_laurel_payment_is_an_action_open_at_any_time_and_change_can_be_made():
    match = quovadis_position(3, {}, laurels={BLUE: ["IV"], RED: ["I"]})
    assert match.pending() == [RED]
    events = act(match, BLUE, "pay", to=RED, token="IV")  # Blue pays while waiting
    assert bare(events) == [{"type": "pay", "seat": BLUE, "to": RED}]  # face down: no value in public
    assert [(m["src"], m["dst"], m["value"], m["hidden"]) for m in events[0]["moves"]] == [
        (["laurels", BLUE], ["laurels", RED], [None, None], True)]
    act(match, RED, "pay", to=BLUE, token="I")  # change
    assert sorted(match.state.seats[RED].laurels) == ["IV"] and match.state.seats[BLUE].laurels == ["I"]
    assert match.state.active == RED  # payments do not use up a turn
    with pytest.raises(IllegalAction):
        act(match, YELLOW, "pay", to=RED, token="V")


# --- A.9 end ------------------------------------------------------------------------------

def _nearly_full():
    # Senate: Blue, Red, Blue, Yellow (arrival order); Red's senator in C1 can enter last.
    return quovadis_position(4, {"S": [BLUE, RED, BLUE, YELLOW], "C1": [RED]},
                             laurels={RED: ["V", "IV"], BLUE: ["V", "IV"], YELLOW: ["III"], GREEN: ["V", "V", "V"]})


def test_the_game_ends_the_moment_the_fifth_senate_seat_fills():
    match = _nearly_full()
    act(match, RED, "advance", committee="C1", path="p15")
    assert match.is_over and match.state.phase == "over"
    with pytest.raises(IllegalAction, match="over"):
        act(match, BLUE, "caesar", path="p07")


def test_players_without_a_senator_in_the_senate_are_out_and_ties_go_to_the_earliest_entrant():
    match = _nearly_full()
    act(match, RED, "advance", committee="C1", path="p15")
    result = match.result()
    assert result.scores[GREEN] == 15 and result.breakdown[GREEN]["eligible"] == 0
    assert result.breakdown[BLUE] == {"laurels": 9, "tokens": 2, "senators": 2, "eligible": 1}
    assert result.breakdown[RED] == {"laurels": 9, "tokens": 2, "senators": 2, "eligible": 1}
    assert result.reason == "senate" and result.to_data()["reason"] == "senate"
    assert result.scores[RED] == result.scores[BLUE] == 9
    assert result.winners == (BLUE,)  # Blue's first senator entered before Red's


def test_the_final_screens_show_every_total():
    match = _nearly_full()
    act(match, RED, "advance", committee="C1", path="p15")
    over = match.view(YELLOW)["over"]
    assert over["laurels"][GREEN] == ["V", "V", "V"]
    assert "Green: 15 laurels (no senator in the Senate: out)" in match.prompt().steps


def test_reveal_variant_lets_any_player_demand_every_total_when_the_first_three_players_enter():
    """Seed: "當第一個、第二個和第三個玩家到達元老院，任一玩家可以要求所有人翻開自己的月桂" (any player *may*
    demand it): the totals are shown only on a demand, from any seat, until the game moves on."""
    match = quovadis_position(3, {"C1": [RED]}, laurels={RED: ["V"], BLUE: ["II"]}, reveal_laurels=True)
    events = act(match, RED, "advance", committee="C1", path="p15")
    assert [e for e in events if e["type"].startswith("reveal")] == [{"type": "reveal_open", "entered": 1}]
    assert match.public_view()["revealed"] == [] and match.public_view()["reveal_open"] == 1
    for seat in (RED, BLUE, YELLOW):  # any seat, its turn or not
        assert {"seat": seat, "do": "demand_reveal"} in match.legal_actions(seat)
    events = act(match, YELLOW, "demand_reveal")
    reveal = [e for e in bare(events) if e["type"] == "reveal"]
    assert reveal == [{"type": "reveal", "seat": YELLOW, "entered": 1, "totals": {"0": 5, "1": 2, "2": 0}}]
    assert match.public_view()["revealed"][0]["totals"]["1"] == 2
    assert not any(a["do"] == "demand_reveal" for s in range(3) for a in match.legal_actions(s))
    assert match.pending() == [BLUE]  # no move of the game: the turn order is untouched
    steps = match.game.describe_moves(events[0]["moves"], match.names)
    assert "Red: turn your laurels face up" in steps and "Red: turn your laurels face down" in steps


def test_the_moment_to_demand_the_reveal_passes_with_the_next_move():
    match = quovadis_position(3, {"C1": [RED]}, laurels={RED: ["V"]}, reveal_laurels=True)
    act(match, RED, "advance", committee="C1", path="p15")
    act(match, BLUE, "caesar", path="p07")
    assert match.public_view()["reveal_open"] == 0
    assert not any(a["do"] == "demand_reveal" for s in range(3) for a in match.legal_actions(s))
    plain = quovadis_position(3, {"C1": [RED]}, laurels={RED: ["V"]})
    assert not any(e["type"] == "reveal" for e in act(plain, RED, "advance", committee="C1", path="p15"))


def test_the_last_move_completes_unless_the_option_ends_the_game_before_its_laurel():
    for finish, laurels in ((True, 1), (False, 0)):
        match = quovadis_position(3, {"S": [BLUE, BLUE, BLUE, BLUE], "C2": [RED, RED, RED]},
                                  finish_last_move=finish)
        act(match, RED, "caesar", path="p07")
        act(match, BLUE, "caesar", path="p10")
        act(match, YELLOW, "caesar", path="p11")
        act(match, RED, "advance", committee="C2", path="p16")
        assert match.is_over and len(match.state.seats[RED].laurels) == laurels


def test_reveal_variant_shows_the_totals_when_exactly_the_third_player_enters_and_not_the_fourth():
    """A.10-2 variant: the totals are shown as the 1st, 2nd and 3rd player reach the Senate, never after."""
    laurels = {RED: ["V"], BLUE: ["II"], YELLOW: ["III"]}
    third = quovadis_position(4, {"S": [BLUE, YELLOW], "C1": [RED]}, laurels=laurels, reveal_laurels=True)
    events = act(third, RED, "advance", committee="C1", path="p15")
    assert [e for e in events if e["type"] == "reveal_open"] == [{"type": "reveal_open", "entered": 3}]
    act(third, GREEN, "demand_reveal")
    totals = {"0": 5, "1": 2, "2": 3, "3": 0}
    assert third.state.revealed == [{"entered": 3, "totals": totals}] and third.state.reveal_due == 0
    fourth = quovadis_position(4, {"S": [BLUE, YELLOW, GREEN], "C1": [RED]}, laurels=laurels, reveal_laurels=True)
    events = act(fourth, RED, "advance", committee="C1", path="p15")
    assert not any(e["type"].startswith("reveal") for e in events) and not fourth.state.reveal_open


def test_a_players_second_senator_in_the_senate_shows_no_laurels():
    match = quovadis_position(3, {"S": [RED], "C1": [RED]}, laurels={RED: ["V"]}, reveal_laurels=True)
    events = act(match, RED, "advance", committee="C1", path="p15")
    assert not any(e["type"].startswith("reveal") for e in events)


def test_the_move_that_fills_the_senate_still_lets_the_mover_choose_whom_to_pay():
    # C2 has 5 seats: Red needs 2 more votes and three single backers offer them.
    match = quovadis_position(4, {"S": [BLUE, BLUE, YELLOW, GREEN], "C2": [RED, BLUE, YELLOW, GREEN]},
                              caesar="p07")
    act(match, RED, "advance", committee="C2", path="p16")
    for seat in (BLUE, YELLOW, GREEN):
        act(match, seat, "support")
    assert not match.is_over and match.state.phase == "reward"
    act(match, RED, "reward", to=GREEN)
    act(match, RED, "reward", to=YELLOW)
    assert match.is_over
    assert match.state.seats[GREEN].laurels == ["I"] and match.state.seats[YELLOW].laurels == ["I"]


def test_when_the_supply_runs_short_the_mover_chooses_who_gets_the_last_tokens():
    """A.6, A.12 [ASSUMPTION]: the mover chooses who gets the tokens left (short_supply=mover_chooses)."""
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]})
    match.state.supply = 1
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "support")
    act(match, YELLOW, "support")
    assert match.state.phase == "reward" and match.pending() == [RED]
    act(match, RED, "reward", to=YELLOW)
    assert match.state.seats[YELLOW].laurels == ["I"] and match.state.seats[BLUE].laurels == []
    assert match.state.active == BLUE


def test_open_answers_option_shows_each_answer_as_it_is_given():
    match = quovadis_position(4, {"E2": [RED, BLUE, YELLOW]}, open_answers=True)
    act(match, RED, "advance", committee="E2", path="p02")
    events = act(match, BLUE, "refuse")
    assert events == [{"type": "voted", "seat": BLUE, "yes": False}]
    assert match.view(GREEN)["vote"]["answers"] == {"1": False}
    secret = quovadis_position(4, {"E2": [RED, BLUE, YELLOW]})
    act(secret, RED, "advance", committee="E2", path="p02")
    act(secret, BLUE, "refuse")
    assert secret.view(GREEN)["vote"]["answers"] is None


# --- the legal-action list and the rule it is built from ---------------------------

@pytest.mark.parametrize("waives", [True, False])
def test_the_advances_offered_are_exactly_those_the_leaving_rule_allows(waives):
    from engine.games.quovadis.board import BOARD
    from engine.games.quovadis.rules import SENATE, advance_kind, turn_actions
    from engine.testing import reachable_matches

    checked = 0
    for seed in range(2):
        for match in reachable_matches("quovadis", 4, seed, every=7):
            state = match.state
            state.options["caesar_waives_quorum"] = waives  # the same positions, read both ways
            for seat in range(4):
                offered = {(a["committee"], a["path"]) for a in turn_actions(state, seat) if a["do"] == "advance"}
                allowed = {(c, p.id) for c in BOARD.committees if c != SENATE for p in BOARD.exits(c)
                           if advance_kind(state, seat, c, p.id)}
                assert offered == allowed
                checked += len(allowed)
    assert checked > 100, "the positions had advances to check"


def test_a_voted_move_that_fills_the_senate_pays_no_supporter_when_the_option_ends_the_game_at_once():
    """A.9: "The game ends **immediately** when the 5th Senate seat is filled": with finish_last_move off
    the backers of that move are not paid."""
    match = quovadis_position(4, {"S": [BLUE, BLUE, YELLOW, GREEN], "C2": [RED, BLUE, YELLOW, GREEN]},
                              caesar="p07", finish_last_move=False)
    act(match, RED, "advance", committee="C2", path="p16")
    for seat in (BLUE, YELLOW, GREEN):
        act(match, seat, "support")
    assert match.is_over and match.state.payout == {} and match.state.supply == 18
    assert all(match.state.seats[s].laurels == [] for s in (BLUE, YELLOW, GREEN))


def test_once_the_game_is_over_no_seat_is_asked_and_none_may_act():
    """A.9: the game ends immediately when the 5th Senate seat is filled."""
    match = _nearly_full()
    act(match, RED, "advance", committee="C1", path="p15")
    assert match.pending() == [] and match.game.pending(match.state) == []
    assert all(match.game.legal_actions(match.state, seat) == [] for seat in range(4))



def test_a_seat_redealing_the_world_keeps_its_own_answer_and_redraws_the_others_not_yet_shown():
    """A.12: the engine asks each owner yes or no on their own screen; unless answers are open, none is
    shown before all are in, so a seat knows its own answer and no other."""
    match = quovadis_position(4, {"E2": [RED, BLUE, YELLOW, GREEN]})
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "support")
    act(match, YELLOW, "refuse")
    for seat, own in ((BLUE, True), (YELLOW, False)):
        other = YELLOW if seat == BLUE else BLUE
        worlds = [match.game.redeal(match.state, seat, Rng.seeded(n)) for n in range(12)]
        assert {w.vote.answers[seat] for w in worlds} == {own}
        assert {w.vote.answers[other] for w in worlds} == {True, False}
        assert all(set(w.vote.answers) == {BLUE, YELLOW} for w in worlds)


def test_a_backer_with_two_senators_may_be_paid_twice_while_the_supply_lasts():
    """A.6: each paid supporter's owner takes one "I" token, only while the supply lasts; the mover
    chooses who is paid. Yellow's two senators both backed: Yellow may take both tokens."""
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW, YELLOW]})
    match.state.supply = 2
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "support")
    act(match, YELLOW, "support")
    act(match, RED, "reward", to=YELLOW)
    assert match.state.phase == "reward" and match.state.supply == 1
    assert [a["to"] for a in match.legal_actions(RED) if a["do"] == "reward"] == [BLUE, YELLOW]
    act(match, RED, "reward", to=YELLOW)
    assert match.state.seats[YELLOW].laurels == ["I", "I"] and match.state.supply == 0
    assert match.state.phase == "turn" and match.state.active == BLUE


def test_the_turns_are_counted_and_the_table_sees_who_is_owed_a_reward_and_a_caesar_bonus():
    """A.5: the players take turns clockwise; A.6: the mover picks which supporters are paid, in the
    open; A.7: a II-Caesar laurel gives an extra Caesar move."""
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW, YELLOW]})
    view = match.public_view()
    assert view["game"] == "quovadis" and (view["turn"], view["played"]) == (1, 0) and view["payout"] is None
    act(match, RED, "caesar", path="p07")
    act(match, BLUE, "caesar", path="p10")
    assert (match.state.turn, match.state.played, match.state.active) == (3, 2, YELLOW)
    assert match.state.turn_done is False
    act(match, YELLOW, "caesar", path="p07")
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "support")
    act(match, YELLOW, "support")
    assert match.public_view()["payout"] == {"left": 2, "backers": {"1": 1, "2": 2}}
    bonus = quovadis_position(3, {"E3": [RED, RED]})
    bonus.state.diamonds["p04"] = "IIC"
    assert bonus.public_view()["bonus"] is False
    act(bonus, RED, "advance", committee="E3", path="p04")
    assert bonus.public_view()["bonus"] is True


def test_a_move_that_fills_the_senate_ends_the_game_once_when_the_option_stops_it_at_once():
    """A.9: the game ends immediately when the 5th Senate seat is filled (finish_last_move off)."""
    match = quovadis_position(3, {"S": [BLUE, RED, BLUE, YELLOW], "C1": [RED]}, finish_last_move=False)
    events = act(match, RED, "advance", committee="C1", path="p15")
    assert [e["type"] for e in events] == ["advance", "end"] and match.result().reason == "senate"


def test_laurels_are_offered_for_payment_from_the_least_worth_up_to_every_other_player():
    """A.8: laurels from hand may be handed to any other player at any time."""
    match = quovadis_position(3, {}, laurels={RED: ["V", "IIC", "III", "II", "I", "V"]})
    offered = [(a["to"], a["token"]) for a in match.legal_actions(BLUE) + match.legal_actions(RED)
               if a["do"] == "pay"]
    order = ["I", "II", "IIC", "III", "V"]
    assert offered == [(BLUE, t) for t in order] + [(YELLOW, t) for t in order]


def test_a_payment_between_players_keeps_the_retry_of_a_failed_vote():
    """A.5/A.6: a failed vote does not end the turn; a laurel handed over meanwhile changes nothing of it."""
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, laurels={BLUE: ["V"]})
    act(match, RED, "advance", committee="E2", path="p02")
    act(match, BLUE, "refuse")
    act(match, YELLOW, "refuse")
    assert match.state.retry is True
    act(match, BLUE, "pay", to=RED, token="V")
    assert match.state.retry is True and match.view(RED)["retry"] is True


def test_a_seat_s_action_records_are_the_actions_the_board_offers_it():
    """Each seat's actions are made once, when the rules load: made afresh here, every one is the action
    the board offers (a new senator on each entry committee, each exit of each committee with its seats,
    Caesar onto any other diamond, the answers, a reward or a laurel to any seat)."""
    from engine.games.quovadis.board import BOARD
    from engine.games.quovadis.rules import _Records

    records = _Records(1)
    assert records.place == {c: {"seat": 1, "do": "place", "committee": c} for c in ("E1", "E2", "E3", "E4")}
    assert records.leaving["E2"] == (5, 3, (
        ("p02", "A1", 3, {"seat": 1, "do": "advance", "committee": "E2", "path": "p02"}),
        ("p03", "A2", 1, {"seat": 1, "do": "advance", "committee": "E2", "path": "p03"})))
    assert records.leaving["C2"] == (5, 3, (("p16", "S", 5, {"seat": 1, "do": "advance", "committee": "C2", "path": "p16"}),))
    assert "S" not in records.leaving and len(records.leaving) == 14
    diamonds = list(BOARD.diamonds)
    assert records.caesar[None] == tuple({"seat": 1, "do": "caesar", "path": p} for p in diamonds)
    for here in diamonds:
        assert records.caesar[here] == tuple({"seat": 1, "do": "caesar", "path": p} for p in diamonds if p != here)
    assert records.answers == ({"seat": 1, "do": "support"}, {"seat": 1, "do": "refuse"})
    assert records.keep == {"seat": 1, "do": "keep"} and records.demand_reveal == {"seat": 1, "do": "demand_reveal"}
    assert records.reward == {to: {"seat": 1, "do": "reward", "to": to} for to in range(5)}
    assert records.pay[(4, "IIC")] == {"seat": 1, "do": "pay", "to": 4, "token": "IIC"}
    assert len(records.pay) == 5 * 6 and records.payments == {}
    # The steps a payment and a placement tell, made once with their public forms.
    whole, told = records.handed[(4, "IIC")]
    assert whole == {"what": "laurel", "owner": -1, "src": ["laurels", 1], "dst": ["laurels", 4],
                     "face": ["down", "down"], "value": ["IIC", "IIC"], "count": 1, "hidden": True}
    assert told == {**whole, "value": [None, None]}
    assert records.handed == {(to, t): (step("laurel", -1, ["laurels", 1], ["laurels", to], ("down", "down"), (t, t),
                                             hidden=True),
                                        public(step("laurel", -1, ["laurels", 1], ["laurels", to], ("down", "down"),
                                                    (t, t), hidden=True)))
                              for to in range(5) for t in ("I", "II", "IIC", "III", "IV", "V")}
    whole, told = records.placed["E3"]
    assert whole == {"what": "senator", "owner": 1, "src": ["reserve", 1], "dst": ["committee", "E3"],
                     "face": ["", ""], "value": [None, None], "count": 1, "hidden": False} and told is whole
    assert records.placed == {c: (step("senator", 1, ["reserve", 1], ["committee", c]),) * 2
                              for c in ("E1", "E2", "E3", "E4")}
