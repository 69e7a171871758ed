"""The post-game report: final scores and where they came from, charts of the game, its public timeline.

Built from a journal alone (header and actions, replayed by `history`). Until
the game is over the report holds only what the whole table may know; once
it is over it also shows what the rules then reveal (every prisoner pile,
every seat's laurels, victory points by source). It is written as plain text
(`report_text`) or as one self-contained HTML page (`report_html`) whose
charts are drawn by Chart.js, shipped with courtier (`static/`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from engine.games import get_game
from engine.i18n import N_, _, reader_names
from engine.match import Header

from ..table import journal as journals
from ..table.render import cells, ljust_cells
from .boards import Row, Table, board
from .colours import page_colour, seat_colours
from .history import Entry, History, replay

# What each part of a breakdown is called (games add parts; an unknown one shows its key).
PARTS = {
    "prisoners": N_("Prisoners"), "captives": N_("Cards taken"), "kept": N_("Hand and row"),
    "tiebreak": N_("Tie-break"), "laurels": N_("Laurels"), "tokens": N_("Laurel tokens"),
    "senators": N_("Senators in the Senate"), "eligible": N_("Counts"), "emperor": N_("Emperor"),
    "electors": N_("Electors"), "votes": N_("Backed the winner"), "cities": N_("Cities"),
    "marriages": N_("Marriages"), "mainz": N_("Mainz"), "indulgence": N_("Indulgence"),
    "thalers": N_("Thalers"),
}


# What an unfinished game's report says first, in text and HTML alike.
NOT_OVER = N_("The game is not over: this report shows only what the whole table may know.")


@dataclass(frozen=True)
class Chart:
    """One chart: x labels and one dataset per seat (or per figure), for Chart.js or a text table."""

    id: str
    title: str
    kind: str  # "line" or "bar"
    axis: str
    labels: tuple[str, ...]
    datasets: tuple[dict[str, Any], ...]  # {"label", "data", "seat"}

    def to_data(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "kind": self.kind, "axis": self.axis,
                "labels": list(self.labels), "datasets": [dict(d) for d in self.datasets]}


@dataclass
class Report:
    """Everything a report shows, in words and figures."""

    game: str
    title: str
    names: tuple[str, ...]
    colours: tuple[str, ...]  # each seat's colour (`colours.seat_colours`)
    about: str  # players, options, number of actions, and the seed once the game is over
    over: bool
    line: str  # the final line (winner) or where the game stands
    scores: Table | None = None
    revealed: list[Table] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    timeline: list[Entry] = field(default_factory=list)
    board: list[Table] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def load_report(path: Path) -> Report:
    """Read a journal and build its report; raise BadJournal when the journal cannot be used."""
    loaded = journals.load(Path(path))
    report = build_report(loaded.header, loaded.actions)
    report.warnings.extend(loaded.warnings)
    return report


def build_report(header: Header, actions: Sequence[dict[str, Any]]) -> Report:
    """Replay the game and gather its report."""
    history = replay(header, actions)
    match = history.match
    game = get_game(header.game)
    names = reader_names(match.names)  # the table's language
    public = match.public_view()
    result = match.result()
    # The seed replays every hidden deal: it is told only once the game is over.
    about = (_("{players} players ({names}), seed {seed}, {n} actions") if result is not None
             else _("{players} players ({names}), {n} actions")).format(
        players=header.players, names=", ".join(names), seed=header.seed, n=len(match.actions))
    if header.options:
        about += "; " + _("options: {options}").format(
            options=", ".join(f"{k}={v}" for k, v in header.options.items()))
    line = match.prompt().line
    if result is not None:
        line = _("Winner: {names}").format(names=", ".join(names[w] for w in result.winners))
    report = Report(header.game, _(game.title), names, seat_colours(header.names), about, result is not None,
                    line, timeline=history.timeline, board=board(header.game, public, names))
    if result is not None:
        report.scores = scores_table(result.scores, result.winners, result.breakdown, names)
        report.revealed = revealed_tables(header.game, public, history, names)
    report.charts = charts(history, names)
    return report


def scores_table(scores: dict[int, int], winners: Sequence[int], breakdown: dict[int, dict[str, int]],
                 names: Sequence[str]) -> Table:
    parts = list(dict.fromkeys(k for seat in breakdown.values() for k in seat))
    rows = []
    for seat, score in sorted(scores.items(), key=lambda kv: -kv[1]):
        mark = _("winner") if seat in winners else ""
        rows.append(Row((names[seat], str(score), *(str(breakdown.get(seat, {}).get(k, "")) for k in parts), mark),
                        seat, seat in winners))
    return Table(_("Final scores"), (_("Player"), _("Score"), *(_(PARTS.get(k, k)) for k in parts), ""), tuple(rows))


def revealed_tables(game: str, public: dict[str, Any], history: History, names: Sequence[str]) -> list[Table]:
    """What the rules show once the game is over, and each game's record of its contests."""
    tables = []
    if game == "tenno":
        from engine.games.tenno.text import card_name

        over = public["over"]
        rows = tuple(Row((names[seat], ", ".join(f"{card_name(card)} ({names[owner]})" for owner, card in pile)
                          or "-", str(over["scores"][str(seat)])), seat)
                     for seat, pile in enumerate(over["prisoners"]))
        tables.append(Table(_("Prisoner piles, turned up"), (_("Player"), _("Prisoners"), _("Score")), rows))
        if history.fights:
            tables.append(Table(_("Every fight"), (_("Turn"), _("Attack"), _("Defence"), _("Won by")), tuple(
                Row((str(f["turn"]), f"{names[f['attacker']]} {card_name(f['attack_card'])} ({f['attack_strength']})",
                     f"{names[f['defender']]} {card_name(f['defend_card'])} ({f['defend_strength']})",
                     {"attacker": names[f["attacker"]], "defender": names[f["defender"]]}.get(f["outcome"], _("tie"))))
                for f in history.fights)))
    elif game == "quovadis":
        from engine.games.quovadis.text import token_name

        over = public["over"]
        tables.append(Table(_("Laurels, turned up"), (_("Player"), _("Laurels"), _("Value")), tuple(
            Row((names[seat], " ".join(token_name(t) for t in tokens) or "-", str(over["scores"][str(seat)])), seat)
            for seat, tokens in enumerate(over["laurels"]))))
        tables.append(Table(_("Senate order"), (_("Entered"), _("Player")), tuple(
            Row((str(n), names[seat]), seat) for n, seat in enumerate(public["senate"], 1))))
    elif game == "shadow" and history.elections:
        rows = []
        for e in history.elections:
            ballots = ", ".join(f"{names[int(s)]}: {names[e[b]]}" for s, b in sorted(e["revealed"].items(),
                                                                                   key=lambda kv: int(kv[0])))
            rows.append(Row((str(e["round"]), names[e["emperor"]], names[e["rival"]], ballots,
                             f"{e['emperor_total']}:{e['rival_total']}",
                             names[e["winner"]] if e["winner"] >= 0 else "-")))
        tables.append(Table(_("Elections"), (_("Round"), _("Emperor"), _("Rival"), _("Ballots"), _("Votes"),
                                             _("Elected")), tuple(rows)))
    return tables


