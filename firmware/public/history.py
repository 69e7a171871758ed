"""How a game went, read back from its journal: the public events in words and the figures to chart.

A journal's header and actions replay to every moment of the game. At each
moment this module keeps what the report shows: the public events in words
(under the header of the moment they happened in), and each game's figures
per turn or round. Before the end only the public view is read, so the
history of an unfinished game holds nothing the table may not know; once the
game is over the rules reveal the rest (every seat's hidden laurels, victory
points), and the figures are read from every seat's view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from engine.i18n import N_, reader_names
from engine.match import Header, Match

from ..table.faces import describe
from .boards import committee_levels

View = dict[str, Any]


@dataclass(frozen=True)
class Series:
    """One figure per seat at each moment of the game (a line per seat on a chart)."""

    name: str
    title: str  # through gettext where shown
    kind: str = "line"  # or "bar"


@dataclass
class Entry:
    """The public events of the actions made under one header ("T3 Red", "R2 IV Blue")."""

    header: str
    lines: list[str] = field(default_factory=list)


@dataclass
class History:
    """A replayed game: the final match, the timeline, the figures and each fight."""

    match: Match
    revealed: bool
    timeline: list[Entry] = field(default_factory=list)
    axis: str = ""  # what the x axis counts ("Turn", "Round")
    points: list[str] = field(default_factory=list)  # x labels, one per turn or round
    figures: dict[str, list[list[float | None]]] = field(default_factory=dict)  # series -> per point, per seat
    series: tuple[Series, ...] = ()
    fights: list[dict[str, Any]] = field(default_factory=list)  # Tennō: every fight, in order
    elections: list[dict[str, Any]] = field(default_factory=list)  # Shadow: every counted election


# --- each game's figures at one moment ---------------------------------------------------
# (public view, every seat's view or None before the end) -> (x key, x label, series -> per seat)

Sampler = Callable[[View, Sequence[View] | None], tuple[Any, str, dict[str, list[float | None]]]]


def _tenno(public: View, views: Sequence[View] | None) -> tuple[Any, str, dict[str, list[float | None]]]:
    return public["turn"], str(public["turn"]), {"prisoners": [p["captives"] for p in public["players"]]}


def _quovadis(public: View, views: Sequence[View] | None) -> tuple[Any, str, dict[str, list[float | None]]]:
    levels = committee_levels()
    seats = len(public["players"])
    progress = [0.0] * seats
    for cid, owners in public["committees"].items():
        for owner in owners:
            progress[owner] += levels.get(cid, 0)
    laurels: list[float | None] = ([v["me"]["total"] for v in views] if views is not None
                                   else [p["laurels"] for p in public["players"]])
    return public["turn"], str(public["turn"]), {
        "progress": list(progress), "senate": [public["senate"].count(s) for s in range(seats)], "laurels": laurels}


def _shadow(public: View, views: Sequence[View] | None) -> tuple[Any, str, dict[str, list[float | None]]]:
    vp: list[float | None] = ([v["me"]["vp"] for v in views] if views is not None
                              else [p["vp"] for p in public["players"]])
    return public["round"], str(public["round"]), {"vp": vp, "thalers": [p["thalers"] for p in public["players"]]}


# What each game charts before the end and after it; the laurels line counts tokens before the end and their
# value after it. A series the public view leaves unknown (Shadow's hidden victory points) has None for every
# seat, and the report draws no chart of it.
GAMES: dict[str, tuple[str, Sampler, tuple[Series, ...], tuple[Series, ...]]] = {
    "tenno": (N_("Turn"), _tenno,
              (Series("prisoners", N_("Prisoners taken, per turn")),),
              (Series("prisoners", N_("Prisoners taken, per turn")),)),
    "quovadis": (N_("Turn"), _quovadis,
                 (Series("progress", N_("Senators' progress up the board, per turn")),
                  Series("laurels", N_("Laurels held (how many), per turn"))),
                 (Series("progress", N_("Senators' progress up the board, per turn")),
                  Series("laurels", N_("Laurels (their value), per turn")))),
    "shadow": (N_("Round"), _shadow,
               (Series("vp", N_("Victory points, per round")), Series("thalers", N_("Thalers, per round"))),
               (Series("vp", N_("Victory points, per round")), Series("thalers", N_("Thalers, per round")))),
}


def replay(header: Header, actions: Sequence[dict[str, Any]]) -> History:
    """Replay a journal's game and gather its history (hidden figures only when it is over)."""
    revealed = Match.replay(header, actions).is_over
    match = Match.new(header.game, header.players, header.seed, header.options, header.names)
    history = History(match, revealed)
    axis, sampler, public_series, revealed_series = GAMES.get(header.game, ("", None, (), ()))
    history.axis = axis
    history.series = revealed_series if revealed else public_series
    keys: list[Any] = []
    seen_elections: set[Any] = set()

    def sample(public: View) -> None:
        if sampler is None:
            return
        views = [match.view(s) for s in range(header.players)] if revealed else None
        key, label, values = sampler(public, views)
        if keys and keys[-1] == key:
            for name, per_seat in values.items():
                history.figures[name][-1] = per_seat  # the last moment of a turn stands for it
            return
        keys.append(key)
        history.points.append(label)
        for name, per_seat in values.items():
            history.figures.setdefault(name, []).append(per_seat)

    names = reader_names(header.names)  # the table's language, as the report's own words
    public = match.public_view()
    sample(public)
    for action in actions:
        before = match.game.header(public, names)
        events = match.apply(action)
        public = match.public_view()
        lines = []
        for event in events:
            try:
                lines.append(describe(match, event, names))
            except Exception:  # a game's wording must not stop a report
                lines.append(str(event.get("type", event)))
            if event.get("type") == "fight" and "defend_card" in event:
                history.fights.append({"turn": public.get("turn"), **event})
        if lines:
            if not history.timeline or history.timeline[-1].header != before:
                history.timeline.append(Entry(before))
            history.timeline[-1].lines.extend(lines)
        election = public.get("election")
        if election and election.get("revealed"):
            key = (public.get("round"), election["emperor"], election["rival"])
            if key not in seen_elections:
                seen_elections.add(key)
                history.elections.append({"round": key[0], **election})
        sample(public)
    return history
