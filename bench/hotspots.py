"""Where the engine spends its time: cProfile over seeded random games of each game.

``python -m bench.hotspots [GAMES...]`` plays the same loop as the throughput
figures (``engine.testing.play_random``, seeds 0, 1, ...) under cProfile and
prints, per game, the share of time under the engine's main steps (the state
copy in ``Match.apply``, the phase machine, legal actions, performing, the
end-of-game check) and the functions with the most time of their own.
Not part of ``make bench``: profiling slows the engine several times over.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from pathlib import Path

from engine.games import all_games
from engine.match import Match
from engine.testing import play_random

_ROOT = str(Path(__file__).resolve().parents[1]) + "/"  # shown paths are relative to the repository

# (label, file suffix, function name): cumulative time under each, per game.
STEPS = (
    ("phase machine (Flow.settle)", "engine/flow.py", "settle"),
    ("legal actions (from apply and the player; cached per state)", "engine/game.py", "legal_actions"),
    ("pending seats", "engine/game.py", "pending"),
    ("result (every is_over)", "engine/game.py", "result"),
    ("perform (the rules changing the state)", "engine/game.py", "perform"),
    ("JSON-shape check (check_action_shape)", "engine/match.py", "check_action_shape"),
)


def profile_game(game: str, players: int, games: int) -> pstats.Stats:
    """Play ``games`` seeded random games under cProfile and return the stats."""
    profiler = cProfile.Profile()
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
    for label, suffix, name in STEPS:
        cumulative = sum(ct for (path, _, func), (_, _, _, ct, _) in table.items()
                         if func == name and path.endswith(suffix))
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
