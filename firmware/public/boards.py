"""The public board of each game in words: small tables the LAN page and the report lay out.

Each function reads a public view and the seat names, never a state, so the
page cannot show what the whole table may not know. A game without a board
function here still gets its prompt, steps and events on the page.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

from engine.i18n import _


@dataclass(frozen=True)
class Row:
    """One line of a board table; `seat` colours it, `current` marks whose decision it is."""

    cells: tuple[str, ...]
    seat: int | None = None
    current: bool = False


@dataclass(frozen=True)
class Table:
    """A titled table of words."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    note: str = ""


Names = Sequence[str]


def _seat_rows(public: dict[str, Any], names: Names, cells: Callable[[int, dict[str, Any]], list[str]]) -> tuple[Row, ...]:
    pending = set(public.get("pending") or ())
    return tuple(Row((names[seat], *cells(seat, player)), seat, seat in pending)
                 for seat, player in enumerate(public["players"]))


# --- Tennō ---------------------------------------------------------------------------

def tenno(public: dict[str, Any], names: Names) -> list[Table]:
    from engine.games.tenno.text import card_short, fight_line, slot_name

    def row(seat: int, player: dict[str, Any]) -> list[str]:
        cards = " ".join(card_short(c) for c in player["row"]) if player["arranged"] else _("not laid yet")
        return [cards, str(player["hand"]), str(player["captives"])]

    tables = [Table(_("Rows"), (_("Player"), _("Row"), _("Hand"), _("Prisoners")), _seat_rows(public, names, row),
                    note=_("?? is a card face down, -- a gap"))]
    fight = public.get("fight")
    fights = [fight_line(f, names) for f in public.get("fights") or []]
    if fight and "defend_card" not in fight:
        fights.append(_("{a} attacks {d}'s {slot}: the defender has not answered yet").format(
            a=names[fight["attacker"]], d=names[fight["defender"]], slot=slot_name(fight["target_slot"])))
    if not fights:
        fights = [fight_line(f, names) for f in public.get("last_fights") or []]
    if fights:
        tables.append(Table(_("Fights"), (_("Fight"),), tuple(Row((line,)) for line in fights)))
    discard = public.get("discard")
    if isinstance(discard, list) and discard:
        tables.append(Table(_("Discard"), (_("Card"),),
                            tuple(Row((f"{names[owner]} {card_short(card)}",), owner) for owner, card in discard)))
    return tables


# --- Quo Vadis ---------------------------------------------------------------------------

@functools.cache
def committee_levels() -> Mapping[str, int]:
    """Each committee's height on the board: entry committees 1, the Senate the highest.

    The board never changes, so it is worked out once (the report reads it at every moment of a replay).
    """
    from engine.games.quovadis.board import BOARD

    level = {cid: 1 for cid in BOARD.entries}
    changed = True
    while changed:  # the board is a small acyclic graph: settle the longest climbs
        changed = False
        for path in BOARD.paths.values():
            if path.source in level and level.get(path.dest, 0) < level[path.source] + 1:
                level[path.dest] = level[path.source] + 1
                changed = True
    return MappingProxyType(level)  # shared by every caller: read-only


