"""Starting a table's game: resume the unfinished one from its journal, or begin anew.

The current game lives in `current.jsonl` in the state directory. A finished
or replaced game is moved under `games/`; a journal that cannot be read is
kept aside under a new name, never overwritten, and the table is told where.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from engine.errors import BadJournal
from engine.match import Match

from . import journal as journals
from .journal import Journal
from .paths import CURRENT, archive_name

_log = logging.getLogger(__name__)


@dataclass
class Session:
    match: Match
    journal: Journal
    messages: list[str] = field(default_factory=list)
    resumed: bool = False


def new_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


def open_session(directory: Path, game: str | None, players: int, *, seed: int | None = None,
                 options: dict[str, Any] | None = None, names: Sequence[str] | None = None,
                 new: bool = False, default_game: str = "tenno") -> Session:
    """Resume the unfinished game in `directory` when it fits the request, else start one."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / CURRENT
    messages: list[str] = []
    previous: Match | None = None
    if path.exists():
        try:
            loaded = journals.load(path)
            previous = Match.replay(loaded.header, loaded.actions)
        except BadJournal as err:
            aside = journals.keep_aside(path)
            messages.append(f"The saved game could not be read ({err}). It is kept as {aside}. A new game starts.")
            _log.error(messages[-1])
        else:
            messages.extend(loaded.warnings)
            same = game is None or game == loaded.header.game
            if not new and same and not previous.is_over:
                journal = Journal.resume(path, loaded)
                messages.append(f"Resumed {loaded.header.game} after {len(loaded.actions)} actions.")
                return Session(previous, journal, messages, resumed=True)
    # Make the new game before moving the old one aside, so a bad request loses nothing.
    match = Match.new(game or default_game, players, seed=new_seed() if seed is None else seed,
                      options=options, names=names)
    if previous is not None:
        stem = f"{previous.header.game}-{'finished' if previous.is_over else 'unfinished'}"
        moved = archive_name(directory, stem)
        os.replace(path, moved)
        messages.append(f"The previous game is kept as {moved}.")
    journal = Journal.create(path, match.header)
    return Session(match, journal, messages)
