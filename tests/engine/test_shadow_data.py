"""Shadow's board, card and privilege files: the shipped ones pass, each broken rule is refused by name.

The files load once at import (engine/games/shadow/data.py); these tests
parse changed copies of them, so every check a file must pass is tried and
its message read whole.
"""

from __future__ import annotations

import copy

import pytest

from engine.errors import BadData, read_toml
from engine.games.shadow import data

RAW = {name: read_toml(data._HERE / f"{name}.toml") for name in ("board", "cards", "privileges")}


def refused(parse, change):
    raw = copy.deepcopy(RAW)
    change(raw)
    with pytest.raises(BadData) as err:
        parse(raw)
    return str(err.value)


def board(raw):
    return data.parse_board(raw["board"])


def cards(raw):
    return data.parse_cards(raw["cards"], data.BOARD)


def privileges(raw):
    return data.parse_privileges(raw["privileges"], data.BOARD, data.CARDS)


def test_the_shipped_files_parse_to_what_the_game_plays_with():
    assert data.parse_board(copy.deepcopy(RAW["board"])) == data.BOARD
    assert data.parse_cards(copy.deepcopy(RAW["cards"]), data.BOARD) == data.CARDS
    assert data.parse_privileges(copy.deepcopy(RAW["privileges"]), data.BOARD, data.CARDS) == data.PRIVILEGES
    assert data.BOARD.electorate("MAINZ").single_elector and not data.BOARD.electorate("SAXONY").single_elector
    assert all(set(c.copies) == {2, 3, 4} for c in data.CARDS.values())  # the file's "2" keys read as numbers
    assert data.card_with("marry_own").id == "kings_daughter"
    assert data.privilege_with("income").electorate == "SAXONY" and data.privilege_with("no such") is None
    with pytest.raises(KeyError):
        data.BOARD.electorate("ROME")


def test_a_missing_or_broken_file_is_refused_naming_it(tmp_path, ascii_locale_python):
    with pytest.raises(BadData, match=r"^board\.toml: .*No such file"):
        read_toml(tmp_path / "board.toml")
    (tmp_path / "cards.toml").write_text("card = [", encoding="utf-8")
    with pytest.raises(BadData, match=r"^cards\.toml: "):
        read_toml(tmp_path / "cards.toml")
    (tmp_path / "cards.toml").write_text("card = " + "[" * 100_000, encoding="utf-8")
    with pytest.raises(BadData, match=r"^cards\.toml: .*recursion"):
        read_toml(tmp_path / "cards.toml")  # nested too deeply for the parser
    (tmp_path / "cards.toml").write_text("name = 'Köln'", encoding="utf-8")
    shown = ascii_locale_python("from pathlib import Path\nfrom engine.errors import read_toml\n"
                                f"print(ascii(read_toml(Path({str(tmp_path / 'cards.toml')!r}))))")
    assert shown.strip() == ascii({"name": "Köln"})


def _electorate(raw, eid):
    return next(e for e in raw["board"]["electorate"] if e["id"] == eid)