def quovadis(public: dict[str, Any], names: Names) -> list[Table]:
    from engine.games.quovadis.board import BOARD
    from engine.games.quovadis.text import committee_name, path_name, token_name

    # From the Senate down, each row of the board left to right (ids share a letter per row).
    rows_ = list(dict.fromkeys(cid[0] for cid in BOARD.committees))[::-1]
    order = [cid for letter in rows_ for cid in BOARD.committees if cid[0] == letter]
    committees = []
    for cid in order:
        owners = public["committees"].get(cid, [])
        committees.append(Row((committee_name(cid), f"{len(owners)}/{BOARD.committees[cid].seats}",
                               ", ".join(names[s] for s in owners) or "-")))
    tables = [Table(_("Committees"), (_("Committee"), _("Seats"), _("Senators")), tuple(committees))]
    diamonds = []
    for pid, token in sorted(public["diamonds"].items()):
        caesar = _("Caesar") if public["caesar"] == pid else ""
        diamonds.append(Row((path_name(pid), token_name(token) if token else "-", caesar)))
    tables.append(Table(_("Laurels on the diamonds"), (_("Path"), _("Laurel"), _("Caesar")),
                        tuple(diamonds), note=_("Laurels in the bag: {n}; I laurels in the supply: {s}").format(
                            n=public["bag"], s=public["supply"])))

    def row(seat: int, player: dict[str, Any]) -> list[str]:
        return [str(player["reserve"]), str(public["senate"].count(seat)), str(player["laurels"])]

    tables.append(Table(_("Players"), (_("Player"), _("Senators left"), _("In the Senate"), _("Laurels held")),
                        _seat_rows(public, names, row), note=_("Laurel values stay hidden until the end")))
    vote = public.get("vote")
    if vote:
        answered = set(vote["answered"])
        rows = tuple(Row((names[s], _("answered") if s in answered else _("thinking")), s, s not in answered)
                     for s in vote["voters"])
        tables.append(Table(_("{name} asks to leave {committee}").format(
            name=names[vote["mover"]], committee=committee_name(vote["committee"])),
            (_("Voter"), _("Answer")), rows))
    return tables


# --- In the Shadow of the Emperor ------------------------------------------------------------

def shadow(public: dict[str, Any], names: Names) -> list[Table]:
    from engine.games.shadow.text import area_name, card_short, tile

    electorates = []
    for e in public["electorates"]:
        electorates.append(Row((area_name(e["id"]), tile(e["elector"], names),
                                ", ".join(tile(p, names) for p in e["spaces"] if p) or "-",
                                ", ".join(tile(p, names) for p in e["castles"] if p) or "-",
                                ", ".join(_("the empire") if c < 0 else names[c] for c in e["cities"] if c is not None) or "-")))
    tables = [Table(_("Electorates"), (_("Electorate"), _("Elector"), _("Aristocrats"), _("Castles"), _("Cities")),
                    tuple(electorates),
                    note=_("Throne: {tile}").format(tile=tile(public["throne"], names)))]

    def row(seat: int, player: dict[str, Any]) -> list[str]:
        vp = "?" if player["vp"] is None else str(player["vp"])
        cards = " ".join(card_short(c) for c in player["cards"] + player["copies"]) or "-"
        mark = _("emperor") if public["emperor"] == seat else (_("passed") if player["passed"] else "")
        return [str(player["thalers"]), vp, cards,
                f"{player['aristocrats']}/{player['knights']}/{player['cities']}", mark]

    tables.append(Table(_("Players"), (_("Player"), _("Thalers"), _("VP"), _("Cards"),
                                       _("Supply B/K/C"), ""), _seat_rows(public, names, row),
                        note="" if public.get("vp_open") else _("Victory points stay hidden until the end")))
    election = public.get("election")
    if election:
        revealed = election.get("revealed") or {}
        rows = tuple(Row((names[int(s)], names[election[b]] if b in ("emperor", "rival") else str(b)), int(s))
                     for s, b in revealed.items())
        voted = ", ".join(names[s] for s in public.get("voted") or ())
        tables.append(Table(_("Election: {a} against {b}").format(a=names[election["emperor"]],
                                                                 b=names[election["rival"]]),
                            (_("Voter"), _("Ballot for")), rows,
                            note=_("Ballots cast: {names}").format(names=voted) if voted and not rows else ""))
    return tables


BOARDS: dict[str, Callable[[dict[str, Any], Names], list[Table]]] = {
    "tenno": tenno, "quovadis": quovadis, "shadow": shadow}


def board(game: str, public: dict[str, Any], names: Names) -> list[Table]:
    """The public board of `game` in tables of words (none for a game without a board function)."""
    function = BOARDS.get(game)
    return function(public, names) if function is not None else []
