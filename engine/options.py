"""Named rule options: every rule a table may want to change, with its documented default."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .errors import BadOptions
from .i18n import _
from .rng import Rng


@dataclass(frozen=True)
class RuleOption:
    """One rule a table can set.

    Attributes:
        name: the key used in headers, journals and on the command line.
        default: the value used when the table says nothing.
        doc: what the option changes, in one sentence.
        choices: the allowed values, or None for any value of the default's type.
        source: where the rule comes from, e.g. "[ASSUMPTION] rules/tenno.md B.7".
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    source: str = ""

    def check(self, value: Any) -> Any:
        kind = type(self.default)
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise BadOptions(_("option {name!r} takes a {kind}, not {value!r}").format(
                name=self.name, kind=kind.__name__, value=value))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise BadOptions(_("option {name!r} must be one of {allowed}, not {value!r}").format(
                name=self.name, allowed=allowed, value=value))
        return value


def resolve_options(declared: Iterable[RuleOption], given: Mapping[str, Any] | None, game: str) -> dict[str, Any]:
    """Return every declared option's value: the given one, checked, or the default."""
    table = {o.name: o for o in declared}
    given = dict(given or {})
    unknown = sorted(set(given) - set(table))
    if unknown:
        known = ", ".join(sorted(table)) or "none"
        raise BadOptions(_("{game} has no option {name!r} (its options: {known})").format(
            game=game, name=unknown[0], known=known))
    return {name: opt.check(given[name]) if name in given else opt.default for name, opt in table.items()}


def parse_option_value(text: str) -> Any:
    """Read a command-line option value: true/false, an integer, or a string."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def typed(value: Any) -> str:
    """An option value as it is typed on the command line (true, 3, first)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, Any]:
    """Read command-line NAME=VALUE options into a dict (values as `parse_option_value` reads them)."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise BadOptions(_("an option is NAME=VALUE, not {pair!r}").format(pair=pair))
        options[name.strip()] = parse_option_value(value)
    return options


def start_seat(value: int, players: int, rng: Rng) -> int:
    """The seat that begins: the `start_seat` option's value, or drawn from the game's source when -1."""
    if value == -1:
        return rng.below(players)
    if not 0 <= value < players:
        raise BadOptions(f"start_seat {value} is not a seat of a {players}-player table")
    return value
