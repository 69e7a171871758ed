"""Bad input, tried by machine: random sequences of legal and illegal actions for every game.

Whatever arrives, the engine either applies a legal action or refuses with its
own `IllegalAction`, leaving the state exactly as it was; invariants hold
after every step, and every state survives JSON and replay.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.codec import to_data
from engine.errors import IllegalAction
from engine.games import all_games
from engine.match import Match, same_action

GAMES = [(g.name, n) for g in all_games() for n in (g.min_players, g.max_players)]

junk_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=4),
                        st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=2), st.integers()))


def corrupt(draw, match: Match, legal: list[dict]) -> object:
    """An action that is most likely not legal now, of one of several kinds."""
    kind = draw(st.sampled_from(["field", "seat", "do", "extra", "missing", "junk", "wrong-seat"]))
    base = dict(draw(st.sampled_from(legal))) if legal else {"seat": 0, "do": "x"}
    if kind == "field" and len(base) > 2:
        key = draw(st.sampled_from([k for k in base if k not in ("seat", "do")]))
        base[key] = draw(junk_values)
    elif kind == "seat":
        base["seat"] = draw(st.one_of(st.integers(-2, 9), st.text(max_size=2), st.none()))
    elif kind == "do":
        base["do"] = draw(st.text(max_size=8))
    elif kind == "extra":
        base[draw(st.text(min_size=1, max_size=5))] = draw(junk_values)
    elif kind == "missing":
        base.pop(draw(st.sampled_from(sorted(base))))
    elif kind == "junk":
        return draw(st.one_of(junk_values, st.lists(junk_values, max_size=3)))
    else:
        others = [s for s in range(match.header.players) if s not in match.pending()]
        if others:
            base["seat"] = draw(st.sampled_from(others))
    return base


def is_legal(match: Match, action: object) -> bool:
    if not isinstance(action, dict):
        return False
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < match.header.players:
        return False
    return any(same_action(action, a) for a in match.legal_actions(seat))


@pytest.mark.parametrize("game, players", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_and_illegal_actions_never_break_the_engine(game, players, data):
    match = Match.new(game, players, seed=data.draw(st.integers(0, 2**31), label="seed"))
    for _ in range(data.draw(st.integers(1, 60), label="steps")):
        if match.is_over:
            break
        seat = data.draw(st.sampled_from(match.pending()), label="seat")
        legal = match.legal_actions(seat)
        if data.draw(st.booleans(), label="legal"):
            match.apply(data.draw(st.sampled_from(legal), label="action"))
        else:
            action = corrupt(data.draw, match, legal)
            before = to_data(match.state), list(match.actions)
            was_legal = is_legal(match, action)
            try:
                match.apply(action)
            except IllegalAction as err:
                assert str(err), "the refusal says why"
                assert (to_data(match.state), match.actions) == before, "a refused action changes nothing"
            else:
                assert was_legal, f"{action!r} was applied though it was not legal"
        match.game.check_invariants(match.state)
    back = Match.from_data(json.loads(json.dumps(match.to_data())))
    assert back.state == match.state
    again = Match.replay(match.header, match.actions)
    assert to_data(again.state) == to_data(match.state)
