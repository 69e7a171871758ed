"""Hidden victory points (Shadow's default, `vp_open=false`): the table sees who takes VP cards, never how many.

Physically a player takes VP cards from the piles when a rule gives VP and
keeps them face down (41 cards in three denominations, seeds 000/001); the
table sees who took cards and on what occasion, not their worth. So the
public channel must not change when every gain is worth something else:
the same game replayed with other amounts tells the table the very same
things until the cards are turned up at the end.
"""

from __future__ import annotations

import random

import pytest

from engine.games.shadow import decisions, effects, phases
from engine.match import Match
from engine.testing import random_action


def told(match: Match, events: list[dict]) -> tuple:
    """Everything the whole table is told after an action: the public view, the prompt (words and
    steps), the events in words, the standings and the header."""
    view = match.public_view()
    prompt = match.prompt()
    return (view, prompt.line, prompt.steps, prompt.moves, [match.game.describe_event(e, match.names) for e in events],
            match.game.standings(view, match.names), match.game.header(view, match.names))


def play(players: int, seed: int, options: dict, actions: list[dict] | None = None) -> tuple[list[dict], list[tuple]]:
    """Play a seeded game (or replay `actions`), returning the actions and what the table was told
    after each, up to the end of the game (when the VP cards are turned up)."""
    match = Match.new("shadow", players, seed=seed, options=options)
    rng = random.Random(seed)
    played, said = [], [told(match, match.state.changes)]
    while not match.is_over:
        action = actions[len(played)] if actions is not None else random_action(match, rng)
        events = match.apply(action)
        played.append(action)
        if not match.is_over:
            said.append(told(match, events))
    return played, said


def dearer_vp(monkeypatch) -> None:
    """Make every VP gain worth three times as much and one more."""
    gain = effects.gain_vp

    def dearer(state, seat, amount, reason):
        return gain(state, seat, amount * 3 + 1, reason)

    for module in (effects, phases, decisions):
        monkeypatch.setattr(module, "gain_vp", dearer)


@pytest.mark.parametrize("players, seed", [(2, 4), (4, 9)])
def test_what_any_vp_gain_is_worth_changes_nothing_the_table_is_told(monkeypatch, players, seed):
    actions, said = play(players, seed, {})
    assert any("takes VP cards" in line for entry in said for line in entry[4]), "VP were taken"
    dearer_vp(monkeypatch)
    _, again = play(players, seed, {}, actions)
    assert len(again) == len(said)
    for number, (first, second) in enumerate(zip(said, again)):
        assert first == second, f"after action {number}: the public channel tells how much VP was taken"


def test_with_open_vp_the_same_comparison_tells_the_amounts(monkeypatch):
    actions, said = play(2, 4, {"vp_open": True})
    dearer_vp(monkeypatch)
    _, again = play(2, 4, {"vp_open": True}, actions)
    assert said != again, "the comparison can fail: open VP are told"


def test_the_table_is_told_who_takes_vp_cards_and_why_and_the_taker_sees_the_total():
    match = Match.new("shadow", 2, seed=4)
    rng = random.Random(4)
    while not any(e["type"] == "vp" for e in match.state.changes):
        match.apply(random_action(match, rng))
    gain = next(e for e in match.state.changes if e["type"] == "vp")
    assert "amount" not in gain
    line = match.game.describe_event(gain, match.names)
    name = match.names[gain["seat"]]
    assert line.startswith(f"{name} takes VP cards (") and line in match.prompt().steps
    step = next(m for m in match.prompt().moves if m["what"] == "vp cards")
    assert step["value"] == [None, None] and step["hidden"] and step["face"] == ["down", "down"]
    assert match.view(gain["seat"])["me"]["vp"] > 0
