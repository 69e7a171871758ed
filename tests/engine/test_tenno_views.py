"""Tennō's views: what the whole table may know (rules/tenno.md: rows are face down until a fight
or a Monk reveals a card; hands and prisoner piles are counted, never shown; the discard is open
by option), and what a seat adds of its own: its row, its hand and the peeks it made."""

from __future__ import annotations

from engine.games.tenno import views
from engine.games.tenno.state import Fight, Peek, Reward, Taken
from engine.match import Match

RED, BLUE, GREEN = 0, 1, 2
NINJA, MONK, RONIN, SHOGUN = 4, 5, 6, 10


def laid_out(**options):
    """Turn 3 of a three-seat game, Blue's reward: every field a view carries set to a value of its
    own (a view is a function of the state alone, so the fields are set as they stand)."""
    match = Match.new("tenno", 3, seed=1, options={"start_seat": 1, **options})
    state = match.state
    state.phase, state.turn, state.active = "reward", 3, 1
    rows = ([1, NINJA, 3], [2, MONK, None], [SHOGUN, 7, 8])
    for player, row in zip(state.seats, rows):
        player.row, player.arranged = list(row), True
        player.known = [None, None, None]
        player.hand = [c for c in player.hand if c not in row]
    state.seats[RED].known[1] = NINJA  # revealed in a fight and still there
    state.seats[RED].captives = [Taken(BLUE, 9)]
    state.seats[BLUE].peeks = [Peek(RED, 0, 1, 2), Peek(GREEN, 2, 8, 1, stale=True)]
    state.seats[GREEN].peeks = [Peek(RED, 2, 3, 2)]
    resolved = Fight(BLUE, 1, MONK, RED, 1, defend_card=NINJA, monk_slot=-1, attack_strength=5, defend_strength=4,
                     outcome="attacker", attacker_lost=False, defender_lost=True, captor=BLUE)
    state.fights = [resolved, Fight(BLUE, 0, 2, GREEN, 2)]  # the second not resolved: its defence face down
    state.last_fights = [Fight(RED, 2, 3, GREEN, 0, defend_card=SHOGUN, monk_slot=2, attack_strength=3,
                               defend_strength=12, outcome="defender", attacker_lost=True, captor=GREEN)]
    state.rewards = [Reward("peek", BLUE, GREEN)]
    state.discard = [Taken(GREEN, 0)]
    state.recent = [{"type": "pass", "seat": RED}]
    return state


def test_the_public_view_counts_hands_and_piles_and_shows_only_revealed_cards():
    state = laid_out()
    view = views.public_view(state)
    fight = {"attacker": BLUE, "slot": 1, "attack_card": MONK, "defender": RED, "target_slot": 1,
             "outcome": "attacker", "defend_card": NINJA, "monk_slot": -1, "attack_strength": 5,
             "defend_strength": 4, "attacker_lost": False, "defender_lost": True, "captor": BLUE}
    open_fight = {"attacker": BLUE, "slot": 0, "attack_card": 2, "defender": GREEN, "target_slot": 2, "outcome": ""}
    last = {"attacker": RED, "slot": 2, "attack_card": 3, "defender": GREEN, "target_slot": 0, "outcome": "defender",
            "defend_card": SHOGUN, "monk_slot": 2, "attack_strength": 3, "defend_strength": 12,
            "attacker_lost": True, "defender_lost": False, "captor": GREEN}
    assert view == {
        "game": "tenno", "phase": "reward", "turn": 3, "active": BLUE, "start": BLUE, "pending": [BLUE],
        "players": [
            {"row": ["?", NINJA, "?"], "hand": 7, "captives": 1, "arranged": True,
             "seen_by": [[BLUE, 0], [GREEN, 2]]},
            {"row": ["?", "?", None], "hand": 7, "captives": 0, "arranged": True, "seen_by": []},
            {"row": ["?", "?", "?"], "hand": 5, "captives": 0, "arranged": True, "seen_by": []}],
        "fight": open_fight, "fights": [fight], "last_fights": [last],
        "reward": {"kind": "peek", "seat": BLUE, "target": GREEN},
        "discard": [[GREEN, 0]],
        "recent": [{"type": "pass", "seat": RED}],
        "over": None,
    }  # Blue's peek at Green went stale: no longer "seen"


def test_a_hidden_discard_is_only_counted_and_a_reward_shows_only_in_its_phase():
    state = laid_out(discard_public=False)
    assert views.public_view(state)["discard"] == 1
    state.phase = "refill"
    assert views.public_view(state)["reward"] is None
    state.rewards = []
    state.phase = "reward"
    assert views.public_view(state)["reward"] is None


def test_a_seats_view_adds_its_own_row_hand_and_peeks():
    state = laid_out()
    public = views.public_view(state)
    view = views.view(state, BLUE)
    assert view == {**public, "seat": BLUE, "me": {
        "row": [2, MONK, None], "hand": state.seats[BLUE].hand, "captives": 0,
        "peeks": [{"target": RED, "slot": 0, "card": 1, "turn": 2, "stale": False},
                  {"target": GREEN, "slot": 2, "card": 8, "turn": 1, "stale": True}]}}
    assert views.view(state, RED)["me"]["captives"] == 1


def test_the_end_asks_no_one_and_shows_every_prisoner_pile():
    state = laid_out()
    state.over, state.ender, state.phase = "refill", GREEN, "refill"
    state.fights = []
    over = views.public_view(state)
    assert over["pending"] == [] and over["fight"] is None
    assert over["over"]["reason"] == "refill" and over["over"]["ender"] == GREEN
    assert over["over"]["prisoners"] == [[[BLUE, 9]], [], []]
    assert over["over"]["scores"] == {"0": 9, "1": 0, "2": 0}
