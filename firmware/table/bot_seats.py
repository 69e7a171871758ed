"""Seats played by bots: each decision is thought out on its own thread, and made on the runtime's.

When a bot's seat has a decision to make, `BotSeats` copies the state and
starts a thread that asks the bot (`engine.bots`), with a `should_stop` that
says yes once the level's wall time is spent or the decision is no longer
wanted. The answer comes back as a table command, queued like a button
press, so it is applied on the runtime's own thread, between presses: the
button loop is never blocked by a bot. An undo, a new game, or any action
that changes the game while the bot thinks cancels the thought; its answer,
if it still comes, is dropped.

A bot seat needs no screen and no buttons. Before its action, the public
channels are told which seat's bot played (a `bot` table event), so the
table knows whose pieces the next steps are about. A bot says yes at once
when the people ask to undo or end the game.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from engine.bots import LEVELS, make_bot
from engine.bots.choices import decisions
from engine.clone import clone
from engine.match import Match

from .runtime import Command, Runtime

_log = logging.getLogger(__name__)

COMMAND = "bot_move"


@dataclass
class Thought:
    """One decision being thought out: whose, on which game so far, and how to call it off."""

    key: int
    seat: int
    match: Match
    actions: list[dict[str, Any]]  # the match's actions when the thought began
    cancelled: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def stale(self, match: Match) -> bool:
        """True once the game is not the one the bot was asked about (an undo, a new game, a move)."""
        return match is not self.match or len(match.actions) != len(self.actions) or match.actions != self.actions


class BotSeats:
    """Lets bots play some seats of a runtime's table.

    Args:
        runtime: The table; its watchers tell this of every change, its commands carry the answers.
        bots: Seat index to bot kind ("easy", "normal", "strong", "rules" or "random").
        seed: The bots' seed: with the iteration budget binding, the same game gets the same choices.
        clock: Seconds, for the level's wall-time budget.
        start: Starts a thread running a function (tests may run it at once, on their own thread).
    """

    def __init__(self, runtime: Runtime, bots: Mapping[int, str], seed: int = 0,
                 clock: Callable[[], float] = time.monotonic,
                 start: Callable[[Callable[[], None]], threading.Thread | None] | None = None) -> None:
        self.runtime = runtime
        self.kinds = dict(bots)
        self.bots = {seat: make_bot(kind, seed * 1000 + seat) for seat, kind in self.kinds.items()}
        self.clock = clock
        self.start = start or _thread
        self.thought: Thought | None = None
        self._keys = itertools.count(1)
        self._checking = False
        runtime.commands[COMMAND] = self._answer
        runtime.watchers.append(self.check)
        self.check()

    def seconds(self, seat: int) -> float | None:
        level = LEVELS.get(self.kinds[seat])
        return level.seconds if level is not None else None

    def check(self) -> None:
        """After every change (on the runtime's thread): say yes for the bots, cancel a stale thought,
        start a wanted one."""
        if self._checking:  # agreeing redraws the table, and every redraw calls this again
            return
        self._checking = True
        try:
            self._check()
        finally:
            self._checking = False

    def _check(self) -> None:
        runtime = self.runtime
        while runtime.request is not None:
            # A bot never stands in the way of an undo or the end of a game the people want.
            waiting = [s for s in self.bots if s != runtime.request.by and s not in runtime.request.agreed]
            if not waiting:
                break
            runtime.agree(waiting[0])
        match = runtime.match
        thought = self.thought
        if thought is not None:
            if not thought.stale(match):
                return
            thought.cancelled.set()
            self.thought = None
        if match.is_over or runtime.request is not None:
            return  # nothing to play, or the table is deciding on an undo or the end first
        for seat in match.pending():
            if seat in self.bots and decisions(match.game, match.state, seat):
                self._think(match, seat)
                return

    def cancel(self) -> None:
        """Call off any thought in progress (the table closes)."""
        if self.thought is not None:
            self.thought.cancelled.set()
            self.thought = None

    def _think(self, match: Match, seat: int) -> None:
        thought = Thought(next(self._keys), seat, match, list(match.actions))
        self.thought = thought
        bot, game, turn = self.bots[seat], match.game, len(match.actions)
        state = clone(match.state)  # the runtime goes on changing the real one
        seconds = self.seconds(seat)
        clock = self.clock
        deadline = None if seconds is None else clock() + seconds

        def should_stop() -> bool:
            return thought.cancelled.is_set() or (deadline is not None and clock() > deadline)

        def run() -> None:
            try:
                action = bot.choose(game, state, seat, turn, should_stop)
            except Exception:  # a bot's fault must not stop the table: take the first choice
                _log.exception("the bot of seat %d failed; it takes its first choice", seat + 1)
                action = decisions(game, state, seat)[0]
            if not thought.cancelled.is_set():
                self.runtime.post(Command(COMMAND, {"key": thought.key, "action": action}))

        thought.thread = self.start(run)

    def _answer(self, key: int, action: dict[str, Any]) -> str:
        """A bot's answer, on the runtime's thread: applied if the game is still the one it thought about."""
        thought = self.thought
        match = self.runtime.match
        if thought is None or thought.key != key or thought.stale(match):
            return "stale"
        self.thought = None
        if self.runtime.request is not None:
            return "stale"  # the table is deciding on an undo: think again once it has
        seat = thought.seat
        for listener in self.runtime.listeners:
            listener(match, None, [{"type": "bot", "seat": seat, "level": self.kinds[seat]}])
        if not self.runtime.submit(action):
            if not self.runtime.save_fault:  # a disk that refuses writes is not the bot's fault
                _log.error("the bot of seat %d chose an action the game refused: %s", seat + 1, action)
            self.check()
        return ""


def _thread(run: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=run, name="bot", daemon=True)
    thread.start()
    return thread
