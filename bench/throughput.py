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
                   max_games: int = 10_000) -> EngineFigures:
    """Play seeded random games of one game until the time budget is spent.

    Args:
        game: Registered game name.
        players: Seats at the table.
        budget: CPU seconds to spend (at least ``min_games`` games are played).
        min_games: Games to play even if they overrun the budget.
        max_games: Stop after this many games.

    Returns:
        The games, actions and CPU seconds.
    """
    games = actions = 0
    spent = 0
    budget_ns = int(budget * 1e9)
    while games < max_games and (games < min_games or spent < budget_ns):
        started = time.process_time_ns()
        match = Match.new(game, players, seed=games)
        play_random(match, random.Random(games))
        spent += time.process_time_ns() - started
        if not match.is_over:
            _log.warning("%s seed %d: not over after %d actions", game, games, len(match.actions))
        games += 1
        actions += len(match.actions)
    return EngineFigures(game, players, games, actions, spent / 1e9)