def charts(history: History, names: Sequence[str]) -> list[Chart]:
    out = []
    for series in history.series:
        values = history.figures.get(series.name)
        if not values or all(v is None for point in values for v in point):
            continue
        datasets = tuple({"label": names[seat], "seat": seat, "data": [point[seat] for point in values]}
                         for seat in range(len(names)))
        out.append(Chart(series.name, _(series.title), series.kind, _(history.axis), tuple(history.points), datasets))
    if history.fights:
        labels = tuple(_("T{turn} {a} on {d}").format(turn=f["turn"], a=names[f["attacker"]], d=names[f["defender"]])
                       for f in history.fights)
        out.append(Chart("fights", _("Every fight: attack against defence"), "bar", _("Fight"), labels, (
            {"label": _("Attack"), "seat": None, "data": [f["attack_strength"] for f in history.fights]},
            {"label": _("Defence"), "seat": None, "data": [f["defend_strength"] for f in history.fights]})))
    return out


# --- text ---------------------------------------------------------------------------------

def table_text(table: Table) -> list[str]:
    """A table as aligned columns of text."""
    rows = [table.columns] + [row.cells for row in table.rows]
    widths = [max(cells(r[i]) if i < len(r) else 0 for r in rows) for i in range(len(table.columns))]  # Chinese: 2 cells
    lines = [table.title]
    for row in rows:
        lines.append("  " + "  ".join(ljust_cells(cell, widths[i]) for i, cell in enumerate(row)).rstrip())
    if table.note:
        lines.append("  " + table.note)
    return lines


def chart_table(chart: Chart) -> Table:
    """A chart's figures as a table: one row per point, one column per dataset."""
    rows = tuple(Row((label, *("" if d["data"][i] is None else f"{d['data'][i]:g}" for d in chart.datasets)))
                 for i, label in enumerate(chart.labels))
    return Table(chart.title, (chart.axis, *(d["label"] for d in chart.datasets)), rows)


def report_text(report: Report) -> str:
    lines = [f"{report.title}: {report.about}", report.line, ""]
    if not report.over:
        lines.insert(2, _(NOT_OVER))
    for warning in report.warnings:
        lines.insert(0, _("warning: {text}").format(text=warning))
    tables = ([report.scores] if report.scores else []) + report.revealed
    if not report.over:
        tables += report.board
    for table in tables + [chart_table(c) for c in report.charts]:
        lines += table_text(table) + [""]
    lines.append(_("Timeline"))
    for entry in report.timeline:
        lines.append(f"  {entry.header}")
        lines += [f"    {line}" for line in entry.lines]
    return "\n".join(lines) + "\n"


# --- HTML ---------------------------------------------------------------------------------

def report_html(report: Report, *, standalone: bool = True, live: bool = False) -> str:
    """The report as one HTML page; `standalone` puts every style and script in the page itself.

    Args:
        report: What to show.
        standalone: Inline the assets (a file to keep or send); else link them from the page server.
        live: The page server's report, which goes back to the live table when a new game starts.
    """
    from .pages import render

    data = json.dumps([c.to_data() for c in report.charts], ensure_ascii=False).replace("<", "\\u003c")
    palette = [page_colour(report.colours, seat) for seat in range(len(report.names))]  # the charts' lines
    return render("report.html", report=report, charts_json=data, palette=palette, standalone=standalone, live=live,
                  not_over=_(NOT_OVER))
