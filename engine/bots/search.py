"""Information-set Monte Carlo tree search (IS-MCTS) from one seat's knowledge.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree
Search", in the shape of OpenSpiel's `ismcts`: every iteration imagines one
world the seat cannot tell from the real one (the game's `redeal` of that
seat: everything it may not know re-drawn), plays it down the one shared
tree, and adds what happened to the statistics of the actions it took. An
action's statistics are shared by every world in which it was open, and UCB
weighs it against the number of iterations it was available (its
`available` count), not against its parent's visits, since an action open in
one world may be closed in another.

The bot never looks past `redeal`: the true state is read only through
`legal_actions` of the bot's own seat (which its view fixes) and `redeal`, so
two states the seat cannot tell apart give the same worlds for a given seed,
and the same choice.

Below the tree, a world is played on by the game's rollout policy (random,
or its rules of thumb) for a few actions (`depth`) and then scored by the
game's evaluation (`knowledge`):
whole games are far too long to play out on a Pi within a decision's budget.
A world's hidden score is re-drawn with it (Tennō's face-down prisoners,
other seats' laurels or VP), so the evaluation judges what changed in the
world since it was drawn, added to the mean points of every world drawn so
far: a lucky draw of prisoners is not a good move.
Actions open at any time to any seat (a payment between players) are never
part of a line the search imagines: a bot never pays unasked.

Nothing here reads a clock: the caller passes `should_stop`, which the
firmware backs with its wall-time budget and its cancellation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..game import Action, Game
from ..rng import Rng
from .choices import Key, action_key, decisions
from .knowledge import Knowledge

StopCheck = Callable[[], bool]


@dataclass(frozen=True)
class Budget:
    """How hard to think: iterations of the search, and rollout actions before the evaluation."""

    iterations: int
    depth: int
    exploration: float = 0.7  # UCB's constant, for values between 0 and 1
    bias: float = 0.5  # the pull of the rule-based player's choice at the root, fading with its visits
    per_action: int = 8  # iterations each weighed root action should get: more actions than that are cut


@dataclass
class Edge:
    """One action at one node: times taken, total value to its taker, times it was open."""

    visits: int = 0
    total: float = 0.0
    available: int = 0


@dataclass
class Report:
    """What a search did, for tests and the strength bench."""

    iterations: int = 0
    nodes: int = 0
    root: dict[Key, Edge] = field(default_factory=dict)


class Search:
    """One decision's IS-MCTS, for `seat`, over worlds `redeal` draws from `rng`."""

    def __init__(self, game: Game, knowledge: Knowledge, seat: int, budget: Budget, rng: Rng) -> None:
        self.game = game
        self.knowledge = knowledge
        self.seat = seat
        self.budget = budget
        self.rng = rng
        self.tree: dict[Key, dict[Key, Edge]] = {}
        self.root_actions: list[Action] = []
        self.hint: Key = ()
        self.drawn: list[float] = []  # each seat's points summed over the worlds drawn so far
        self.worlds = 0

    def run(self, state: Any, should_stop: StopCheck | None = None) -> tuple[Action, Report]:
        """Search from `state` (read only through its seat's legal actions and `redeal`); return the choice."""
        actions = decisions(self.game, state, self.seat)
        if not actions:
            raise ValueError(f"seat {self.seat} has nothing to decide")
        report = Report()
        view = self.game.view(state, self.seat) if len(actions) > 1 else None
        if view is not None:
            actions = self.knowledge.prune(view, actions) or actions
        if len(actions) == 1:
            return actions[0], report
        # The rule-based player's choice is where the search starts, and what it leaves only on evidence.
        hint = self.knowledge.rule_choice(view, actions, Rng(self.rng.next64()))
        self.hint = action_key(hint)
        actions = self._shortlist(view, actions)
        self.root_actions = actions  # legal in every world: the seat's view fixes them
        for _ in range(self.budget.iterations):
            if should_stop is not None and should_stop():
                break
            world = self.game.redeal(state, self.seat, self.rng)
            self._iterate(world)
            report.iterations += 1
        root = self.tree.get((), {})
        report.nodes, report.root = len(self.tree), root
        return self._best(actions, root), report

    def _shortlist(self, view: Any, actions: list[Action]) -> list[Action]:
        """The root actions worth the budget: the game's best-ranked ones when there are too many to weigh.

        A hundred iterations spread over fifty actions try each once or twice
        and pick the luckiest; the same iterations over the few actions the
        game's rules of thumb rank best tell them apart (the rule-based
        player's own choice always among them).
        """
        keep = max(2, self.budget.iterations // self.budget.per_action)
        if len(actions) <= keep:
            return actions
        ranks = self.knowledge.rank(view, actions)
        if ranks is None:
            return actions
        order = sorted(range(len(actions)), key=lambda i: -ranks[i])[:keep]
        chosen = set(order)
        chosen.update(i for i, a in enumerate(actions) if action_key(a) == self.hint)
        return [a for i, a in enumerate(actions) if i in chosen]

    @staticmethod
    def _best(actions: list[Action], root: dict[Key, Edge]) -> Action:
        """The most visited action; ties go to the better mean, then to the earlier action."""
        best, best_score = actions[0], (-1, -1.0)
        for action in actions:
            edge = root.get(action_key(action))
            if edge is None:
                continue
            score = (edge.visits, edge.total / edge.visits if edge.visits else 0.0)
            if score > best_score:
                best, best_score = action, score
        return best

    def _iterate(self, world: Any) -> None:
        game, rng = self.game, self.rng
        shift = self._shift(world)
        history: Key = ()
        path: list[tuple[Edge, int]] = []
        in_tree = True
        rollout = 0
        first = True  # the root's decision is the bot's, whoever else is pending beside it
        values: Sequence[float] | None = None
        while values is None:
            outcome = game.result(world)
            if outcome is not None:
                values = self.knowledge.final_values(outcome, shift)
                break
            if first:  # the bot's own decision: the actions it weighs, the same in every world
                actor, actions, first = self.seat, self.root_actions, False
            else:
                pending = game.pending(world)
                if not pending:  # a flow that waits for nobody: score what there is
                    values = self.knowledge.values(world, shift)
                    break
                actor = pending[0]
                actions = decisions(game, world, actor)
            if len(actions) == 1:  # no choice: not a decision of the tree
                self._apply(world, actions[0])
                continue
            if in_tree:
                action, edge, in_tree = self._select(history, actions)
                path.append((edge, actor))
                history = history + (action_key(action),)
            else:
                if rollout >= self.budget.depth:
                    values = self.knowledge.values(world, shift)
                    break
                action = self.knowledge.rollout(world, actor, actions, rng)
                rollout += 1
            self._apply(world, action)
        for edge, who in path:
            edge.visits += 1
            edge.total += values[who]

    def _shift(self, world: Any) -> list[float]:
        """What moves each seat's points in this world to the mean of the worlds drawn so far.

        The hidden part of a score (prisoners, laurels, VP) is re-drawn in every
        world; judged as drawn, it would swamp what the actions did.
        """
        start = self.knowledge.points(world)
        if not self.drawn:
            self.drawn = [0.0] * len(start)
        self.worlds += 1
        self.drawn = [d + p for d, p in zip(self.drawn, start)]
        return [d / self.worlds - p for d, p in zip(self.drawn, start)]

    def _select(self, history: Key, actions: list[Action]) -> tuple[Action, Edge, bool]:
        """Choose in the tree: an action never tried here first (then leave the tree), else the best UCB."""
        node = self.tree.get(history)
        if node is None:
            node = self.tree[history] = {}
        edges = []
        untried = []
        for action in actions:
            key = action_key(action)
            edge = node.get(key)
            if edge is None:
                edge = node[key] = Edge()
            edge.available += 1
            edges.append(edge)
            if edge.visits == 0:
                untried.append(len(edges) - 1)
        root = not history
        hinted = node.get(self.hint) if root else None
        if untried:
            pick = untried[self.rng.below(len(untried))]
            if hinted is not None and hinted.visits == 0:
                pick = next(i for i, e in enumerate(edges) if e is hinted)
            return actions[pick], edges[pick], False
        c, bias = self.budget.exploration, self.budget.bias
        best, best_value = 0, -math.inf
        for i, edge in enumerate(edges):
            value = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if edge is hinted:
                value += bias / (1 + edge.visits) ** 0.5
            if value > best_value:
                best, best_value = i, value
        return actions[best], edges[best], True

    def _apply(self, world: Any, action: Action) -> None:
        self.game.perform(world, action)
        self.game.flow.settle(world)
