"""Tennō rules, one test per rule (rules/tenno.md; seed 003 wins where they differ)."""

from __future__ import annotations

import itertools

import pytest

from engine.errors import BadOptions, IllegalAction
from engine.match import Match
from engine.testing import act, bare, tenno_position

NINJA, MONK, RONIN, SHOGUN, GEISHA = 4, 5, 6, 10, 0


def attack(match, seat, slot, target, target_slot):
    return act(match, seat, "attack", slot=slot, target=target, target_slot=target_slot)


def last_fight(match):
    return (match.state.fights or match.state.last_fights)[-1]


# --- B.3 setup ---------------------------------------------------------------

def test_every_seat_arranges_its_three_peasants_at_once_in_any_of_six_orders():
    match = Match.new("tenno", 3, seed=1)
    assert match.pending() == [0, 1, 2]
    orders = [a["order"] for a in match.legal_actions(1)]
    assert sorted(orders) == sorted(list(p) for p in itertools.permutations([1, 2, 3]))
    act(match, 1, "arrange", order=[3, 1, 2])
    assert match.state.seats[1].row == [3, 1, 2]
    assert match.pending() == [0, 2]
    assert match.state.phase == "setup"


def test_each_player_holds_eleven_cards_with_eight_in_hand():
    match = Match.new("tenno", 2, seed=1)
    for seat in (0, 1):
        assert len(match.state.seats[seat].hand) == 8
        assert 1 not in match.state.seats[seat].hand


def test_start_seat_is_drawn_from_the_seed_or_set_by_option():
    assert Match.new("tenno", 5, seed=3).state.start == Match.new("tenno", 5, seed=3).state.start
    starts = {Match.new("tenno", 5, seed=s).state.start for s in range(30)}
    assert len(starts) > 1
    assert Match.new("tenno", 5, seed=3, options={"start_seat": 4}).state.active == 4


@pytest.mark.parametrize("direction, order", [("clockwise", [0, 1, 2, 3, 0]), ("anticlockwise", [0, 3, 2, 1, 0])])
def test_the_turn_passes_clockwise_or_by_option_anticlockwise(direction, order):
    """B.3 [ASSUMPTION] "Turn order is clockwise": the seed says only 輪到你的時候 (when it is your turn),
    no direction; turn_direction=anticlockwise passes the turn to the seat before instead."""
    match = tenno_position(4, {}, turn_direction=direction, attack_mandatory=False)
    seen = [match.state.active]
    for _ in range(4):
        act(match, match.state.active, "pass")
        seen.append(match.state.active)
    assert seen == order


def test_player_counts_outside_two_to_seven_are_refused():
    for players in (1, 8):
        with pytest.raises(BadOptions, match="2 to 7"):
            Match.new("tenno", players)


def test_unknown_option_is_refused_with_the_list_of_options():
    with pytest.raises(BadOptions, match="no option 'ninja_power'.*attack_mandatory"):
        Match.new("tenno", 3, options={"ninja_power": 9})


# --- B.4 attacking -------------------------------------------------------------

def test_attack_picks_own_slot_target_seat_and_target_slot():
    match = tenno_position(3, {0: [7, 8, 9]})
    actions = match.legal_actions(0)
    assert {(a["slot"], a["target"], a["target_slot"]) for a in actions} == {
        (s, t, ts) for s in range(3) for t in (1, 2) for ts in range(3)}


def test_shogun_never_attacks():
    match = tenno_position(2, {0: [SHOGUN, 7, 8]})
    assert all(a["slot"] != 0 for a in match.legal_actions(0))


def test_attack_is_mandatory_by_default_and_pass_is_an_option():
    match = tenno_position(2, {})
    assert all(a["do"] == "attack" for a in match.legal_actions(0))
    relaxed = tenno_position(2, {}, attack_mandatory=False)
    assert {"seat": 0, "do": "pass"} in relaxed.legal_actions(0)
    act(relaxed, 0, "pass")
    assert relaxed.state.active == 1 and relaxed.state.phase == "attack"


