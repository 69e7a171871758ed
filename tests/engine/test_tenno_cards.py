"""Tennō's card file: loaded as printed on the cards, and refused by name when it breaks a rule of the set."""

from __future__ import annotations

import copy
import tomllib

import pytest

from engine.errors import BadData
from engine.games.tenno.cards import _FILE, CARDS, Card, load_cards, parse_cards

DATA = tomllib.loads(_FILE.read_text(encoding="utf-8"))


def test_the_shipped_file_loads_to_the_set_the_rules_use():
    cards = load_cards()
    assert cards == CARDS and len(cards.cards) == 11
    assert (cards.monk_bonus, cards.geisha_margin, cards.row_size) == (2, 1, 3)
    assert len(cards.colours) == 7 and len(set(cards.colours)) == 7
    assert cards.starting_row == (1, 2, 3)
    assert [cards.with_ability(a) for a in ("geisha", "ninja", "monk", "ronin", "shogun")] == [0, 4, 5, 6, 10]
    assert cards.cards[4] == Card(id=4, name=cards.cards[4].name, short=cards.cards[4].short, attack=8, defend=4,
                                  score=4, ability="ninja")


def test_rules_the_file_leaves_out_take_their_defaults():
    data = copy.deepcopy(DATA)
    data["rules"] = {"colours": data.get("colours", data.get("rules", {}).get("colours"))}
    data.pop("colours", None)
    cards = parse_cards(data)
    assert (cards.monk_bonus, cards.geisha_margin, cards.row_size) == (2, 1, 3)
    assert cards.with_ability("dragon") is None


def _broken(change) -> str:
    data = copy.deepcopy(DATA)
    change(data)
    with pytest.raises(BadData) as refused:
        parse_cards(data, "cards.toml")
    return str(refused.value)


def test_a_broken_card_file_is_refused_naming_the_rule():
    assert _broken(lambda d: d["card"][0].update(colour="red")).startswith(
        "cards.toml: card 1: ") and "colour" in _broken(lambda d: d["card"][0].update(colour="red"))
    assert _broken(lambda d: d["card"][1].update(id=d["card"][0]["id"])) == (
        f"cards.toml: card id {DATA['card'][0]['id']} appears twice")
    assert _broken(lambda d: d["card"][0].update(ability="dragon")) == (
        f"cards.toml: card {DATA['card'][0]['id']} has unknown ability 'dragon'")
    assert _broken(lambda d: d["card"].pop()) == "cards.toml: a colour has 11 cards, this file has 10"
    ninja = next(i for i, c in enumerate(DATA["card"]) if c.get("ability") == "ninja")
    assert _broken(lambda d: d["card"][ninja].update(ability="")) == (
        "cards.toml: exactly one card must have ability 'ninja', found 0")
    starter = next(i for i, c in enumerate(DATA["card"]) if c.get("starts_in_row"))
    assert _broken(lambda d: d["card"][starter].update(starts_in_row=False)) == (
        "cards.toml: 3 cards must start in the row, found 2")
    colours = list(CARDS.colours)

    def same_colour_twice(d):
        d["colours"] = colours[:6] + colours[:1]
        d.get("rules", {}).pop("colours", None)

    assert _broken(same_colour_twice) == f"cards.toml: seven different colours are needed, found {colours[:6] + colours[:1]}"


def test_an_unreadable_or_broken_toml_file_is_named(tmp_path):
    with pytest.raises(BadData, match="^nowhere.toml: "):
        load_cards(tmp_path / "nowhere.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules\n", encoding="utf-8")
    with pytest.raises(BadData, match="^bad.toml: "):
        load_cards(bad)


def test_the_rules_a_file_gives_are_read_from_it():
    data = copy.deepcopy(DATA)
    data["rules"] = {**data.get("rules", {}), "monk_bonus": 3, "geisha_margin": 2, "row_size": 4}
    next(c for c in data["card"] if not c.get("starts_in_row") and not c.get("ability"))["starts_in_row"] = True
    cards = parse_cards(data)
    assert (cards.monk_bonus, cards.geisha_margin, cards.row_size) == (3, 2, 4)
    assert len(cards.starting_row) == 4


def test_a_file_without_rules_cards_or_colours_is_refused_for_what_it_lacks():
    data = copy.deepcopy(DATA)
    data.pop("rules", None)
    data["colours"] = list(CARDS.colours)
    assert parse_cards(data).row_size == 3  # no [rules] table: every rule its default
    data.pop("colours")
    with pytest.raises(BadData, match=r"^cards: seven different colours are needed, found \[\]$"):
        parse_cards(data)  # named "cards" when no file name is given
    with pytest.raises(BadData, match="^cards: a colour has 11 cards, this file has 0$"):
        parse_cards({"rules": {}})


def test_a_card_file_that_breaks_a_rule_is_refused_by_its_file_name(tmp_path):
    broken = tmp_path / "my cards.toml"
    broken.write_text(_FILE.read_text(encoding="utf-8").replace("ability = \"ninja\"", "ability = \"\""),
                      encoding="utf-8")
    with pytest.raises(BadData, match="^my cards.toml: exactly one card must have ability 'ninja', found 0$"):
        load_cards(broken)
