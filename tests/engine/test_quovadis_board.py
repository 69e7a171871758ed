"""The Quo Vadis board file: the shipped board passes, and each broken rule is refused by name."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from engine.errors import BadData
from engine.games.quovadis.board import BOARD, LAURELS, parse_board

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
])
def test_a_board_that_breaks_a_rule_is_refused_naming_it(change, rule):
    with pytest.raises(BadData, match=rule):
        parse_board(broken(change), "test.toml")
