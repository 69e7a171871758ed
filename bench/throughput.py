"""Engine throughput: actions applied and whole seeded random games per second.

The loop is the engine's own test helper, ``engine.testing.play_random``: each
step picks a random pending seat and one of its legal actions (now and then,
5 %, an action open to a waiting seat, such as a payment), and applies it with
``Match.apply``, which checks it against ``legal_actions`` and then changes
the state in place. Games are seeded 0, 1, 2, ... and played to the end. Time is the
process's CPU time on one thread (``time.process_time_ns``), game set-up
included.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from pathlib import Path

from engine.match import Match
from engine.testing import play_random

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EngineFigures:
    """What one game's throughput run measured."""

    game: str
    players: int
    games: int
    actions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games if self.games else 0.0


def measure_engine(game: str, players: int, *, budget: float = 3.0, min_games: int = 3,
                   max_games: int = 10_000, first: int = 0) -> EngineFigures:
    """Play seeded random games of one game until the time budget is spent.

    Args:
        game: Registered game name.
        players: Seats at the table.
        budget: CPU seconds to spend (at least ``min_games`` games are played).
        min_games: Games to play even if they overrun the budget.
        max_games: Stop after this many games.
        first: The first game's seed (a run in parts goes on where the part before stopped).

    Returns:
        The games, actions and CPU seconds.
    """
    games = actions = 0
    spent = 0
    budget_ns = int(budget * 1e9)
    while games < max_games and (games < min_games or spent < budget_ns):
        started = time.process_time_ns()
        match = Match.new(game, players, seed=first + games)
        play_random(match, random.Random(first + games))
        spent += time.process_time_ns() - started
        if not match.is_over:
            _log.warning("%s seed %d: not over after %d actions", game, first + games, len(match.actions))
        games += 1
        actions += len(match.actions)
    return EngineFigures(game, players, games, actions, spent / 1e9)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.throughput GAME PLAYERS``: for each line ``BUDGET MIN_GAMES FIRST`` read, one
    part's figures as a JSON line, with the engine package that played them (``bench.then`` plays an
    older engine this way, in turn with today's)."""
    import json
    import sys

    import engine  # the package this process found: today's, or the one `bench.then` laid out first

    game, players = argv if argv is not None else sys.argv[1:]
    for line in sys.stdin:
        budget, min_games, first = line.split()
        figures = measure_engine(game, int(players), budget=float(budget), min_games=int(min_games),
                                 first=int(first))
        print(json.dumps({"games": figures.games, "actions": figures.actions, "seconds": figures.seconds,
                          "engine": str(Path(engine.__file__).parent)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