def test_attacker_wins_captures_the_target_and_returns_face_down():
    match = tenno_position(2, {0: [9, 2, 3], 1: [7, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert match.state.seats[0].row[0] == 9
    assert [(t.owner, t.card) for t in match.state.seats[0].captives] == [(1, 7)]
    assert match.state.seats[1].row[0] is None


def test_defender_wins_discards_the_attacking_card():
    match = tenno_position(2, {0: [7, 2, 3], 1: [9, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert (0, 7) in [(t.owner, t.card) for t in match.state.discard]
    assert match.state.seats[0].captives == [] and match.state.seats[1].captives == []
    assert match.state.seats[1].row[0] == 9


def test_tie_discards_both_cards_and_gives_no_reward():
    match = tenno_position(2, {0: [7, 2, 3], 1: [7, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    discarded = {(t.owner, t.card) for t in match.state.discard}
    assert {(0, 7), (1, 7)} <= discarded
    assert match.state.phase == "refill" and match.pending() == [0, 1]
    act(match, 0, "refill", slot=0, card=8)
    act(match, 1, "refill", slot=0, card=8)
    assert match.state.phase == "attack" and match.state.active == 1


# --- B.5 card abilities -----------------------------------------------------------

def test_ninja_attacks_at_eight():
    match = tenno_position(2, {0: [NINJA, 2, 3], 1: [7, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    fight = last_fight(match)
    assert (fight.attack_strength, fight.defend_strength, fight.outcome) == (8, 7, "attacker")


def test_ninja_defends_at_four():
    match = tenno_position(2, {0: [MONK, 2, 3], 1: [NINJA, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    fight = last_fight(match)
    assert (fight.attack_strength, fight.defend_strength, fight.outcome) == (5, 4, "attacker")
    assert [t.card for t in match.state.seats[0].captives] == [NINJA]


def test_monk_gives_an_attacked_companion_two_and_stays_for_later_fights():
    match = tenno_position(2, {0: [8, 9, 3], 1: [7, MONK, 3]})
    attack(match, 0, 0, 1, 0)
    assert {"seat": 1, "do": "defend", "monk": True} in match.legal_actions(1)
    events = act(match, 1, "defend", monk=True)
    fight = last_fight(match)
    assert (fight.attack_strength, fight.defend_strength, fight.outcome) == (8, 9, "defender")
    assert {"type": "monk", "seat": 1, "slot": 1} in bare(events)
    assert match.state.seats[1].row[1] == MONK  # face down again in its slot
    assert match.public_view()["players"][1]["row"][1] == MONK  # everyone saw it
    # reusable: seat 1's next turn passes, and seat 0 attacks a companion again
    act(match, 0, "refill", slot=0, card=NINJA)
    act(match, 1, "skip")
    attack(match, 1, 2, 0, 2)  # Peasant 3 against Peasant 3: tie
    act(match, 0, "defend", monk=False)
    act(match, 0, "refill", slot=2, card=7)
    act(match, 1, "refill", slot=2, card=8)
    attack(match, 0, 1, 1, 2)
    assert {"seat": 1, "do": "defend", "monk": True} in match.legal_actions(1)


def test_monk_cannot_boost_itself_unless_the_option_allows():
    match = tenno_position(2, {0: [8, 2, 3], 1: [MONK, 2, 3]})
    attack(match, 0, 0, 1, 0)
    assert match.legal_actions(1) == [{"seat": 1, "do": "defend", "monk": False}]
    relaxed = tenno_position(2, {0: [8, 2, 3], 1: [MONK, 2, 3]}, monk_on_itself=True)
    attack(relaxed, 0, 0, 1, 0)
    assert {"seat": 1, "do": "defend", "monk": True} in relaxed.legal_actions(1)


def test_monk_has_no_effect_for_the_attacker():
    match = tenno_position(2, {0: [7, MONK, 3], 1: [8, 2, 3]})
    attack(match, 0, 0, 1, 0)
    assert match.legal_actions(1) == [{"seat": 1, "do": "defend", "monk": False}]
    act(match, 1, "defend", monk=False)
    assert last_fight(match).attack_strength == 7


def test_defender_without_a_monk_still_answers_so_waiting_reveals_nothing():
    match = tenno_position(3, {0: [8, 2, 3], 1: [7, 2, 3]})
    attack(match, 0, 0, 1, 0)
    assert match.state.phase == "defend" and match.pending() == [1]
    assert match.legal_actions(1) == [{"seat": 1, "do": "defend", "monk": False}]


def test_ronin_may_attack_a_second_time_with_another_row_card_win_or_lose():
    for defender_card, outcome in ((3, "attacker"), (9, "defender"), (RONIN, "tie")):
        match = tenno_position(3, {0: [RONIN, 7, SHOGUN], 1: [defender_card, 2, 3]})
        attack(match, 0, 0, 1, 0)
        act(match, 1, "defend", monk=False)
        assert last_fight(match).outcome == outcome
        assert match.state.phase == "ronin" and match.pending() == [0]
        seconds = [a for a in match.legal_actions(0) if a["do"] == "attack"]
        assert {a["slot"] for a in seconds} == {1}  # not the Ronin, never the Shogun
        assert {a["target"] for a in seconds} == {1, 2}  # any card of any player
        assert {"seat": 0, "do": "decline"} in match.legal_actions(0)


def test_ronin_second_attack_cannot_target_a_gap_and_refill_waits_for_both_fights():
    match = tenno_position(2, {0: [RONIN, 7, 8], 1: [3, 2, 9]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)  # Ronin 6 beats 3: seat 1 slot 0 is a gap
    assert match.state.seats[1].row[0] is None
    seconds = [a for a in match.legal_actions(0) if a["do"] == "attack"]
    assert all(a["target_slot"] != 0 for a in seconds)
    attack(match, 0, 1, 1, 1)
    assert match.state.seats[1].row[0] is None  # still a gap during the second fight
    act(match, 1, "defend", monk=False)
    assert match.state.phase == "refill"
    assert match.state.seats[1].row == [None, None, 9]


def test_ronin_declining_the_second_attack_goes_on_to_refill():
    match = tenno_position(2, {0: [RONIN, 7, 8], 1: [3, 2, 9]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    act(match, 0, "decline")
    assert match.state.phase == "refill" and match.pending() == [1]


def test_ronin_swap_needs_no_card_lost_in_either_fight():
    # Fight 1 won, fight 2 lost: strict reading gives no swap; per_fight gives one.
    for rule, swaps in (("strict", 0), ("per_fight", 1)):
        match = tenno_position(2, {0: [RONIN, 7, 8], 1: [3, 9, 2]}, ronin_swap=rule)
        attack(match, 0, 0, 1, 0)
        act(match, 1, "defend", monk=False)
        attack(match, 0, 1, 1, 1)  # Samurai 7 against Daimyo 9: lost
        act(match, 1, "defend", monk=False)
        kinds = [(r.kind, r.seat) for r in match.state.rewards]
        assert kinds.count(("swap", 0)) == swaps
        assert ("peek", 1) in kinds


def test_ronin_rewards_come_after_the_refill_in_fight_order_by_default():
    match = tenno_position(2, {0: [RONIN, 7, 8], 1: [3, 9, 2]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    attack(match, 0, 1, 1, 1)
    act(match, 1, "defend", monk=False)
    assert match.state.phase == "refill"
    assert [r.fight for r in match.state.rewards] == [1]  # strict: only the peek of fight 2
    other = tenno_position(2, {0: [RONIN, 9, 8], 1: [3, 7, 2]}, ronin_reward_order="second_fight_first")
    attack(other, 0, 0, 1, 0)
    act(other, 1, "defend", monk=False)
    attack(other, 0, 1, 1, 1)
    act(other, 1, "defend", monk=False)
    assert [r.fight for r in other.state.rewards] == [1, 0]


def test_shogun_captures_the_attacker_when_it_wins_on_defence():
    match = tenno_position(2, {0: [9, 2, 3], 1: [SHOGUN, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert [(t.owner, t.card) for t in match.state.seats[1].captives] == [(0, 9)]
    assert last_fight(match).captor == 1


def test_geisha_is_always_one_above_her_opponent_after_ninja_and_monk():
    match = tenno_position(2, {0: [GEISHA, 2, 3], 1: [8, MONK, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=True)
    fight = last_fight(match)
    assert (fight.attack_strength, fight.defend_strength, fight.outcome) == (11, 10, "attacker")
    defending = tenno_position(2, {0: [NINJA, 2, 3], 1: [GEISHA, 2, 3]})
    attack(defending, 0, 0, 1, 0)
    act(defending, 1, "defend", monk=False)
    fight = last_fight(defending)
    assert (fight.attack_strength, fight.defend_strength, fight.outcome) == (8, 9, "defender")


def test_attacking_geisha_captures_the_target_but_leaves_play_so_no_swap():
    match = tenno_position(2, {0: [GEISHA, 2, 3], 1: [SHOGUN, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert [t.card for t in match.state.seats[0].captives] == [SHOGUN]
    assert (0, GEISHA) in [(t.owner, t.card) for t in match.state.discard]
    assert match.state.seats[0].row[0] is None
    assert not any(r.kind == "swap" for r in match.state.rewards)


def test_defending_geisha_wins_leaves_play_and_earns_the_peek():
    match = tenno_position(2, {0: [9, 2, 3], 1: [GEISHA, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    discarded = {(t.owner, t.card) for t in match.state.discard}
    assert {(0, 9), (1, GEISHA)} <= discarded
    assert [(r.kind, r.seat, r.target) for r in match.state.rewards] == [("peek", 1, 0)]


@pytest.mark.parametrize("rule, outcome, rewards", [("tie", "tie", []), ("defender", "defender", [("peek", 1, 0)])])
def test_geisha_against_geisha_both_leave_and_the_option_says_who_is_rewarded(rule, outcome, rewards):
    """B.5 [ASSUMPTION] "Geisha vs Geisha": the seed says only 若是藝妓對上藝妓的情況時，雙方都會被移出遊戲
    (both leave the game). geisha_pair=tie: nobody wins, nobody is rewarded; geisha_pair=defender: the
    defender's Geisha, turned up last, is one above, so the defender wins and peeks, as any winning
    defending Geisha does (the attacker lost a card either way, so never swaps)."""
    match = tenno_position(2, {0: [GEISHA, 2, 3], 1: [GEISHA, 2, 3]}, geisha_pair=rule)
    attack(match, 0, 0, 1, 0)
    events = act(match, 1, "defend", monk=False)
    assert last_fight(match).outcome == outcome
    assert {(0, GEISHA), (1, GEISHA)} <= {(t.owner, t.card) for t in match.state.discard}
    assert match.state.seats[0].captives == match.state.seats[1].captives == []
    assert [(r.kind, r.seat, r.target) for r in match.state.rewards] == rewards
    words = match.game.describe_event(next(e for e in events if e["type"] == "fight"), match.names)
    assert words.startswith(f"{match.names[0]}'s Geisha vs {match.names[1]}'s Geisha: both leave the game")
    assert words.endswith(f"{match.names[1]} wins") is (rule == "defender")


def test_geisha_is_never_captured():
    match = tenno_position(2, {0: [GEISHA, 2, 3], 1: [GEISHA, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert all(t.card != GEISHA for p in match.state.seats for t in p.captives)


# --- B.4 refill ----------------------------------------------------------------

def test_refill_fills_the_gap_from_hand_without_reordering_the_row():
    match = tenno_position(2, {0: [9, 2, 3], 1: [1, 7, 3]})
    attack(match, 0, 0, 1, 1)
    act(match, 1, "defend", monk=False)
    assert match.state.seats[1].row == [1, None, 3]
    refills = match.legal_actions(1)
    assert {a["slot"] for a in refills} == {1}
    assert {a["card"] for a in refills} == set(match.state.seats[1].hand)
    act(match, 1, "refill", slot=1, card=SHOGUN)
    assert match.state.seats[1].row == [1, SHOGUN, 3]
    assert SHOGUN not in match.state.seats[1].hand


# --- B.6 rewards ---------------------------------------------------------------

def test_attacker_who_won_and_lost_nothing_may_swap_a_row_card_with_a_hand_card():
    match = tenno_position(2, {0: [9, 2, 3], 1: [7, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    act(match, 1, "refill", slot=0, card=8)
    assert match.state.phase == "reward" and match.pending() == [0]
    act(match, 0, "swap", slot=0, card=NINJA)
    assert match.state.seats[0].row == [NINJA, 2, 3]
    assert 9 in match.state.seats[0].hand and NINJA not in match.state.seats[0].hand
    assert match.state.phase == "attack" and match.state.active == 1


def _after_swap(card):
    match = tenno_position(3, {0: [9, 2, 3], 1: [7, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    act(match, 1, "refill", slot=0, card=8)
    events = act(match, 0, "swap", slot=0, card=card)
    return match, events


def test_fake_swap_looks_identical_to_a_real_one_for_everyone_else():
    real, real_events = _after_swap(NINJA)
    fake, fake_events = _after_swap(9)
    assert real.state.seats[0].row[0] == NINJA and fake.state.seats[0].row[0] == 9
    assert real_events == fake_events
    for seat in (1, 2):
        assert real.view(seat) == fake.view(seat)
    assert real.public_view() == fake.public_view()
    assert real.prompt() == fake.prompt()


def test_swap_with_an_empty_hand_exchanges_two_row_cards_or_pretends_to():
    match = tenno_position(2, {0: [9, 2, 3], 1: [7, 8, 1]}, hands={0: [], 1: [4, 5]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    act(match, 1, "refill", slot=0, card=4)
    actions = match.legal_actions(0)
    assert {a["do"] for a in actions} == {"reorder", "skip"}
    act(match, 0, "reorder", first=0, second=2, fake=False)
    assert match.state.seats[0].row == [3, 2, 9]


def test_winning_defender_peeks_secretly_at_one_attacker_card_after_the_refill():
    match = tenno_position(3, {0: [7, 8, 2], 1: [9, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert match.state.phase == "refill"
    act(match, 0, "refill", slot=0, card=SHOGUN)
    assert match.state.phase == "reward" and match.pending() == [1]
    events = act(match, 1, "peek", slot=0)
    assert events == [{"type": "peek", "seat": 1, "target": 0, "slot": 0}]  # no card in public
    peeks = match.view(1)["me"]["peeks"]
    assert peeks == [{"target": 0, "slot": 0, "card": SHOGUN, "turn": 1, "stale": False}]
    assert "peeks" not in str(match.view(2)["me"]["peeks"]) and match.view(2)["me"]["peeks"] == []
    assert match.public_view()["players"][0]["seen_by"] == [[1, 0]]


def test_a_swap_makes_a_peek_at_that_slot_uncertain():
    match = tenno_position(2, {0: [7, 8, 2], 1: [9, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    act(match, 0, "refill", slot=0, card=SHOGUN)
    act(match, 1, "peek", slot=1)
    # seat 1 now attacks and wins with its Daimyo: seat 1 swaps slot 0 of its own row
    attack(match, 1, 0, 0, 2)
    act(match, 0, "defend", monk=False)
    act(match, 0, "refill", slot=2, card=3)
    # seat 0 attacks seat 1 and wins: its swap touches slot 1, which seat 1 had seen
    act(match, 1, "skip")
    attack(match, 0, 1, 1, 1)
    act(match, 1, "defend", monk=False)
    act(match, 1, "refill", slot=1, card=7)
    act(match, 0, "swap", slot=1, card=8)
    assert match.view(1)["me"]["peeks"][0]["stale"] is True


def test_prisoner_piles_are_hidden_from_everyone_including_their_owner():
    match = tenno_position(2, {0: [9, 2, 3], 1: [7, 2, 3]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    me = match.view(0)["me"]
    assert me["captives"] == 1
    assert match.public_view()["players"][0]["captives"] == 1
    assert "7" not in str(me["captives"])


# --- B.7 end and scoring ----------------------------------------------------------

def test_game_ends_when_a_gap_cannot_be_refilled():
    match = tenno_position(2, {0: [9, 2, 3], 1: [7, 2, 3]}, hands={1: []})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert match.is_over and match.state.phase == "over"
    result = match.result()
    assert result.reason == "refill" and match.state.ender == 1
    assert result.scores == {0: 7, 1: 0} and result.winners == (0,)
    with pytest.raises(IllegalAction, match="over"):
        attack(match, 1, 1, 0, 0)


def test_an_empty_hand_with_a_full_row_does_not_end_the_game():
    match = tenno_position(2, {0: [9, 2, 3], 1: [7, 2, 3]}, hands={0: []})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert not match.is_over


def test_scores_are_the_printed_values_of_the_prisoners_with_ninja_four():
    match = tenno_position(2, {0: [9, 2, 3], 1: [NINJA, 2, 3]}, hands={1: []})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)
    assert match.result().scores[0] == 4


def test_tie_break_adds_hand_and_row_with_geisha_zero_and_then_shares_the_win():
    match = tenno_position(2, {0: [9, 2, 3], 1: [9, 2, 3]}, hands={0: [GEISHA, 8], 1: [GEISHA]})
    attack(match, 0, 0, 1, 0)
    act(match, 1, "defend", monk=False)  # 9 vs 9: both discarded, seat 1 can refill with its Geisha
    act(match, 0, "refill", slot=0, card=8)
    act(match, 1, "refill", slot=0, card=GEISHA)
    # seat 1: Geisha against seat 0's Samurai 8: seat 1 wins; the Geisha leaves and cannot be refilled
    attack(match, 1, 0, 0, 0)
    act(match, 0, "defend", monk=False)
    result = match.result()
    assert result.scores == {0: 0, 1: 8}
    assert result.winners == (1,)
    tied = tenno_position(2, {0: [1, 2, 3], 1: [1, 2, 3]}, hands={0: [GEISHA], 1: []})
    attack(tied, 0, 0, 1, 0)  # 1 vs 1: tie, seat 1 cannot refill
    act(tied, 1, "defend", monk=False)
    result = tied.result()
    assert result.scores == {0: 0, 1: 0}
    assert result.breakdown[0]["tiebreak"] == 5 and result.breakdown[1]["tiebreak"] == 5  # Geisha counts 0
    assert result.winners == (0, 1)
    valued = tenno_position(2, {0: [1, 2, 3], 1: [1, 2, 3]}, hands={0: [GEISHA], 1: []}, geisha_tiebreak=11)
    attack(valued, 0, 0, 1, 0)
    act(valued, 1, "defend", monk=False)
    assert valued.result().winners == (0,)
    ordered = tenno_position(2, {0: [1, 2, 3], 1: [1, 2, 3]}, hands={0: [GEISHA], 1: []}, final_tie="turn_order")
    attack(ordered, 0, 0, 1, 0)
    act(ordered, 1, "defend", monk=False)
    assert ordered.result().winners == (0,)


def test_final_tie_by_turn_order_counts_from_the_start_seat_not_from_seat_one():
    """B.7 [ASSUMPTION] "If still tied": with final_tie=turn_order the tied seat earliest in turn order from
    the start seat wins; anticlockwise (B.3, turn_direction) that order runs the other way."""
    rows = {0: [1, 2, 3], 1: [1, GEISHA, 2], 2: [GEISHA, 2, 3]}
    hands = {0: [], 1: [], 2: []}
    # From start seat 1 the order is 1, 2, 0 clockwise (seat 2 before seat 0) and 1, 0, 2 anticlockwise.
    for final_tie, direction, winners in (("turn_order", "clockwise", (2,)), ("shared", "clockwise", (0, 2)),
                                          ("turn_order", "anticlockwise", (0,))):
        match = tenno_position(3, rows, active=1, hands=hands, final_tie=final_tie, turn_direction=direction)
        attack(match, 1, 0, 0, 0)  # 1 against 1: both discarded, and neither seat can refill
        act(match, 0, "defend", monk=False)
        result = match.result()
        assert result.scores == {0: 0, 1: 0, 2: 0}
        assert [result.breakdown[s]["tiebreak"] for s in range(3)] == [5, 2, 5]
        assert result.winners == winners


def test_two_players_use_the_same_rules_with_the_single_opponent_as_target():
    match = tenno_position(2, {})
    assert {a["target"] for a in match.legal_actions(0)} == {1}


# --- refusals -----------------------------------------------------------------

def test_illegal_actions_are_refused_with_a_clear_message_and_change_nothing():
    match = tenno_position(3, {0: [SHOGUN, 7, 8]})
    before = match.to_data()
    cases = [
        ({"seat": 1, "do": "attack", "slot": 0, "target": 0, "target_slot": 0}, "Blue has nothing to decide"),
        ({"seat": 0, "do": "attack", "slot": 0, "target": 1, "target_slot": 0}, "not a legal 'attack'"),
        ({"seat": 0, "do": "swap", "slot": 0, "card": 4}, "cannot 'swap' now"),
        ({"seat": 9, "do": "attack"}, "no seat 9"),
        ({"seat": "0", "do": "attack"}, "integer 'seat'"),
        ({"seat": 0, "do": "attack", "slot": {"x": 1}}, "not a plain value"),
        ("attack!", "an action is an object"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            match.apply(action)
    assert match.to_data() == before


def test_the_quick_check_for_an_attack_agrees_with_the_list_of_attacks():
    """The flow asks "is a (second) attack possible?" without building the list: both must agree."""
    from engine.games.tenno.rules import attacks, can_attack
    from engine.testing import reachable_matches

    seen = set()
    for seed in range(3):
        for match in reachable_matches("tenno", 4, seed, every=2):
            for seat in range(4):
                for exclude in (-1, 0, 1, 2):
                    possible = can_attack(match.state, seat, exclude)
                    assert possible == bool(attacks(match.state, seat, exclude))
                    seen.add(possible)
    assert seen == {True, False}, "positions with and without an attack were both checked"


def test_a_seat_s_action_records_are_the_actions_the_rules_offer_it():
    """Each seat's actions are made once and handed out by every list that offers them: made afresh here,
    each is the action itself (pass, decline, skip, a defence with or without the Monk, a refill or swap
    of any of the eleven cards into any of the row's three slots, a peek, every reordering of two slots,
    the true or the fake one)."""
    from engine.games.tenno.rules import _Records

    records = _Records(2)
    assert records.passing == {"seat": 2, "do": "pass"} and records.decline == {"seat": 2, "do": "decline"}
    assert records.skip == {"seat": 2, "do": "skip"}
    assert records.defend == ({"seat": 2, "do": "defend", "monk": False}, {"seat": 2, "do": "defend", "monk": True})
    assert records.refill == {(slot, card): {"seat": 2, "do": "refill", "slot": slot, "card": card}
                              for slot in (0, 1, 2) for card in range(11)}
    assert records.swap == {(slot, card): {"seat": 2, "do": "swap", "slot": slot, "card": card}
                            for slot in (0, 1, 2) for card in range(11)}
    assert records.peek == {slot: {"seat": 2, "do": "peek", "slot": slot} for slot in (0, 1, 2)}
    assert records.reorder == tuple({"seat": 2, "do": "reorder", "first": a, "second": b, "fake": fake}
                                    for a, b in ((0, 1), (0, 2), (1, 2)) for fake in (False, True))
