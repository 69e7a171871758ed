"""Secrets: re-drawing what a seat may not know never changes that seat's view."""

from __future__ import annotations

import copy
import random

import pytest

from engine.games import all_games, get_game
from engine.match import Match
from engine.rng import Rng
from engine.testing import reachable_matches


@pytest.mark.parametrize("game, players", [(g.name, n) for g in all_games()
                                           for n in sorted({g.min_players, g.max_players})])
def test_views_do_not_change_when_hidden_things_are_redrawn(game, players):
    changed = 0
    every = max(1, get_game(game).max_actions // 300)
    for match in reachable_matches(game, players, seed=players * 7, every=every):
        if match.is_over:
            continue
        for seat in range(players):
            for draw in range(3):
                other = match.game.redeal(match.state, seat, Rng.seeded(draw * 31 + seat))
                changed += other != match.state
                assert match.game.view(other, seat) == match.view(seat)
                assert match.game.legal_actions(other, seat) == match.legal_actions(seat)
        public = match.public_view()
        for seat in range(players):
            assert match.game.public_view(match.game.redeal(match.state, seat, Rng.seeded(5))) == public
    assert changed, "the redraw changed something, so the test can fail"


# --- the next action, performed in a re-dealt world -------------------------------------------
#
# A view carries stored events (Quo Vadis `recent`, Shadow `changes`) and every action
# returns public events (Tennō keeps none: its events go straight to the table). Re-dealing
# a state cannot re-draw what an event already says, so each action is also performed in
# the re-dealt world, by the same seat, with any choice that looks the same to the table:
# the events are then made from the re-dealt secrets, and a vote or a card that leaked into
# one shows up as a difference. None marks an action that rightly shows something hidden
# (a fight, a draw from the bag, the last ballot that turns every ballot over).

def _answer_spec(match, action, hidden_do):
    if match.state.options.get("open_answers") or match.pending() == [action["seat"]]:
        return None if match.pending() == [action["seat"]] else (action, set())
    return {"seat": action["seat"], "do": hidden_do}, {action["seat"]}


def _tenno(match, action):
    do, seat = action["do"], action["seat"]
    if do in ("attack", "defend", "peek"):
        return None  # cards are turned face up, or the peeker sees one
    public = {"arrange": ("do",), "refill": ("do", "slot"), "swap": ("do", "slot"),
              "reorder": ("do", "first", "second")}
    if do in public:
        return {"seat": seat, **{k: action[k] for k in public[do]}}, {seat}
    return action, set()


def _quovadis(match, action):
    do, seat = action["do"], action["seat"]
    if do == "advance":
        return None  # may take a laurel and refill its diamond from the bag
    if do in ("support", "refuse"):
        return _answer_spec(match, action, "answer")
    if do == "pay":
        return {"seat": seat, "do": do, "to": action["to"]}, {seat, action["to"]}  # handed over face down
    return action, set()


def _shadow(match, action):
    if action["do"] == "vote":
        return _answer_spec(match, action, "vote")
    return action, set()


SECRET_CHOICES = {"tenno": _tenno, "quovadis": _quovadis, "shadow": _shadow}


def _after(game, header, state, action):
    match = Match(game, header, copy.deepcopy(state))
    events = match.apply(action)
    return match, events


def test_every_game_says_which_choices_the_table_cannot_see():
    assert set(SECRET_CHOICES) == {g.name for g in all_games()}


def _compare_next_actions(match, rng, counts):
    """Perform a pending seat's next action, and a look-alike of it in each other seat's re-dealt world."""
    game, players = match.game.name, match.header.players
    for actor in match.pending():
        action = rng.choice(match.legal_actions(actor))
        spec = SECRET_CHOICES[game](match, action)
        if spec is None:
            continue
        public, knowers = spec
        before, events = _after(match.game, match.header, match.state, action)
        if before.is_over:
            continue  # the end turns everything face up
        for seat in range(players):
            if seat in knowers:
                continue
            world = Match(match.game, match.header,
                          match.game.redeal(match.state, seat, Rng.seeded(rng.randrange(1 << 30))))
            alike = [a for a in world.legal_actions(actor) if (SECRET_CHOICES[game](world, a) or (None,))[0] == public]
            assert alike or actor != seat, "a seat's own choices do not depend on what it cannot know"
            if not alike:
                continue
            choice = rng.choice(alike)
            counts["hidden"] += choice != action
            after, other_events = _after(match.game, match.header, world.state, choice)
            assert other_events == events, f"{action} / {choice}: public events differ for seat {seat}"
            assert after.view(seat) == before.view(seat), f"{action} / {choice}: seat {seat}'s view differs"
            assert after.legal_actions(seat) == before.legal_actions(seat)
            counts["compared"] += 1


@pytest.mark.parametrize("game, players", [(g.name, n) for g in all_games()
                                           for n in sorted({g.min_players, g.max_players})])
def test_events_and_views_do_not_change_when_the_next_action_is_made_in_a_redealt_world(game, players):
    rng = random.Random(players)
    counts = {"compared": 0, "hidden": 0}
    # At two Shadow seats both are candidates, and candidates vote for themselves in the open.
    secret_choices = (game, players) != ("shadow", 2)
    every = {"tenno": 2, "quovadis": 4, "shadow": 8}[game]
    for seed in range(players * 11, players * 11 + 12):  # more games until a secret choice was made
        for match in reachable_matches(game, players, seed=seed, every=every):
            if not match.is_over:
                _compare_next_actions(match, rng, counts)
        if counts["compared"] > 40 and (counts["hidden"] or not secret_choices):
            break
    assert counts["compared"] > 40 and (counts["hidden"] or not secret_choices), counts


@pytest.mark.parametrize("game, players", [(g.name, n) for g in all_games()
                                           for n in sorted({g.min_players, g.max_players})])
def test_taking_back_a_secret_choice_tells_the_others_no_more_than_the_choice_did(game, players):
    """Two choices the table cannot tell apart (a secret yes or no, a card laid face down) are taken
    back alike: the same undo event, public view, and view of every seat that did not know the choice."""
    rng = random.Random(players)
    compared: dict[str, int] = {}
    for match in reachable_matches(game, players, seed=players * 13, every=1):
        if match.is_over:
            continue
        for actor in match.pending():
            legal = match.legal_actions(actor)
            action = rng.choice(legal)
            spec = SECRET_CHOICES[game](match, action)
            if spec is None:
                continue
            public, knowers = spec
            if compared.get(public["do"], 0) >= 4:
                continue
            alike = [a for a in legal if a != action and (SECRET_CHOICES[game](match, a) or (None,))[0] == public]
            if not alike:
                continue
            taken = []
            for choice in (action, rng.choice(alike)):
                again = Match.replay(match.header, match.actions)
                again.apply(choice)
                taken.append((again.undo(), again))
            (event, one), (other_event, other) = taken
            assert event == other_event, f"{action} / {choice}: the undo events differ"
            assert one.public_view() == other.public_view(), f"{action} / {choice}: the public views differ"
            for seat in set(range(players)) - knowers:
                assert one.view(seat) == other.view(seat), f"{action} / {choice}: seat {seat}'s views differ"
            compared[public["do"]] = compared.get(public["do"], 0) + 1
    secret = {"tenno": {"arrange", "swap"}, "quovadis": {"answer"},
              "shadow": {"vote"} if players > 2 else set()}[game]  # two Shadow candidates vote in the open
    assert secret <= set(compared), compared
