"""Whole seeded Shadow games for 2, 3 and 4 players: conservation, bounds, scores, replay, JSON."""

from __future__ import annotations

import json
import random

import pytest

from engine.codec import to_data
from engine.games.shadow.data import BOARD, CARDS
from engine.match import Match
from engine.testing import play_random, reachable_matches

SEEDS = range(5)


def pieces_everywhere(match: Match) -> dict[str, int]:
    """Every aristocrat, knight and city of every colour, on the board or in supply."""
    state = match.state
    counts = {"aristocrats": 0, "knights": 0, "cities": 0}
    tiles = ([state.throne] + [e.elector for e in state.electorates] + [state.limbo]
             + [p for e in state.electorates for p in e.spaces if p is None or p.aristocrat])
    counts["aristocrats"] = sum(1 for p in tiles if p is not None)
    counts["knights"] = sum(1 for e in state.electorates for p in e.spaces + e.castles
                            if p is not None and p.kind == "knight")
    counts["cities"] = sum(1 for e in state.electorates for o in e.cities if o is not None and o >= 0)
    for player in state.seats:
        counts["aristocrats"] += player.aristocrats
        counts["knights"] += player.knights
        counts["cities"] += player.cities
    return counts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_every_piece_keep_thalers_in_bounds_and_end_after_round_five(players):
    for seed in SEEDS:
        match = Match.new("shadow", players, seed=seed)
        play_random(match, random.Random(seed), each=lambda m: m.game.check_invariants(m.state))
        assert match.is_over, "a game ends well within max_actions"
        assert len(match.actions) < match.game.max_actions // 2
        state = match.state
        assert state.round == BOARD.rules["rounds"] and state.phase == "over"
        assert pieces_everywhere(match) == {k: BOARD.pieces[k] * players for k in ("aristocrats", "knights", "cities")}
        assert all(0 <= p.thalers <= BOARD.rules["thaler_cap"] for p in state.seats)
        for card in CARDS.values():
            assert state.stacks[card.id] + sum(p.cards.count(card.id) for p in state.seats) == card.copies[players]
        result = match.result()
        assert result.scores == {s: p.vp for s, p in enumerate(state.seats)}
        for seat, parts in result.breakdown.items():
            assert sum(v for k, v in parts.items() if k != "thalers") == result.scores[seat]
        best = max(result.scores.values())
        assert all(result.scores[w] == best for w in result.winners)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replaying_the_actions_gives_an_equal_state(players):
    for seed in (players, players + 10):
        match = play_random(Match.new("shadow", players, seed=seed), random.Random(seed))
        again = Match.replay(match.header, json.loads(json.dumps(match.actions)))
        assert again.state == match.state
        assert to_data(again.state) == to_data(match.state)
        assert again.result() == match.result()


@pytest.mark.parametrize("players", [2, 4])
def test_every_reachable_state_round_trips_through_json(players):
    for match in reachable_matches("shadow", players, seed=11):
        back = Match.from_data(json.loads(json.dumps(match.to_data())))
        assert back.state == match.state
        assert back.view(0) == match.view(0) and back.public_view() == match.public_view()


def test_every_pending_seat_has_a_legal_action_and_others_have_none():
    for match in reachable_matches("shadow", 4, seed=3):
        pending = match.pending()
        assert pending or match.is_over
        for seat in range(4):
            assert bool(match.legal_actions(seat)) == (seat in pending)


def test_every_phase_is_entered_in_a_game_and_words_exist_for_every_event():
    entered, kinds = set(), set()
    for seed in range(6):
        for match in reachable_matches("shadow", 4, seed=seed):
            entered.add(match.state.phase)
            for event in match.state.changes:
                kinds.add(event["type"])
                assert match.game.describe_event(event, match.names) != event["type"]
            prompt = match.prompt()
            assert prompt.line and all(prompt.steps)
    assert entered == set(match.game.flow.phases) - {"advance"}  # VIII only moves the marker


def test_the_flow_declares_every_phase_reachable():
    flow = Match.new("shadow", 2).game.flow
    reached = {"setup"} | {dest for _, dest, _ in flow.graph_edges()}
    assert reached == set(flow.phases)
