"""A fast deep copy of a game state, driven by its type hints.

A bot copies a state for every world it imagines and every line of play it
tries, and `copy.deepcopy` spends most of its time asking each object how to
copy itself and keeping a memo of what it has seen. A state is plain
dataclasses of scalars, lists, dicts and optionals (the same shapes `codec`
round-trips through JSON, with no object shared between two places), so its
type hints say once and for all which parts must be copied and how: a
`list[int]` is copied by `list`, a field holding an `int` is not copied at all.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Callable, TypeVar

T = TypeVar("T")
Copier = Callable[[Any], Any]
_SCALARS = (int, str, bool, float, type(None))
_COPIERS: dict[Any, Copier] = {}


def clone(value: T) -> T:
    """Return a deep copy of a state dataclass (or of any value of the shapes a state holds)."""
    return copier(type(value))(value)


def _same(value: Any) -> Any:
    return value


def _plain(value: Any) -> Any:
    """Copy JSON-like data of no declared type (`Any`): events, options."""
    if type(value) in _SCALARS:  # most of it: asked first, since `is_dataclass` below is slow
        return value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return clone(value)
    return value


def copier(kind: Any) -> Copier:
    """The function that deep-copies a value of type `kind`, built once per type."""
    found = _COPIERS.get(kind)
    if found is None:
        found = _build(kind)
        _COPIERS[kind] = found
    return found


def _build(kind: Any) -> Copier:
    if kind in _SCALARS:
        return _same
    if kind is Any:
        return _plain
    if dataclasses.is_dataclass(kind):
        return _dataclass_copier(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        parts = [copier(a) for a in options]
        if all(p is _same for p in parts):
            return _same
        if len(parts) == 1:
            (only,) = parts
            return lambda value: None if value is None else only(value)
        return _plain  # a union of several shapes: copy what is there
    if origin is list:
        item = copier(args[0]) if args else _plain
        if item is _same:
            return list
        return lambda value: [item(v) for v in value]
    if origin is tuple:
        items = [copier(a) for a in args if a is not Ellipsis]
        if all(i is _same for i in items):
            return _same
        return lambda value: tuple(_plain(v) for v in value)
    if origin is dict:
        item = copier(args[1]) if args else _plain
        if item is _same:
            return dict
        return lambda value: {k: item(v) for k, v in value.items()}
    return _plain


def _dataclass_copier(cls: type) -> Copier:
    """Copy the instance's fields dict, then replace each field that holds something mutable."""
    mutable: list[tuple[str, Copier]] = []

    def copy_instance(value: Any) -> Any:
        fields = value.__dict__.copy()
        for name, copy_field in mutable:
            fields[name] = copy_field(fields[name])
        new = object.__new__(cls)
        new.__dict__ = fields
        return new

    _COPIERS[cls] = copy_instance  # before the fields: a dataclass may hold its own kind
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        field_copier = copier(hints[f.name])
        if field_copier is not _same:
            mutable.append((f.name, field_copier))
    return copy_instance
