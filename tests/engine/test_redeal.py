"""The re-deal: everything a seat may not know is drawn anew, and nothing it knows moves.

The secrets tests prove a re-deal changes nothing a seat sees; these prove it
changes everything the seat cannot see (a re-deal that kept a hidden card in
place would let a leak of that card pass the secrets tests unseen).
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from engine.games.shadow.rules import REDEAL_SPREAD
from engine.match import Match
from engine.rng import Rng
from engine.testing import play_random


def _worlds(match: Match, seat: int, count: int = 40) -> list:
    return [match.game.redeal(match.state, seat, Rng.seeded(1000 + i)) for i in range(count)]


def _find(game: str, players: int, wanted, options=None, seeds=range(60)) -> Match:
    """A match along seeded random games where `wanted(match)` holds."""
    for seed in seeds:
        match = Match.new(game, players, seed=seed, options=options or {})
        rng = random.Random(seed)
        while not match.is_over:
            if wanted(match):
                return match
            play_random(match, rng, limit=1)
    raise AssertionError("no such state in the seeded games")


def test_tenno_redeals_hidden_row_cards_hands_piles_peeks_and_a_hidden_discard():
    def wanted(m):
        s = m.state
        return (m.state.phase == "attack" and s.seats[0].peeks and any(p.peeks for p in s.seats[1:])
                and sum(len(p.captives) for p in s.seats) >= 2 and len({t.card for t in s.discard}) >= 2)

    match = _find("tenno", 3, wanted, options={"discard_public": False})
    state, worlds = match.state, _worlds(match, 0)
    me = state.seats[0]
    seen = {(p.target, p.slot) for p in me.peeks if not p.stale}
    for world in worlds:
        assert world.seats[0].row == me.row and world.seats[0].hand == me.hand and world.seats[0].peeks == me.peeks
        assert world.rng.state != state.rng.state and type(world.rng.state) is int
        for other in (1, 2):
            player, drawn = state.seats[other], world.seats[other]
            assert Counter(c for c in drawn.row + drawn.hand if c is not None) == Counter(
                c for c in player.row + player.hand if c is not None)
            for slot, card in enumerate(player.row):
                if card is None or player.known[slot] is not None or (other, slot) in seen:
                    assert drawn.row[slot] == card
        assert Counter((t.owner, t.card) for p in world.seats for t in p.captives) == Counter(
            (t.owner, t.card) for p in state.seats for t in p.captives)
    for other in (1, 2):
        player = state.seats[other]
        for slot, card in enumerate(player.row):
            if card is not None and player.known[slot] is None and (other, slot) not in seen:
                assert len({w.seats[other].row[slot] for w in worlds}) > 1, (other, slot)
        assert len({tuple(w.seats[other].hand) for w in worlds}) > 1
        if player.peeks:
            assert len({tuple(p.card for p in w.seats[other].peeks) for w in worlds}) > 1
    assert len({tuple((t.owner, t.card) for p in w.seats for t in p.captives) for w in worlds}) > 1
    assert len({tuple((t.owner, t.card) for t in w.discard) for w in worlds}) > 1
    shown = copy.deepcopy(state)
    shown.options = {**state.options, "discard_public": True}
    assert match.game.redeal(shown, 0, Rng.seeded(3)).discard == state.discard  # a discard everyone sees stays


def test_quovadis_redeals_other_laurels_the_bag_and_unrevealed_answers():
    def wanted(m):
        s = m.state
        return (s.vote is not None and any(seat != 0 for seat in s.vote.answers) and 0 in s.vote.voters
                and sum(len(p.laurels) for p in s.seats[1:]) >= 2)

    match = _find("quovadis", 4, wanted)
    state, worlds = match.state, _worlds(match, 0)
    others = [s for s in range(4) if s != 0]
    pool = Counter(state.bag + [t for s in others for t in state.seats[s].laurels])
    for world in worlds:
        assert world.seats[0].laurels == state.seats[0].laurels
        assert [len(world.seats[s].laurels) for s in others] == [len(state.seats[s].laurels) for s in others]
        assert Counter(world.bag + [t for s in others for t in world.seats[s].laurels]) == pool
        assert len(world.bag) == len(state.bag) and world.diamonds == state.diamonds
        assert world.vote.answers.get(0) == state.vote.answers.get(0) and set(world.vote.answers) == set(
            state.vote.answers)
    assert len({tuple(w.bag) for w in worlds}) > 1
    assert len({tuple(tuple(sorted(w.seats[s].laurels)) for s in others) for w in worlds}) > 1
    answered = [s for s in state.vote.answers if s != 0]
    assert len({tuple(w.vote.answers[s] for s in answered) for w in worlds}) > 1
    opened = Match.new("quovadis", 4, seed=1, options={"open_answers": True}).game
    state.options = {**state.options, "open_answers": True}
    assert opened.redeal(state, 0, Rng.seeded(2)).vote.answers == state.vote.answers  # open answers stay


def test_shadow_redeals_hidden_victory_points_and_ballots_not_yet_turned():
    def wanted(m):
        return m.state.ballots and any(s != 0 for s in m.state.ballots) and any(p.vp for p in m.state.seats[1:])

    match = _find("shadow", 4, wanted)
    state, worlds = match.state, _worlds(match, 0)
    for world in worlds:
        assert (world.seats[0].vp, world.seats[0].vp_from) == (state.seats[0].vp, state.seats[0].vp_from)
        assert world.ballots.get(0) == state.ballots.get(0) and set(world.ballots) == set(state.ballots)
        for player in world.seats:
            assert player.vp == sum(player.vp_from.values())
    assert len({tuple(w.seats[s].vp for s in (1, 2, 3)) for w in worlds}) > 1
    assert len({tuple(w.ballots[s] for s in state.ballots if s != 0) for w in worlds}) > 1
    own = state.seats[0].vp  # another seat's hidden VP are imagined within REDEAL_SPREAD of one's own
    assert all(max(0, own - REDEAL_SPREAD) <= w.seats[s].vp <= own + REDEAL_SPREAD for w in worlds for s in (1, 2, 3))
    assert all(w.ballots[s] in ("emperor", "rival") for w in worlds for s in w.ballots)
    assert all(isinstance(w.rng.state, int) for w in worlds) and len({w.rng.state for w in worlds}) > 1
    state.options = {**state.options, "vp_open": True}
    shown = match.game.redeal(state, 0, Rng.seeded(4))
    assert [p.vp for p in shown.seats] == [p.vp for p in state.seats]  # open VP stay
