"""What every game's assumption test reads: a rules file's [ASSUMPTION] items, and their homes.

DESIGN: what a table may need to correct, "every rule marked [ASSUMPTION] in rules/", is a data
file or a named rule option, never a constant buried in code. Each home cites the item it
settles by its section and by words of the item, in double quotes (`B.5 "Geisha vs Geisha"`,
`§5.3 "only one marriage per daughter"`; several phrases of one section as `§6.1 "Move", "Permit"`):

- an option's source, which names the rules file: `[ASSUMPTION] docs/rules/tenno.md B.5 "..."`;
- a comment of a game data file carrying the tag, on the line of the value;
- the first cell of a row of the rules file's table of assumptions without an alternative,
  whose last cell says why there is nothing to choose.

The games' rules files number and head their sections differently; `Rules` says how one does,
and the rest reads any of them the same way. Each game's test file says what is its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TAG = re.compile(r"\[ASSUMPTION\b")  # [ASSUMPTION], [ASSUMPTION: ...], [ASSUMPTION, L]
_QUOTED = r'((?:"[^"]+"(?:, )?)+)'  # "words", "more words"


@dataclass
class Item:
    """One item of a rules file (a bullet, a numbered step, a table row, a paragraph)."""

    section: str  # "B.5", "5.3"; "" outside any numbered section
    line: int  # where it starts
    text: str  # as written, its lines joined

    @property
    def words(self) -> str:
        return " ".join(self.text.replace("*", "").split())

    @property
    def assumptions(self) -> int:
        return len(TAG.findall(self.text))


@dataclass(frozen=True)
class Home:
    """Where an assumption lives, and the items it cites: (section, words of the item)."""

    name: str  # "option geisha_pair", "data cards.toml", "no alternative: ..."
    tag: str  # ASSUMPTION for an assumption's home; an option may cite a HIGH, MED or LOW item too
    citations: tuple[tuple[str, str], ...]

    def cites(self, item: Item) -> bool:
        return any(section == item.section and words in item.words for section, words in self.citations)


@dataclass(frozen=True)
class Rules:
    """How one game's rules file numbers its sections and is cited."""

    path: Path
    heading: str  # a heading that opens a numbered section, its number the first group
    keeps: str  # an unnumbered heading starting so stays in the section above it; any other ends it
    cite: str  # a citation's section as written before its quoted words, the number the first group
    mark: str  # how a message writes a section's number before it: "§" or ""
    legend: str  # how the preamble's line that explains the tag starts
    no_alternative: str  # the heading of the table of assumptions without an alternative
    columns: int = 3  # where | what | why; or where | why
    headings_are_items: bool = False  # a heading carrying the tag is an item of its own section

    @property
    def name(self) -> str:
        return self.path.relative_to(ROOT).as_posix()

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def citations(self, text: str) -> tuple[tuple[str, str], ...]:
        return tuple((section, words) for section, quoted in re.findall(self.cite + " " + _QUOTED, text)
                     for words in re.findall(r'"([^"]+)"', quoted))

    def items(self, doc: str) -> list[Item]:
        found: list[Item] = []
        section, current = "", None
        for number, line in enumerate(doc.splitlines(), 1):
            if re.match(r"#+ ", line):
                opened = re.match(self.heading, line)
                section = opened.group(1) if opened else section if line.startswith(self.keeps) else ""
                current = None
                if self.headings_are_items and TAG.search(line):
                    found.append(Item(section, number, line.strip()))
            elif not line.strip():
                current = None
            elif current is not None and not re.match(r"\s*([*-]|\d+\.|\|)\s", line):
                current.text += " " + line.strip()  # a wrapped line, or a note under a step, of the same item
            else:
                current = Item(section, number, line.strip())
                found.append(current)
        return found

    def tagged(self, doc: str) -> list[Item]:
        return [item for item in self.items(doc) if item.assumptions and not item.text.startswith(self.legend)]

    def option_homes(self, options) -> list[Home]:
        """Each option's source: its confidence tag, and what it cites of this rules file."""
        homes = []
        for option in options:
            tag = re.match(r"\[(\w+)\]", option.source)
            homes.append(Home(f"option {option.name}", tag.group(1) if tag else "",
                              self.citations(option.source) if self.name in option.source else ()))
        return homes

    def data_homes(self, text: str, source: str) -> list[Home]:
        """A data file's comments that settle an assumption: `value  # [ASSUMPTION] §6.1 "Move"`."""
        return [Home(f"data {source}", "ASSUMPTION", self.citations(line.split("#", 1)[1]))
                for line in text.splitlines() if "#" in line and TAG.search(line.split("#", 1)[1])]

    def table(self, doc: str, heading: str) -> list[list[str]]:
        """The cells of each body row of the table under `heading` (not its header or rule)."""
        opened = re.search(rf"^#+ {re.escape(heading)}\b.*$", doc, re.M)
        assert opened, f"{self.name} has no heading {heading!r}"
        part = re.split(r"\n#|\n---", doc[opened.end():], maxsplit=1)[0]
        rows = [line.strip() for line in part.splitlines() if line.startswith("|")][2:]
        return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]

    def no_alternative_homes(self, doc: str) -> list[Home]:
        """The rows of the table of assumptions without an alternative: where | ... | why nothing to choose."""
        homes = []
        for cells in self.table(doc, self.no_alternative):
            assert len(cells) == self.columns and all(cells), (
                f"{self.no_alternative}: a row needs {self.columns} cells, where first and why last: {cells!r}")
            homes.append(Home(f"no alternative: {cells[1]}", "ASSUMPTION", self.citations(cells[0])))
        return homes

    def homeless(self, doc: str, homes: list[Home]) -> list[str]:
        """Each [ASSUMPTION] of the rules file that has fewer homes citing it than it has tags."""
        wrong = []
        for item in self.tagged(doc):
            settled = [home.name for home in homes if home.tag == "ASSUMPTION" and home.cites(item)]
            if not item.section or len(settled) < item.assumptions:
                wrong.append(f"{self.mark}{item.section or '(outside any section)'}: {item.text[:90]!r} "
                             f"(line {item.line}; homes: {settled})")
        return wrong

    def stale(self, doc: str, homes: list[Home]) -> list[str]:
        """Each home that cites nothing, or words in no item of their section or in several (an
        assumption's home: in no assumption or in several): a stale, mistyped or too-short citation."""
        wrong, everything = [], self.items(doc)
        for home in homes:
            if not home.citations:
                wrong.append(f"{home.name} cites no item of {self.name}")
            for section, words in home.citations:
                cited = Home(home.name, home.tag, ((section, words),))
                matches = [item for item in everything if cited.cites(item)]
                if home.tag == "ASSUMPTION":
                    matches = [item for item in matches if item.assumptions]
                if len(matches) != 1:
                    wrong.append(f'{home.name}: {len(matches)} {home.tag} items of {self.mark}{section} hold "{words}"')
        return wrong
