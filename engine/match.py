"""A match: one game being played, its header, its state and the actions accepted so far.

The header (game, players, seed, options, names) plus the action list replays
to the identical state; that is what the journal, undo, tests and bug reports
rely on. `apply` checks an action against the legal ones before anything
changes, so a refused action changes nothing; it then changes the state in
place (copying every state per action cost most of the engine's time), and
if a rule ever failed halfway it rebuilds the state by replay before raising,
so a failing action never leaves a half-changed state either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from operator import is_
from typing import Any, Iterable, Sequence

from .codec import from_data, to_data
from .errors import BadJournal, EngineError, IllegalAction
from .game import Action, Game, Prompt, Result, View
from .games import get_game
from .i18n import N_, reader_names
from .options import resolve_options
from .physical import inverse
from .rng import Rng

FORMAT_VERSION = 1
_SCALARS = (int, str, bool, type(None))
_UNKNOWN = object()  # a result not worked out yet for the current state


@dataclass(frozen=True)
class Header:
    """Everything needed, besides the actions, to rebuild a match."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    version: int = FORMAT_VERSION

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "names": list(self.names),
            "version": self.version,
        }

    @classmethod
    def from_data(cls, data: Any) -> "Header":
        if not isinstance(data, dict):
            raise BadJournal(N_("the header is not a JSON object"))
        missing = [k for k in ("game", "players", "seed") if k not in data]
        if missing:
            raise BadJournal(N_("the header lacks {keys}"), keys=", ".join(missing))
        if data.get("version", FORMAT_VERSION) != FORMAT_VERSION:
            raise BadJournal(N_("journal format {version} is not {expected}"), version=str(data.get("version")),
                             expected=FORMAT_VERSION)
        players, seed = data["players"], data["seed"]
        if type(players) is not int or type(seed) is not int:  # JSON's true is no integer here
            raise BadJournal(N_("the header's players and seed must be integers"))
        options = data.get("options", {})
        names = data.get("names", [])
        if not isinstance(options, dict) or not isinstance(names, list):
            raise BadJournal(N_("the header's options must be an object and its names a list"))
        return cls(str(data["game"]), players, seed, dict(options), tuple(str(n) for n in names))


def check_action_shape(action: Any) -> Action:
    """Refuse anything that is not a small JSON-safe action record."""
    if not isinstance(action, dict):
        raise IllegalAction(N_("an action is an object with a 'seat' and a 'do'"))
    seat, do = action.get("seat"), action.get("do")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(do, str):
        raise IllegalAction(N_("an action needs an integer 'seat' and a string 'do'"))
    for key, value in action.items():
        items = value if isinstance(value, list) else [value]
        if not isinstance(key, str) or not all(isinstance(v, _SCALARS) for v in items):
            raise IllegalAction(N_("action field {key} is not a plain value"), key=repr(key))
    return action


