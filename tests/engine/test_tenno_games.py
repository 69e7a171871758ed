"""Whole seeded Tennō games for every player count: conservation, scores, replay, JSON."""

from __future__ import annotations

import json
import random

import pytest

from engine.codec import to_data
from engine.games.tenno.cards import CARDS
from engine.match import Match
from engine.testing import play_random, reachable_matches

SEEDS = range(6)


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_conserve_cards_end_and_score_the_prisoners(players):
    for seed in SEEDS:
        match = Match.new("tenno", players, seed=seed)
        play_random(match, random.Random(seed), each=lambda m: m.game.check_invariants(m.state))
        assert match.is_over, "a game ends before max_actions"
        state = match.state
        total = sum(len(p.row) - p.row.count(None) + len(p.hand) + len(p.captives) for p in state.seats)
        assert total + len(state.discard) == 11 * players
        result = match.result()
        for seat, player in enumerate(state.seats):
            assert result.scores[seat] == sum(CARDS.cards[t.card].score for t in player.captives)
        assert set(result.winners) <= set(range(players)) and result.winners


@pytest.mark.parametrize("players", range(2, 8))
def test_replaying_the_actions_gives_the_identical_state(players):
    match = play_random(Match.new("tenno", players, seed=players), random.Random(players))
    again = Match.replay(match.header, json.loads(json.dumps(match.actions)))
    assert to_data(again.state) == to_data(match.state)
    assert again.result() == match.result()


def test_every_reachable_state_round_trips_through_json():
    for match in reachable_matches("tenno", 4, seed=11):
        text = json.dumps(match.to_data())
        back = Match.from_data(json.loads(text))
        assert back.state == match.state
        assert back.view(0) == match.view(0)


def test_every_pending_seat_has_a_legal_action_and_others_have_none():
    for match in reachable_matches("tenno", 5, seed=3):
        pending = match.pending()
        assert pending or match.is_over
        for seat in range(5):
            assert bool(match.legal_actions(seat)) == (seat in pending)


def test_the_same_seed_and_actions_give_the_same_game():
    a = play_random(Match.new("tenno", 3, seed=5), random.Random(1))
    b = play_random(Match.new("tenno", 3, seed=5), random.Random(1))
    assert a.actions == b.actions and to_data(a.state) == to_data(b.state)


def test_the_flow_declares_every_phase_reachable():
    flow = Match.new("tenno", 2).game.flow
    reached = {"setup"} | {dest for _, dest, _ in flow.graph_edges()}
    assert reached == set(flow.phases)
