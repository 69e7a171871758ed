"""Loading a saved state or header: JSON's `true` is never taken for the integer 1.

Python counts `True` as an int (`isinstance(True, int)`), so every place that
reads an integer from JSON must say so itself; a journal or state whose
number became `true` is refused by name, never played on as seat or seed 1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from engine.codec import from_data, to_data
from engine.errors import BadJournal
from engine.match import Header, Match


@dataclass
class Inner:
    count: int
    flag: bool = False


@dataclass
class Sample:
    seat: int
    name: str
    ratio: float
    maybe: int | None
    inner: Inner
    items: list[int] = field(default_factory=list)
    pair: tuple[int, ...] = ()
    by_seat: dict[int, int] = field(default_factory=dict)
    by_name: dict[str, bool] = field(default_factory=dict)
    either: int | str = 0
    none_first: None | int = None


GOOD = Sample(seat=2, name="Red", ratio=0.5, maybe=None, inner=Inner(3, True), items=[1, 2], pair=(4, 5),
              by_seat={0: 1, 3: 7}, by_name={"x": False})


def test_a_state_round_trips_through_json_to_an_equal_state():
    data = json.loads(json.dumps(to_data(GOOD)))
    assert data["by_seat"] == {"0": 1, "3": 7}  # JSON keys are strings; they come back as ints
    assert from_data(Sample, data) == GOOD
    assert from_data(Sample, {**data, "maybe": 4}).maybe == 4


@pytest.mark.parametrize("where, change", [
    ("state.seat", {"seat": True}),
    ("state.inner.count", {"inner": {"count": False}}),
    ("state.items[1]", {"items": [1, True]}),
    ("state.pair[0]", {"pair": [True]}),
    ("state.by_seat.0", {"by_seat": {"0": True}}),
    ("state.maybe", {"maybe": True}),
    ("state.ratio", {"ratio": True}),
])
def test_true_or_false_where_a_number_belongs_is_refused_naming_the_field(where, change):
    data = {**to_data(GOOD), **change}
    with pytest.raises(BadJournal) as refused:
        from_data(Sample, data)
    assert str(refused.value).startswith(where + ":")


@pytest.mark.parametrize("change, message", [
    ({"inner": {"count": 1, "flag": 1}}, "expected true or false, got 1"),
    ({"name": 5}, "state.name: expected a string, got 5"),
    ({"inner": [1]}, "state.inner: expected an object for Inner"),
    ({"inner": {}}, "state.inner: missing field 'count'"),
    ({"items": {"0": 1}}, "state.items: expected a list"),
    ({"by_seat": [1]}, "state.by_seat: expected an object"),
    ({"by_seat": {"one": 1}}, "state.by_seat: key 'one' is not a seat number"),
    ({"maybe": "x"}, "state.maybe: 'x' fits none of"),
    ({"ratio": "0.5"}, "state.ratio: expected a number"),
])
def test_a_value_of_the_wrong_kind_is_refused_naming_the_field(change, message):
    with pytest.raises(BadJournal) as refused:
        from_data(Sample, {**to_data(GOOD), **change})
    assert message in str(refused.value)


def test_a_number_where_a_float_belongs_is_read_as_a_float():
    value = from_data(Sample, {**to_data(GOOD), "ratio": 2})
    assert value.ratio == 2.0 and type(value.ratio) is float


def test_a_header_with_true_for_its_seed_or_players_is_refused():
    header = Match.new("tenno", 3, seed=1).header.to_data()
    assert Header.from_data(header).seed == 1
    for key in ("seed", "players"):
        with pytest.raises(BadJournal, match="players and seed must be integers"):
            Header.from_data({**header, key: True})


def test_a_saved_match_with_true_in_its_state_is_refused():
    data = json.loads(json.dumps(Match.new("tenno", 3, seed=1).to_data()))
    assert Match.from_data(data).state.active == data["state"]["active"]
    data["state"]["active"] = True
    with pytest.raises(BadJournal, match="state.active: expected an integer, got True"):
        Match.from_data(data)


def test_fields_left_out_take_their_defaults_and_a_union_tries_each_member():
    assert from_data(Inner, {"count": 2}) == Inner(2, False)
    data = to_data(GOOD)
    for key in ("items", "pair", "by_seat", "by_name", "either", "none_first"):
        data.pop(key)
    assert from_data(Sample, data) == Sample(seat=2, name="Red", ratio=0.5, maybe=None, inner=Inner(3, True))
    assert from_data(Sample, {**to_data(GOOD), "either": "x"}).either == "x"
    assert from_data(Sample, {**to_data(GOOD), "either": 4}).either == 4
    assert from_data(Sample, {**to_data(GOOD), "none_first": 4}).none_first == 4


def test_a_type_the_codec_does_not_know_is_named():
    with pytest.raises(BadJournal) as refused:
        from_data(set[int], [1])
    assert str(refused.value) == "state: cannot rebuild type set[int]"
