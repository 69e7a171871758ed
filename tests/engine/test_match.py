"""Match: what it works out once per state, the records it takes back without a second check, and
that a refused or failing action changes nothing."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.codec import to_data
from engine.errors import IllegalAction
from engine.games import all_games
from engine.match import Match
from engine.testing import play_random

ROOT = Path(__file__).resolve().parents[2]


def test_a_legal_record_handed_back_is_applied_and_an_equal_copy_is_still_checked():
    match = Match.new("tenno", 3, seed=2)
    legal = match.legal_actions(0)
    match.apply(legal[0])  # the record itself, as a menu or a bot passes it back
    assert match.actions == [legal[0]]
    assert match.actions[0] is not legal[0], "the log keeps its own copy"
    again = dict(match.legal_actions(1)[0], seat=True)  # equal to seat 1's record for Python, not for us
    with pytest.raises(IllegalAction):
        match.apply(again)
    assert len(match.actions) == 1


def test_a_record_from_an_earlier_state_is_checked_against_the_current_one():
    match = Match.new("tenno", 2, seed=1)
    old = match.legal_actions(0)[0]
    match.apply(old)
    with pytest.raises(IllegalAction, match="nothing to decide"):
        match.apply(old)  # seat 0 has arranged its row: the old record is no longer legal


def test_the_result_is_worked_out_again_after_every_change():
    match = play_random(Match.new("tenno", 2, seed=3), random.Random(3))
    assert match.is_over and match.result() is not None
    match.take_back()
    assert not match.is_over and match.result() is None, "undo forgets the result"
    match.apply(match.legal_actions(match.pending()[0])[0])
    assert match.result() == match.game.result(match.state)


def test_starting_a_game_imports_that_game_alone():
    code = ("import sys; from engine.games import get_game; get_game('tenno'); "
            "print(sorted(m for m in sys.modules if m.startswith('engine.games.') and m.count('.') == 2))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['engine.games.tenno']"


def test_an_unknown_game_names_every_known_one():
    from engine.errors import UnknownGame
    from engine.games import get_game

    with pytest.raises(UnknownGame, match="quovadis, shadow, tenno"):
        get_game("chess")
    with pytest.raises(UnknownGame):
        get_game("tenno.rules")  # a module of a game is not a game


@pytest.mark.parametrize("game", ["tenno", "quovadis", "shadow"])
def test_every_legal_action_names_its_seat_then_what_it_does_first(game):
    """A seat's menu asks for an action's fields in the order the record lists them."""
    from engine.testing import reachable_matches

    for match in reachable_matches(game, 3, seed=5, every=4):
        for seat in range(3):
            for action in match.legal_actions(seat):
                assert list(action)[:2] == ["seat", "do"], action


GAMES = [g.name for g in all_games()]


def _midgame(game: str, seed: int = 5, actions: int = 12) -> Match:
    g = next(x for x in all_games() if x.name == game)
    return play_random(Match.new(game, g.min_players + 1, seed=seed), random.Random(seed), limit=actions)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", ["perform", "settle"])
def test_a_rule_that_fails_halfway_never_leaves_a_half_changed_state(game, where, monkeypatch):
    match = _midgame(game)
    seat = match.pending()[0]
    action = match.legal_actions(seat)[0]
    before, actions = to_data(match.state), list(match.actions)
    real = match.game.perform if where == "perform" else match.game.flow.settle
    calls = []

    def half_then_fail(*args):
        result = real(*args)  # the state is changed in place, then the first call fails
        calls.append(args)
        if len(calls) == 1:
            raise RuntimeError("a rule broke")
        return result

    monkeypatch.setattr(match.game if where == "perform" else match.game.flow, where, half_then_fail)
    with pytest.raises(RuntimeError, match="a rule broke"):
        match.apply(action)
    monkeypatch.undo()
    assert to_data(match.state) == before and match.actions == actions
    assert match.legal_actions(seat)[0] == action  # nothing cached from the half-changed state
    match.apply(action)  # and the game goes on from where it was
    assert match.actions == actions + [action]
    assert to_data(match.state) == to_data(Match.replay(match.header, match.actions).state)
