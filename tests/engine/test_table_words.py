"""What the table is told to do with the real pieces, for the cases a new player found unclear or missing."""

from __future__ import annotations

import pytest

from engine.games.shadow import data
from engine.games.shadow.position import position
from engine.match import Match
from engine.physical import inverse
from engine.testing import act, quovadis_position, tenno_position


def undo_words(match: Match) -> list[str]:
    """Take the last action back; return what the table is told then, but for what to do next."""
    told = Match.replay(match.header, match.actions).prompt().moves  # the last action's steps, as it was made
    match.undo()
    prompt = match.prompt()
    assert prompt.moves == tuple(inverse(told))
    return list(prompt.steps[:1 + len(match.game.describe_moves(prompt.moves, match.names))])


def reversal_words(match: Match) -> list[str]:
    """The words of the steps that reverse the last action, for a hand-laid position (which cannot be replayed)."""
    return match.game.describe_moves(inverse(match.prompt().moves), match.names)


# --- undo tells the steps that reverse the action -----------------------------------------

def tenno_after_a_fight() -> Match:
    """Two rows of peasants; Red's Peasant 3 has taken Blue's Peasant 1."""
    match = Match.new("tenno", 2, seed=0, options={"start_seat": 0})
    for seat in (0, 1):
        act(match, seat, "arrange", order=[1, 2, 3])
    act(match, 0, "attack", slot=2, target=1, target_slot=0)
    act(match, 1, "defend", monk=False)
    return match


def quovadis_with_laurels() -> Match:
    """A seeded Quo Vadis game played until Blue holds an I laurel and Green a IV."""
    import random

    from engine.testing import random_action

    match = Match.new("quovadis", 3, seed=0, options={"start_seat": 0})
    rng = random.Random(0)
    while not any(p.laurels for p in match.state.seats):
        match.apply(random_action(match, rng, free=0))
    assert [p.laurels for p in match.state.seats] == [[], ["I"], ["IV"]]
    return match


def shadow_at_phase_four() -> Match:
    match = Match.new("shadow", 3, seed=0, options={"start_seat": 2})
    while match.state.phase == "setup":
        seat = match.pending()[0]
        match.apply(match.legal_actions(seat)[0])
    return match


def test_taking_back_a_tenno_swap_tells_the_owner_to_put_the_cards_back_out_of_sight():
    match = tenno_after_a_fight()
    act(match, 1, "refill", slot=0, card=8)
    act(match, 0, "swap", slot=0, card=4)
    assert match.prompt().steps[:2] == ("Red: take the card in slot 1 into your hand, out of sight",
                                         "Red: lay the hand card your screen names face down in slot 1")
    assert undo_words(match) == ["Red's swap is taken back",
                                 "Red: take the card in slot 1 back into your hand, out of sight",
                                 "Red: lay back face down in slot 1 the card your screen shows there"]
    assert match.prompt().line == "Red may swap a row card with a hand card"


def test_taking_back_a_tenno_fight_tells_where_each_card_returns_and_which_way_up():
    match = tenno_after_a_fight()
    assert undo_words(match) == [
        "Blue's defence is taken back",
        "Red: turn your slot 3 face up: Peasant 3",
        "Move Blue's Peasant 1 from Red's prisoner pile to Blue's slot 1, face up",
        "Blue: turn Peasant 1 face down again in slot 1",
    ]


def test_two_undos_in_a_row_each_tell_the_reversal_of_their_own_action():
    match = tenno_after_a_fight()
    assert undo_words(match)[0] == "Blue's defence is taken back"
    assert undo_words(match) == ["Red's attack is taken back", "Red: turn Peasant 3 face down again in slot 3"]
    assert match.prompt().line == "Red attacks: choose a card and a target"


