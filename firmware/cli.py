"""The `courtier` command: list games, play at the table, watch a demo, replay a journal."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any, Sequence

from engine.errors import EngineError
from engine.games import all_games, get_game
from engine.match import Match
from engine.options import parse_option_value
from hardware.errors import HardwareError

from . import journal as journals
from .faces import describe
from .paths import archive_name, state_dir

_log = logging.getLogger(__name__)


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise EngineError(f"--option takes NAME=VALUE, not {pair!r}")
        options[name.strip()] = parse_option_value(value)
    return options


# --- games -------------------------------------------------------------------

def cmd_games(args: argparse.Namespace) -> int:
    for game in all_games():
        print(f"{game.name:10} {game.title} ({game.min_players}-{game.max_players} players)")
        if args.verbose:
            for option in game.options:
                print(f"    --option {option.name}={option.default!r}  {option.doc} {option.source}")
    return 0


# --- demo --------------------------------------------------------------------

class Printer:
    """Prints the public side of a game as it is played: each turn, event and the end."""

    def __init__(self, out: Any = None) -> None:
        self.out = out
        self.last_phase: Any = None

    def __call__(self, match: Match, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        out = self.out or sys.stdout
        for event in events:
            print("  " + describe(match, event), file=out)
        view = match.public_view()
        phase = (view.get("phase"), view.get("turn", view.get("round")))
        if phase != self.last_phase and not match.is_over:
            self.last_phase = phase
            print(f"-- {match.prompt().line}", file=out)


def print_result(match: Match, out: Any = None) -> None:
    out = out or sys.stdout
    result = match.result()
    if result is None:
        print(f"Not finished: {match.prompt().line}", file=out)
        return
    print("Final scores:", file=out)
    for seat, score in sorted(result.scores.items(), key=lambda kv: -kv[1]):
        parts = ", ".join(f"{k} {v}" for k, v in result.breakdown.get(seat, {}).items())
        mark = "  <- winner" if seat in result.winners else ""
        print(f"  {match.names[seat]:8} {score:3}   ({parts}){mark}", file=out)
    print(f"Winner: {', '.join(match.names[w] for w in result.winners)}", file=out)


def cmd_demo(args: argparse.Namespace) -> int:
    from hardware.factory import open_table
    from hardware.table import emulator_table

    from .bots import RandomBot
    from .journal import Journal
    from .runtime import Runtime

    game = get_game(args.game)
    players = args.players or min(4, game.max_players)
    match = Match.new(game.name, players, seed=args.seed, options=_options(args.option))
    path = Path(args.journal) if args.journal else archive_name(state_dir(), f"demo-{game.name}-seed{args.seed}")
    journal = Journal.create(path, match.header)
    printer = Printer()
    recorder = log = None
    print(f"{game.title}, {players} players, seed {args.seed}")
    with open_table(emulator_table(players, list(match.names)), "mock") as table:
        listeners: list[Any] = [printer]
        if args.record:
            from .emulator import Recorder, TableLog

            log = TableLog()
            listeners.append(log)
            recorder = Recorder(args.record, kind="png" if args.record.endswith("/") else "gif", log=log)
        runtime = Runtime(match, [seat.screen for seat in table.seats], journal, listeners=listeners)
        if recorder is not None:
            recorder.record(runtime)
        bots = [RandomBot(args.seed * 1000 + seat) for seat in range(players)]
        printer(match, None, [])
        while not match.is_over:
            seat = match.pending()[0]
            runtime.submit(bots[seat].choose(match.legal_actions(seat), game.free_actions))
            if recorder is not None:
                recorder.record(runtime)
        if recorder is not None:
            recorder.close()
    journal.close()
    for step in match.prompt().steps:
        print("  " + step)
    print_result(match)
    print(f"Journal: {path}  ({len(match.actions)} actions; `courtier replay {path}` replays it)")
    if recorder is not None:
        print(f"Recording: {args.record}")
    return 0


# --- replay ------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace) -> int:
    loaded = journals.load(Path(args.file))
    match = Match.replay(loaded.header, loaded.actions)
    for warning in loaded.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        result = match.result()
        print(json.dumps({
            "header": match.header.to_data(),
            "actions": len(match.actions),
            "over": match.is_over,
            "result": result.to_data() if result else None,
            "public_view": match.public_view(),
        }, ensure_ascii=False, indent=2))
        return 0
    h = match.header
    print(f"{get_game(h.game).title}, {h.players} players ({', '.join(h.names)}), seed {h.seed}, "
          f"{len(match.actions)} actions")
    if h.options:
        print("Options: " + ", ".join(f"{k}={v}" for k, v in h.options.items()))
    print_result(match)
    return 0


# --- play --------------------------------------------------------------------

def cmd_play(args: argparse.Namespace) -> int:
    from hardware.factory import backend_name, open_table
    from hardware.table import emulator_table, load_table

    from .runtime import Runtime
    from .session import open_session

    game = get_game(args.game) if args.game else None
    if args.table:
        config = load_table(Path(args.table))
    else:
        wanted = args.players or (game.min_players + 1 if game else 3)
        config = emulator_table(wanted)
    backend = backend_name(config.backend)
    players = args.players or len(config.seats)
    if players > len(config.seats):
        raise HardwareError(f"{players} players need {players} seats; the table has {len(config.seats)}")
    named = [s.name for s in config.seats[:players]]
    names = named if args.table and not all(n == f"Seat {i + 1}" for i, n in enumerate(named)) else None
    session = open_session(Path(args.state_dir) if args.state_dir else state_dir(), args.game, players,
                           seed=args.seed, options=_options(args.option), names=names, new=args.new)
    for message in session.messages:
        print(message)
    match = session.match
    if len(config.seats) != match.header.players and not args.table:
        config = emulator_table(match.header.players)
    ui = args.ui or ("none" if backend == "pi" else "terminal")
    with open_table(config, backend) as table:
        seats = table.seats[: match.header.players]
        listeners: list[Any] = []
        log = recorder = None
        if ui != "none":
            from . import emulator

            log = emulator.TableLog()
            for message in session.messages:
                log.note(message)
            listeners.append(log)
            if args.record:
                recorder = emulator.Recorder(args.record, kind="png" if args.record.endswith("/") else "gif",
                                             log=log)
        runtime = Runtime(match, [seat.screen for seat in seats], session.journal, listeners=listeners)
        table.on_event = runtime.post
        try:
            if ui == "none":
                while True:
                    runtime.step(timeout=0.5)
            if ui == "window":
                frontend = emulator.WindowFrontend(table, log=log, recorder=recorder)
            else:
                frontend = emulator.TerminalFrontend(table, log=log, recorder=recorder, pixels=ui == "braille")
            with frontend:
                frontend.run(runtime)
        except KeyboardInterrupt:
            pass
        finally:
            session.journal.close()
            if recorder is not None:
                recorder.close()
    print_result(runtime.match)
    return 0


# --- entry point ---------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="courtier", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="say more (options, debug log)")
    sub = parser.add_subparsers(dest="command", required=True)

    games = sub.add_parser("games", help="list the games and (with -v) their rule options")
    games.set_defaults(func=cmd_games)

    demo = sub.add_parser("demo", help="bots play a seeded game on the emulated table")
    demo.add_argument("game")
    demo.add_argument("--players", type=int)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    demo.add_argument("--journal", help="where to save the game (default: a new file in the state directory)")
    demo.add_argument("--record", help="save the emulated table as an animated GIF (FILE.gif) or PNG frames (DIR/)")
    demo.set_defaults(func=cmd_demo)

    replay = sub.add_parser("replay", help="replay a journal and print the state and scores")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true", help="print JSON for machines")
    replay.set_defaults(func=cmd_replay)

    play = sub.add_parser("play", help="play at the table (the emulated one off a Pi)")
    play.add_argument("game", nargs="?", help="game to start (default: resume the unfinished one, else tenno)")
    play.add_argument("--players", type=int)
    play.add_argument("--table", help="table file (default on a laptop: an emulated table)")
    play.add_argument("--seed", type=int)
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--new", action="store_true", help="start a new game even if one is unfinished")
    play.add_argument("--ui", choices=("terminal", "braille", "window", "none"),
                      help="how the emulated table is shown: terminal (each screen's words), braille "
                           "(each screen's pixels), window (pygame); default terminal, none on a Pi")
    play.add_argument("--record", help="also save the emulated table as an animated GIF (FILE.gif) or PNG frames (DIR/)")
    play.add_argument("--state-dir", help="where games are saved (default: $COURTIER_STATE_DIR, "
                                          "$STATE_DIRECTORY or ~/.local/state/courtier)")
    play.set_defaults(func=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except (EngineError, HardwareError, OSError) as err:
        print(f"courtier: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
