"""The `courtier` command: list games, play at the table, watch a demo, replay a journal."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import select
import sys
from pathlib import Path
from typing import Sequence

from engine.errors import EngineError
from engine.i18n import LANGUAGES, _, normalize, set_language, system_language
from engine.games import all_games, get_game
from engine.match import Match
from engine.options import parse_option_pairs, typed
from hardware.errors import HardwareError, PermanentHardwareError
from hardware.table import BOT_KINDS as KINDS  # engine.bots' names, without loading the bots

from .exits import StartupError, TableBusy
from .table import journal as journals
from .table import garbage
from .table.journal import Unreadable
from . import argparse_words, exits
from .table.paths import archive_name, state_dir
from .play import cmd_play, need_seats
from .report import Printer, print_result
from .table.faces import reader_names

_log = logging.getLogger(__name__)


# --- games -------------------------------------------------------------------

def language(text: str) -> str:
    """A --lang value: a shipped language, by its name or a locale's (zh_TW, zh-Hans, en_GB.UTF-8...)."""
    name = normalize(text)
    if name not in LANGUAGES:
        raise argparse.ArgumentTypeError(_("no language {text!r} (languages: {known})").format(
            text=text, known=", ".join(LANGUAGES)))
    return name


def cmd_games(args: argparse.Namespace) -> int:
    for game in all_games():
        print(_("{name:10} {title} ({low}-{high} players)").format(
            name=game.name, title=_(game.title), low=game.min_players, high=game.max_players))
        if args.verbose or getattr(args, "games_verbose", False):
            for option in game.options:
                choices = _(" (one of: {choices})").format(
                    choices=", ".join(typed(c) for c in option.choices)) if option.choices else ""
                print(f"    --option {option.name}={typed(option.default)}  {_(option.doc)}{choices}")
                print("        " + _("source: {source}").format(source=option.source))
    return 0


# --- demo --------------------------------------------------------------------

def cmd_demo(args: argparse.Namespace) -> int:
    from hardware.factory import open_table
    from hardware.table import EMULATOR_PUBLIC_SCREEN, emulator_table, load_table

    from engine.bots import make_bot

    from .table.journal import Journal
    from .table.runtime import Runtime

    game = get_game(args.game)
    players = args.players or min(4, game.max_players)
    match = Match.new(game.name, players, seed=args.seed, options=parse_option_pairs(args.option))
    path = Path(args.journal) if args.journal else archive_name(state_dir(), f"demo-{game.name}-seed{args.seed}")
    journal = Journal.create(path, match.header)
    printer = Printer()
    recorder = log = None
    print(_("{title}, {players} players, seed {seed}").format(title=_(game.title), players=players, seed=args.seed))
    if args.table:
        config = load_table(Path(args.table))
        need_seats(players, len(config.seats))
        config = dataclasses.replace(config, seats=config.seats[:players])
    else:
        config = emulator_table(players, list(match.names), public_screen=EMULATOR_PUBLIC_SCREEN)
    with open_table(config, "mock") as table:
        seat_lang = {seat: args.lang for seat in range(players)} if args.lang else None
        runtime = Runtime(match, [seat.screen for seat in table.seats], journal, listeners=[printer],
                          languages=seat_lang)
        moment = 0.0  # the public screen's clock: between two moves the table reads every page
        if args.record:
            from .emulator import Recorder
            from .public import PublicDisplay, PublicTable

            log = PublicTable().attach(runtime)
            display = None
            if table.public_screen is not None:
                display = PublicDisplay(table.public_screen, clock=lambda: moment).follow(log)
            recorder = Recorder(args.record, kind="png" if args.record.endswith("/") else "gif", log=log,
                                public=display)
        if recorder is not None:
            recorder.record(runtime)
        # The level's iteration budget alone, no wall time: the same seed plays the same game.
        bots = [make_bot(args.bots, args.seed * 1000 + seat) for seat in range(players)]
        printer(match, None, [])
        while not match.is_over:
            if recorder is not None and recorder.public is not None:
                moment = recorder.public.show_all(moment)
            seat = match.pending()[0]
            runtime.submit(bots[seat].choose(game, match.state, seat, len(match.actions)))
            if recorder is not None:
                recorder.record(runtime)
        if recorder is not None:
            recorder.close()
    journal.close()
    printer.steps(match)
    print_result(match)
    print(_("Journal: {path}  ({n} actions; `courtier replay {path}` replays it)").format(
        path=path, n=len(match.actions)))
    if recorder is not None:
        print(_("Recording: {path}").format(path=args.record))
    return 0


