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
from engine.physical import BOX, Drift, Table, bare, event_moves, inverse, made, public, step, tell, tell_made, turn
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
    def forgetting(tell):  # a `tell` (or `tell_made`, for steps made once) that loses that kind's steps
        return lambda state, event, *steps: event if event["type"] == kind else tell(state, event, *steps)

    for name in ("tell", "tell_made"):
        if hasattr(module, name):
            monkeypatch.setattr(module, name, forgetting(getattr(module, name)))
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


def test_a_step_made_once_is_told_as_tell_tells_a_new_one_and_its_record_is_shared_never_copied():
    hidden = step("laurel", -1, ["laurels", 0], ["laurels", 1], ("down", "down"), ("II", "II"), hidden=True)
    shown = step("caesar", -1, ["diamond", "a"], ["diamond", "b"])
    for s in (hidden, shown):
        by_tell, by_made = SimpleNamespace(moves=[]), SimpleNamespace(moves=[])
        once = made(s)
        for _ in range(2):  # told twice: a second event gets the same records
            expected = tell(by_tell, {"type": "x"}, dict(s))
            assert tell_made(by_made, {"type": "x"}, once) == expected
        assert by_made.moves == by_tell.moves == [s, s]
        assert by_made.moves[0] is by_made.moves[1] is s
    assert made(hidden)[1]["value"] == [None, None] and hidden["value"] == ["II", "II"]
    assert made(shown)[1] is shown  # a step the table sees whole is its own public form
    event = tell_made(SimpleNamespace(moves=[]), {"type": "x", "moves": [public(shown)]}, made(hidden))
    assert event["moves"] == [shown, public(hidden)]  # added after the event's steps so far


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


def test_a_turned_component_stays_put_and_keeps_its_hidden_value_for_its_owner():
    flipped = turn("card", 0, ["row", 0, 1], ("down", "up"), ("Daimyo 9", "Daimyo 9"), hidden=True)
    assert flipped["src"] == flipped["dst"] == ["row", 0, 1]
    assert flipped["hidden"] is True and public(flipped)["value"] == [None, None]
    assert turn("card", 0, ["row", 0, 1])["hidden"] is False


def test_taking_with_the_default_face_and_count_takes_one_plain_component():
    table = Table()
    table.put(["hand", 0], "laurel", 0, count=2)
    table.take(["hand", 0], "laurel", 0)
    assert table.contents() == {("hand", 0): {("laurel", 0, "", None): 1}}
    table.take(["hand", 0], "laurel", 0)
    assert table.contents() == {}
    table.take(["hand", 0], "laurel", 0, count=0)  # taking none of a thing from an empty place is no drift
    assert table.contents() == {}


def test_the_box_holds_nothing_a_table_counts():
    table = Table()
    table.put(BOX, "card", 1, "up", "Shogun")
    table.take(BOX, "card", 1, "up", "Shogun", count=5)
    assert table.contents() == {} and table == Table()


def test_a_drift_says_what_was_missing_and_what_the_place_holds():
    table = Table()
    table.put(["row", 0], "card", 0, "down", "Geisha")
    with pytest.raises(Drift) as drift:
        table.take(["row", 0], "card", 0, "up", "Ninja")
    assert str(drift.value) == ("no 1 x ('card', 0, 'up', 'Ninja') at ['row', 0]; "
                                "it holds [\"('card', 0, 'down', 'Geisha')\"]")


def test_the_diff_of_two_tables_names_each_place_that_differs_in_order():
    """Places and their contents in the order of their text: places and values of mixed kinds
    (a row's number, a pile's name; no value, a card's name) cannot be compared otherwise."""
    mine, theirs = Table(), Table()
    mine.put(["row", 1], "card", 1, "up", "Shogun")
    mine.put(["row", "discard"], "card", -1, "up", "Ninja")
    mine.put(["row", 0], "card", 0, "up", None)
    mine.put(["row", 0], "card", 0, "up", "Geisha")
    theirs.put(["row", 0], "card", 0, "up", "Geisha")
    theirs.put(["row", 0], "card", 0, "up", 7)
    theirs.put(["row", "discard"], "card", -1, "up", "Ninja")
    theirs.put(["row", 2], "card", 2, "up", "Ninja")
    assert mine.diff(theirs) == [
        "['row', 0]: [(('card', 0, 'up', 'Geisha'), 1), (('card', 0, 'up', None), 1)] != "
        "[(('card', 0, 'up', 'Geisha'), 1), (('card', 0, 'up', 7), 1)]",
        "['row', 1]: [(('card', 1, 'up', 'Shogun'), 1)] != []",
        "['row', 2]: [] != [(('card', 2, 'up', 'Ninja'), 1)]",
    ]
    assert mine.diff(mine) == []