def test_taking_back_a_quo_vadis_laurel_gift_tells_the_receiver_to_hand_it_back_face_down():
    match = quovadis_with_laurels()
    act(match, 2, "pay", to=0, token="IV")
    assert "Yellow: hand Red, face down, the laurel you chose on your screen" in match.prompt().steps
    assert "IV" not in " ".join(match.prompt().steps)  # its value stays secret
    assert undo_words(match) == ["Yellow's laurel gift is taken back",
                                 "Red: hand Yellow back, face down, the laurel Yellow gave you"]
    assert "IV" not in " ".join(match.prompt().steps)


def test_at_the_end_of_quo_vadis_each_player_turns_their_own_laurels_face_up_told_once_per_pile():
    """Seed 002: laurels stay face down and secret until the game ends (所有屬於玩家的月桂標記必須面朝下保密直到
    遊戲結束); then the players count them. Each pile is turned where it lies, not handed to anyone."""
    match = quovadis_position(3, {"S": [1, 0, 1, 2], "C1": [0]}, laurels={0: ["V", "IV"], 1: ["III"]})
    act(match, 0, "advance", committee="C1", path="p15")
    steps = match.prompt().steps
    assert steps[1:3] == ("Red: turn your laurels face up", "Blue: turn your laurels face up")
    assert not any("hand" in s for s in steps)
    assert reversal_words(match)[:2] == ["Blue: turn your laurels face down", "Red: turn your laurels face down"]


# --- payments, purchases and aging say every piece that changes ------------------------------

def test_a_shadow_purchase_moves_the_buyers_thaler_marker_and_lays_the_card_in_front_of_them():
    match = shadow_at_phase_four()
    act(match, 2, "buy", card="church")
    assert match.prompt().steps[:3] == ("Green buys Church influence for 2",
                                        "Move Green's thaler marker from 7 to 5",
                                        "Lay a card from the Church influence stack face up in front of Green")
    assert undo_words(match) == ["Green's purchase is taken back",
                                 "Put Green's Church influence card back on its stack",
                                 "Move Green's thaler marker from 5 to 7"]


def test_a_shadow_knight_action_moves_the_thaler_marker_too():
    match = position(2, phase="actions", emperor=0, thalers={0: 4})
    act(match, 0, "knight", from_area="supply", from_spot="", area="MAINZ", spot="k0")
    assert match.prompt().steps[:2] == ("Put Red's knight on Mainz castle", "Move Red's thaler marker from 4 to 3")


def test_shadow_aging_turns_every_tile_left_on_the_board_a_quarter_turn_not_every_other_one():
    match = position(2, phase="aging", emperor=1, throne="B1/25", board={
        "KOELN": {"elector": "B0/45", "spaces": ["C1/35", "B0/15", "K1"]},
    })
    steps = match.prompt().steps
    assert "Take Red's Baron 45 off the Cologne elector space, back to supply" in steps
    assert "Turn each of the 3 tiles left on the board a quarter turn clockwise: one age step older" in steps
    assert not any("other" in s for s in steps)
    assert [m["value"] for m in match.prompt().moves if m["src"] == m["dst"]] == [[25, 35], [35, 45], [15, 25]]


def test_a_choice_between_alike_spaces_names_each_by_its_number():
    full = {eid: {"spaces": ["B3/25"] * 4} for eid in data.BOARD.ids}
    full["MAINZ"] = {"spaces": ["K2", "B1/25", "K2", "K2"]}  # three of Green's knights: which one goes?
    match = position(4, phase="descendants", emperor=0, cards={0: ["doctor"]}, board=full)
    view = match.view(0)
    spots = [a["spot"] for a in match.legal_actions(0) if a.get("area") == "MAINZ"]
    labels = [match.game.label(view, "spot", s, match.names, {"do": "son", "area": "MAINZ"}) for s in spots]
    assert labels == ["1: push Gre kn.", "3: push Gre kn.", "4: push Gre kn."]
    act(match, 0, "son", area="MAINZ", spot="a2")
    assert match.prompt().steps[:3] == ("Red's son", "Take Green's knight off Mainz space 3, back to supply",
                                        "Put Red's Baron 15 on Mainz space 3")


