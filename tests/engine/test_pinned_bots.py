"""Seeded bot games of every game, pinned: the bots' strength figures replay from their seeds.

`python -m bench.bots` reports the strength of each level over seeded games and says its
figures (all but the times) replay from the seeds; the bots' rules of thumb, their position
values and the search's arithmetic are tuned against those figures. Each pin here plays one
seeded game to its end with bots in every seat, and keeps its action count and a digest of
the final state, the actions and the result:
- `rules`: the rule-based player (the strength yardstick) in every seat;
- `search`: a small search (its level's iterations cut to a few, so the pin plays in
  well under a second) in one seat, the seed's, beside the rule-based player: the search's
  rules of thumb, its ranking of wide decisions, its imagined opponents, its position values.
Any change in how a bot chooses moves a pin. After a deliberate change to the bots (or to the
rules), print the new pins with
    .venv/bin/python -m tests.engine.test_pinned_bots
and say in the README which strength figures were measured again.
"""

from __future__ import annotations

import pytest

from engine.bots import Level, RuleBot, SearchBot
from engine.match import Match
from tests.engine.test_pinned_games import digest

SMALL = Level("pin", iterations=24, seconds=0.0)

# (game, players, seed, table) -> (actions played, first 16 hex digits of the game's digest)
PINS = {
    ('tenno', 2, 0, 'rules'): (40, '79af42d555e5dadf'),
    ('tenno', 2, 0, 'search'): (52, '6b7792bca79e92b8'),
    ('tenno', 2, 1, 'rules'): (40, '3a86b2b3b4cdf039'),
    ('tenno', 2, 1, 'search'): (48, '923c310689279267'),
    ('tenno', 5, 0, 'rules'): (96, '66fd1ade2f2f519a'),
    ('tenno', 5, 0, 'search'): (91, 'c9180a4139907c58'),
    ('tenno', 5, 1, 'rules'): (100, '14887b7b69ed177c'),
    ('tenno', 5, 1, 'search'): (100, 'aa75fbf0ec1f63a4'),
    ('quovadis', 3, 0, 'rules'): (65, '8397de2671ad792c'),
    ('quovadis', 3, 0, 'search'): (76, 'ac4ac254017b1385'),
    ('quovadis', 3, 1, 'rules'): (62, '50a53200c2342c61'),
    ('quovadis', 3, 1, 'search'): (73, '1ea030f5db80b269'),
    ('quovadis', 5, 0, 'rules'): (86, 'd13302e88119b639'),
    ('quovadis', 5, 0, 'search'): (86, 'd13302e88119b639'),
    ('quovadis', 5, 1, 'rules'): (94, 'd0f1fd71218b2c3c'),
    ('quovadis', 5, 1, 'search'): (98, 'a9ab5cf076dddba5'),
    ('shadow', 2, 0, 'rules'): (129, 'f344c16aea52bd9d'),
    ('shadow', 2, 0, 'search'): (125, 'b17a1d08456312f0'),
    ('shadow', 2, 1, 'rules'): (133, 'ea64c72f8648d191'),
    ('shadow', 2, 1, 'search'): (133, '2ba7c6545d06ccb0'),
    ('shadow', 4, 0, 'rules'): (192, '785b9938723f4954'),
    ('shadow', 4, 0, 'search'): (176, '0ee9e849cef8629b'),
    ('shadow', 4, 1, 'rules'): (194, '9e4d2aa12e9671ba'),
    ('shadow', 4, 1, 'search'): (168, 'f587e0d10df6c812'),
}

TABLES = [(game, players, seed, table) for game, players in
          (("tenno", 2), ("tenno", 5), ("quovadis", 3), ("quovadis", 5), ("shadow", 2), ("shadow", 4))
          for seed in (0, 1) for table in ("rules", "search")]


def played(game: str, players: int, seed: int, table: str) -> tuple[int, str]:
    """Play one seeded game to its end with the table's bots; return its action count and digest."""
    match = Match.new(game, players, seed=seed)
    searcher = seed % players if table == "search" else None
    bots = [SearchBot(SMALL, seed=seed * 31 + s) if s == searcher else RuleBot(seed=seed * 31 + s)
            for s in range(players)]
    while not match.is_over:
        assert len(match.actions) < match.game.max_actions, f"{game} {players}p seed {seed} {table} did not end"
        seat = match.pending()[0]
        match.apply(bots[seat].choose(match.game, match.state, seat, len(match.actions)))
    return len(match.actions), digest(match)


@pytest.mark.parametrize("game, players, seed, table", TABLES)
def test_a_seeded_bot_game_plays_exactly_as_pinned(game: str, players: int, seed: int, table: str) -> None:
    assert played(game, players, seed, table) == PINS[game, players, seed, table], (
        "the bots play differently: if that is meant, print the new pins with "
        ".venv/bin/python -m tests.engine.test_pinned_bots")


if __name__ == "__main__":
    for key in TABLES:
        print(f"    {key!r}: {played(*key)!r},")
