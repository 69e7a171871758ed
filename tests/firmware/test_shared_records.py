"""The action records Quo Vadis and Tennō make once and hand out to every list are never changed.

Menus, bots, the runtime and `Match.apply` only read them; a change to one
would reach every later list that offers it, so a whole game played through
the runtime, by presses on the seats' menus and by bots, must leave them as
they were made.
"""

from __future__ import annotations

import copy
import io
import random

import pytest

from engine.games.quovadis import rules as quovadis
from engine.games.tenno import rules as tenno
from engine.match import Match
from firmware.play import play_bots
from firmware.table.runtime import Runtime
from hardware.events import InputEvent
from hardware.factory import open_table
from hardware.table import emulator_table


def quovadis_records() -> list[dict]:
    # `payments` is a cache filled as lists are asked for: its tuples hold records of `pay`, checked there.
    return [{k: v for k, v in vars(r).items() if k != "payments"} for r in quovadis._RECORDS]


def tenno_records() -> list:
    return [(vars(tenno._records(seat)), [tenno._attack_records(seat, slot) for slot in range(tenno.ROW)])
            for seat in range(tenno.MAX_SEATS)]


def play_through_the_runtime(game: str, players: int, seed: int, options: dict | None = None) -> Match:
    """Random presses on the seats' menus for a while, then bots submit until the game ends."""
    match = Match.new(game, players, seed=seed, options=options)
    with open_table(emulator_table(players), "mock") as table:
        runtime = Runtime(match, [seat.screen for seat in table.seats], None)
        rng = random.Random(seed)
        for _ in range(600):
            if runtime.match.is_over:
                break
            runtime.post(InputEvent(rng.randrange(players), rng.choice(("prev", "next", "ok", "ok")), "press"))
            runtime.drain()
        play_bots(runtime, seed, out=io.StringIO())
        return runtime.match


@pytest.mark.parametrize(("game", "players", "options", "records"), [
    ("quovadis", quovadis.MAX_PLAYERS, {"reveal_laurels": True}, quovadis_records),
    ("tenno", tenno.MAX_SEATS, None, tenno_records),
])
def test_a_game_played_through_the_runtime_changes_no_shared_record(game, players, options, records):
    before = copy.deepcopy(records())
    match = play_through_the_runtime(game, players, seed=3, options=options)
    assert match.is_over and len(match.actions) > 20
    assert records() == before
    if game == "quovadis":
        for seat, made in enumerate(quovadis._RECORDS):
            assert made.payments, seat  # the game asked for payments, and each holds the records of `pay`
            assert all(p is made.pay[p["to"], p["token"]] for found in made.payments.values() for p in found)
