"""Starting a table's game: resume the unfinished one from its journal, or begin anew.

The current game lives in `current.jsonl` in the state directory. A finished
or replaced game is moved under `games/`; a journal that was read and found
damaged is kept aside under a new name, never overwritten, and the table is
told where. A journal that could not be read at all (permission denied, an
I/O error) is left where it is and the table refuses to start, saying why:
the file may be perfectly good, and moving it would lose the evening.

A new game's journal is written in full (`current.next.jsonl`, its header
fsynced) before the old game is moved under `games/`, and only then renamed
into place; a power cut at any point leaves either the old game current or
the new one, and the old one is never lost.
"""

from __future__ import annotations

import errno
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from engine.errors import BadJournal
from engine.games import get_game
from engine.i18n import _, ngettext
from engine.match import Match
from engine.options import resolve_options, typed

from ..exits import StartupError
from . import journal as journals
from .journal import Journal, Unreadable
from .paths import CURRENT, NEXT, archive_name

_log = logging.getLogger(__name__)


@dataclass(eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Session:
    """The game a table plays, its journal, and what the table is told of how it began.

    `messages` are told in full (printed, in the public log); `notice` is
    their short form for a seat's screen, shown until the seat's next press
    or the next action; `alarm` says a saved game could not be read, which
    every seat is shown as a page.
    """

    match: Match
    journal: Journal
    messages: list[str] = field(default_factory=list)
    resumed: bool = False
    languages: dict[int, str] = field(default_factory=dict)  # each seat's own language (a resumed game's)
    notice: str = ""
    alarm: bool = False


def new_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


def _what_to_do(err: OSError | Unreadable, directory: Path) -> str:
    if err.errno in (errno.EACCES, errno.EPERM):
        return _("give the user running courtier read and write access to {directory} and everything "
                 "in it (for the service: sudo chown -R courtier: {directory})").format(directory=directory)
    if err.errno == errno.EROFS:
        return _("the file system is read-only: mount it read-write, or set COURTIER_STATE_DIR to a writable "
                 "directory")
    if err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return _("free some space on the card, then start again")
    if err.errno == errno.EIO:
        return _("the card may be failing: copy the state directory off it and check the card")
    return _("fix that, then start again")


def prepare_state_dir(directory: Path) -> None:
    """Make sure the state directory can hold games, or raise StartupError saying what to do."""
    if directory.exists() and not directory.is_dir():
        raise StartupError(_("the state directory {directory} is not a directory: move that file away, "
                             "or set COURTIER_STATE_DIR to a directory").format(directory=directory))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StartupError(_("cannot create the state directory {directory} ({reason}): {what}").format(
            directory=directory, reason=err.strerror, what=_what_to_do(err, directory))) from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise StartupError(_("the state directory {directory} is not writable: {what}").format(
            directory=directory, what=_what_to_do(PermissionError(errno.EACCES, ""), directory)))
    path = directory / CURRENT
    if path.is_symlink() and not path.exists():
        raise StartupError(_("the saved game {path} is a link to {target}, which does not exist: restore the "
                             "file it points to, or remove the link to start a new game").format(
                                 path=path, target=os.readlink(path)))
    if path.exists() and not path.is_file():
        raise StartupError(_("the saved game {path} is not a file: move it away to start a new game").format(
            path=path))


def _recover_next(directory: Path) -> None:
    """Finish or drop a new game's journal that a power cut left beside the current one.

    It holds only a header: if the old game was already moved under games/,
    the new game becomes current; if not, the new game never began.
    """
    pending, path = directory / NEXT, directory / CURRENT
    if not pending.exists():
        return
    if path.exists():
        pending.unlink()
    else:
        os.replace(pending, path)
        journals._fsync_dir(path)


def start_game(directory: Path, match: Match, previous: Match | None) -> tuple[Journal, str | None]:
    """Give `match` the current journal, moving the previous game under games/.

    Returns the journal and, if a previous game was moved, where to.
    Raises OSError if the new journal cannot be written; the previous game
    then stays current, untouched.
    """
    path, pending = directory / CURRENT, directory / NEXT
    pending.unlink(missing_ok=True)
    journal = Journal.create(pending, match.header)
    moved = None
    try:
        if previous is not None and path.exists():
            stem = f"{previous.header.game}-{'finished' if previous.is_over else 'unfinished'}"
            moved = archive_name(directory, stem)
            os.replace(path, moved)
            journals._fsync_dir(moved)
        os.replace(pending, path)
        journals._fsync_dir(path)
    except OSError:
        journal.close()
        if moved is not None and not path.exists():
            os.replace(moved, path)  # put the old game back
        pending.unlink(missing_ok=True)
        raise
    journal.path = path
    return journal, str(moved) if moved else None


def _fits(game: str, players: int) -> bool:
    rules = get_game(game)
    return rules.min_players <= players <= rules.max_players


def open_session(directory: Path, game: str | None, players: int | None, *, seed: int | None = None,
                 options: dict[str, Any] | None = None, names: Sequence[str] | None = None,
                 new: bool = False, default_game: str = "tenno", seats: int | None = None,
                 default_players: int = 3,
                 table_options: Mapping[str, Mapping[str, Any]] | None = None) -> Session:
    """Resume the unfinished game in `directory` when it is the game asked for, else start one.

    `players`, `seed` and `options` are what was asked (None: not asked,
    `default_players` then for a new game); a resumed game keeps its own,
    and the messages say which asked ones it did not use and that `--new`
    starts the asked game instead. `table_options` are the table file's
    rule options by game: a new game takes its game's, `options` winning
    for the same name. `seats` is how many seats the table has:
    a saved game for more players is moved under games/ (the table says
    where) and a new game starts.

    `directory` is one that `prepare_state_dir` found fit, and whose
    table lock the caller holds: the lock lives in it, so the start checks
    it once, before locking.

    Raises:
        StartupError: The state directory or the saved game cannot be used
            for a reason outside the saved game's content; nothing is moved.
    """
    _recover_next(directory)
    path = directory / CURRENT
    messages: list[str] = []
    alarm = False
    previous: Match | None = None
    languages: dict[int, str] = {}  # the saved game's seats' own languages, kept for the game that follows
    if path.exists():
        try:
            loaded = journals.load(path)
            previous = Match.replay(loaded.header, loaded.actions)
        except Unreadable as err:
            raise StartupError(_("the saved game {path} cannot be read ({error}); it is left as it is: {what}")
                               .format(path=path, error=err, what=_what_to_do(err, directory))) from None
        except BadJournal as err:
            try:
                aside = journals.keep_aside(path)
            except OSError as move:
                raise StartupError(_("the saved game {path} is damaged ({error}) and cannot be moved aside "
                                     "({reason}): {what}").format(path=path, error=err.render(), reason=move.strerror,
                                                                  what=_what_to_do(move, directory))) from None
            messages.append(_("The saved game could not be read ({error}). It is kept as {aside}. A new game starts.")
                            .format(error=err.render(), aside=aside))
            alarm = True
            _log.error(messages[-1])
        else:
            messages.extend(loaded.warnings)
            same = game is None or game == loaded.header.game
            languages = dict(loaded.languages)
            too_many = seats is not None and loaded.header.players > seats
            if too_many:
                messages.append(_("The saved game of {title} is for {players} players, but this table has {seats} "
                                  "seats.").format(title=_(get_game(loaded.header.game).title),
                                                   players=loaded.header.players, seats=seats))
            elif not new and same and not previous.is_over:
                try:
                    journal = Journal.resume(path, loaded)
                except OSError as err:
                    raise StartupError(_("the saved game {path} cannot be written ({reason}); it is left as it is: "
                                         "{what}").format(path=path, reason=err.strerror,
                                                          what=_what_to_do(err, directory))) from None
                header = previous.header
                title, count = _(get_game(header.game).title), len(loaded.actions)
                messages.append(ngettext("Resumed {title} ({players} players) after {n} action.",
                                         "Resumed {title} ({players} players) after {n} actions.", count).format(
                    title=title, players=header.players, n=count))
                unused = not_used(previous, players, seed, options, (table_options or {}).get(header.game))
                if unused:
                    messages.append(_("Not used, since the game was resumed: {asked}. To start the game "
                                      "asked for instead, add --new (the resumed game is then kept "
                                      "under games/).").format(asked=", ".join(unused)))
                notice = ngettext("Resumed {title} after {n} action", "Resumed {title} after {n} actions",
                                  count).format(title=title, n=count)
                return Session(previous, journal, messages, resumed=True, notice=notice, languages=languages)
            if too_many and game is None and _fits(loaded.header.game, players or default_players):
                game = loaded.header.game  # the table plays on at the game it was playing
    # Make the new game before moving the old one aside, so a bad request loses nothing.
    rules, count = get_game(game or default_game), players or default_players
    match = Match.new(rules.name, count, seed=new_seed() if seed is None else seed,
                      options=in_force(rules.name, options, table_options), names=rules.table_names(names, count))
    languages = {seat: lang for seat, lang in languages.items() if seat < count}  # the seats the new game has
    try:
        journal, moved = start_game(directory, match, previous)
    except OSError as err:
        raise StartupError(_("cannot save a new game in {directory} ({reason}): {what}").format(
            directory=directory, reason=err.strerror, what=_what_to_do(err, directory))) from None
    notice = ""
    if moved:
        messages.append(_("The previous game is kept as {path}.").format(path=moved))
        _log.warning(messages[-1])
        notice = _("The previous game is kept as {name}").format(name=f"games/{Path(moved).stem}")
    try:
        for seat, lang in languages.items():  # the same people sit down to the new game
            journal.append_language(seat, lang)
    except OSError as err:
        _log.error("the seats' languages could not be saved with the new game: %s", err)
    return Session(match, journal, messages, notice=notice, alarm=alarm, languages=languages)


def in_force(game: str, options: Mapping[str, Any] | None,
             table_options: Mapping[str, Mapping[str, Any]] | None) -> dict[str, Any]:
    """The options asked of a new game of `game`: the table file's for it, the command line's winning."""
    return {**(table_options or {}).get(game, {}), **(options or {})}


def asked_by_game(table_options: Mapping[str, Mapping[str, Any]] | None, game: str,
                  options: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The rule options by game for the games the table starts later: the table file's, and the
    command line's (`options`, asked of `game`, the game the table opened) over them for that game."""
    by_game = {name: dict(given) for name, given in (table_options or {}).items()}
    if options:
        by_game[game] = in_force(game, options, table_options)
    return by_game


def not_used(match: Match, players: int | None, seed: int | None, options: dict[str, Any] | None,
             file_options: Mapping[str, Any] | None = None) -> list[str]:
    """What was asked of a new game that the resumed `match` differs in, as it is typed on the command line
    or, for the table file's options of its game (`file_options`, where the command line does not set
    the same name), as in the file."""
    header = match.header
    unused = []
    if players is not None and players != header.players:
        unused.append(f"--players {players}")
    if seed is not None and seed != header.seed:
        unused.append(f"--seed {seed}")
    file_options = {k: v for k, v in (file_options or {}).items() if k not in (options or {})}
    asked = resolve_options(match.game.options, {**file_options, **(options or {})}, header.game)
    unused += [f"--option {name}={typed(value)}" for name, value in (options or {}).items()
               if asked[name] != header.options.get(name)]
    unused += [f"[options.{header.game}] {name} = {json.dumps(value, ensure_ascii=False)}" for name, value in file_options.items()
               if asked[name] != header.options.get(name)]
    return unused
