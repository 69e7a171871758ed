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
    ("tenno", 2, 0): (48, "bd0f0649c748b1bc"),
    ("tenno", 2, 1): (46, "23e2dc55f2ad0699"),
    ("tenno", 5, 2): (101, "14d971f928bb5d02"),
    ("tenno", 7, 0): (130, "b8373b7a1b4354d5"),
    ("tenno", 7, 1): (128, "69b34eebb37e087a"),
    ("quovadis", 3, 0): (419, "0431dfacbfe3522f"),
    ("quovadis", 3, 1): (346, "80bc2acbec43fa9c"),
    ("quovadis", 5, 0): (633, "bcc8eab19cf5595c"),
    ("quovadis", 5, 2): (1023, "92a8521d12ba1e45"),
    ("shadow", 2, 0): (114, "019fa92b3c1458d5"),
    ("shadow", 2, 2): (122, "4544f2996ccb9965"),
    ("shadow", 4, 0): (235, "d8c1bc98c6af1c14"),
    ("shadow", 4, 1): (236, "747d6a78fb42d8ea"),
}


def played(game: str, players: int, seed: int) -> tuple[int, str]:
    """Play one seeded random game to its end; return its action count and digest."""
    match = play_random(Match.new(game, players, seed=seed), random.Random(seed))
    assert match.is_over, f"{game} {players}p seed {seed} did not end"
    whole = {"state": to_data(match.state), "actions": match.actions, "result": match.result().to_data()}
    text = json.dumps(whole, sort_keys=True)
    return len(match.actions), hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("game, players, seed", sorted(PINS))
def test_a_seeded_random_game_plays_exactly_as_pinned(game: str, players: int, seed: int) -> None:
    assert played(game, players, seed) == PINS[game, players, seed]


def test_the_digest_sees_a_one_action_difference() -> None:
    match = play_random(Match.new("tenno", 2, seed=0), random.Random(0), limit=5)
    other = play_random(Match.new("tenno", 2, seed=0), random.Random(1), limit=5)
    assert match.actions != other.actions
    assert json.dumps(to_data(match.state), sort_keys=True) != json.dumps(to_data(other.state), sort_keys=True)


if __name__ == "__main__":
    for key in sorted(PINS):
        print(f"    {key!r}: {played(*key)!r},")