# --- replay ------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace) -> int:
    loaded = journals.load(Path(args.file))
    match = Match.replay(loaded.header, loaded.actions)
    for warning in loaded.warnings:
        print(_("warning: {text}").format(text=warning), file=sys.stderr)
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
    print(_("{title}, {players} players ({names}), seed {seed}, {n} actions").format(
        title=_(get_game(h.game).title), players=h.players, names=", ".join(reader_names(h.names)), seed=h.seed,
        n=len(match.actions)))
    if h.options:
        print(_("Options: {options}").format(options=", ".join(f"{k}={v}" for k, v in h.options.items())))
    print_result(match)
    return 0


# --- report ------------------------------------------------------------------

def cmd_report(args: argparse.Namespace) -> int:
    from .public.report import load_report, report_html, report_text

    report = load_report(Path(args.file))
    for warning in report.warnings:
        print(_("warning: {text}").format(text=warning), file=sys.stderr)
    if args.html:
        try:
            html = report_html(report)
        except ImportError as err:
            print(_("courtier: the HTML report needs the web extra (pip install 'courtier[web]'): {error}")
                  .format(error=err), file=sys.stderr)
            return 2
        Path(args.html).write_text(html, encoding="utf-8")
        print(_("Report: {path}").format(path=args.html))
        return 0
    sys.stdout.write(report_text(report))
    return 0


# --- entry point ---------------------------------------------------------------

def add_language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", type=language, metavar="LANG",
                        help=_("the table's language: {languages} (default: the table file's [table] language, else "
                               "the system locale); with demo, every seat's too").format(languages=", ".join(LANGUAGES)))


def cmd_console(args: argparse.Namespace) -> int:
    """The host console; pyserial and the serial protocol are loaded only when it is asked for."""
    from .links.console import cmd_console as run_console

    return run_console(args)


SELFTEST_TABLE = Path("/etc/courtier/table.toml")
SELFTEST_TIMEOUT = 10.0  # firmware.selftest.DEFAULT_TIMEOUT


def cmd_selftest(args: argparse.Namespace) -> int:
    """The self-test; its cards, prompts and report load only when it is asked for."""
    from .selftest import cmd_selftest as run_selftest

    return run_selftest(args)


