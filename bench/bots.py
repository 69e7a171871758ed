"""``python -m bench.bots``: how strong each bot level is, and how long it thinks.

For every game and player count, each level (easy, normal, strong) plays
seeded games in one seat against the same kind of opponent in every other
seat: uniform random play, then the game's rule-based player. The bot's seat
turns with the seed (seed g puts it in seat g mod players), so every seat is
played as often as the others. A game counts as won when the bot is among
the winners (a shared win counts its share); "ahead" counts, over every
opponent seat of every game, how often the bot finished with more points
(a tie counts half). Beside each rate: its 95 % Wilson interval.

The targets are on "ahead", the share of seat-games the bot beats: at
seven seats an equal player wins one game in seven but beats half the
seats it plays against, at two seats both measures are the same. A verdict
is "met" or "NOT met" by the measured rate, and says "(unsure)" while the
target lies inside the interval.

Levels are played by their iteration budgets alone, with no wall-time cut,
so every figure but the times replays from the seeds. Decision times are the
bot's own CPU time per decision it searched (one legal action needs none).

``--quick`` plays one short game per table with a tiny budget: it only checks
that the bench works, and its figures mean nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable

from engine.bots import LEVELS, Level, SearchBot, make_bot
from engine.games import all_games, get_game
from engine.match import Match

TARGETS = {("strong", "random"): 0.90, ("strong", "rules"): 0.60}
STRONG_MEDIAN_S = 0.15
QUICK_LEVEL = Level("quick", iterations=4, seconds=0.0)


@dataclass(frozen=True)
class Table:
    """One configuration: a bot kind in one seat, `opponent` in the others."""

    game: str
    players: int
    bot: str
    opponent: str


@dataclass
class GameRecord:
    """What one game showed."""

    won: float  # the bot's share of the win: 0, 1, or 1/n of a shared win
    ahead: float  # opponent seats it finished ahead of (a tie counts half)
    opponents: int
    actions: int
    times: list[float] = field(default_factory=list)  # CPU seconds per searched decision
    iterations: list[int] = field(default_factory=list)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(table: Table, seed: int, level: Level | None = None) -> GameRecord:
    """Play one seeded game to the end: the bot in seat `seed % players`, opponents elsewhere."""
    match = Match.new(table.game, table.players, seed=seed)
    me = seed % table.players
    bots = [make_bot(table.bot if s == me else table.opponent, seed=seed * 31 + s) for s in range(table.players)]
    if level is not None:
        bots[me] = SearchBot(level, seed=seed * 31 + me)
    record = GameRecord(won=0.0, ahead=0.0, opponents=table.players - 1, actions=0)
    while not match.is_over:
        if len(match.actions) >= match.game.max_actions:  # a game that never ends counts as lost
            record.actions = len(match.actions)
            return record
        seat = match.pending()[0]
        started = time.process_time()
        action = bots[seat].choose(match.game, match.state, seat, len(match.actions))
        spent = time.process_time() - started
        report = getattr(bots[seat], "last", None)
        if seat == me and report is not None and report.iterations:
            record.times.append(spent)
            record.iterations.append(report.iterations)
        match.apply(action)
    result = match.result()
    assert result is not None
    record.actions = len(match.actions)
    record.won = 1.0 / len(result.winners) if me in result.winners else 0.0
    mine = result.scores[me]
    record.ahead = sum(1.0 if mine > v else 0.5 if mine == v else 0.0
                       for s, v in result.scores.items() if s != me)
    return record


def _play(args: tuple[Table, int, Level | None]) -> GameRecord:
    return play_game(*args)


@dataclass(frozen=True)
class Row:
    table: Table
    games: int
    won: float
    ahead: float
    opponents: int
    median_s: float | None
    p90_s: float | None
    iterations: float | None
    actions: float

    @property
    def win_rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def ahead_rate(self) -> float:
        return self.ahead / self.opponents if self.opponents else 0.0


def measure(table: Table, games: int, jobs: int = 1, level: Level | None = None,
            first_seed: int = 0) -> Row:
    """Play `games` seeded games of one table (in `jobs` processes) and sum them up."""
    work = [(table, seed, level) for seed in range(first_seed, first_seed + games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            records = list(pool.map(_play, work))
    else:
        records = [_play(w) for w in work]
    times = sorted(t for r in records for t in r.times)
    iterations = [i for r in records for i in r.iterations]
    return Row(
        table=table, games=len(records), won=sum(r.won for r in records), ahead=sum(r.ahead for r in records),
        opponents=sum(r.opponents for r in records),
        median_s=statistics.median(times) if times else None,
        p90_s=times[int(0.9 * (len(times) - 1))] if times else None,
        iterations=statistics.mean(iterations) if iterations else None,
        actions=statistics.mean(r.actions for r in records) if records else 0.0,
    )


def tables(games: Iterable[str], levels: Iterable[str], opponents: Iterable[str],
           counts: str = "all") -> list[Table]:
    """Every table to play: each game at each player count (or its fewest and most), each level, each opponent."""
    found = []
    for name in games:
        game = get_game(name)
        players = (range(game.min_players, game.max_players + 1) if counts == "all"
                   else sorted({game.min_players, game.max_players}))
        for n in players:
            for opponent in opponents:
                for bot in levels:
                    found.append(Table(name, n, bot, opponent))
    return found


def format_rows(rows: list[Row]) -> str:
    header = ("game", "bot", "vs", "games", "won", "95% CI", "ahead", "95% CI", "target", "median s", "p90 s",
              "iter.", "actions")
    cells = [header]
    for row in rows:
        t = row.table
        low, high = wilson(row.won, row.games)
        alow, ahigh = wilson(row.ahead, row.opponents)
        target = TARGETS.get((t.bot, t.opponent))
        verdict = ""
        if target is not None:
            verdict = f">= {target:.0%} " + ("met" if row.ahead_rate >= target else "NOT met")
            if alow < target <= ahigh:
                verdict += " (unsure)"
        if t.bot == "strong" and row.median_s is not None and row.median_s > STRONG_MEDIAN_S:
            verdict += " (slow)"
        cells.append((f"{t.game} {t.players}p", t.bot, t.opponent, str(row.games), f"{row.win_rate:.0%}",
                      f"{low:.0%}-{high:.0%}", f"{row.ahead_rate:.0%}", f"{alow:.0%}-{ahigh:.0%}", verdict,
                      "" if row.median_s is None else f"{row.median_s:.3f}",
                      "" if row.p90_s is None else f"{row.p90_s:.3f}",
                      "" if row.iterations is None else f"{row.iterations:.0f}", f"{row.actions:.0f}"))
    widths = [max(len(line[i]) for line in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))).rstrip()
             for line in cells]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded games per table (default 40)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--level", action="append", choices=sorted(LEVELS), help="only this level (repeatable)")
    parser.add_argument("--vs", action="append", choices=("random", "rules"), help="only this opponent")
    parser.add_argument("--players", choices=("all", "ends"), default="all",
                        help="every player count, or each game's fewest and most")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: every CPU)")
    parser.add_argument("--quick", action="store_true", help="one short game per table: checks the bench works")
    args = parser.parse_args(argv)
    names = args.game or [g.name for g in all_games()]
    levels = args.level or list(LEVELS)
    opponents = args.vs or ["random", "rules"]
    started = time.perf_counter()
    out(f"courtier bots bench{' (quick: figures mean nothing)' if args.quick else ''}: "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, {args.jobs} processes")
    out("levels: " + ", ".join(f"{l.name} {l.iterations} iterations" for l in LEVELS.values()))
    rows = []
    todo = tables(names, levels, opponents, "ends" if args.quick else args.players)
    if args.quick:
        todo = [t for t in todo if t.bot == levels[0] and t.players == get_game(t.game).min_players]
    for table in todo:
        row = measure(table, 1 if args.quick else args.games, args.jobs if not args.quick else 1,
                      QUICK_LEVEL if args.quick else None)
        rows.append(row)
        out(format_rows([row]).splitlines()[-1])
    out("")
    out(format_rows(rows))
    out("")
    out("won: games the bot won (a shared win counts its share); ahead: opponent seats it finished ahead of; "
        "95 % Wilson intervals. Target: strong beats >= 90 % of the random seats and >= 60 % of the rule-based "
        "ones it plays against (the 'ahead' rate; '(unsure)': the target lies inside its interval). "
        f"Strong's median decision time: <= {STRONG_MEDIAN_S} s ('slow' when not). Times are CPU seconds of "
        "decisions the bot searched; iterations by budget, no wall-time cut.")
    out(f"bench took {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
