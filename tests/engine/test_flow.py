"""The flow: walking the machine's transitions directly agrees with the transitions machine's own trigger."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.codec import to_data
from engine.games import all_games
from engine.match import Match
from engine.testing import play_random, reachable_matches


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_settling_through_the_machines_trigger_gives_the_same_games(game, monkeypatch):
    g = next(x for x in all_games() if x.name == game)
    players = g.min_players + 1 if g.min_players < g.max_players else g.min_players
    fast = play_random(Match.new(game, players, seed=3), random.Random(3))
    settle = g.flow.settle
    monkeypatch.setattr(g.flow, "settle", lambda state: settle(state, through_machine=True))
    slow = Match.replay(fast.header, fast.actions)
    assert to_data(slow.state) == to_data(fast.state) and slow.is_over


def test_the_machine_refuses_a_flow_with_an_unknown_phase():
    from engine.flow import Flow, Step

    with pytest.raises(ValueError):
        Flow(phases=("a", "b"), initial="a", steps=(Step("a", "c"),))


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_a_flow_built_anew_from_the_games_steps_plays_the_same_games(game, monkeypatch):
    """The machine is built from the declared steps alone: rebuilding it gives the same table and games."""
    from engine.flow import Flow

    g = next(x for x in all_games() if x.name == game)
    built = Flow(phases=g.flow.phases, initial=g.flow.initial, steps=g.flow.steps)
    assert built._table.keys() == g.flow._table.keys()
    assert built.graph_edges() == g.flow.graph_edges()
    assert set(built.machine.states) == set(g.flow.phases) and built.machine.initial == g.flow.initial
    players = g.min_players + 1 if g.min_players < g.max_players else g.min_players
    reference = play_random(Match.new(game, players, seed=4), random.Random(4))
    for through_machine in (False, True):
        monkeypatch.setattr(g, "flow", built)
        monkeypatch.setattr(built, "settle", lambda state, fast=built.settle, slow=through_machine: fast(state, slow))
        again = Match.replay(reference.header, reference.actions)
        monkeypatch.undo()
        assert to_data(again.state) == to_data(reference.state) and again.is_over


def test_the_machine_refuses_an_unknown_phase_in_any_source_or_destination():
    from engine.flow import Flow, Step

    for step in (Step("a", "c", doc="to c"), Step(("a", "x"), "b"), Step("x", "a")):
        with pytest.raises(ValueError, match="names unknown phase"):
            Flow(phases=("a", "b"), initial="a", steps=(step,))
    with pytest.raises(ValueError) as refused:
        Flow(phases=("a", "b"), initial="a", steps=(Step("a", "c", doc="to c"),))
    assert str(refused.value) == "flow step 'to c' names unknown phase 'c'"
    with pytest.raises(ValueError) as refused:
        Flow(phases=("a", "b"), initial="a", steps=(Step("a", "c"),))
    assert str(refused.value) == "flow step 'c' names unknown phase 'c'"


def test_settle_takes_the_first_step_whose_conditions_all_hold_and_runs_its_callback():
    from types import SimpleNamespace

    from engine.flow import Flow, Step

    seen = []
    flow = Flow(phases=("a", "b", "c", "d"), initial="a", steps=(
        Step("a", "b", when=(lambda s: s.go, lambda s: s.far), doc="both hold"),
        Step("a", "c", when=(lambda s: s.go,), after=lambda s: seen.append(s.phase)),
        Step("c", "d", when=(lambda s: s.on,)),
        Step(("b", "d"), "a", when=(lambda s: s.back,)),
    ))
    assert flow.graph_edges() == [("a", "b", "both hold"), ("a", "c", ""), ("c", "d", ""), ("b", "a", ""),
                                  ("d", "a", "")]
    for through_machine in (False, True):
        seen.clear()
        state = SimpleNamespace(phase="a", go=True, far=False, on=True, back=False)
        assert flow.settle(state, through_machine) == ["c", "d"] and seen == ["c"]
        state = SimpleNamespace(phase="a", go=True, far=True, on=True, back=False)
        assert flow.settle(state, through_machine) == ["b"]
        state = SimpleNamespace(phase="a", go=False, far=True, on=True, back=False)
        assert flow.settle(state, through_machine) == [] and state.phase == "a"


def test_a_flow_that_never_settles_is_named():
    from types import SimpleNamespace

    from engine.flow import Flow, Step

    flow = Flow(phases=("a", "b"), initial="a", steps=(Step("a", "b"), Step("b", "a")))
    with pytest.raises(RuntimeError, match=r"flow did not settle after 32 steps \(phase a\)"):
        flow.settle(SimpleNamespace(phase="a"))


# Options under which every free action of a game can be played (Quo Vadis offers demand_reveal
# only when laurels are shown).
FREE_ACTION_OPTIONS = {"quovadis": {"reveal_laurels": True}}


@pytest.mark.parametrize("game", [g.name for g in all_games() if g.free_actions])
def test_a_free_action_never_moves_the_flow(game):
    """The match does not walk the flow after an action open at any time (`Game.free_actions`):
    in whole random games, the flow after each one of each kind has nowhere to go."""
    from engine.clone import clone

    g = next(x for x in all_games() if x.name == game)
    free = Counter()
    for seed in range(6):
        for match in reachable_matches(game, g.max_players, seed, options=FREE_ACTION_OPTIONS.get(game)):
            if match.actions and match.actions[-1]["do"] in g.free_actions:
                free[match.actions[-1]["do"]] += 1
                assert g.flow.settle(clone(match.state)) == [], (seed, len(match.actions), match.actions[-1])
    assert free.total() > 100  # the random games make many
    assert set(free) == g.free_actions  # of every kind


def test_a_step_s_conditions_are_tried_in_order_until_one_fails_and_callbacks_run_in_order():
    from engine.flow import _all_of, _each_of

    calls = []

    def condition(name, holds):
        def check(state):
            calls.append((name, state))
            return holds
        return check

    assert _all_of((condition("a", True), condition("b", False), condition("c", True)))("s") is False
    assert calls == [("a", "s"), ("b", "s")]
    calls.clear()
    assert _all_of((condition("a", True), condition("b", True), condition("c", True)))("t") is True
    assert calls == [("a", "t"), ("b", "t"), ("c", "t")]
    lone = condition("x", True)
    assert _all_of((lone,)) is lone
    seen = []
    assert _each_of(()) is None
    only = seen.append
    assert _each_of((only,)) is only
    _each_of((lambda s: seen.append((1, s)), lambda s: seen.append((2, s)), lambda s: seen.append((3, s))))("u")
    assert seen == [(1, "u"), (2, "u"), (3, "u")]