@pytest.mark.parametrize("change, message", [
    (lambda r: r["board"].update(colours=["Red", "Blue", "Green"]),
     "4 different colours are needed, found ['Red', 'Blue', 'Green']"),
    (lambda r: r["board"].update(colours=["Red", "Blue", "Green", "Red"]),
     "4 different colours are needed, found ['Red', 'Blue', 'Green', 'Red']"),
    (lambda r: _electorate(r, "MAINZ").update(river=1), "electorate 1: ElectorateSpec.__init__() got an "
                                                         "unexpected keyword argument 'river'"),
    (lambda r: _electorate(r, "SAXONY").update(kind="imperial"),
     "electorate SAXONY has kind 'imperial', not one of ('spiritual', 'secular')"),
    (lambda r: _electorate(r, "SAXONY").update(aristocrat_spaces=0),
     "SAXONY.aristocrat_spaces must be a whole number of at least 1, not 0"),
    (lambda r: _electorate(r, "SAXONY").update(city_spaces=-1),
     "SAXONY.city_spaces must be a whole number of at least 0, not -1"),
    (lambda r: _electorate(r, "SAXONY").update(castle_spaces=True),
     "SAXONY.castle_spaces must be a whole number of at least 0, not True"),
    (lambda r: _electorate(r, "SAXONY").update(castle_spaces=1.5),
     "SAXONY.castle_spaces must be a whole number of at least 0, not 1.5"),
    (lambda r: r["board"]["electorate"].pop(), "the board has seven different electorates, found "
     "['MAINZ', 'KOELN', 'TRIER', 'BOHEMIA', 'PALATINATE', 'SAXONY']"),
    (lambda r: _electorate(r, "SAXONY").update(id="MAINZ"), "the board has seven different electorates, found "
     "['MAINZ', 'KOELN', 'TRIER', 'BOHEMIA', 'PALATINATE', 'MAINZ', 'BRANDENBURG']"),
    (lambda r: _electorate(r, "SAXONY").update(kind="spiritual"),
     "three electorates are archdioceses (kind 'spiritual')"),
    (lambda r: r["board"]["rules"].pop("son_age"), "[rules] lacks son_age"),
    (lambda r: r["board"]["rules"].pop("rounds"), "[rules] lacks rounds"),
    (lambda r: r["board"]["rules"].update(vote_vp=-1), "rules.vote_vp must be a whole number of at least 0, not -1"),
    (lambda r: r["board"]["rules"].update(ages=[]), "rules.ages must list the tile's ages from youngest to oldest"),
    (lambda r: r["board"]["rules"].update(ages=[25, 15, 35, 45]),
     "rules.ages must list the tile's ages from youngest to oldest"),
    (lambda r: r["board"]["rules"].update(ages=[15, 15, 35, 45]),
     "rules.ages must list the tile's ages from youngest to oldest"),
    (lambda r: r["board"]["rules"].update(son_age=10), "son_age and throne_age must be ages a tile shows"),
    (lambda r: r["board"]["rules"].update(throne_age=50), "son_age and throne_age must be ages a tile shows"),
    (lambda r: r["board"]["rules"].update(start_thalers=13), "start_thalers is above the thaler cap"),
    (lambda r: r["board"]["pieces"].pop("knights"), "pieces.knights must be a whole number of at least 1, not None"),
    (lambda r: r["board"]["pieces"].update(empire_cities=0),
     "pieces.empire_cities must be a whole number of at least 1, not 0"),
    (lambda r: r["board"]["rules"].update(city_vp=[1, 1]), "city_vp needs one value per city a player owns (3)"),
    (lambda r: r["board"]["round"][0].update(gold=1),
     "round 1: RoundSpec.__init__() got an unexpected keyword argument 'gold'"),
    (lambda r: r["board"]["round"][1].update(number=3), "round entries must be numbered 1, 2, ... in order"),
    (lambda r: r["board"]["round"][1].update(empire_city="build"),
     "round 2 empire_city must be one of ('place_or_move', 'move', 'none')"),
    (lambda r: r["board"]["round"].pop(), "the round track needs 5 rounds, found 4"),
    (lambda r: r["board"]["rules"].pop("ages"), "rules.ages must list the tile's ages from youngest to oldest"),
    (lambda r: r["board"]["rules"].pop("city_vp"), "city_vp needs one value per city a player owns (3)"),
    (lambda r: r["board"].pop("pieces"), "pieces.aristocrats must be a whole number of at least 1, not None"),
])
def test_a_board_file_that_breaks_a_rule_is_refused_naming_it(change, message):
    """Rules §2: four colours; seven electorates, three of them archdioceses; tiles aged 15 to 45;
    the thaler track 0-12; 3 cities a colour and their VP; five rounds on the round track."""
    assert refused(board, change) == f"board.toml: {message}"


def _card(raw, cid):
    return next(c for c in raw["cards"]["card"] if c["id"] == cid)


