"""Secrets: re-drawing what a seat may not know never changes that seat's view."""

from __future__ import annotations

import pytest

from engine.games import all_games, get_game
from engine.rng import Rng
from engine.testing import reachable_matches


@pytest.mark.parametrize("game, players", [(g.name, n) for g in all_games()
                                           for n in sorted({g.min_players, g.max_players})])
def test_views_do_not_change_when_hidden_things_are_redrawn(game, players):
    changed = 0
    every = max(1, get_game(game).max_actions // 300)
    for match in reachable_matches(game, players, seed=players * 7, every=every):
        if match.is_over:
            continue
        for seat in range(players):
            for draw in range(3):
                other = match.game.redeal(match.state, seat, Rng.seeded(draw * 31 + seat))
                changed += other != match.state
                assert match.game.view(other, seat) == match.view(seat)
                assert match.game.legal_actions(other, seat) == match.legal_actions(seat)
        public = match.public_view()
        for seat in range(players):
            assert match.game.public_view(match.game.redeal(match.state, seat, Rng.seeded(5))) == public
    assert changed, "the redraw changed something, so the test can fail"
