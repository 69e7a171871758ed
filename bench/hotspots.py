"""Where the engine spends its time: cProfile over seeded random games of each game.

``python -m bench.hotspots [GAMES...]`` plays the same loop as the throughput
figures (``engine.testing.play_random``, seeds 0, 1, ...) under cProfile and
prints, per game, the share of time under the engine's main steps (the phase
machine, legal actions, pending seats, the end-of-game check, performing) and
the functions with the most time of their own. Time is the thread's CPU time, so
other work on a shared machine does not move the shares.
Not part of ``make bench``: profiling slows the engine several times over.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

from engine.game import Game
from engine.games import all_games, get_game
from engine.match import Match
from engine.testing import play_random

_ROOT = str(Path(__file__).resolve().parents[1]) + "/"  # shown paths are relative to the repository

# (label, what the step's function is called on the game): cumulative time under each, per game. A
# game with free actions has its legal actions worked out by the match in two parts (`decisions`, kept
# across a payment, and `open_actions`), so those two are its legal actions' time (`PARTS`).
STEPS = (
    ("phase machine (Flow.settle)", "flow.settle"),
    ("legal actions (cached per state by the match)", "legal_actions"),
    ("pending seats", "pending"),
    ("result (worked out once per state)", "result"),
    ("perform (the rules changing the state)", "perform"),
)


PARTS = {"legal_actions": ("decisions", "open_actions")}


def step_names(game: Game, name: str) -> tuple[str, ...]:
    """The game's functions whose cumulative time is the step's: the step's own, or its parts where
    the match calls those instead (a game with `free_actions`)."""
    return PARTS.get(name, (name,)) if game.free_actions else (name,)


def step_code(game: Game, name: str) -> Any:
    """The code object cProfile files a step's time under: the game's own function, which for a
    `ModularGame` is its rules module's (not `Game`'s method of that name)."""
    target: Any = game
    for part in name.split("."):
        target = getattr(target, part)
    return inspect.unwrap(getattr(target, "__func__", target)).__code__


def profile_game(game: str, players: int, games: int) -> pstats.Stats:
    """Play ``games`` seeded random games under cProfile and return the stats (the game's import,
    done once per process, is left out)."""
    get_game(game)
    profiler = cProfile.Profile(time.thread_time_ns, 1e-9)  # CPU time: other work on the machine does not count
    profiler.enable()
    for seed in range(games):
        play_random(Match.new(game, players, seed=seed), random.Random(seed))
    profiler.disable()
    return pstats.Stats(profiler)


def summary(stats: pstats.Stats, game: str, top: int = 8) -> list[str]:
    """Lines saying the share of each main step and the top functions by own time."""
    table = stats.stats  # type: ignore[attr-defined]
    total = stats.total_tt  # type: ignore[attr-defined]
    lines = [f"  total {total:.2f} s"]
    played = get_game(game)
    for label, name in STEPS:
        cumulative = 0.0
        for part in step_names(played, name):
            code = step_code(played, part)
            key = (code.co_filename, code.co_firstlineno, code.co_name)
            cumulative += table[key][3] if key in table else 0.0
        lines.append(f"  {100 * cumulative / total:5.1f} %  {label}")
    lines.append("  own time:")
    ranked = sorted(table.items(), key=lambda item: item[1][2], reverse=True)[:top]
    for (path, line, func), (_, calls, tt, _, _) in ranked:
        short = path.split("site-packages/")[-1].removeprefix(_ROOT)
        lines.append(f"  {100 * tt / total:5.1f} %  {func} ({short}:{line}), {calls} calls")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to profile (default: every registered one)")
    parser.add_argument("--count", type=int, default=10, help="random games per game")
    args = parser.parse_args(argv)
    for game in all_games():
        if args.games and game.name not in args.games:
            continue
        stats = profile_game(game.name, game.max_players, args.count)
        print(f"{game.title} ({game.name}), {game.max_players} players, {args.count} games")
        print("\n".join(summary(stats, game.name)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