class Match:
    """A game in progress. Build one with `Match.new`, `Match.replay` or `Match.from_data`."""

    def __init__(self, game: Game, header: Header, state: Any, actions: list[Action] | None = None):
        self.game = game
        self.header = header
        self._legal: dict[int, list[Action]] = {}
        self._decided: dict[int, list[Action]] = {}  # kept across a free action (`Game.free_actions`)
        self._pending: list[int] | None = None  # likewise
        self._result: Result | None | object = _UNKNOWN
        self.changes = 0  # counts changes of the state through this match, so others can tell theirs is stale
        self.state = state
        self.actions: list[Action] = list(actions or [])

    @property
    def state(self) -> Any:
        """The game state; change it only through `apply` (setting it anew forgets what was cached)."""
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        self._state = state
        self._forget()

    def _forget(self) -> None:
        """Drop what was worked out from the state (legal actions, the result): it changed."""
        self._legal = {}
        self._decided = {}
        self._pending = None
        self._result = _UNKNOWN
        self.changes += 1
        # Set by `undo`: the state's steps are then the undo's, and these are its last action's own.
        self._prior_moves: list[dict[str, Any]] | None = None

    # --- building -------------------------------------------------------
    @classmethod
    def new(
        cls,
        game_name: str,
        players: int,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        names: Sequence[str] | None = None,
    ) -> "Match":
        from .errors import BadOptions

        game = get_game(game_name)
        if not game.min_players <= players <= game.max_players:
            raise BadOptions(N_("{game} is for {low} to {high} players, not {players}"), game=game.name,
                             low=game.min_players, high=game.max_players, players=players)
        resolved = resolve_options(game.options, options, game.name)
        given = tuple(names or ())
        if given and len(given) != players:
            raise BadOptions(N_("{count} seat names for {players} players"), count=len(given), players=players)
        header = Header(game.name, players, seed, resolved, given or tuple(game.seat_names(players)))
        state = game.setup(players, Rng.seeded(seed), resolved)
        game.flow.settle(state)
        return cls(game, header, state)

    @classmethod
    def replay(cls, header: Header, actions: Iterable[Action]) -> "Match":
        """Rebuild a match by applying `actions` to the header's new game."""
        try:
            match = cls.new(header.game, header.players, header.seed, header.options, header.names)
        except EngineError as err:
            raise BadJournal(N_("cannot start the saved game: {error}"), error=err) from err
        for number, action in enumerate(actions, 1):
            try:
                match.apply(action)
            except IllegalAction as err:
                raise BadJournal(N_("saved action {number} does not replay: {error}"), number=number, error=err) from err
        return match

    # --- playing --------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return self.header.names

    @property
    def is_over(self) -> bool:
        result = self._result
        if result is _UNKNOWN:
            result = self._result = self.game.result(self._state)
        return result is not None

    def pending(self) -> list[int]:
        """The seats with a decision to make now, kept until the game moves on; do not change it."""
        pending = self._pending
        if pending is None:
            pending = self._pending = [] if self.is_over else self.game.pending(self._state)
        return pending

    def legal_actions(self, seat: int) -> list[Action]:
        """What `seat` may do now: its pending decision, or an action open at any time (a payment).

        The list is kept until the state changes, since the runtime asks for
        every seat on every press (and a bot for every step of its search);
        do not change it.
        """
        cached = self._legal.get(seat)
        if cached is not None:
            return cached
        if not 0 <= seat < self.header.players:
            return []
        game = self.game
        if self.is_over:
            cached = []
        elif game.free_actions:  # the seat's decisions are kept across a payment; its payments are not
            decided = self._decided.get(seat)
            if decided is None:
                decided = self._decided[seat] = game.decisions(self._state, seat)
            cached = [*decided, *game.open_actions(self._state, seat)]
        else:
            cached = game.legal_actions(self._state, seat)
        self._legal[seat] = cached
        return cached

    def apply(self, action: Any) -> list[dict[str, Any]]:
        """Apply one action and return the public events it caused; raise IllegalAction otherwise.

        An action that is one of the records `legal_actions` handed out for
        the current state (the same object, as menus and bots pass them back)
        is legal by construction and goes straight to the rules; anything
        else is checked for shape and against the legal list first.
        """
        legal = None
        if type(action) is dict:
            seat = action.get("seat")
            legal = self._legal.get(seat) if type(seat) is int else None
        if not legal or not _issued(action, legal):
            self._check(action)
        game, state = self.game, self._state
        try:
            events = game.perform(state, action)
            moved = action["do"] not in game.free_actions  # a payment never moves the game on
            if moved:
                game.flow.settle(state)
        except Exception:
            # A rule that fails halfway must not leave a half-changed game: rebuild it by replay.
            self.state = Match.replay(self.header, self.actions).state
            raise
        # What `_forget` does, written out (this runs for every action of every game played), but
        # who is pending and what they must decide stay as they were after a free action.
        self._legal = {}
        if moved:
            self._decided = {}
            self._pending = None
        self._result = _UNKNOWN
        self.changes += 1
        self._prior_moves = None
        self.actions.append(dict(action))
        return events

    def _check(self, action: Any) -> None:
        """Raise IllegalAction unless `action` is a well-formed legal action now."""
        action = check_action_shape(action)
        seat = action["seat"]
        if self.is_over:
            raise IllegalAction(N_("the game is over"))
        if not 0 <= seat < self.header.players:
            raise IllegalAction(N_("there is no seat {seat} at a {players}-player table"), seat=seat,
                                players=self.header.players)
        legal = self.legal_actions(seat)
        if not legal:
            waiting = tuple(self.names[s] for s in self.game.pending(self.state)) or N_("nobody")
            raise IllegalAction(N_("{name} has nothing to decide now (waiting for {waiting})"),
                                name=self.names[seat], waiting=waiting)
        try:
            found: Action | None = legal[legal.index(action)]  # the list's own comparison, in C
        except ValueError:
            found = None
        if found is None or not same_action(action, found):
            kinds = sorted({a["do"] for a in legal})
            if action["do"] not in kinds:
                raise IllegalAction(N_("{name} cannot {do} now; the choices are: {kinds}"), name=self.names[seat],
                                    do=repr(action["do"]), kinds=", ".join(kinds))
            raise IllegalAction(N_("{name}: {action} is not a legal {do} now"), name=self.names[seat],
                                action=describe_action(action), do=repr(action["do"]))

    def take_back(self) -> None:
        """Take the last action back quietly: replay minus the tail (an action that could not be saved)."""
        if not self.actions:
            raise IllegalAction(N_("there is nothing to take back"))
        again = Match.replay(self.header, self.actions[:-1])
        self.state, self.actions = again.state, again.actions

    def undo(self) -> dict[str, Any]:
        """Take the last action back at the table; return the public event that says so.

        Unlike `take_back`, the state afterwards tells the table what was taken
        back and the physical steps that reverse it (the action's own steps
        turned around), as the last action's events, so every public channel
        shows them.
        """
        if not self.actions:
            raise IllegalAction(N_("there is nothing to take back"))
        action = self.actions[-1]
        undone = self._prior_moves if self._prior_moves is not None else self.game.last_moves(self.state)
        self.take_back()
        prior = self.game.last_moves(self.state)  # kept for an undo to follow: `taken_back` replaces them
        event = self.game.taken_back(self.state, action, inverse(undone))
        self._prior_moves = prior
        return event

    # --- what may be seen -------------------------------------------------
    def view(self, seat: int) -> View:
        return self.game.view(self.state, seat)

    def public_view(self) -> View:
        return self.game.public_view(self.state)

    def prompt(self) -> Prompt:
        return self.game.public_prompt(self.game.public_view(self.state), reader_names(self.names))

    def result(self) -> Result | None:
        """The result once the game is over, else None; worked out once per state."""
        result = self._result
        if result is _UNKNOWN:
            result = self._result = self.game.result(self.state)
        return result  # type: ignore[return-value]

    # --- saving -----------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        return {"header": self.header.to_data(), "state": to_data(self.state), "actions": list(self.actions)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "Match":
        header = Header.from_data(data.get("header"))
        game = get_game(header.game)
        state = from_data(game.state_type, data.get("state"))
        return cls(game, header, state, list(data.get("actions", [])))


def _issued(action: Action, legal: list[Action]) -> bool:
    """Whether `action` is itself one of the records of `legal` (found by identity): one the match
    handed out for the current state, legal by construction."""
    return any(map(is_, legal, repeat(action)))  # by identity alone, in C: no record is compared


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def same_action(a: Action, b: Action) -> bool:
    """Equal field by field and type by type: `True` is not the seat or slot 1, though Python says so."""
    return a == b and all(_same_value(a[k], b[k]) for k in a)  # == alone would take True for 1


def describe_action(action: Action) -> str:
    """Spell an action's fields for an error message."""
    fields = ", ".join(f"{k}={v}" for k, v in action.items() if k not in ("seat", "do"))
    return f"{action['do']}({fields})"
