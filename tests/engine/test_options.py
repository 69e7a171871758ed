"""Rule options: checked by type and choice, refused by name, read from the command line."""

from __future__ import annotations

import pytest

from engine.errors import BadOptions
from engine.options import RuleOption, parse_option_pairs, parse_option_value, resolve_options, start_seat
from engine.rng import Rng

DECLARED = (
    RuleOption("count", 3, "how many"),
    RuleOption("mode", "a", "which", choices=("a", "b")),
    RuleOption("flag", False, "whether", choices=(True, False)),
)


def test_given_options_are_checked_and_the_rest_take_their_defaults():
    assert resolve_options(DECLARED, None, "g") == {"count": 3, "mode": "a", "flag": False}
    assert resolve_options(DECLARED, {"mode": "b", "count": 0}, "g") == {"count": 0, "mode": "b", "flag": False}


@pytest.mark.parametrize("given, message", [
    ({"count": True}, "option 'count' takes a int, not True"),
    ({"count": "3"}, "option 'count' takes a int, not '3'"),
    ({"flag": 1}, "option 'flag' takes a bool, not 1"),
    ({"mode": "c"}, "option 'mode' must be one of 'a', 'b', not 'c'"),
    ({"colour": 1, "zebra": 2}, "g has no option 'colour' (its options: count, flag, mode)"),
])
def test_a_wrong_option_is_refused_naming_it(given, message):
    with pytest.raises(BadOptions) as refused:
        resolve_options(DECLARED, given, "g")
    assert str(refused.value) == message


def test_a_game_without_options_says_so():
    with pytest.raises(BadOptions) as refused:
        resolve_options((), {"x": 1}, "plain")
    assert str(refused.value) == "plain has no option 'x' (its options: none)"


@pytest.mark.parametrize("text, value", [
    ("true", True), (" Yes ", True), ("ON", True), ("false", False), ("no", False), ("Off", False),
    ("12", 12), ("-1", -1), ("per_fight", "per_fight"), ("", ""),
])
def test_command_line_values_are_read_as_booleans_integers_or_text(text, value):
    read = parse_option_value(text)
    assert read == value and type(read) is type(value)


def test_command_line_pairs_are_name_equals_value():
    assert parse_option_pairs([" start_seat =2", "attack_mandatory=false", "ronin_swap=per_fight"]) == {
        "start_seat": 2, "attack_mandatory": False, "ronin_swap": "per_fight"}
    for pair in ("start_seat", "=2", " =x"):
        with pytest.raises(BadOptions) as refused:
            parse_option_pairs([pair])
        assert str(refused.value) == f"an option is NAME=VALUE, not {pair!r}"


def test_the_start_seat_is_the_option_or_drawn_from_the_game_source():
    assert start_seat(2, 3, Rng.seeded(0)) == 2 and start_seat(0, 3, Rng.seeded(0)) == 0
    drawn = {start_seat(-1, 4, Rng.seeded(seed)) for seed in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert start_seat(-1, 4, Rng.seeded(7)) == Rng.seeded(7).below(4)
    for value in (3, -2):
        with pytest.raises(BadOptions) as refused:
            start_seat(value, 3, Rng.seeded(0))
        assert str(refused.value) == f"start_seat {value} is not a seat of a 3-player table"