@pytest.mark.parametrize("change, message", [
    (lambda r: _card(r, "pope").update(price=1),
     "card 4: CardSpec.__init__() got an unexpected keyword argument 'price'"),
    (lambda r: _card(r, "pope").update(copies={"two": 1}), "card 4: invalid literal for int() with base 10: 'two'"),
    (lambda r: r["cards"]["card"].append(copy.deepcopy(_card(r, "pope"))), "card 'pope' appears twice"),
    (lambda r: _card(r, "pope").update(colour="green"), "card pope has colour 'green', not one of "
                                                        "('blue', 'red', 'none')"),
    (lambda r: _card(r, "pope").update(effect="crusade"), "card pope has unknown effect 'crusade'"),
    (lambda r: _card(r, "pope").update(copies={"2": 1, "4": 1}), "card pope needs copies for (2, 3, 4) players"),
    (lambda r: _card(r, "pope").pop("copies"), "card pope needs copies for (2, 3, 4) players"),
    (lambda r: _card(r, "pope").update(copies={"2": 1, "3": -1, "4": 1}),
     "pope copies for 3 must be a whole number of at least 0, not -1"),
    (lambda r: _card(r, "pope").update(cost=-2), "pope.cost must be a whole number of at least 0, not -2"),
    (lambda r: _card(r, "permit").update(costs=[1, 2]), "card permit needs one cost per city a player owns"),
    (lambda r: _card(r, "ordinance").update(age=20), "card ordinance must place a Baron of an age a tile shows"),
    (lambda r: _card(r, "promotion").update(age=50), "card promotion must place a Baron of an age a tile shows"),
    (lambda r: _card(r, "kings_daughter").update(age=30),
     "card kings_daughter must place a Baron of an age a tile shows"),
    (lambda r: _card(r, "pope").update(vp=-1), "pope.vp must be a whole number of at least 0, not -1"),
    (lambda r: r["cards"]["card"].pop(), "there are 13 card types, this file has 12"),
    (lambda r: _card(r, "pope")["copies"].update({"4": 2}), "the 4-player game uses 21 action cards"),
    (lambda r: (_card(r, "pope").update(effect="doctor")), "exactly one card type must have effect 'doctor'"),
    (lambda r: (_card(r, "rival")["copies"].update({"4": 2}), _card(r, "pope")["copies"].update({"4": 0})),
     "there is one Rival card"),
])
def test_a_card_file_that_breaks_a_rule_is_refused_naming_it(change, message):
    """Rules §2: 13 action card types, 21 cards in the 4-player game, one Rival; the Permit costs by
    cities built; the Ordinance and Promotion place a Baron of an age a tile shows."""
    assert refused(cards, change) == f"cards.toml: {message}"


def _privilege(raw, eid):
    return next(p for p in raw["privileges"]["privilege"] if p["electorate"] == eid)


@pytest.mark.parametrize("change, message", [
    (lambda r: _privilege(r, "SAXONY").update(gold=1),
     "privilege 5: PrivilegeSpec.__init__() got an unexpected keyword argument 'gold'"),
    (lambda r: _privilege(r, "SAXONY").update(electorate="ROME"), "privilege 5 names 'ROME': each electorate has one"),
    (lambda r: _privilege(r, "SAXONY").update(electorate="MAINZ"),
     "privilege 5 names 'MAINZ': each electorate has one"),
    (lambda r: _privilege(r, "SAXONY").update(phase="IV"), "privilege SAXONY effect 'income' is not a phase IV effect"),
    (lambda r: _privilege(r, "SAXONY").update(effect="tax"), "privilege SAXONY effect 'tax' is not a phase I effect"),
    (lambda r: _privilege(r, "BRANDENBURG").update(card="crown"),
     "privilege BRANDENBURG takes unknown card 'crown'"),
    (lambda r: _privilege(r, "PALATINATE").update(age=20), "privilege PALATINATE places a Baron of age 20"),
    (lambda r: _privilege(r, "TRIER").update(exclude=["rival", "crown"]),
     "privilege TRIER excludes unknown card 'crown'"),
    (lambda r: r["privileges"]["privilege"].pop(), "every electorate has a privilege"),
])
def test_a_privilege_file_that_breaks_a_rule_is_refused_naming_it(change, message):
    """Rules §2.3: each of the seven electorates has one privilege, used in the phase it names."""
    assert refused(privileges, change) == f"privileges.toml: {message}"


@pytest.mark.parametrize("parse, message", [
    (lambda: data.parse_board({}), "board.toml: 4 different colours are needed, found []"),
    (lambda: data.parse_board({"colours": RAW["board"]["colours"]}),
     "board.toml: the board has seven different electorates, found []"),
    (lambda: data.parse_board({k: v for k, v in copy.deepcopy(RAW["board"]).items() if k != "round"}),
     "board.toml: the round track needs 5 rounds, found 0"),
    (lambda: data.parse_board({k: v for k, v in copy.deepcopy(RAW["board"]).items() if k != "rules"}),
     "board.toml: [rules] lacks rounds"),
    (lambda: data.parse_cards({}, data.BOARD), "cards.toml: there are 13 card types, this file has 0"),
    (lambda: data.parse_privileges({}, data.BOARD, data.CARDS), "privileges.toml: every electorate has a privilege"),
])
def test_a_file_missing_a_whole_table_is_refused_like_an_empty_one(parse, message):
    with pytest.raises(BadData) as err:
        parse()
    assert str(err.value) == message


def test_the_start_may_put_every_player_at_the_thaler_cap():
    """Rules: the thaler track runs 0-12; starting thalers above the cap are refused, at it they are not."""
    raw = copy.deepcopy(RAW["board"])
    raw["rules"]["start_thalers"] = raw["rules"]["thaler_cap"]
    assert data.parse_board(raw).rules["start_thalers"] == 12
