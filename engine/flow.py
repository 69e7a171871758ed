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
the tests play whole games both ways to show the two agree. The transitions
are read back once, per phase, with consecutive steps that share their first
condition grouped under one test of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from transitions import Machine

Condition = Callable[[Any], bool]
Callback = Callable[[Any], None]

_MAX_STEPS = 32  # a settle that takes more steps than this is a flow bug


@dataclass(frozen=True, eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Step:
    """One declared transition: from `source` to `dest` when every condition holds, then run `after`."""

    source: str | Sequence[str]
    dest: str
    when: Sequence[Condition] = ()
    after: Callback | None = None
    doc: str = ""


@dataclass(eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Flow:
    """The phase machine of one game."""

    phases: Sequence[str]
    initial: str
    steps: Sequence[Step]
    machine: Machine = field(init=False, repr=False)
    _table: dict[str, tuple[Group, ...]] = field(init=False, repr=False)

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
        # Read the machine's transitions back, per phase and in order, as the game's own functions of
        # the state, and group them: consecutive steps whose first condition is the same function
        # share one test of it (Tennō tries "the turn's fights are over" and then, under it, the game's
        # end, gaps, rewards, or the next turn). Each group is (its first condition, its steps), each
        # step (the rest of its conditions as one function or None, dest, its callback or None).
        self._table = {phase: _grouped(t, plain) for phase, t in self.machine.events["advance"].transitions.items()}

    def settle(self, state: Any, through_machine: bool = False) -> list[str]:
        """Take transitions until none applies; return the phases entered, in order."""
        entered: list[str] = []
        table = self._table
        for _ in range(_MAX_STEPS):
            for first, steps in table.get(state.phase, ()):
                if first(state):
                    for rest, dest, after in steps:
                        if rest is None or rest(state):
                            break
                    else:
                        continue
                    break
            else:
                return entered
            if through_machine:
                if not self.machine.events["advance"].trigger(state):
                    raise RuntimeError(f"flow: a step from {state.phase} held but the machine did not move")
            else:
                state.phase = dest
                if after is not None:
                    after(state)
            entered.append(state.phase)
        raise RuntimeError(f"flow did not settle after {_MAX_STEPS} steps (phase {state.phase})")

    def graph_edges(self) -> list[tuple[str, str, str]]:
        """List (source, dest, doc) for each declared transition, for docs and checks."""
        edges = []
        for step in self.steps:
            sources = [step.source] if isinstance(step.source, str) else list(step.source)
            edges.extend((s, step.dest, step.doc) for s in sources)
        return edges


Group = tuple[Condition, tuple[tuple[Condition | None, str, Callback | None], ...]]


def _always(state: Any) -> bool:
    return True


def _grouped(transitions: Sequence[Any], plain: dict[Any, Any]) -> tuple[Group, ...]:
    """A phase's transitions as groups of consecutive steps that share their first condition.

    The conditions are pure functions of the state, so testing a shared first
    condition once and then each step's other conditions in order takes the
    same step as testing every step whole in order.
    """
    groups: list[tuple[Condition, list[tuple[Condition | None, str, Callback | None]]]] = []
    for t in transitions:
        conditions = tuple(plain[c.func] for c in t.conditions)
        first = conditions[0] if conditions else _always
        rest = _all_of(conditions[1:]) if len(conditions) > 1 else None
        after = _each_of(tuple(plain[a] for a in t.after))
        if groups and groups[-1][0] is first:
            groups[-1][1].append((rest, t.dest, after))
        else:
            groups.append((first, [(rest, t.dest, after)]))
    return tuple((first, tuple(steps)) for first, steps in groups)


def _all_of(conditions: tuple[Condition, ...]) -> Condition:
    """One condition that holds when all of `conditions` do, tried in order (the lone condition is
    itself, so no wrapper costs a call)."""
    if len(conditions) == 1:
        return conditions[0]
    first, rest = conditions[0], _all_of(conditions[1:])
    return lambda state: first(state) and rest(state)


def _each_of(callbacks: tuple[Callback, ...]) -> Callback | None:
    """One callback that runs each of `callbacks` in order, or None for none."""
    if not callbacks:
        return None
    if len(callbacks) == 1:
        return callbacks[0]

    def each(state: Any) -> None:
        for callback in callbacks:
            callback(state)
    return each
