"""JSON round trip for game states built from dataclasses.

States are plain dataclasses of ints, strs, bools, lists, dicts with str keys,
optionals and nested dataclasses. `to_data` turns one into JSON-safe data and
`from_data` rebuilds it from the type hints, so `from_data(T, to_data(x)) == x`.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, TypeVar

from .errors import BadJournal

T = TypeVar("T")


def to_data(value: Any) -> Any:
    """Return JSON-safe data for a state value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(kind: Any, data: Any, where: str = "state") -> Any:
    """Rebuild a value of type `kind` from `to_data` output; raise BadJournal if it does not fit."""
    origin = typing.get_origin(kind)
    if kind is Any:
        return data
    if dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise BadJournal(f"{where}: expected an object for {kind.__name__}")
        hints = _hints(kind)
        values = {}
        for f in dataclasses.fields(kind):
            if f.name in data:
                values[f.name] = from_data(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise BadJournal(f"{where}: missing field {f.name!r}")
        return kind(**values)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(kind)
        if data is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_data(arg, data, where)
            except BadJournal:
                continue
        raise BadJournal(f"{where}: {data!r} fits none of {kind}")
    if origin in (list, tuple):
        if not isinstance(data, list):
            raise BadJournal(f"{where}: expected a list")
        (item,) = typing.get_args(kind)[:1] or (Any,)
        items = [from_data(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
        return items if origin is list else tuple(items)
    if origin is dict:
        if not isinstance(data, dict):
            raise BadJournal(f"{where}: expected an object")
        key_t, val_t = typing.get_args(kind)
        return {_key(key_t, k, where): from_data(val_t, v, f"{where}.{k}") for k, v in data.items()}
    if kind is bool:
        if not isinstance(data, bool):
            raise BadJournal(f"{where}: expected true or false, got {data!r}")
        return data
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise BadJournal(f"{where}: expected an integer, got {data!r}")
        return data
    if kind is str:
        if not isinstance(data, str):
            raise BadJournal(f"{where}: expected a string, got {data!r}")
        return data
    if kind is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise BadJournal(f"{where}: expected a number, got {data!r}")
        return float(data)
    raise BadJournal(f"{where}: cannot rebuild type {kind!r}")


def _key(kind: Any, key: str, where: str) -> Any:
    """A JSON object's key as the state holds it: seat numbers come back as ints."""
    if kind is not int:
        return key
    try:
        return int(key)
    except ValueError:
        raise BadJournal(f"{where}: key {key!r} is not a seat number") from None
