"""The seat menu: built from legal actions, one field at a time."""

from firmware.table.menu import Menu

ATTACKS = [{"seat": 0, "do": "attack", "slot": s, "target": t, "target_slot": ts}
           for s in (0, 2) for t in (1, 2) for ts in (0, 1, 2)]


def test_menu_asks_one_field_at_a_time_in_record_order_and_submits_when_complete():
    menu = Menu()
    level = menu.level(ATTACKS)
    assert (level.key, level.values) == ("slot", [0, 2])  # "do" has one value: skipped
    menu.move(ATTACKS, +1)
    assert menu.choose(ATTACKS) is None
    assert menu.level(ATTACKS).key == "target"
    assert menu.choose(ATTACKS) is None
    level = menu.level(ATTACKS)
    assert (level.key, level.values, level.chosen) == ("target_slot", [0, 1, 2], {"do": "attack", "slot": 2, "target": 1})
    menu.move(ATTACKS, -1)
    assert menu.choose(ATTACKS) == {"seat": 0, "do": "attack", "slot": 2, "target": 1, "target_slot": 2}
    assert menu.path == [] and menu.cursor == 0


def test_back_undoes_the_last_choice_and_is_refused_at_the_top():
    menu = Menu()
    menu.choose(ATTACKS)
    assert menu.level(ATTACKS).key == "target"
    assert menu.back() is True
    assert menu.level(ATTACKS).key == "slot"
    assert menu.back() is False


def test_a_single_action_is_offered_as_one_confirmable_choice():
    only = [{"seat": 1, "do": "defend", "monk": False}]
    menu = Menu()
    level = menu.level(only)
    assert level.complete == only[0] and level.values == ["defend"]
    assert menu.choose(only) == only[0]


def test_cursor_wraps_around():
    menu = Menu()
    menu.move(ATTACKS, -1)
    assert menu.cursor == 1


def test_a_half_made_choice_that_no_longer_fits_starts_again():
    menu = Menu()
    menu.choose(ATTACKS)  # slot 0
    others = [{"seat": 0, "do": "refill", "slot": 1, "card": c} for c in (4, 5)]
    level = menu.level(others)
    assert level.key == "card" and menu.path == []


def test_no_actions_means_nothing_to_choose():
    assert Menu().level([]) is None
    assert Menu().choose([]) is None


def test_a_kind_that_needs_confirming_is_asked_again_and_back_calls_it_off():
    pays = [{"seat": 1, "do": "pay", "to": t, "token": "III"} for t in (0, 2)]
    menu = Menu(confirm=frozenset({"pay"}))
    assert menu.choose(pays) is None and menu.confirming == pays[0]
    assert menu.level(pays).key == "confirm"
    assert menu.back() is True and menu.confirming is None
    menu.choose(pays)
    assert menu.choose(pays) == pays[0] and menu.confirming is None


def test_a_pending_confirmation_is_dropped_when_its_action_stops_being_legal():
    """A laurel payment asked again is never made after the laurel left the hand: the menu starts again."""
    pays = [{"seat": 1, "do": "pay", "to": t, "token": "III"} for t in (0, 2)]
    menu = Menu(confirm=frozenset({"pay"}))
    assert menu.choose(pays) is None and menu.confirming == pays[0]
    gone = [{"seat": 1, "do": "pay", "to": t, "token": "II"} for t in (0, 2)]  # the III was handed over meanwhile
    level = menu.level(gone)
    assert menu.confirming is None and level.key == "to" and level.chosen == {"do": "pay"}
    assert menu.choose(gone) is None  # choosing starts the payment afresh and asks again for the II
    assert menu.confirming == gone[0]


def test_a_confirmation_is_one_yes_for_the_action_asked_about():
    pays = [{"seat": 1, "do": "pay", "to": t, "token": "III"} for t in (0, 2)]
    menu = Menu(confirm=frozenset({"pay"}))
    menu.move(pays, +1)
    menu.choose(pays)
    level = menu.level(pays)
    assert (level.key, level.values, level.chosen, level.complete) == ("confirm", [True], pays[1], None)
    level.chosen["to"] = 9  # the level is the menu's answer, not its memory
    assert menu.confirming == pays[1]


def test_a_single_action_level_names_its_kind_and_what_was_chosen_above():
    menu = Menu()
    refills = [{"seat": 0, "do": "refill", "slot": 1, "card": c} for c in (4, 5)]
    menu.move(refills, +1)
    assert menu.choose(refills) == refills[1]
    level = Menu(path=[("card", 4)]).level(refills)
    assert (level.key, level.values, level.chosen, level.complete) == ("do", ["refill"], {"card": 4}, refills[0])


def test_two_identical_actions_are_one_choice_and_the_first_is_taken():
    twice = [{"seat": 0, "do": "skip"}, {"seat": 0, "do": "skip"}]
    level = Menu().level(twice)
    assert (level.key, level.values, level.chosen, level.complete) == ("do", ["skip"], {"do": "skip"}, twice[0])
    assert level.complete is twice[0]
    assert Menu().choose(twice) is twice[0]


def test_fields_are_asked_in_the_first_actions_order_even_when_others_list_them_otherwise():
    actions = [{"seat": 0, "do": "move", "area": "A", "spot": "s1"},
               {"seat": 0, "spot": "s2", "area": "B", "do": "move"}]
    assert Menu().level(actions).key == "area"


def test_moving_with_nothing_to_choose_does_nothing():
    menu = Menu()
    menu.move([], +1)
    assert menu.cursor == 0


def test_back_returns_the_cursor_to_the_first_value():
    menu = Menu()
    menu.choose(ATTACKS)
    menu.move(ATTACKS, +1)
    assert menu.cursor == 1
    assert menu.back() is True and menu.cursor == 0


def test_a_field_whose_values_are_lists_is_asked_like_any_other():
    """Values are compared as they are: a list of cards is one value, and equal lists are one choice."""
    actions = [{"seat": 0, "do": "discard", "cards": [1, 2]}, {"seat": 0, "do": "discard", "cards": [3]},
               {"seat": 0, "do": "discard", "cards": [1, 2]}]
    menu = Menu()
    level = menu.level(actions)
    assert (level.key, level.values) == ("cards", [[1, 2], [3]])
    menu.move(actions, +1)
    assert menu.choose(actions) == {"seat": 0, "do": "discard", "cards": [3]}


def test_a_level_is_worked_out_once_for_the_same_list_path_and_confirmation():
    """A press asks for the level more than once: the same list, path and confirmation give the same level,
    and a change of any of them a new one, worked out from what it is now."""
    actions = [{"seat": 0, "do": "attack", "slot": s, "target": t} for s in (0, 1) for t in (1, 2)]
    menu = Menu(confirm=frozenset({"attack"}))
    first = menu.level(actions)
    assert menu.level(actions) is first and first.key == "slot"
    same_content = [dict(a) for a in actions]
    again = menu.level(same_content)
    assert again is not first and again.values == first.values  # another list: worked out anew
    other = [{"seat": 0, "do": "attack", "slot": s, "target": 1} for s in (3, 4, 5)]
    assert menu.level(other).values == [3, 4, 5]  # not the level of the list before
    menu.choose(other)  # slot 3: one target left, so the action is complete and asked to be confirmed
    assert menu.confirming is not None
    confirm = menu.level(other)
    assert confirm.key == "confirm" and menu.level(other) is confirm
    menu.back()
    assert menu.level(other).key == "slot"  # the confirmation went: worked out anew
    menu.choose(actions)  # slot 0 of the first list: a path now
    assert menu.path == [("slot", 0)] and menu.level(actions).key == "target"
