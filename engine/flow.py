"""A game's phases and their order, declared as data and run by a `transitions` machine.

Each game lists its phases and its `advance` transitions in order; the first
transition from the current phase whose conditions hold is taken. Conditions
and callbacks are plain functions of the game state. One machine serves every
match of a game: the state object is the machine's model only while a trigger
runs, so states stay plain dataclasses that copy and serialise freely.
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
    _sources: set[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        def cond(fn: Condition) -> Callable[[Any], bool]:
            return lambda event: fn(event.model)

        def call(fn: Callback) -> Callable[[Any], None]:
            return lambda event: fn(event.model)

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
        self._sources = {s for step in self.steps
                         for s in ([step.source] if isinstance(step.source, str) else step.source)}

    def settle(self, state: Any) -> list[str]:
        """Take transitions until none applies; return the phases entered, in order."""
        entered = []
        event = self.machine.events["advance"]
        for _ in range(_MAX_STEPS):
            if state.phase not in self._sources or not event.trigger(state):
                return entered
            entered.append(state.phase)
        raise RuntimeError(f"flow did not settle after {_MAX_STEPS} steps (phase {state.phase})")

    def graph_edges(self) -> list[tuple[str, str, str]]:
        """List (source, dest, doc) for each declared transition, for docs and checks."""
        edges = []
        for step in self.steps:
            sources = [step.source] if isinstance(step.source, str) else list(step.source)
            edges.extend((s, step.dest, step.doc) for s in sources)
        return edges
