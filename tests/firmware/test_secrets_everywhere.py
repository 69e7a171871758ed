"""Secrets, for every game: re-drawing what a seat may not know changes neither its view, nor a
byte of its screen, nor a byte of what a serial seat pod would be sent."""

from __future__ import annotations

import random

import pytest

from engine.games import all_games, get_game
from engine.rng import Rng
from engine.testing import reachable_matches
from firmware.table.faces import seat_face
from firmware.table.menu import Menu
from firmware.links.protocol import encode_face, encode_line
from firmware.table.render import render_face


def _walk(menu: Menu, actions, rng: random.Random) -> None:
    """Put the menu somewhere along a random half-made choice."""
    for _ in range(rng.randrange(3)):
        menu.move(actions, rng.choice((-1, 1)) * rng.randrange(4))
        if menu.level(actions) is None or menu.level(actions).complete is not None:
            return
        if rng.random() < 0.5:
            menu.choose(actions)


@pytest.mark.parametrize("game, players", [(g.name, n) for g in all_games()
                                           for n in sorted({g.min_players + 1, g.max_players})])
def test_view_screen_and_serial_bytes_do_not_depend_on_what_the_seat_may_not_know(game, players):
    rng = random.Random(players)
    compared = 0
    every = max(3, get_game(game).max_actions // 200)
    for match in reachable_matches(game, players, seed=players, every=every):
        if match.is_over:
            continue  # at the end every pile is turned face up
        names = match.names
        for seat in range(players):
            menu = Menu()
            actions = match.legal_actions(seat)
            _walk(menu, actions, rng)
            path, cursor = list(menu.path), menu.cursor
            face = seat_face(match.game, names, seat, match.view(seat), actions, menu)
            image = render_face(face).tobytes()
            wire = encode_line(encode_face(seat, face))
            other = match.game.redeal(match.state, seat, Rng.seeded(rng.randrange(1 << 30)))
            menu = Menu(list(path), cursor)
            assert match.game.view(other, seat) == match.view(seat)
            other_face = seat_face(match.game, names, seat, match.game.view(other, seat),
                                   match.game.legal_actions(other, seat), menu)
            assert render_face(other_face).tobytes() == image
            assert encode_line(encode_face(seat, other_face)) == wire
            compared += 1
    assert compared > players * 10
