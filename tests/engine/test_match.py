"""Match: what it works out once per state, the records it takes back without a second check, and
that a refused or failing action changes nothing."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.codec import to_data
from engine.errors import BadJournal, BadOptions, IllegalAction
from engine.games import all_games
from engine.match import Header, Match, check_action_shape, describe_action, same_action
from engine.testing import play_random, tenno_position

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


@pytest.mark.parametrize("game", [g.name for g in all_games() if g.free_actions])
def test_what_the_match_keeps_across_a_free_action_is_what_the_rules_say_after_it(game):
    """The match keeps who is pending and their decisions across a payment (`Game.free_actions`) and
    works out only what is open at any time again: at every step of random games, for every seat,
    what it hands out equals the rules' own lists for the state as it is."""
    g = next(x for x in all_games() if x.name == game)
    free = 0
    for seed in range(3):
        match = Match.new(game, g.max_players, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            assert match.pending() == g.pending(match.state)
            for seat in range(g.max_players):
                assert match.legal_actions(seat) == g.legal_actions(match.state, seat)
                assert g.legal_actions(match.state, seat) == [*g.decisions(match.state, seat),
                                                              *g.open_actions(match.state, seat)]
            action = random.Random(rng.random()).choice(match.legal_actions(rng.choice(match.pending())))
            if rng.random() < 0.5:  # a payment most steps, so the kept lists are tested across many
                payments = [a for s in range(g.max_players) for a in match.legal_actions(s) if a["do"] in g.free_actions]
                action = rng.choice(payments) if payments else action
            free += action["do"] in g.free_actions
            match.apply(action)
    assert free > 100


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_a_seat_has_legal_actions_exactly_when_it_is_pending_or_may_make_a_free_action(game):
    """Each game's `legal_actions` asks whether the seat is pending its own way, phase by phase: at
    every step of random games, the seats with a decision to take are exactly the pending ones."""
    g = next(x for x in all_games() if x.name == game)
    for seed in range(3):
        match = Match.new(game, g.max_players, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            deciding = {s for s in range(g.max_players)
                        if any(a["do"] not in g.free_actions for a in g.legal_actions(match.state, s))}
            assert deciding == set(match.pending()), match.state.phase
            match.apply(random.Random(rng.random()).choice(match.legal_actions(rng.choice(match.pending()))))


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


@pytest.mark.parametrize("game", GAMES)
def test_undos_in_a_row_each_tell_their_own_actions_steps_back_with_one_replay_each(game, monkeypatch):
    """An undo tells the steps that reverse its action; after an undo the state's steps are the undo's,
    so the next undo needs the action before's own steps: kept from the first undo's replay, not replayed again."""
    from engine.physical import inverse

    match = _midgame(game)
    made = [match.game.last_moves(Match.replay(match.header, match.actions[:n]).state)
            for n in range(len(match.actions), len(match.actions) - 3, -1)]
    replays = []
    replay = Match.replay.__func__

    def counted(cls, header, actions):
        replays.append(len(actions))
        return replay(cls, header, actions)

    monkeypatch.setattr(Match, "replay", classmethod(counted))
    for number, steps in enumerate(made, 1):
        match.undo()
        assert match.game.last_moves(match.state) == inverse(steps), f"undo {number} in a row"
        assert len(replays) == number, f"undo {number} in a row replays {replays}"

# --- the header -----------------------------------------------------------------------------

def test_a_header_round_trips_with_every_field():
    header = Match.new("tenno", 3, seed=9, options={"final_tie": "turn_order"}, names=["A", "B", "C"]).header
    data = header.to_data()
    assert data == {"game": "tenno", "players": 3, "seed": 9, "options": dict(header.options),
                    "names": ["A", "B", "C"], "version": 1}
    assert data["options"]["final_tie"] == "turn_order"
    assert Header.from_data(data) == header
    assert Header.from_data({"game": "tenno", "players": 3, "seed": 9}) == Header("tenno", 3, 9, {}, ())


@pytest.mark.parametrize("data, message", [
    ([], "the header is not a JSON object"),
    ({"game": "tenno"}, "the header lacks players, seed"),
    ({"game": "tenno", "players": 2, "seed": 1, "version": 2}, "journal format 2 is not 1"),
    ({"game": "tenno", "players": 2, "seed": 1, "version": None}, "journal format None is not 1"),
    ({"game": "tenno", "players": "2", "seed": 1}, "the header's players and seed must be integers"),
    ({"game": "tenno", "players": 2, "seed": 1, "options": []},
     "the header's options must be an object and its names a list"),
    ({"game": "tenno", "players": 2, "seed": 1, "names": "AB"},
     "the header's options must be an object and its names a list"),
])
def test_a_bad_header_is_refused_saying_what_is_wrong(data, message):
    with pytest.raises(BadJournal) as refused:
        Header.from_data(data)
    assert str(refused.value) == message


def test_a_headers_names_and_game_are_read_as_text():
    header = Header.from_data({"game": "tenno", "players": 2, "seed": 1, "names": [1, "B"]})
    assert header.names == ("1", "B") and header.players == 2 and header.options == {}


# --- actions: shape, legality, words ------------------------------------------------------

@pytest.mark.parametrize("action, message", [
    ("attack", "an action is an object with a 'seat' and a 'do'"),
    ({"seat": 0}, "an action needs an integer 'seat' and a string 'do'"),
    ({"seat": True, "do": "x"}, "an action needs an integer 'seat' and a string 'do'"),
    ({"seat": 0, "do": 3}, "an action needs an integer 'seat' and a string 'do'"),
    ({"seat": 0, "do": "x", "f": {"a": 1}}, "action field 'f' is not a plain value"),
    ({"seat": 0, "do": "x", "f": [1, [2]]}, "action field 'f' is not a plain value"),
])
def test_an_action_that_is_not_a_small_plain_record_is_refused(action, message):
    with pytest.raises(IllegalAction) as refused:
        check_action_shape(action)
    assert str(refused.value) == message


def test_plain_values_and_lists_of_them_are_accepted():
    action = {"seat": 0, "do": "x", "a": None, "b": True, "c": "s", "d": [1, "2", None]}
    assert check_action_shape(action) is action


def test_refusals_name_the_seat_the_choices_and_the_fields():
    match = tenno_position(3, {}, active=1)
    with pytest.raises(IllegalAction) as refused:
        match.apply({"seat": 0, "do": "attack"})
    assert str(refused.value) == "Red has nothing to decide now (waiting for Blue)"
    with pytest.raises(IllegalAction) as refused:
        match.apply({"seat": 1, "do": "swap"})
    assert str(refused.value) == "Blue cannot 'swap' now; the choices are: attack"
    with pytest.raises(IllegalAction) as refused:
        match.apply({"seat": 1, "do": "attack", "slot": 0, "target": 1, "target_slot": 0})
    assert str(refused.value) == "Blue: attack(slot=0, target=1, target_slot=0) is not a legal 'attack' now"
    with pytest.raises(IllegalAction) as refused:
        match.apply({"seat": 3, "do": "attack"})
    assert str(refused.value) == "there is no seat 3 at a 3-player table"


def test_nobody_is_named_when_no_seat_is_waited_for():
    match = tenno_position(2, {})
    match.state.phase = "limbo"  # no seat is pending in a phase the rules do not know
    match.state = match.state
    with pytest.raises(IllegalAction) as refused:
        match.apply({"seat": 0, "do": "attack"})
    assert str(refused.value) == "Red has nothing to decide now (waiting for nobody)"


def test_true_is_not_seat_one_nor_slot_one():
    match = tenno_position(2, {})
    legal = match.legal_actions(0)[0]
    assert same_action(legal, dict(legal))
    assert not same_action(legal, {**legal, "slot": True if legal["slot"] == 1 else legal["slot"] + 0.0})
    assert same_action({"seat": 0, "do": "x", "l": [1, 2]}, {"seat": 0, "do": "x", "l": [1, 2]})
    assert not same_action({"seat": 0, "do": "x", "l": [1, 2]}, {"seat": 0, "do": "x", "l": [1, True]})
    assert not same_action({"seat": 0, "do": "x", "l": [1]}, {"seat": 0, "do": "x", "l": [1, 2]})
    assert not same_action({"seat": 0, "do": "x", "l": [1]}, {"seat": 0, "do": "x", "l": 1})
    with pytest.raises(IllegalAction, match="is not a legal 'attack'"):
        match.apply({**legal, "target": True})


def test_describe_action_spells_the_fields_but_not_seat_or_kind():
    assert describe_action({"seat": 2, "do": "pay", "to": 1, "token": "III"}) == "pay(to=1, token=III)"
    assert describe_action({"seat": 2, "do": "pass"}) == "pass()"


def test_legal_actions_of_a_seat_that_is_not_at_the_table_are_none():
    match = tenno_position(2, {})
    assert match.legal_actions(2) == [] and match.legal_actions(-1) == []
    assert match.legal_actions(0) and match.legal_actions(0) is match.legal_actions(0)  # kept until a change


def test_an_ended_game_has_no_pending_seat_and_no_legal_action():
    match = tenno_position(2, {0: [9, 2, 3], 1: [7, 2, 3]}, hands={1: []})
    match.apply({"seat": 0, "do": "attack", "slot": 0, "target": 1, "target_slot": 0})
    match.apply({"seat": 1, "do": "defend", "monk": False})
    assert match.is_over and match.pending() == [] and match.legal_actions(0) == []
    with pytest.raises(IllegalAction) as refused:
        match.apply({"seat": 0, "do": "attack"})
    assert str(refused.value) == "the game is over"


# --- building, replaying, taking back --------------------------------------------------------

def test_new_uses_seed_zero_the_options_and_the_names_it_is_given():
    match = Match.new("tenno", 2)
    assert match.header.seed == 0 and match.header.names == ("Red", "Blue")
    named = Match.new("tenno", 2, names=["Ann", "Bo"], options={"start_seat": 1})
    assert named.names == ("Ann", "Bo") and named.state.active == 1 and named.header.options["start_seat"] == 1
    with pytest.raises(BadOptions) as refused:
        Match.new("tenno", 2, names=["Ann"])
    assert str(refused.value) == "1 seat names for 2 players"
    with pytest.raises(BadOptions, match="^tenno has no option 'x'"):
        Match.new("tenno", 2, options={"x": 1})


def test_replay_keeps_names_and_options_and_names_the_action_that_fails():
    match = _midgame("tenno")
    header = Header("tenno", match.header.players, 5, {"start_seat": 1}, ("A", "B", "C"))
    again = Match.replay(header, [])
    assert again.names == ("A", "B", "C") and again.state.active == 1
    played = Match.replay(match.header, match.actions)
    with pytest.raises(BadJournal) as refused:
        Match.replay(match.header, played.actions[:2] + [{"seat": 0, "do": "fly"}])
    assert str(refused.value).startswith("saved action 3 does not replay: ")
    with pytest.raises(BadJournal) as refused:
        Match.replay(Header("tenno", 9, 1), [])
    assert str(refused.value) == "cannot start the saved game: tenno is for 2 to 7 players, not 9"


def test_a_refused_player_count_or_seat_names_read_in_the_readers_language():
    from engine import i18n

    with pytest.raises(BadOptions) as players, i18n.reading("zh_Hant"):
        Match.new("quovadis", 2)
    with pytest.raises(BadOptions) as names:
        Match.new("tenno", 2, names=["Ann"])
    assert str(players.value) == "quovadis is for 3 to 5 players, not 2"
    with i18n.reading("zh_Hant"):
        assert players.value.render() == "quovadis 是 3 至 5 人的遊戲，不是 2 人"
    with i18n.reading("zh_Hans"):
        assert names.value.render() == "1 个座位名称，但玩家有 2 人"


def test_take_back_is_replay_minus_the_last_action():
    match = _midgame("quovadis", actions=6)
    before = Match.replay(match.header, match.actions[:-1])
    match.take_back()
    assert match.actions == before.actions and to_data(match.state) == to_data(before.state)
    assert match.legal_actions(match.pending()[0]) == before.legal_actions(before.pending()[0])
    empty = Match.new("tenno", 2)
    with pytest.raises(IllegalAction) as refused:
        empty.take_back()
    assert str(refused.value) == "there is nothing to take back"


def test_a_saved_match_comes_back_with_its_actions():
    match = _midgame("shadow", actions=8)
    data = json.loads(json.dumps(match.to_data()))
    assert set(data) == {"header", "state", "actions"} and data["actions"] == match.actions
    back = Match.from_data(data)
    assert back.game is match.game and back.header == match.header and back.actions == match.actions
    assert to_data(back.state) == to_data(match.state)
    assert Match.from_data({k: v for k, v in data.items() if k != "actions"}).actions == []
