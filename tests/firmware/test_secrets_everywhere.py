"""Secrets, for every game: re-drawing what a seat may not know changes neither its view, nor a
byte of its screen, nor a byte of what a serial seat pod would be sent; and nothing hidden from
anyone changes what the public channels show (the public snapshot, the console's messages)."""

from __future__ import annotations

import random

import pytest

from engine.games import all_games, get_game
from engine.match import Match
from engine.rng import Rng
from engine.testing import random_action, reachable_matches
from firmware.links.protocol import encode_face, encode_line, encode_table
from firmware.public import PublicTable
from firmware.table.faces import seat_face
from firmware.table.menu import Menu
from firmware.table.render import render_face
from firmware.table.runtime import Runtime

from ..engine.test_hidden_vp import dearer_vp


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


def console_line(snapshot) -> str:
    """The console's table message for a snapshot, as it goes down the wire."""
    return encode_line(encode_table(snapshot.public, snapshot.line, snapshot.steps, snapshot.names,
                                    snapshot.result, snapshot.log))


@pytest.mark.parametrize("game, players", [(g.name, g.max_players) for g in all_games()])
def test_the_public_snapshot_and_the_console_line_do_not_depend_on_any_seats_secret(game, players):
    compared = 0
    every = max(3, get_game(game).max_actions // 150)
    for match in reachable_matches(game, players, seed=players + 1, every=every):
        if match.is_over:
            continue
        snapshot = PublicTable().build(match)
        wire = console_line(snapshot)
        for seat in range(players):
            other = Match(match.game, match.header, match.game.redeal(match.state, seat, Rng.seeded(seat + 7)),
                          match.actions)
            again = PublicTable().build(other)
            assert again == snapshot, f"the public snapshot shows something of {match.names[seat]}'s secrets"
            assert console_line(again) == wire
            compared += 1
    assert compared > players * 10


def _public_story(seed: int, options: dict, actions: list[dict] | None = None) -> tuple[list[dict], list]:
    """Play a seeded two-player Shadow game at a runtime (or replay `actions`); return the actions
    and every public snapshot's console line and prompt until the VP cards are turned up."""
    runtime = Runtime(Match.new("shadow", 2, seed=seed, options=options), [None, None])
    public = PublicTable().attach(runtime)
    seen = []
    public.subscribe(lambda snapshot: seen.append((console_line(snapshot), snapshot.steps, snapshot.moves))
                     if snapshot.result is None else None)
    match, rng, played = runtime.match, random.Random(seed), []
    while not match.is_over:
        action = actions[len(played)] if actions is not None else random_action(match, rng)
        assert runtime.submit(action)
        played.append(action)
    return played, seen


@pytest.mark.parametrize("vp_open", [False, True])
def test_hidden_vp_amounts_never_reach_the_console_or_the_public_snapshot(monkeypatch, vp_open):
    actions, told = _public_story(6, {"vp_open": vp_open})
    assert any(b"takes VP cards" in line or b" VP (" in line for line, *_ in told), "VP were taken"
    dearer_vp(monkeypatch)
    _, again = _public_story(6, {"vp_open": vp_open}, actions)
    if vp_open:
        assert again != told, "open VP are told, so the comparison can fail"
    else:
        assert again == told, "the console or the public snapshot tells how many VP were taken"
