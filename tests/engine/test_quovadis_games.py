"""Whole seeded Quo Vadis games for 3, 4 and 5 players: conservation, end, replay, JSON."""

from __future__ import annotations

import json
import random

import pytest

from engine.codec import to_data
from engine.games.quovadis.rules import SENATE
from engine.match import Match
from engine.testing import play_random, reachable_matches


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_conserve_62_laurels_and_8_senators_each_and_end_with_a_full_senate(players):
    for seed in range(3):
        match = Match.new("quovadis", players, seed=seed)
        play_random(match, random.Random(seed), each=lambda m: m.game.check_invariants(m.state))
        assert match.is_over
        senate = match.state.committees[SENATE]
        assert len(senate) == 5
        result = match.result()
        assert result.winners[0] in senate
        for seat in range(players):
            eligible = seat in senate
            assert result.breakdown[seat]["eligible"] == int(eligible)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_replaying_the_actions_gives_the_identical_state(players):
    match = play_random(Match.new("quovadis", players, seed=players), random.Random(players))
    again = Match.replay(match.header, json.loads(json.dumps(match.actions)))
    assert to_data(again.state) == to_data(match.state) and again.result() == match.result()


def test_every_reachable_state_round_trips_through_json():
    for match in reachable_matches("quovadis", 4, seed=2, every=7):
        back = Match.from_data(json.loads(json.dumps(match.to_data())))
        assert back.state == match.state and back.view(1) == match.view(1)


def test_every_pending_seat_has_a_legal_action():
    for match in reachable_matches("quovadis", 5, seed=4, every=5):
        for seat in match.pending():
            assert match.legal_actions(seat)
