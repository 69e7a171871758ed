"""The flow: walking the machine's transitions directly agrees with the transitions machine's own trigger."""

from __future__ import annotations

import random

import pytest

from engine.codec import to_data
from engine.games import all_games
from engine.match import Match
from engine.testing import play_random


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
