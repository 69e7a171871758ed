"""The real table never drifts from the game: every change of a component is told as a step, undo included.

Each game projects its state onto the real table (`Game.physical`); the
tests keep a model of that table from the steps alone and compare the two
after every action of seeded games, for every game and player count.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.games import all_games, get_game
from engine.games.quovadis import rules as quovadis_rules
from engine.games.shadow import decisions as shadow_decisions
from engine.games.tenno import rules as tenno_rules
from engine.match import Match
from engine.physical import BOX, Drift, Table, bare, event_moves, inverse, public, step, tell, turn
from engine.testing import play_on_table, random_action

# Rule options that change what lies where on the table, played besides the defaults.
OPTIONS = {
    "tenno": {"discard_public": False, "monk_on_itself": True, "ronin_swap": "per_fight"},
    "quovadis": {"limited_rewards": True, "finish_last_move": False, "reveal_laurels": True, "open_answers": True,
                 "short_supply": "turn_order", "empty_bag": "reward_token"},
    "shadow": {"vp_open": True, "setup_city": "last", "setup_couple": False, "setup_young_baron": False,
               "setup_elector_vp": 1},
}
GAMES = [(g.name, n) for g in all_games() for n in range(g.min_players, g.max_players + 1)]


@pytest.mark.parametrize("game, players", GAMES)
def test_the_steps_keep_a_model_of_the_real_table_equal_to_the_game_after_every_action_and_undo(game, players):
    for number, options in enumerate(({}, OPTIONS[game])):
        match = play_on_table(game, players, seed=players * 10 + number, options=options, undo=0.15)
        assert match.is_over, "a whole game was played"


@pytest.mark.parametrize("game, module, kind", [
    ("tenno", tenno_rules, "refill"),
    ("quovadis", quovadis_rules, "pay"),
    ("shadow", shadow_decisions, "bought"),
])
def test_a_change_that_reaches_the_table_without_its_step_fails_the_model_test(monkeypatch, game, module, kind):
    told = module.tell

    def forgetful(state, event, *steps):
        return event if event["type"] == kind else told(state, event, *steps)

    monkeypatch.setattr(module, "tell", forgetful)
    players = get_game(game).min_players
    with pytest.raises(AssertionError, match="drifted|no 1 x"):
        for seed in range(5):  # a seeded game that makes that kind of change
            play_on_table(game, players, seed=seed, undo=0.0)


def test_a_lost_thaler_marker_step_or_an_undo_told_the_wrong_way_fails_the_model_test():
    def no_marker(match):
        return [s for s in match.game.last_moves(match.state) if s["what"] != "thaler marker"]

    with pytest.raises(AssertionError, match="drifted"):
        play_on_table("shadow", 2, seed=1, undo=0.0, moves_of=no_marker)

    def not_reversed(match):  # an undo whose steps are the action's own, not their inverse
        return inverse(match.game.last_moves(match.state))

    with pytest.raises(AssertionError):
        play_on_table("tenno", 2, seed=1, undo=0.5, moves_of=not_reversed)


def test_the_model_refuses_a_step_whose_component_is_not_there_and_undo_is_the_exact_inverse():
    table = Table()
    table.apply(step("card", 0, BOX, ["hand", 0], count=2))
    with pytest.raises(Drift):
        table.apply(step("card", 0, ["hand", 0], ["row", 0, 0], count=3))
    steps = [step("card", 0, ["hand", 0], ["row", 0, 0], ("", "down"), (None, 7)),
             turn("card", 0, ["row", 0, 0], ("down", "up"), (7, 7))]
    before = Table()
    before.apply(step("card", 0, BOX, ["hand", 0], count=2))
    for s in steps + inverse(steps):
        table.apply(s)
    assert table == before
    assert [s["back"] for s in inverse(steps)] == [True, True]
    assert inverse(inverse(steps)) == [{**s, "back": False} for s in steps]


def test_bare_events_keep_what_happened_without_the_steps_that_told_it():
    event = tell(SimpleNamespace(moves=[]), {"type": "monk", "seat": 1, "slot": 2}, step("card", 1, ["hand", 1], ["row", 1, 2]))
    events = [event, {"type": "phase"}, "a line"]
    assert bare(events) == [{"type": "monk", "seat": 1, "slot": 2}, {"type": "phase"}, "a line"]
    assert event_moves(events[:2]) == [public(step("card", 1, ["hand", 1], ["row", 1, 2]))]  # untouched


@pytest.mark.parametrize("game, players", [(g.name, g.max_players) for g in all_games()])
def test_the_prompt_carries_the_public_steps_of_the_last_action_and_says_each_in_words(game, players):
    import random

    match = Match.new(game, players, seed=3)
    rng = random.Random(3)
    while not match.is_over:
        prompt = match.prompt()
        whole = match.game.last_moves(match.state)
        assert list(prompt.moves) == [public(s) for s in whole]
        words = match.game.describe_moves(prompt.moves, match.names)
        back = match.game.describe_moves(inverse(prompt.moves), match.names)
        for line in words + back:
            assert line and "None" not in line and "{" not in line, line
        assert bool(words) == bool(prompt.moves) and bool(back) == bool(prompt.moves)
        match.apply(random_action(match, rng))