# --- one name per card, and every short word on a seat's screen explained ----------------------

def test_tenno_names_the_geisha_by_her_value_everywhere_and_lists_a_hand_in_one_order():
    from engine.games.tenno.cards import CARDS as TENNO_CARDS
    from engine.games.tenno.text import card_name, card_short, panel
    geisha = TENNO_CARDS.with_ability("geisha")
    assert (card_name(geisha), card_short(geisha)) == ("Geisha X", "GsX")
    assert card_name(4) == "Ninja 4" and card_short(4) == "Nj4"
    match = tenno_position(2, {0: [1, 2, 3]}, hands={0: [geisha, 10, 5]})
    match.state.seats[0].row[1] = None  # a gap to refill
    match.state.phase = "refill"
    view = match.view(0)
    assert "Hand 5 10 X" in panel(view, match.names)
    labels = [match.game.label(view, "card", a["card"], match.names, {}) for a in match.legal_actions(0)]
    assert labels == ["Monk 5", "Shogun 10", "Geisha X"]  # the menu lists the hand's order


def test_tenno_a_peek_has_a_line_of_its_own():
    from engine.games.tenno.text import panel

    match = tenno_position(2, {0: [1, 2, 3]})
    view = match.view(1)
    view["me"]["peeks"] = [{"target": 0, "slot": 1, "card": 2, "stale": True}]
    lines = panel(view, match.names)
    assert lines[-1] == "Saw Red s2: P2?" and not any("Pris" in line for line in lines)


@pytest.mark.parametrize("game", ["tenno", "quovadis", "shadow"])
def test_every_phase_help_explains_the_screens_short_words(game):
    match = Match.new(game, 3, seed=1)
    view = match.view(0)
    helped = " ".join(match.game.rules_help(view, match.names))
    assert "2/5 beside a choice: choice 2 of 5" in helped
    if game == "tenno":
        from engine.games.tenno.cards import CARDS as TENNO_CARDS
        for card in TENNO_CARDS.cards.values():
            letters = card.short.rstrip("0123456789X")
            assert f"{letters} {card.name}" in helped, card.short
        assert all(word in helped for word in ("T3 is turn 3", "s2 is slot 2", "-- is a gap", "?? a card"))
    elif game == "shadow":
        from engine.games.shadow.data import CARDS as SHADOW_CARDS
        from engine.games.shadow.text import VP_SHORT
        assert all(f"{c.abbr} {c.name}" in helped for c in SHADOW_CARDS.values())
        assert all(f"{short} {words}" in helped for short, words in VP_SHORT.values())
        assert "Supply B7 K3 C3" in helped and "Emp" in helped and "R2 IV" in helped
    else:
        assert all(word in helped for word in ("T3 Red S2", "E3 2 of 3", "I x14", "In hand 3, on board 2"))


def test_each_step_of_a_menu_asks_its_own_question():
    swap = tenno_position(2, {0: [1, 2, 3]})
    view = swap.view(0)
    view["phase"], view["pending"], view["reward"] = "reward", [0], {"kind": "swap", "seat": 0}
    assert swap.game.ask(view, swap.names, "do") == "You won: swap?"
    assert swap.game.ask(view, swap.names, "slot") == "Swap which row card?"
    assert swap.game.ask(view, swap.names, "card") == "For which hand card?"
    qv = quovadis_position(3, {"E3": [0, 1]})
    qv_view = qv.view(0)
    assert qv.game.ask(qv_view, qv.names, "do") == "Your turn:"
    assert qv.game.ask(qv_view, qv.names, "committee") == "Which committee?"
    shadow = position(3, phase="actions", emperor=0)
    shadow_view = shadow.view(0)
    assert shadow.game.ask(shadow_view, shadow.names, "do") == "Your turn: act or pass"
    assert shadow.game.ask(shadow_view, shadow.names, "card") == "Which card?"
    assert shadow.game.ask(shadow_view, shadow.names, "area") == "Which electorate?"


