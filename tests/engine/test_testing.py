"""The helpers game tests are written with: random legal play, reachable matches, hand-laid positions."""

from __future__ import annotations

import random

import pytest

from engine.match import Match
from engine.testing import (act, actions, broken_invariant, play_random, quovadis_position, random_action,
                            reachable_matches, tenno_position)


def test_random_action_is_a_pending_seats_legal_action_or_now_and_then_a_free_one():
    match = quovadis_position(3, {}, laurels={1: ["V"]}, active=0)
    rng = random.Random(1)
    pending_only = {random_action(match, rng, free=0.0)["seat"] for _ in range(30)}
    assert pending_only == {0}
    anyone = [random_action(match, rng, free=1.0) for _ in range(30)]
    assert {a["seat"] for a in anyone} == {1} and all(a["do"] == "pay" for a in anyone)  # Blue may pay
    for action in anyone:
        assert action in match.legal_actions(1)


def test_act_applies_a_seats_action_spelled_as_keywords_and_returns_its_events():
    match = quovadis_position(3, {}, laurels={1: ["V"]}, active=0)
    events = act(match, 1, "pay", to=0, token="V")
    assert match.actions == [{"seat": 1, "do": "pay", "to": 0, "token": "V"}]
    assert [(e["type"], e["seat"], e["to"]) for e in events] == [("pay", 1, 0)]


def test_broken_invariant_tells_the_message_of_the_invariant_a_change_breaks_and_fails_if_none_is():
    match = tenno_position(3, {0: [9, 4, 7]})
    assert broken_invariant(match, lambda s: s.seats[1].hand.append(9)) == "seat 1's eleven cards are not all accounted for"
    with pytest.raises(AssertionError, match="the change broke no invariant of tenno"):
        broken_invariant(tenno_position(3, {0: [9, 4, 7]}), lambda s: None)


def test_play_random_stops_at_the_limit_or_the_end_and_calls_back_after_each_action():
    seen = []
    match = play_random(Match.new("tenno", 2, seed=2), random.Random(2), limit=5, each=lambda m: seen.append(len(m.actions)))
    assert len(match.actions) == 5 and seen == [1, 2, 3, 4, 5]
    done = play_random(Match.new("tenno", 2, seed=2), random.Random(2))
    assert done.is_over and len(done.actions) < done.game.max_actions


def test_reachable_matches_yield_the_start_every_nth_action_and_the_end():
    counts = [len(m.actions) for m in reachable_matches("tenno", 2, seed=3, every=4)]
    final = play_random(Match.new("tenno", 2, seed=3), random.Random(3))
    assert counts[0] == 0 and counts[1:-1] == list(range(4, len(final.actions), 4))
    assert counts[-1] == len(final.actions)
    every = [len(m.actions) for m in reachable_matches("tenno", 2, seed=3)]
    assert every == list(range(len(final.actions) + 1))
    last = list(reachable_matches("tenno", 2, seed=3))[-1]
    assert last.is_over and last.state == final.state and last.header.seed == 3 and last.header.players == 2


def test_a_tenno_position_keeps_every_card_accounted_for():
    match = tenno_position(3, {0: [9, 4, 7]}, active=2, hands={1: [5, 6]}, final_tie="turn_order")
    state = match.state
    assert state.seats[0].row == [9, 4, 7] and state.seats[2].row == [1, 2, 3] and state.seats[1].hand == [5, 6]
    assert state.active == 2 and match.header.seed == 0 and match.header.options["final_tie"] == "turn_order"
    assert sorted((t.owner, t.card) for t in state.discard) == [(1, c) for c in (0, 4, 7, 8, 9, 10)]
    assert match.actions == []
    match.game.check_invariants(state)


def test_a_quovadis_position_takes_laurels_from_the_bag_the_diamonds_or_the_supply():
    plain = Match.new("quovadis", 3, seed=0, options={"start_seat": 1})
    kind = next(t for t in plain.state.diamonds.values() if t)
    every = plain.state.bag.count(kind) + list(plain.state.diamonds.values()).count(kind)
    laurels = {0: ["I", "I"], 1: [kind] * every, 2: ["V"] if kind != "V" else ["II"]}
    match = quovadis_position(3, {"E1": [0], "C2": [2, 2]}, active=1, laurels=laurels, caesar="p07")
    state = match.state
    assert state.committees["E1"] == [0] and state.committees["C2"] == [2, 2]
    assert [p.reserve for p in state.seats] == [7, 8, 6]
    assert state.seats[0].laurels == ["I", "I"] and state.supply == plain.state.supply - 2
    assert kind not in state.bag and kind not in state.diamonds.values() and all(state.diamonds.values())
    assert len(state.bag) == len(plain.state.bag) - every - 1
    assert state.caesar == "p07" and state.active == 1 and match.header.seed == 0
    match.game.check_invariants(state)


def test_actions_are_a_seats_legal_actions_or_those_of_one_kind_only():
    match = quovadis_position(3, {}, laurels={1: ["V"]}, active=0)
    every = match.legal_actions(0)
    assert actions(match, 0) == every and {a["do"] for a in every} == {"caesar", "place"}
    assert actions(match, 0, "place") == [a for a in every if a["do"] == "place"] != []
    assert actions(match, 0, "pay") == [] and actions(match, 2) == []
