"""The game protocol every game module implements, and the records it exchanges.

A game is a set of pure functions over a state dataclass (the rules), a
`Flow` (the phases), rule options, and text functions that turn a seat's view
into the words a screen shows. The firmware only ever sees views, prompts and
actions; it never reads a state.

Must override: `setup`, `pending`, `legal_actions`, `perform`, `result`,
`view`, `public_view`, `physical` (the real table, see `engine.physical`),
`taken_back` (what an undo tells), and the words: `public_prompt`,
`header`, `panel`, `ask`, `label`, `describe_event`, `describe_moves`. The words are functions of a view (or
of public steps) and the seat names only, so a screen cannot show what its
seat may not know.
May override: `seat_names`, `redeal` (for the secrets property tests),
`check_invariants` (for the whole-game tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

from .flow import Flow
from .i18n import N_, _
from .options import RuleOption
from .physical import tell
from .rng import Rng

Action = dict[str, Any]
View = dict[str, Any]


@dataclass(frozen=True)
class Prompt:
    """What the whole table is told now: one short line, and the physical steps to make.

    `steps` are the words; `moves` the public physical steps of the last
    action as data (`engine.physical`), which the words tell among them.
    """

    line: str
    steps: tuple[str, ...] = ()
    moves: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Result:
    """The end of a game: scores, winners (several on a shared win), each seat's breakdown."""

    scores: dict[int, int]
    winners: tuple[int, ...]
    breakdown: dict[int, dict[str, int]] = field(default_factory=dict)
    reason: str = ""

    def to_data(self) -> dict[str, Any]:
        return {
            "scores": {str(k): v for k, v in self.scores.items()},
            "winners": list(self.winners),
            "breakdown": {str(k): v for k, v in self.breakdown.items()},
            "reason": self.reason,
        }


def waiting_line(seats: Sequence[int], names: Sequence[str]) -> str:
    """Whom a seat waits for, short enough for one screen line."""
    if len(seats) == 1:
        return _("Waiting for {name}").format(name=names[seats[0]])
    if len(seats) <= 2:
        return _("Waiting: {names}").format(names=", ".join(names[s] for s in seats))
    return _("Waiting for {n} seats").format(n=len(seats))


def action_name(actions: dict[str, str], do: Any) -> str:
    """An action's kind in the reader's words, from a game's `ACTIONS` (its id when it has none)."""
    return _(actions[do]) if do in actions else str(do)


def told_kind(actions: dict[str, str], do: Any) -> Any:
    """The kind an undo's public event names: of kinds a game's `ACTIONS` name alike, the first.

    Kinds named alike are one to the table (Quo Vadis's support and refuse are each an "answer",
    secret until every answer is in), so taking one back must not say which it was.
    """
    name = actions.get(do)
    return do if name is None else next(kind for kind, named in actions.items() if named == name)


def taken_back_line(event: dict[str, Any], names: Sequence[str], actions: dict[str, str]) -> str:
    """What an undo's event tells the table: whose action, named by the game's `ACTIONS`, is taken back."""
    return _("{who}'s {what} is taken back").format(who=names[event["seat"]], what=action_name(actions, event["do"]))


