"""`clone`: a deep copy of a state, built from its type hints, that shares nothing mutable.

A copier is built once per type and kept: each test here starts from an empty store of
copiers, so it builds every copier it uses (`list[int]` included) rather than reusing those
an earlier test or game made. The classes are made inside each test (no `from __future__
import annotations`, so their hints are real types).
"""

import dataclasses
from typing import Any, Dict, List, Optional, Union

import pytest

import engine.clone
from engine.clone import clone, copier


@pytest.fixture(autouse=True)
def no_copier_built_yet(monkeypatch):
    monkeypatch.setattr(engine.clone, "_COPIERS", {})


def shapes():
    """A state of every shape a game's state holds, as fresh classes."""

    @dataclasses.dataclass
    class Piece:
        name: str
        marks: list[int]

    @dataclasses.dataclass
    class Node:
        value: int
        next: Optional["Node"] = None

    Node.__annotations__["next"] = Optional[Node]  # a class that holds its own kind, as a local class

    @dataclasses.dataclass
    class State:
        count: int
        label: str
        ratio: float
        flag: bool
        nothing: None
        numbers: list[int]
        pieces: list[Piece]
        by_name: dict[str, list[int]]
        flat: dict[str, int]
        maybe_list: Optional[list[int]]
        maybe_number: Optional[int]
        pair: tuple[int, int]
        loose_tuple: tuple[Any, ...]
        either: Union[list[int], dict[str, int]]
        anything: Any
        chain: Node
        loose_list: List = dataclasses.field(default_factory=list)  # bare: no item type to go by
        loose_map: Dict = dataclasses.field(default_factory=dict)

    return Piece, Node, State


def test_a_clone_equals_its_original_and_shares_nothing_mutable():
    Piece, Node, State = shapes()
    original = State(
        count=3, label="Red", ratio=0.5, flag=True, nothing=None, numbers=[1, 2],
        pieces=[Piece("Daimyo", [9])], by_name={"row": [4, 5]}, flat={"a": 1}, maybe_list=[7],
        maybe_number=None, pair=(1, 2), loose_tuple=([1], {"k": [2]}), either={"x": 1},
        anything={"events": [{"type": "vote", "seats": [0, 1]}], "piece": Piece("Geisha", [2])},
        chain=Node(1, Node(2)), loose_list=[[1]], loose_map={"k": [1]})
    copied = clone(original)
    assert copied == original and type(copied) is State
    # every mutable part is a new object, at every depth
    assert copied.numbers is not original.numbers
    assert copied.pieces is not original.pieces and copied.pieces[0] is not original.pieces[0]
    assert copied.pieces[0].marks is not original.pieces[0].marks
    assert copied.by_name is not original.by_name and copied.by_name["row"] is not original.by_name["row"]
    assert copied.flat is not original.flat
    assert copied.maybe_list is not original.maybe_list
    assert copied.loose_tuple[0] is not original.loose_tuple[0]
    assert copied.loose_tuple[1]["k"] is not original.loose_tuple[1]["k"]
    assert copied.either is not original.either
    assert copied.anything["events"][0]["seats"] is not original.anything["events"][0]["seats"]
    assert copied.anything["piece"] is not original.anything["piece"]
    assert copied.anything["piece"].marks is not original.anything["piece"].marks
    assert copied.chain.next is not original.chain.next
    assert copied.loose_list[0] is not original.loose_list[0] and copied.loose_map["k"] is not original.loose_map["k"]
    # changing the copy anywhere leaves the original as it was
    copied.numbers.append(3)
    copied.pieces[0].marks.append(1)
    copied.by_name["row"][0] = 0
    copied.anything["events"][0]["seats"].append(2)
    copied.anything["piece"].marks.clear()
    copied.chain.next.value = 9
    copied.loose_tuple[1]["k"].append(3)
    assert original.numbers == [1, 2] and original.pieces[0].marks == [9] and original.by_name["row"] == [4, 5]
    assert original.anything["events"][0]["seats"] == [0, 1] and original.anything["piece"].marks == [2]
    assert original.chain.next.value == 2 and original.loose_tuple[1]["k"] == [2]


def test_a_clone_keeps_none_where_an_optional_part_is_empty():
    Piece, Node, State = shapes()
    original = State(
        count=0, label="", ratio=0.0, flag=False, nothing=None, numbers=[], pieces=[], by_name={}, flat={},
        maybe_list=None, maybe_number=4, pair=(0, 0), loose_tuple=(), either=[1], anything=7, chain=Node(1))
    copied = clone(original)
    assert copied == original
    assert copied.maybe_list is None and copied.chain.next is None and copied.either == [1]
    assert copied.either is not original.either


def test_immutable_parts_are_shared_not_copied():
    Piece, _Node, _State = shapes()
    piece = Piece("Shogun", [1])
    copied = clone(piece)
    assert copied.name is piece.name
    assert clone((1, 2)) == (1, 2)
    for kind in (int, str, bool, float, type(None), Optional[int], Union[int, str], tuple[int, str], tuple[int, ...]):
        value = (1, "a") if "tuple" in str(kind) else 5
        assert copier(kind)(value) is value, kind
    assert copier(list[int]) is list and copier(dict[str, int]) is dict


def test_a_copier_is_built_once_per_type():
    Piece, _Node, _State = shapes()
    first = copier(Piece)
    assert copier(Piece) is first and copier(list[Piece]) is copier(list[Piece])