def seconds_to_wait(text: str) -> float:
    """`selftest --timeout`: seconds, more than 0 and at most 600."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a number of seconds: {text!r}").format(text=text)) from None
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(_("must be more than 0 and at most 600 seconds, not {text}").format(text=text))
    return value


def add_selftest_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``selftest`` command to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "selftest", help=_("light each screen and ask for each button, to check the wiring"))
    parser.add_argument("--table", default=str(SELFTEST_TABLE),
                        help=_("table file (default {path})").format(path=SELFTEST_TABLE))
    parser.add_argument("--timeout", type=seconds_to_wait, default=SELFTEST_TIMEOUT,
                        help=_("seconds to wait for each button (default {seconds:g})").format(seconds=SELFTEST_TIMEOUT))
    add_language_option(parser)
    parser.set_defaults(func=cmd_selftest)
    return parser


def player_count(text: str) -> int:
    """`--players N`: a whole number of at least one (0 or less is refused, never read as "the default")."""
    try:
        players = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("give a number of players, not {text!r}").format(text=text)) from None
    if players < 1:
        raise argparse.ArgumentTypeError(_("a game needs at least one player, not {n}").format(n=players))
    return players


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="courtier", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help=_("say more (options, debug log)"))
    sub = parser.add_subparsers(dest="command", required=True)

    games = sub.add_parser("games", help=_("list the games and (with -v) their rule options"))
    games.add_argument("-v", "--verbose", dest="games_verbose", action="store_true",
                       help=_("also list every rule option with its default, its values and its source"))
    add_language_option(games)
    games.set_defaults(func=cmd_games)

    demo = sub.add_parser("demo", help=_("bots play a seeded game on the emulated table"))
    demo.add_argument("game")
    demo.add_argument("--players", type=player_count)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    demo.add_argument("--journal", help=_("where to save the game (default: a new file in the state directory)"))
    demo.add_argument("--record", help=_("save the emulated table as an animated GIF (FILE.gif) or PNG frames (DIR/)"))
    demo.add_argument("--bots", choices=KINDS, default="easy",
                      help=_("how the bots play: easy (default), normal, strong, rules (the simple "
                             "rule-based player) or random"))
    demo.add_argument("--table", help=_("emulate the screens of this table file (its public screen too)"))
    add_language_option(demo)
    demo.set_defaults(func=cmd_demo)

    replay = sub.add_parser("replay", help=_("replay a journal and print the state and scores"))
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true", help=_("print JSON for machines"))
    add_language_option(replay)
    replay.set_defaults(func=cmd_replay)

    report = sub.add_parser("report", help=_("the post-game report of a journal: scores, charts, timeline"))
    report.add_argument("file")
    report.add_argument("--html", metavar="OUT", help=_("write it as one self-contained HTML page"))
    add_language_option(report)
    report.set_defaults(func=cmd_report)

    play = sub.add_parser("play", help=_("play at the table (the emulated one off a Pi)"))
    play.add_argument("game", nargs="?", help=_("game to start (default: resume the unfinished one, else tenno)"))
    play.add_argument("--players", type=player_count)
    play.add_argument("--table", help=_("table file (default on a laptop: an emulated table)"))
    play.add_argument("--seed", type=int)
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--new", action="store_true", help=_("start a new game even if one is unfinished"))
    play.add_argument("--ui", choices=("terminal", "braille", "window", "none", "bots"),
                      help=_("how the emulated table is shown: terminal (each screen's words), braille "
                             "(each screen's pixels), window (pygame); none runs the table headless (the "
                             "default on a Pi); bots lets bots press for every seat"))
    play.add_argument("--record", help=_("also save the emulated table as an animated GIF (FILE.gif) or PNG frames (DIR/)"))
    play.add_argument("--state-dir", help=_("where games are saved (default: $COURTIER_STATE_DIR, "
                                            "$STATE_DIRECTORY or ~/.local/state/courtier)"))
    play.add_argument("--bot-seed", type=int, default=0,
                      help=_("with --ui bots: the seed the bots choose by (each choice depends only on it "
                             "and the game so far, so a restarted table plays on the same)"))
    play.add_argument("--bot", action="append", metavar="SEAT=LEVEL",
                      help=_("a bot plays this seat (from 1), e.g. --bot 3=normal; levels: easy, normal, "
                             "strong (also rules, random); repeat for more seats"))
    play.add_argument("--bots", choices=KINDS,
                      help=_("with --ui bots: the bot that plays every seat (default: random choices "
                             "that depend only on --bot-seed and the game so far)"))
    play.add_argument("--console", metavar="PORT",
                      help=_("serve the host console on this serial port (e.g. /dev/serial0)"))
    play.add_argument("--console-baudrate", type=int, default=115200,
                      help=_("line speed of --console (default 115200)"))
    play.add_argument("--web", metavar="[HOST:]PORT",
                      help=_("serve the public table as a page on the local network (no HOST: this "
                             "machine's LAN addresses; 127.0.0.1:PORT for this machine only)"))
    add_language_option(play)
    play.set_defaults(func=cmd_play)
    console = sub.add_parser(
        "console", help=_("watch and run the table from a laptop on the Pi's serial port"),
        description=_("Show the table's public state and send new game, undo and end game."))
    console.add_argument("port", help=_("serial port to the Pi (e.g. /dev/ttyUSB0) or a pyserial URL"))
    console.add_argument("--baudrate", type=int, default=115200, help=_("line speed (default 115200)"))
    add_language_option(console)
    console.set_defaults(func=cmd_console)
    add_selftest_parser(sub)
    return parser


def _asked_language(argv: Sequence[str] | None) -> str:
    """The --lang given anywhere on the command line (so --help speaks it too), else the system locale."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    known, _rest = early.parse_known_args(sys.argv[1:] if argv is None else list(argv))
    lang = normalize(known.lang) if known.lang else ""
    return lang if lang in LANGUAGES else system_language()


def main(argv: Sequence[str] | None = None) -> int:
    asked = _asked_language(argv)
    set_language(asked)  # the words of --help, of argument errors and of the command: --lang, once read
    with argparse_words.speaking(asked):
        args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    if args.func is not cmd_play:
        garbage.release()  # held while the program loaded; `play`'s runtime takes it over once its table runs
    try:
        return args.func(args)
    except PermanentHardwareError as err:
        print(_("courtier: {error}").format(error=err.render(_)), file=sys.stderr)
        return exits.CONFIG
    except (StartupError, TableBusy) as err:
        # One line saying what is wrong and what to do; the status tells systemd whether to retry.
        print(_("courtier: {error}").format(error=err), file=sys.stderr)
        return err.status
    except HardwareError as err:
        print(_("courtier: {error}").format(error=err.render(_)), file=sys.stderr)
        return 2
    except BrokenPipeError as err:
        if _stdout_gone():
            return 1  # the reader went away (`courtier play --ui bots | head`): nothing left to tell it
        print(_("courtier: {error}").format(error=err), file=sys.stderr)
        return 2
    except (EngineError, OSError, Unreadable) as err:
        print(_("courtier: {error}").format(error=err.render() if isinstance(err, EngineError) else err),
              file=sys.stderr)
        return 2


def _stdout_gone() -> bool:
    """Whether standard output's reader has closed it; if so, point it at /dev/null for Python's flush at exit."""
    try:
        fd = sys.stdout.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        gone = any(events & select.POLLERR for _fd, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # no real descriptor (a test's capture), or no poll here
        return False
    if gone:
        os.dup2(os.open(os.devnull, os.O_WRONLY), fd)
    return gone

if __name__ == "__main__":
    sys.exit(main())
