"""The table menu, opened by holding ok at the top of a seat's menu.

It offers: take the last action back (another seat must agree, and the seat
whose action it was; every other seat, when the action showed something
hidden), the public standings, rules help for the current phase, the seat's
language, ending the game (another seat must agree), and closing the menu.
Its choices are action records like a game's, so the same `Menu` walks them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from engine.i18n import LANGUAGES, _

from .render import WIDTH, wrap

# "language" asks for a second field, the language, each named in its own words, or the
# table's: the seat then reads whatever the table reads (its file, --lang or the system locale).
TABLE_LANGUAGE = "table"
LANGUAGE = tuple({"do": "language", "lang": lang} for lang in (*LANGUAGES, TABLE_LANGUAGE))
MENU = ({"do": "undo"}, {"do": "scores"}, {"do": "help"}, *LANGUAGE, {"do": "end"}, {"do": "close"})
ASK = ({"do": "agree"}, {"do": "refuse"})
AGREED = ({"do": "refuse"},)  # a seat that agreed may still say no while the others think
WAIT = ({"do": "cancel"},)
INFO = ({"do": "close"},)
INFO_ROWS = 4  # rows of an info page on a seat screen: its title above, the Close bar below


@dataclass(eq=False, repr=False)  # never compared or printed: no __eq__/__repr__ to compile at every start
class Request:
    """A table decision one seat asked for and others must agree to.

    Usually one other seat's yes is enough. Taking back an action that showed
    the table something hidden (a card turned up, the ballots counted, a draw
    from the bag) needs every other seat's yes: the seat whose secret came
    out must not be overruled. An undo names the action it takes back and
    its seat (`owner`, `action`), and that seat must agree too: nobody's move
    is taken back over their head (asking counts as its yes). The host
    console asks the same way (`by` is None then, and every seat may
    answer); its `reply` hears the outcome.
    """

    kind: str  # "undo" or "end"
    by: int | None
    everyone: bool = False
    agreed: set[int] = field(default_factory=set)
    reply: Callable[[str], None] | None = None
    owner: int | None = None  # an undo: the seat whose action it takes back
    action: dict[str, Any] | None = None  # an undo: the action it takes back (each reader names it in their words)

    def settled(self, seats: int) -> bool:
        """Whether enough seats have agreed, the owner of the action taken back among them."""
        others = seats if self.by is None else seats - 1
        enough = len(self.agreed) >= (others if self.everyone else 1)
        return enough and not self.owner_to_agree()

    def owner_to_agree(self) -> bool:
        """Whether the seat whose action an undo takes back has yet to say yes."""
        return self.owner is not None and self.owner != self.by and self.owner not in self.agreed


def label(value: str) -> str:
    if value in LANGUAGES:
        return LANGUAGES[value]
    return {
        "undo": _("Undo last action"), "scores": _("Show scores"), "help": _("Rules help"), "language": _("Language"),
        TABLE_LANGUAGE: _("The table's language"), "end": _("End the game"), "close": _("Close"), "agree": _("Yes, agree"), "refuse": _("No"),
        "cancel": _("Cancel the request"),
    }.get(value, value)


def taken_back_what(request: Request, what: str, names: Sequence[str], reader: int | None = None) -> str:
    """What an undo takes back, for `reader`'s screen: "Green's row arrangement", "your row arrangement".

    `what` is the action's kind in the reader's words (the game's `action_title`).
    """
    if request.owner is None or not 0 <= request.owner < len(names):
        return _("the last action")
    if request.owner == reader:
        return _("your {what}").format(what=what)
    return _("{who}'s {what}").format(who=names[request.owner], what=what)


def request_question(request: Request, name: str, undoing: str = "") -> str:
    """The question a seat answers: "Red: undo Green's row arrangement?", "Red: end the game?".

    `undoing` is what an undo takes back, in the reader's words (`taken_back_what`).
    """
    if request.kind == "undo":
        return _("{name}: undo {what}?").format(name=name, what=undoing or _("the last action"))
    return _("{name}: end the game?").format(name=name)


def paginate(paragraphs: Sequence[str], width: int = WIDTH, rows: int = INFO_ROWS) -> list[list[str]]:
    """Lay paragraphs out on pages of `rows` lines, each wrapped to `width` pixels.

    A paragraph starts a new page rather than break across two, unless it
    is longer than a page itself: prev and next then turn whole screens.
    """
    pages: list[list[str]] = []
    page: list[str] = []
    for paragraph in paragraphs:
        lines = wrap(paragraph, width) or [""]
        if page and len(page) + len(lines) > rows and len(lines) <= rows:
            pages.append(page)
            page = []
        for line in lines:
            if len(page) == rows:
                pages.append(page)
                page = []
            page.append(line)
    if page:
        pages.append(page)
    return pages


def info_page(pages: list[list[str]], number: int) -> tuple[list[str], str]:
    """One page and where it stands ("2/5"), for turning with prev and next."""
    if not pages:
        return [_("Nothing to show")], ""
    number = max(0, min(number, len(pages) - 1))
    return pages[number], f"{number + 1}/{len(pages)}" if len(pages) > 1 else ""


def pick(values: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    return [dict(v) for v in values]