class Game:
    """Base class of a game definition; one instance per game, registered on import."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[RuleOption, ...]] = ()
    # Kinds of action open at any time, not only to pending seats (a payment between players). They
    # never move the game on, so the match does not walk the flow after one, and they change neither
    # who is pending nor any seat's `decisions`, so the match keeps those across one.
    free_actions: ClassVar[frozenset[str]] = frozenset()
    # Kinds of action that show the table something hidden (a card turned up, ballots counted, a
    # draw from the bag): taking one back at the table needs every other seat's agreement.
    revealing_actions: ClassVar[frozenset[str]] = frozenset()
    # Kinds of action a seat is asked to confirm before they are made (hard to take back alone).
    confirm_actions: ClassVar[frozenset[str]] = frozenset()
    # Kinds of action a seat makes from its table menu, not its game menu: a demand any player may
    # make now and then (Quo Vadis's reveal of the laurels), which no question of the game asks for.
    table_actions: ClassVar[frozenset[str]] = frozenset()
    state_type: ClassVar[type]
    flow: Flow
    # A whole game never takes more accepted actions than this; generic tests rely on it.
    max_actions: ClassVar[int] = 10_000

    # --- the rules -------------------------------------------------------
    def setup(self, players: int, rng: Rng, options: dict[str, Any]) -> Any:
        """Return the starting state (its `phase` set, its `rng` stored)."""
        raise NotImplementedError

    def pending(self, state: Any) -> list[int]:
        """Return the seats that have a decision to make now (several during a secret vote)."""
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Return every action `seat` may take now; empty when it has nothing to decide.

        A pending seat must have at least one. Other seats may have actions open
        at any time (a payment between players), which never hold up the game.
        """
        raise NotImplementedError

    def decisions(self, state: Any, seat: int) -> list[Action]:
        """The first part of `legal_actions`: what `seat` may do about its pending decision.

        A game with `free_actions` lists them apart (`open_actions`, listed after these), so
        that the match works the decisions out once per move of the game, not once per payment.
        """
        return self.legal_actions(state, seat)

    def open_actions(self, state: Any, seat: int) -> Sequence[Action]:
        """The rest of `legal_actions`: the `free_actions` open to `seat` now."""
        return []

    def perform(self, state: Any, action: Action) -> list[dict[str, Any]]:
        """Apply a legal action to `state` in place; return the public events it caused."""
        raise NotImplementedError

    def result(self, state: Any) -> Result | None:
        """Return the result once the game is over, else None."""
        raise NotImplementedError

    # --- what each seat may know ----------------------------------------
    def view(self, state: Any, seat: int) -> View:
        """Return only what `seat` may know."""
        raise NotImplementedError

    def public_view(self, state: Any) -> View:
        """Return what everyone at the table may know."""
        raise NotImplementedError

    def private_view(self, state: Any, seat: int) -> View:
        """Return what only `seat` may know: `view(state, seat)` is the public view with these keys added."""
        raise NotImplementedError

    # --- the real table ----------------------------------------------------
    def physical(self, state: Any) -> Any:
        """Return the `engine.physical.Table` the state puts on the real table, face-down things included."""
        raise NotImplementedError

    def last_moves(self, state: Any) -> list[dict[str, Any]]:
        """Return the physical steps of the last action (of the setup before any), whole."""
        return list(state.moves)

    def taken_back(self, state: Any, action: Action, steps: list[dict[str, Any]]) -> dict[str, Any]:
        """Make the state, just replayed without `action`, tell the table that it was taken back and
        the `steps` that reverse it, as its last action's events; return that event."""
        raise NotImplementedError

    def action_title(self, action: Action) -> str:
        """Name an action's kind for a question about it ("row arrangement": "Undo Green's row arrangement?")."""
        return str(action.get("do", ""))

    # --- words, from a view and the seat names alone ----------------------
    def public_prompt(self, view: View, names: Sequence[str]) -> Prompt:
        """Return the public line and physical steps for the current moment, from the public view."""
        raise NotImplementedError

    def header(self, view: View, names: Sequence[str]) -> str:
        """Return the seat screen's top line: round, phase, whose turn."""
        raise NotImplementedError

    def panel(self, view: View, names: Sequence[str]) -> list[str]:
        """Return the seat's private figures, one short line each."""
        raise NotImplementedError

    def ask(self, view: View, names: Sequence[str], choosing: str = "") -> str:
        """Return what the seat must decide now, or what it waits for.

        `choosing` is the field the seat's menu asks for now (the game may word
        each step of a choice differently: "Attack with:", then "Attack whom?").
        """
        raise NotImplementedError

    def label(self, view: View, key: str, value: Any, names: Sequence[str], chosen: dict[str, Any]) -> str:
        """Name one choice of a menu level: `key` is the action field being chosen,
        `chosen` the fields picked at the levels above."""
        raise NotImplementedError

    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str:
        """Say one public event in words (for the table log and the demo)."""
        raise NotImplementedError

    def describe_moves(self, moves: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
        """Say public physical steps in words, in order (a few alike ones may share a line)."""
        raise NotImplementedError

    def standings(self, view: View, names: Sequence[str]) -> list[str]:
        """The public standings for the table menu's "show scores", one short line each."""
        return []

    def rules_help(self, view: View, names: Sequence[str]) -> list[str]:
        """A few short lines of rules for the current phase, for the table menu's "rules help"."""
        return []

    # --- optional --------------------------------------------------------
    def seat_names(self, players: int) -> list[str]:
        return [f"Seat {i + 1}" for i in range(players)]

    def table_names(self, names: Sequence[str] | None, players: int) -> list[str] | None:
        """The names a new game gives the seats of a table whose seats are called `names`
        (None: the game's own, `seat_names`)."""
        return list(names[:players]) if names else None

    def redeal(self, state: Any, seat: int, rng: Rng) -> Any:
        """Return a copy of `state` with everything `seat` may not know re-drawn consistently."""
        raise NotImplementedError

    def check_invariants(self, state: Any) -> None:
        """Raise AssertionError if a state breaks a conservation rule."""


# Every game's menus show "2/5" beside a choice: said once, after each game's own legend.
MENU_HELP = N_("2/5 beside a choice: choice 2 of 5; prev and next move along, ok chooses.")


class ModularGame(Game):
    """A game whose rules, views and words are three modules of pure functions.

    A subclass names its modules and its facts; every method of `Game` is then
    served by a function of the same name in them:

    - `rules`: setup, pending, legal_actions, perform, result, redeal, check_invariants,
      keep_events (the state's last action's events, set anew after an undo);
    - `views`: view, public_view, private_view;
    - `tabletop`: physical (the state's real table);
    - `text`: prompt (the public prompt), header, panel, ask, label,
      describe_event, move_lines (words of physical steps), standings,
      ACTIONS (an action's kind -> its name), HELP (phase -> lines of
      rules help) and LEGEND (the screen's short words; or `legend()`
      where they are built from data).
    """

    rules: ClassVar[Any]
    views: ClassVar[Any]
    tabletop: ClassVar[Any]
    text: ClassVar[Any]
    colours: ClassVar[Sequence[str]] = ()  # seat names by default, in seating order

    # Called once or more for every action of every game (bots play whole games to choose):
    # a subclass gets its rules module's own functions for these, so a call costs no extra frame.
    _HOT = ("pending", "legal_actions", "perform", "result")
    # Bound the same way when the rules module has them (a game with `free_actions`); else `Game`'s.
    _SPLIT = ("decisions", "open_actions")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        rules = cls.__dict__.get("rules")
        if rules is None:
            return
        for name in cls._HOT + tuple(n for n in cls._SPLIT if hasattr(rules, n)):
            if name not in cls.__dict__:
                setattr(cls, name, staticmethod(getattr(rules, name)))

    def setup(self, players: int, rng: Rng, options: dict[str, Any]) -> Any:
        return self.rules.setup(players, rng, options)

    def pending(self, state: Any) -> list[int]:
        return self.rules.pending(state)

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        return self.rules.legal_actions(state, seat)

    def perform(self, state: Any, action: Action) -> list[dict[str, Any]]:
        return self.rules.perform(state, action)

    def result(self, state: Any) -> Result | None:
        return self.rules.result(state)

    def redeal(self, state: Any, seat: int, rng: Rng) -> Any:
        return self.rules.redeal(state, seat, rng)

    def check_invariants(self, state: Any) -> None:
        self.rules.check_invariants(state)

    def view(self, state: Any, seat: int) -> View:
        return self.views.view(state, seat)

    def public_view(self, state: Any) -> View:
        return self.views.public_view(state)

    def private_view(self, state: Any, seat: int) -> View:
        return self.views.private_view(state, seat)

    def physical(self, state: Any) -> Any:
        return self.tabletop.physical(state)

    def taken_back(self, state: Any, action: Action, steps: list[dict[str, Any]]) -> dict[str, Any]:
        do = told_kind(getattr(getattr(self, "text", None), "ACTIONS", {}), action["do"])  # a game may have no words
        event: dict[str, Any] = {"type": "undo", "seat": action["seat"], "do": do}
        state.moves = []
        tell(state, event, *steps)
        self.rules.keep_events(state, [event])
        return event

    def action_title(self, action: Action) -> str:
        return action_name(getattr(self.text, "ACTIONS", {}), action.get("do", ""))

    def seat_names(self, players: int) -> list[str]:
        return list(self.colours[:players]) if len(self.colours) >= players else super().seat_names(players)

    def table_names(self, names: Sequence[str] | None, players: int) -> list[str] | None:
        """A game whose pieces have colours names its seats by them, so each player takes the
        matching pieces: the table's names only when they are such colours, one per seat."""
        given = list(names[:players]) if names else []
        if not self.colours or len(self.colours) < players:
            return given or None
        if len(given) == players and len(set(given)) == players and set(given) <= set(self.colours):
            return given
        return None

    def public_prompt(self, view: View, names: Sequence[str]) -> Prompt:
        return self.text.prompt(view, names)

    def header(self, view: View, names: Sequence[str]) -> str:
        return self.text.header(view, names)

    def panel(self, view: View, names: Sequence[str]) -> list[str]:
        return self.text.panel(view, names)

    def ask(self, view: View, names: Sequence[str], choosing: str = "") -> str:
        return self.text.ask(view, names, choosing)

    def label(self, view: View, key: str, value: Any, names: Sequence[str], chosen: dict[str, Any]) -> str:
        return self.text.label(view, key, value, names, chosen)

    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str:
        return self.text.describe_event(event, names)

    def describe_moves(self, moves: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
        return self.text.move_lines(moves, names)

    def standings(self, view: View, names: Sequence[str]) -> list[str]:
        return self.text.standings(view, names)

    def rules_help(self, view: View, names: Sequence[str]) -> list[str]:
        """The phase's rules, then what the screen's short words mean (the game's LEGEND)."""
        phase = "over" if view.get("over") else view.get("phase")
        rules = [_(line) for line in getattr(self.text, "HELP", {}).get(phase, ())]
        return rules + self.legend() + [_(MENU_HELP)]

    def legend(self) -> list[str]:
        """What the short words on a seat's screen mean: the text's `legend()` where its lines are
        built from data, else its `LEGEND` lines translated."""
        legend = getattr(self.text, "legend", None)
        if legend is not None:
            return legend()
        return [_(line) for line in getattr(self.text, "LEGEND", ())]
