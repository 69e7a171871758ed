"""The public story of a game in plain text: each phase, each public event, the final scores."""

from __future__ import annotations

import sys
from typing import Any

from engine.i18n import _, reader_names
from engine.match import Match

from .table.faces import describe
from .table.render import cells, ljust_cells


class Printer:
    """Prints the public side of a game as it is played: each turn, event and the end."""

    def __init__(self, out: Any = None) -> None:
        self.out = out
        self.last_phase: Any = None
        self.said: set[str] = set()  # the last action's events in words, and each of their steps

    def __call__(self, match: Match, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        out = self.out or sys.stdout
        lines = [describe(match, event) for event in events]
        # An event that changed the board says its steps after it, one "; " apart.
        self.said = {part for line in lines for part in (line, *line.split("; "))}
        for line in lines:
            print("  " + line, file=out)
        view = match.public_view()
        phase = (view.get("phase"), view.get("turn", view.get("round")))
        if phase != self.last_phase and not match.is_over:
            self.last_phase = phase
            print(f"-- {match.prompt().line}", file=out)


    def steps(self, match: Match) -> None:
        """Print the table's steps for now, but none the last action's events already said."""
        out = self.out or sys.stdout
        for step in match.prompt().steps:
            if step not in self.said:
                print("  " + step, file=out)


def print_result(match: Match, out: Any = None) -> None:
    out = out or sys.stdout
    result = match.result()
    if result is None:
        print(_("Not finished: {line}").format(line=match.prompt().line), file=out)
        return
    from .public.report import PARTS  # the report's words, loaded when a game ends

    names = reader_names(match.names)
    print(_("Final scores:"), file=out)
    for seat, score in sorted(result.scores.items(), key=lambda kv: -kv[1]):
        parts = ", ".join(f"{_(PARTS[k]) if k in PARTS else k} {v}" for k, v in result.breakdown.get(seat, {}).items())
        mark = _("  <- winner") if seat in result.winners else ""
        print(f"  {ljust_cells(names[seat], max(8, cells(names[seat])))} {score:3}   ({parts}){mark}", file=out)
    print(_("Winner: {names}").format(names=", ".join(names[w] for w in result.winners)), file=out)
