"""A game's phases and their order, declared as data and held by a `transitions` machine.

Each game lists its phases and its `advance` transitions in order; the first
transition from the current phase whose conditions hold is taken. Conditions
and callbacks are plain functions of the game state. One machine serves every
match of a game, so states stay plain dataclasses that copy and serialise
freely, and the machine can be drawn (transitions' GraphMachine).

`settle` walks the transitions the machine holds without going through its
trigger: a trigger costs its locks, queue, event records and logging on
every move (most actions move a phase), which was most of the engine's time.
`settle(state, through_machine=True)` takes the machine's own trigger, and
the tests play whole games both ways to show the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from transitions import Machine

Condition = Callable[[Any], bool]
Callback = Callable[[Any], None]

_MAX_STEPS = 32  # a settle that takes more steps than this is a flow bug


@dataclass(frozen=True)
class Step:
    """One declared transition: from `source` to `dest` when every condition holds, then run `after`."""

    source: str | Sequence[str]
    dest: str
    when: Sequence[Condition] = ()
    after: Callback | None = None
    doc: str = ""


@dataclass
class Flow:
    """The phase machine of one game."""

    phases: Sequence[str]
    initial: str
    steps: Sequence[Step]
    machine: Machine = field(init=False, repr=False)
    _table: dict[str, tuple[tuple[tuple[Any, ...], str, tuple[Any, ...]], ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for step in self.steps:
            for phase in ([step.source] if isinstance(step.source, str) else list(step.source)) + [step.dest]:
                if phase not in self.phases:
                    raise ValueError(f"flow step {step.doc or step.dest!r} names unknown phase {phase!r}")

        plain: dict[Any, Any] = {}  # the machine's callback -> the game's function of the state

        def cond(fn: Condition) -> Callable[[Any], bool]:
            wrapped = lambda event: fn(event.model)  # noqa: E731
            plain[wrapped] = fn
            return wrapped

        def call(fn: Callback) -> Callable[[Any], None]:
            wrapped = lambda event: fn(event.model)  # noqa: E731
            plain[wrapped] = fn
            return wrapped

        transitions = []
        for step in self.steps:
            spec: dict[str, Any] = {
                "trigger": "advance",
                "source": list(step.source) if not isinstance(step.source, str) else step.source,
                "dest": step.dest,
                "conditions": [cond(c) for c in step.when],
            }
            if step.after is not None:
                spec["after"] = call(step.after)
            transitions.append(spec)
        self.machine = Machine(
            model=None,
            states=list(self.phases),
            initial=self.initial,
            transitions=transitions,
            auto_transitions=False,
            send_event=True,
            model_attribute="phase",
        )
        # Read the machine's transitions back, per phase and in order: (conditions, dest, after),
        # as the game's own functions of the state.
        self._table = {
            phase: tuple((tuple(plain[c.func] for c in t.conditions), t.dest, tuple(plain[a] for a in t.after))
                         for t in ts)
            for phase, ts in self.machine.events["advance"].transitions.items()
        }

    def settle(self, state: Any, through_machine: bool = False) -> list[str]:
        """Take transitions until none applies; return the phases entered, in order."""
        entered: list[str] = []
        table = self._table
        for _ in range(_MAX_STEPS):
            for conditions, dest, after in table.get(state.phase, ()):
                for condition in conditions:  # every condition must hold (a plain loop: no generator)
                    if not condition(state):
                        break
                else:
                    break
            else:
                return entered
            if through_machine:
                if not self.machine.events["advance"].trigger(state):
                    raise RuntimeError(f"flow: a step from {state.phase} held but the machine did not move")
            else:
                state.phase = dest
                for callback in after:
                    callback(state)
            entered.append(state.phase)
        raise RuntimeError(f"flow did not settle after {_MAX_STEPS} steps (phase {state.phase})")

    def graph_edges(self) -> list[tuple[str, str, str]]:
        """List (source, dest, doc) for each declared transition, for docs and checks."""
        edges = []
        for step in self.steps:
            sources = [step.source] if isinstance(step.source, str) else list(step.source)
            edges.extend((s, step.dest, step.doc) for s in sources)
        return edges
