"""What one seat's screen says, built from that seat's view and legal actions only.

A `Face` is the words of a screen: the header, the seat's private figures,
what it must decide, and the menu choice under the cursor. It is made from
`match.view(seat)` and `match.legal_actions(seat)` and nothing else, so a
screen cannot show what its seat may not know.
"""

from __future__ import annotations

from typing import Any, Collection, NamedTuple, Sequence

from engine.game import Game
from engine.i18n import N_, _, reader_names

from .menu import Menu


class Face(NamedTuple):
    """What one seat's screen says (a tuple: every seat's face is made and compared on every redraw)."""

    seat_name: str
    header: str
    panel: tuple[str, ...]
    ask: str
    choice: str = ""  # the menu item under the cursor, "" when nothing is to be chosen
    position: str = ""  # e.g. "2/5"
    can_go_back: bool = False
    notice: str = ""  # a short table message (saving failed, a seat is degraded)


def seat_face(game: Game, names: Sequence[str], seat: int, view: dict[str, Any],
              actions: list[dict[str, Any]], menu: Menu, notice: str = "",
              words: tuple[str, tuple[str, ...]] | None = None) -> Face:
    """The seat's face from its view and legal actions.

    `words` is the header and panel this view already gave (they depend on
    the view alone), so a cursor move does not word them again.
    """
    level = menu.level(actions)
    choice = position = ""
    ask = game.ask(view, names, level.key if level is not None else "")
    if level is not None and level.key == "confirm":
        action = level.chosen
        fields = [(k, v) for k, v in action.items() if k not in ("seat", "do")] or [("do", action["do"])]
        summary = " ".join(game.label(view, k, v, names, action) for k, v in fields)
        ask, choice = _("Sure? {summary}").format(summary=summary), _("Yes, do it (hold: no)")
    elif level is not None:
        value = level.values[menu.cursor]
        choice = game.label(view, level.key, value, names, level.chosen)
        done = level.complete
        if done is not None and level.key == "do" and len(done) > 2:
            # The one thing left to do names what it does it with ("Refill: Shogun 10"), its last field.
            key = list(done)[-1]
            choice = f"{choice}: {game.label(view, key, done[key], names, done)}"
        if len(level.values) > 1:
            position = f"{menu.cursor + 1}/{len(level.values)}"
    header, panel = words if words is not None else (game.header(view, names), tuple(game.panel(view, names)))
    return Face(
        seat_name=names[seat],
        header=header,
        panel=panel,
        ask=ask,
        choice=choice,
        position=position,
        can_go_back=bool(menu.path),
        notice=notice,
    )


TABLE_EVENTS = {"undo": N_("The last action was taken back")}


def describe(match: Any, event: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """Say a public event in words: the table's own events here, the game's by the game.

    `names`: the seat names in the reader's language, when the caller has them (a replay says many events).
    """
    if event.get("type") in TABLE_EVENTS:
        return _(TABLE_EVENTS[event["type"]])
    names = reader_names(match.names) if names is None else names
    if event.get("type") == "bot":  # a bot seat is about to play: the events that follow are its
        return _("{name} (bot) plays:").format(name=names[event["seat"]])
    return match.game.describe_event(event, names)


def with_bots(line: str, pending: Sequence[int], names: Sequence[str], bots: Collection[int]) -> str:
    """The table prompt, saying which of the seats it waits for are bots (they think; nobody need press)."""
    thinking = [names[s] for s in pending if s in bots]
    if not thinking:
        return line
    return _("{line} ({names}: bot, thinking)").format(line=line, names=", ".join(thinking))


def boot_face(name: str, message: str) -> Face:
    return Face(seat_name=name, header="courtier", panel=(), ask=message)


def lines_of(face: Face) -> list[str]:
    """The face as plain text lines (for logs, the terminal and tests)."""
    lines = [f"[{face.seat_name}] {face.header}", *face.panel, face.ask]
    if face.choice:
        lines.append(f"> {face.choice}  {face.position}".rstrip())
    if face.notice:
        lines.append(_("! {notice}").format(notice=face.notice))
    return lines
