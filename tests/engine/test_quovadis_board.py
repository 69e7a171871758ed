"""The Quo Vadis board file: the shipped board passes, and each broken rule is refused by name."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from engine.errors import BadData
from engine.games.quovadis.board import BOARD, LAURELS, Laurel, load_board, load_laurels, parse_board

RAW = tomllib.loads((Path(__file__).parents[2] / "engine/games/quovadis/board.toml").read_text())


def broken(change):
    data = copy.deepcopy(RAW)
    change(data)
    return data


def test_the_shipped_board_keeps_every_stated_rule():
    sizes = sorted(c.seats for c in BOARD.committees.values() if not c.senate)
    assert sizes.count(1) == 7 and sizes.count(3) == 5 and sizes.count(5) == 2
    assert len(BOARD.entries) == 4 and len(BOARD.diamonds) == 10
    assert BOARD.paths[BOARD.caesar_start].dest == BOARD.senate.id
    assert BOARD.assumption is True


def test_the_laurel_set_is_62_tokens_with_18_rewards():
    assert LAURELS.total == 62 and LAURELS.reward == "I" and len(LAURELS.bag()) == 44
    assert sum(LAURELS.kinds[t].value for t in LAURELS.bag()) + 18 == 157


@pytest.mark.parametrize("change, rule", [
    (lambda d: d["committees"]["A2"].update(seats=3), "7/5/2"),
    (lambda d: d["committees"]["A2"].update(seats=2), "1, 3 or 5"),
    (lambda d: d["committees"]["A1"].update(entry=True), "4 entry committees"),
    (lambda d: d["committees"]["S"].update(seats=3), "one Senate, with 5 seats"),
    (lambda d: d["paths"].update(p02=["E2", "A1", False]), "10 laurel diamonds"),
    (lambda d: d["paths"].update(p02=["E2", "A1", False], p01=["E1", "A1", True]), "3- and 5-seat"),
    (lambda d: d["paths"].update(p99=["E2", "A4", True], p05=["E3", "A4", False]), "3- and 5-seat"),
    (lambda d: d["paths"].update(p18=["B2", "A2", False]), "cycle"),
    (lambda d: d["paths"].update(p01=["E1", "Z9", False]), "unknown committee"),
    (lambda d: d["paths"].pop("p17"), "cannot reach the Senate"),
    (lambda d: d["paths"].update(p18=["E1", "A2", False], p19=["E1", "A3", False]), "one or two"),
    (lambda d: d.update(caesar_start="p07"), "Caesar must start"),
    (lambda d: d["paths"].update(p19=["S", "C1", False]), "leaves the Senate"),
    (lambda d: d["committees"]["A2"].update(colour="red"), "^test.toml: committee A2: .*colour"),
    (lambda d: d["paths"].update(p02=["E2", "A1"]), r"^test.toml: path p02 must be \[from, to, diamond\]$"),
    (lambda d: d["paths"].update(p02=["E2", "A1", 1]), "path p02 must be"),
    (lambda d: d["paths"].update(p02="E2>A1"), "path p02 must be"),
])
def test_a_board_that_breaks_a_rule_is_refused_naming_it(change, rule):
    with pytest.raises(BadData, match=rule):
        parse_board(broken(change), "test.toml")


# --- the files themselves (read once at import, so read again here) ---------------------------------

SHIPPED = Path(__file__).parents[2] / "engine/games/quovadis"
LAURELS_TOML = (SHIPPED / "laurels.toml").read_text(encoding="utf-8")


def test_the_shipped_files_load_to_the_board_and_laurels_the_game_plays_with():
    assert load_board() == BOARD and load_board(SHIPPED / "board.toml") == BOARD
    assert load_laurels() == LAURELS
    assert LAURELS.limited_supply == {3: 10, 4: 14, 5: 18}  # rules A.10-1: the "limited I" supply by players
    assert LAURELS.kinds["IIC"] == Laurel("IIC", 2, 6, caesar=True)


def test_a_file_is_read_as_utf8_and_a_broken_or_missing_one_is_refused_naming_it(tmp_path, ascii_locale_python):
    board = tmp_path / "tavola.toml"
    board.write_text((SHIPPED / "board.toml").read_text(encoding="utf-8").replace(
        'name = "', 'name = "é ', 1), encoding="utf-8")
    shown = ascii_locale_python("from pathlib import Path\nfrom engine.games.quovadis.board import load_board\n"
                                f"print(ascii(next(iter(load_board(Path({str(board)!r})).committees.values())).name))")
    assert shown.strip() == ascii("é " + next(iter(BOARD.committees.values())).name)
    board.write_text("committees = [", encoding="utf-8")
    with pytest.raises(BadData, match=r"^tavola\.toml: "):
        load_board(board)
    with pytest.raises(BadData, match=r"^nowhere\.toml: .*No such file"):
        load_laurels(tmp_path / "nowhere.toml")
    board.write_text("[committees]\nS = { seats = 3, name = 'S', senate = true }\n", encoding="utf-8")
    with pytest.raises(BadData, match=r"^tavola\.toml: there must be exactly one Senate"):
        load_board(board)


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("V = { value = 5, count = 6 }", "V = { value = 5, count = 6, colour = 1 }"),
     r"^l\.toml: laurel V: .*colour"),
    (lambda t: t.replace("V = { value = 5, count = 6 }", "V = { value = 5, count = 5 }"),
     r"^l\.toml: there are 62 laurels, this file has 61$"),
    (lambda t: t.replace("V = { value = 5, count = 6 }", "V = { value = 5, count = 7 }"),
     r"^l\.toml: there are 62 laurels, this file has 63$"),
    (lambda t: t.replace("II = { value = 2, count = 8 }", "II = { value = 1, count = 8 }"),
     r"^l\.toml: exactly one kind of token worth 1 serves as the reward supply$"),
    (lambda t: t.replace("I = { value = 1, count = 18 }", "I = { value = 2, count = 18 }"),
     r"^l\.toml: exactly one kind of token worth 1"),
])
def test_a_laurel_file_that_breaks_the_set_is_refused_naming_the_rule(tmp_path, change, message):
    """Rules A.4: 62 laurel tokens; the 18 "I" tokens (worth 1) are the open reward supply."""
    path = tmp_path / "l.toml"
    path.write_text(change(LAURELS_TOML), encoding="utf-8")
    with pytest.raises(BadData, match=message):
        load_laurels(path)


def test_a_caesar_token_worth_one_is_not_the_reward_and_the_limited_supply_is_read_as_numbers(tmp_path):
    path = tmp_path / "l.toml"
    path.write_text(LAURELS_TOML.replace("IIC = { value = 2,", "IIC = { value = 1,").replace(
        "3 = 10", '3 = "9"'), encoding="utf-8")
    laurels = load_laurels(path)
    assert laurels.reward == "I" and laurels.limited_supply == {3: 9, 4: 14, 5: 18}
    assert laurels.kinds == LAURELS.kinds | {"IIC": Laurel("IIC", 1, 6, caesar=True)}


@pytest.mark.parametrize("change, message", [
    (lambda d: d["paths"].pop("p17"), "committee A3 cannot reach the Senate; every committee must"),
    (lambda d: d["paths"].update(p18=["B2", "A2", False]), "the paths form a cycle: E2 -> A2 -> B2 -> A2"),
    (lambda d: d["committees"]["A1"].update(entry=True), "there must be 4 entry committees, not 5"),
    (lambda d: d.update(caesar_start="p99"), "Caesar must start on the diamond of a path into the Senate"),
    (lambda d: d.pop("caesar_start"), "Caesar must start on the diamond of a path into the Senate"),
    (lambda d: d.pop("committees"), "there must be exactly one Senate, with 5 seats"),
    (lambda d: d.pop("paths"), "there must be 10 laurel diamonds, not 0"),
])
def test_a_broken_board_is_refused_in_a_whole_sentence_naming_its_source(change, message):
    with pytest.raises(BadData) as refused:
        parse_board(broken(change))
    assert str(refused.value) == f"board: {message}"


def test_a_board_that_does_not_say_it_is_an_assumption_is_not_one():
    """The shipped board says it is an assumption (no source gives the real edge list); another need not."""
    assert parse_board(broken(lambda d: d.pop("assumption"))).assumption is False


def test_a_laurel_file_may_leave_out_the_limited_supply_and_have_kinds_of_equal_worth(tmp_path):
    path = tmp_path / "l.toml"
    path.write_text(LAURELS_TOML.split("[limited_supply]")[0].replace("III = { value = 3,", "III = { value = 2,"),
                    encoding="utf-8")
    laurels = load_laurels(path)
    assert laurels.limited_supply == {} and laurels.kinds["III"].value == 2 and laurels.reward == "I"
    path.write_text("[limited_supply]\n3 = 10\n", encoding="utf-8")
    with pytest.raises(BadData, match=r"^l\.toml: there are 62 laurels, this file has 0$"):
        load_laurels(path)
