"""`courtier play`: open the table, resume or start its game, and run it until quit.

The same runtime serves every way of running a table: headless on a Pi
(buttons and screens), on the emulated table (terminal or window), or with
bots pressing for every seat (for fault-injection runs that kill and restart
the process: each bot choice depends only on the bot seed and the game so
far, so a restarted table plays on exactly as an uninterrupted one).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import random
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from engine.errors import BadOptions, UnknownGame
from engine.games import get_game
from engine.i18n import N_, _, set_language
from engine.options import parse_option_pairs, resolve_options
from hardware.errors import HardwareError, ScreenError

from .bots import RandomBot
from .exits import StartupError
from .table.paths import state_dir
from .report import print_result
from .table.runtime import Runtime
from .public import PublicTable
from .table.runtime import DeviceFault

if TYPE_CHECKING:
    from .public import PublicDisplay

_log = logging.getLogger(__name__)

RECORDING_UIS = ("terminal", "braille", "window")  # the front-ends that draw the table, so --record has frames


def cmd_play(args: argparse.Namespace) -> int:
    from hardware.errors import TableConfigError
    from hardware.factory import backend_name, open_table
    from hardware.table import EMULATOR_PUBLIC_SCREEN, emulator_table, load_table

    from .table.lock import TableLock
    from .table.session import asked_by_game, open_session, prepare_state_dir

    game = get_game(args.game) if args.game else None
    if args.table:
        try:
            config = load_table(Path(args.table))
        except TableConfigError as err:
            raise StartupError(_("{error} (fix the table file, then start again)").format(
                error=err.render(_))) from None
        if not getattr(args, "lang", None) and config.language:
            set_language(config.language)  # the table file's language, unless --lang says another
        table_options = checked_table_options(config)
    else:
        config = emulator_table(args.players or (game.min_players + 1 if game else 3),
                                public_screen=EMULATOR_PUBLIC_SCREEN)
        table_options = {}
    backend = backend_name(config.backend)
    ui = args.ui or ("none" if backend == "pi" else "terminal")
    if args.record and ui not in RECORDING_UIS:
        # Nothing draws the table's picture without an emulator front-end: a recording would stay empty.
        raise StartupError(_("--record saves the picture of the emulated table, which --ui {ui} does not "
                             "draw: use --ui {uis}").format(ui=ui, uis=", ".join(RECORDING_UIS)))
    if ui in ("terminal", "braille") and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise HardwareError(_("the terminal table needs a terminal (stdin and stdout are not one here): "
                              "use --ui none to run the table headless, or --ui window for a window"))
    players = args.players or len(config.seats)
    need_seats(players, len(config.seats))
    named = [s.name for s in config.seats[:players]]
    names = named if args.table and not all(n == f"Seat {i + 1}" for i, n in enumerate(named)) else None
    directory = Path(args.state_dir) if args.state_dir else state_dir()
    prepare_state_dir(directory)  # the one check of the directory: the lock, then the saved game, live in it
    try:
        lock = TableLock.acquire(directory)  # held until this process ends: one table per directory
    except OSError as err:
        raise StartupError(_("cannot lock the state directory {directory} ({reason}): give the user "
                             "running courtier write access to it").format(directory=directory,
                                                                           reason=err.strerror)) from None
    with lock, contextlib.ExitStack() as opened:
        # SIGTERM (`systemctl stop`, `kill`) ends every front-end as Ctrl-C does, from here on.
        terminated = opened.enter_context(until_terminated())
        # A table file's screens say "starting..." while the saved game loads (a long game takes a while).
        early = opened.enter_context(open_table(config, backend)) if args.table else None
        if early is not None:
            show_starting(early)
        options = parse_option_pairs(args.option)
        session = open_session(directory, args.game, args.players, seed=args.seed,
                               options=options, names=names, new=args.new,
                               seats=len(config.seats) if args.table else None, default_players=players,
                               table_options=table_options)
        for message in session.messages:
            print(message, flush=True)
        # A game begun anew at the table is asked what this one was: the file's options and the command's.
        asked = asked_by_game(table_options, session.match.header.game, options)
        return _run_table(args, config, backend, ui, session, directory, early, terminated, asked)


def checked_table_options(config: Any) -> dict[str, dict[str, Any]]:
    """The table file's rule options by game, each block checked against its game's declared options.

    The table file knows no games: a block for an unknown game, an unknown
    option or a bad value is found here, and refused before anything starts.
    """
    checked = {}
    for game, given in config.options.items():
        try:
            resolve_options(get_game(game).options, given, game)
        except (UnknownGame, BadOptions) as err:
            raise StartupError(_("{file}: [options.{game}]: {error} (fix the table file, then start again)").format(
                file=config.source, game=game, error=err)) from None
        checked[game] = dict(given)
    return checked


def need_seats(players: int, seats: int) -> None:
    """Refuse a game for more players than the table has seats (`play` and `demo` alike)."""
    if players > seats:
        raise HardwareError(_("{players} players need {players} seats; the table has {seats}").format(
            players=players, seats=seats))


def _run_table(args: argparse.Namespace, config: Any, backend: str, ui: str, session: Any, directory: Path,
               early: Any = None, terminated: threading.Event | None = None,
               asked: dict[str, dict[str, Any]] | None = None) -> int:
    """Run the session's game on the table: `early`, the table file's table already open, or a new one.

    Whichever loop runs the table ends once `terminated` is set (SIGTERM),
    between two events. A new game started at the table takes its game's
    options in `asked` (see `add_session_commands`).
    """
    from hardware.factory import open_table
    from hardware.table import EMULATOR_PUBLIC_SCREEN, emulator_table

    match = session.match
    if not args.table and len(config.seats) != match.header.players:
        # A resumed game keeps its own player count.
        config = emulator_table(match.header.players, public_screen=EMULATOR_PUBLIC_SCREEN)
    bots = bot_seats(config.seats[: match.header.players], args.bot, match.header.players)
    with (contextlib.nullcontext(early) if early is not None else open_table(config, backend)) as table:
        panels, serial_seats = seat_panels(table.seats[: match.header.players])
        for seat in bots:
            panels[seat] = None  # a bot's screen would show its secrets to whoever looks
        if early is not None:
            # It said "starting...": nobody sits at a bot's seat, nor at one the game has no player for.
            for seat in (*bots, *range(match.header.players, len(table.seats))):
                clear_screen(table.seats[seat])
        runtime = Runtime(match, panels, session.journal, languages=session.languages)
        add_session_commands(runtime, directory, asked)
        players = None
        if bots:
            from .table.bot_seats import BotSeats

            players = BotSeats(runtime, bots, seed=args.bot_seed)
        public = PublicTable(bots=bots).attach(runtime)
        display = public_display(runtime, public, table)
        for message in session.messages:
            public.note(message)
        if session.alarm:  # a saved game lost to the table: every seat is shown where it is kept
            runtime.announce(_("Saved game"), session.messages)
        elif session.notice:
            runtime.tell_every_seat(session.notice)
        table.on_event = unless_bot(runtime.post, bots)
        page = start_web(args.web or (config.web.listen if config.web else None), public, runtime)
        public.refresh()  # the start-up notes are in every channel's first snapshot
        console = None
        if args.console:
            from hardware.link import Link

            from .links.serial_seats import CONSOLE_MAX_LINE, HostConsole

            console = HostConsole(Link(args.console, baudrate=args.console_baudrate,
                                       max_line=CONSOLE_MAX_LINE, name="console"), runtime, public=public)
        if display is not None and ui in ("none", "bots"):
            display.start()  # its own thread: a slow or broken public screen never delays a button
        try:
            # One thread for the pods, one for the console: a slow console never delays a pod's button.
            stop = terminated.is_set if terminated is not None else lambda: False
            with pumps(runtime, serial_seats, console):
                if ui == "none":
                    serve(runtime, stop=stop)
                elif ui == "bots":
                    play_bots(runtime, args.bot_seed, level=args.bots, stop=stop)
                else:
                    run_emulator(runtime, table, ui, public, args.record, display, stop=stop)
        except KeyboardInterrupt:
            pass
        finally:
            if page is not None:
                page.close()
            if players is not None:
                players.cancel()
            if display is not None:
                display.close()
            if console is not None:
                console.close()
            if runtime.journal is not None:
                runtime.journal.close()
    print_result(runtime.match)
    return 0


def start_web(listen: str | None, public: PublicTable, runtime: Runtime) -> Any:
    """Serve the table's LAN page when `--web` or the table file's [web] block asks for it."""
    if not listen:
        return None
    try:
        from .public.web import start_page

        return start_page(public, runtime, listen)
    except (ImportError, OSError) as err:
        # The table plays on without its page: a port in use must not keep a game from starting.
        message = _("The table page is off: {error}").format(error=err)
        print(message, file=sys.stderr, flush=True)
        public.note(message)
        return None

def public_display(runtime: Runtime, public: PublicTable, table: Any) -> PublicDisplay | None:
    """Draw the public snapshots on the table's public screen, if it has one.

    The display is fed the snapshots alone. A fault of its screen is queued to
    the runtime like a button event, so every seat's screen notes it, naming
    the screen in the seat's own language (not this thread's).
    """
    if table.public_screen is None:
        return None

    from .public import PublicDisplay  # only a table with a public screen draws one

    def tell(error: str) -> None:
        runtime.post(DeviceFault(N_("Public"), error))

    return PublicDisplay(table.public_screen, clock=runtime.clock, on_fault=tell).follow(public)


def add_session_commands(runtime: Runtime, directory: Path,
                         asked: dict[str, dict[str, Any]] | None = None) -> None:
    """Give the runtime the commands that need the saved games: end the game, start a new one.

    Ending keeps the game's journal under games/ and starts the same game
    anew on the same seats; a new game may name another game (as many
    players as there are seats). Either is asked the options `asked` holds
    for its game (the table file's, and `courtier play --option`'s for the
    game it opened: `asked_by_game`); the command's own options win.
    """
    from engine.match import Match

    from .table.session import in_force, new_seed, start_game

    def new_game(game: str | None = None, players: int | None = None,
                 options: dict[str, Any] | None = None) -> str:
        seats = runtime.match.header.players
        if players is not None and players != seats:
            return _("This table has {seats} seats: a new game is for {seats} players, not {players}").format(
                seats=seats, players=players)
        name = game or runtime.match.header.game
        match = Match.new(name, seats, seed=new_seed(), options=in_force(name, options, asked),
                          names=get_game(name).table_names(runtime.match.names, seats))
        # The new journal is saved before the old game moves; if it cannot be, the old game plays on.
        journal, _moved = start_game(directory, match, runtime.match)
        if runtime.journal is not None:
            runtime.journal.close()
        runtime.replace_match(match, journal)
        return _("A new game of {title} begins").format(title=_(get_game(name).title))

    runtime.commands["new_game"] = new_game
    runtime.commands["end_game"] = lambda: new_game()


def serve(runtime: Runtime, stop: Callable[[], bool] = lambda: False, watchdog: Any = None) -> None:
    """The headless table: handle events as they come, until `stop()`.

    Under systemd (Type=notify, WatchdogSec=) it says READY once the table
    runs and pings the watchdog from this loop, so a hung loop, not just a
    dead process, gets the service restarted.
    """
    if watchdog is None:
        from systemd_watchdog import WatchDog

        watchdog = WatchDog()
    watchdog.ready()
    watchdog.status(f"playing {runtime.match.header.game}")
    # Wake at least four times per watchdog period (the library pings at half of it).
    wait = min(0.5, watchdog.timeout / 4_000_000)
    while not stop():
        if not runtime.step(timeout=wait):
            runtime.tick()
        watchdog.ping()


@contextlib.contextmanager
def until_terminated() -> Any:
    """An event that SIGTERM (`systemctl stop`, `kill`) sets, so the table's loop ends between two events.

    Python's default for SIGTERM ends the process where it stands: the
    panels would keep their last frame lit (an OLED burns in), the table
    page would vanish mid-answer, the journal stay open and a terminal stay
    in curses' mode. Every front-end's loop (headless, terminal, window,
    bots) polls this one event, so each closes as on Ctrl-C. A SIGTERM
    while the game still loads is kept until the loop starts, which then
    ends at once. Signals reach only
    the main thread, so a table run elsewhere (a test's thread) keeps the
    handler it found.
    """
    terminated = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield terminated
        return
    previous = signal.signal(signal.SIGTERM, lambda _signum, _frame: terminated.set())
    try:
        yield terminated
    finally:
        signal.signal(signal.SIGTERM, previous)


def unless_bot(post: Callable[[Any], None], bots: dict[int, str]) -> Callable[[Any], None]:
    """Pass on button events, but none of a bot's seat: nobody sits there (the emulator has keys for it)."""
    def handler(event: Any) -> None:
        if event.seat not in bots:
            post(event)
    return handler


def show_starting(table: Any) -> None:
    """Say "starting..." on every seat's screen; a screen that fails is left for the runtime to report."""
    from .table.faces import boot_face
    from .table.render import render_face

    for seat in table.seats:
        if seat.screen is None:
            continue
        try:
            seat.screen.show(render_face(boot_face(seat.name, _("starting...")), seat.screen.size))
        except ScreenError as err:
            _log.warning("%s: %s", seat.name, err)


def clear_screen(seat: Any) -> None:
    if seat.screen is not None:
        try:
            seat.screen.clear()
        except ScreenError as err:
            _log.warning("%s: %s", seat.name, err)


def seat_panels(seats: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """Each seat's screen, or its serial pod (``links.serial_seats``, loaded only for a table that has pods)."""
    if any(getattr(seat, "link", None) is not None for seat in seats):
        from .links.serial_seats import seat_panels as with_pods

        return with_pods(seats)
    return [seat.screen for seat in seats], []


def pumps(runtime: Runtime, serial_seats: Sequence[Any], console: Any) -> Any:
    """One thread for the pods, one for the console, each only when there is something to poll."""
    stack = contextlib.ExitStack()
    if serial_seats or console is not None:
        from .links.serial_seats import SerialPump

        if serial_seats:
            stack.enter_context(SerialPump(runtime, serial_seats))
        if console is not None:
            stack.enter_context(SerialPump(runtime, console=console))
    return stack


def bot_seats(seats: Sequence[Any], given: Sequence[str] | None, players: int) -> dict[int, str]:
    """The seats bots play: the table file's `bot` seats, then each `--bot SEAT=KIND` (seats from 1)."""
    bots = {seat.index: seat.bot for seat in seats if getattr(seat, "bot", None)}
    if given:
        from engine.bots import KINDS, UnknownBot  # the bots load only when a seat is given one
    for pair in given or ():
        number, _sep, kind = pair.partition("=")
        if not number.strip().isdigit() or not 1 <= int(number) <= players:
            raise BadOptions(_("--bot {pair}: give a seat from 1 to {players}, then = and a bot ({bots}), "
                               "e.g. --bot 3=normal").format(pair=pair, players=players, bots=", ".join(KINDS)))
        if kind not in KINDS:
            raise UnknownBot(_("--bot {pair}: no bot called {kind} (bots: {bots})").format(
                pair=pair, kind=repr(kind), bots=", ".join(KINDS)))
        bots[int(number) - 1] = kind
    if len(bots) == players:
        raise BadOptions(_("every seat would be a bot: leave at least one for a person "
                           "(courtier demo plays a game of bots)"))
    return bots


def play_bots(runtime: Runtime, seed: int, out: Any = None, level: str | None = None,
              stop: Callable[[], bool] = lambda: False) -> None:
    """Bots press for every seat until the game ends or `stop()`; "ack N" is printed once action N is saved.

    Without a `level` the bots choose at random, each choice depending only on
    the seed and the game so far (the fault-injection runs rely on exactly
    these choices); with one, the search at that level plays every seat.

    While the disk refuses the journal, "refused N: why" is printed once and
    the bots keep pressing until a write succeeds.
    """
    out = out or sys.stdout
    match = runtime.match
    searchers = {}
    refused = False
    while not runtime.match.is_over and not stop():
        match = runtime.match
        seat = match.pending()[0]
        if level is None:
            bot = RandomBot(0)
            bot.rng = random.Random(f"{seed}:{len(match.actions)}")  # depends only on the game so far
            action = bot.choose(match.legal_actions(seat), match.game.free_actions)
        else:
            from engine.bots import make_bot

            searcher = searchers.setdefault(seat, make_bot(level, seed * 1000 + seat))
            action = searcher.choose(match.game, match.state, seat, len(match.actions))
        if runtime.submit(action):
            print(f"ack {len(runtime.match.actions)}", file=out, flush=True)
            refused = False
        elif runtime.save_fault:
            # The disk refuses writes: say so once, then press again now and then, as players would.
            if not refused:
                print(f"refused {len(match.actions) + 1}: {runtime.save_fault}", file=out, flush=True)
            refused = True
            runtime.step(timeout=0.02)


def run_emulator(runtime: Runtime, table: Any, ui: str, log: PublicTable, record: str | None,
                 public: PublicDisplay | None = None, stop: Callable[[], bool] = lambda: False) -> None:
    """Show the emulated table in the terminal or a window, with keys for every seat's buttons, until quit or `stop()`.

    The front-end's loop draws the public screen too (`public`), so its pages turn as it polls.
    """
    from . import emulator

    recorder = None
    if record:
        # The public screen too: its pages turn between actions, and each turn is a frame.
        recorder = emulator.Recorder(record, kind="png" if record.endswith("/") else "gif", log=log,
                                     public=public)
    try:
        if ui == "window":
            frontend = emulator.WindowFrontend(table, log=log, recorder=recorder, seats=len(runtime.seats),
                                               public=public)
        else:
            frontend = emulator.TerminalFrontend(table, log=log, recorder=recorder, pixels=ui == "braille",
                                                 seats=len(runtime.seats), public=public)
        with frontend:
            frontend.run(runtime, stop)
    finally:
        if recorder is not None:
            recorder.close()
