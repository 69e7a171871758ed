"""Seeded random games of every game, pinned: the action count and a digest of the final state.

The engine is made faster from time to time; it must not play differently.
A game played by the uniform random policy (`engine.testing.play_random`)
from the same seed must take the same actions, in the same order of the legal
lists, to the same final state and result. Any change in the rules, in the
order legal actions are listed, or in what the state holds changes a digest
here. After a deliberate change of the rules, print the new pins with
    .venv/bin/python -m tests.engine.test_pinned_games
and read why each one moved before replacing them.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.codec import to_data
from engine.match import Match
from engine.testing import play_random

# (game, players, seed) -> (actions played, sha256 of the final state, actions and result, first 16 digits)
PINS = {
    ('quovadis', 3, 0): (404, 'ece0e879fa199d86'),
    ('quovadis', 3, 1): (369, 'f2f11770fd59aee7'),
    ('quovadis', 5, 0): (617, '93e472f5e7a645fc'),
    ('quovadis', 5, 2): (947, 'ed1fbe3390f695b8'),
    ('shadow', 2, 0): (124, 'b971fc371a90acc5'),
    ('shadow', 2, 2): (115, '51f2ffc3450d9ad0'),
    ('shadow', 4, 0): (245, 'e580b85156e1b818'),
    ('shadow', 4, 1): (238, '97e3713f6d848847'),
    ('tenno', 2, 0): (48, 'b01868fe243d3d93'),
    ('tenno', 2, 1): (55, '475a53a6d55c9c83'),
    ('tenno', 5, 2): (134, '63dcfc803d0b2038'),
    ('tenno', 7, 0): (146, 'd194cc6af3f76a14'),
    ('tenno', 7, 1): (164, '301bc5873922d8dd'),
}


def played(game: str, players: int, seed: int) -> tuple[int, str]:
    """Play one seeded random game to its end; return its action count and digest."""
    match = play_random(Match.new(game, players, seed=seed), random.Random(seed))
    assert match.is_over, f"{game} {players}p seed {seed} did not end"
    return len(match.actions), digest(match)


def digest(match: Match) -> str:
    """The first 16 hex digits of the sha256 of the match's state, actions and result (None while it runs)."""
    result = match.result()
    whole = {"state": to_data(match.state), "actions": match.actions,
             "result": None if result is None else result.to_data()}
    return hashlib.sha256(json.dumps(whole, sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize("game, players, seed", sorted(PINS))
def test_a_seeded_random_game_plays_exactly_as_pinned(game: str, players: int, seed: int) -> None:
    assert played(game, players, seed) == PINS[game, players, seed]


def test_the_digest_sees_a_one_action_difference() -> None:
    """Two matches alike in their first four actions and different in the fifth have different digests."""
    start = play_random(Match.new("tenno", 2, seed=0), random.Random(0), limit=4)
    seat = start.pending()[0]
    first, second = start.legal_actions(seat)[:2]
    one = Match.replay(start.header, [*start.actions, first])
    other = Match.replay(start.header, [*start.actions, second])
    assert one.actions[:4] == other.actions[:4] and one.actions[4] != other.actions[4]
    assert digest(one) != digest(other)
    assert digest(one) == digest(Match.replay(one.header, one.actions))


if __name__ == "__main__":
    for key in sorted(PINS):
        print(f"    {key!r}: {played(*key)!r},")
