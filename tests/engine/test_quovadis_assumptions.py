"""Every [ASSUMPTION] of the Quo Vadis rule file has a home: a rule option, a data file, or the file's
table of assumptions without an alternative.

The architecture asks that facts a table may need to correct be data files or named rule options,
never constants buried in code. An item is a line of the file's Quo Vadis part (sections A.1 to A.12)
that carries the tag; a home cites it by its section and a phrase of that line, in double quotes:
an option's source (`docs/rules/quovadis.md A.6 "If the bag is empty"`), a comment of one of the
game's TOML files, or the first cell of a row of the table in A.12.1 (`A.6 "If the bag is empty"`).
A new assumption written into the file without a home fails here, naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.games import get_game

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "quovadis.md"
DATA = sorted((ROOT / "engine" / "games" / "quovadis").glob("*.toml"))
TAG = "[ASSUMPTION]"
DOC_NAME = "docs/rules/quovadis.md"
NO_ALTERNATIVE = "A.12.1"

_SECTION = re.compile(r"^#{2,4} (A\.\d+(?:\.\d+)*)\b")
_CITE = re.compile(r'\b(A\.\d+(?:\.\d+)*) "([^"]+)"')


@dataclass(frozen=True)
class Line:
    section: str
    number: int
    text: str


@dataclass(frozen=True)
class Home:
    kind: str  # "option", "data" or "no alternative"
    name: str  # the option, the data file, or the row's reason
    cites: tuple[tuple[str, str], ...]  # (section, phrase)


def sectioned(text: str) -> list[Line]:
    """The lines of the Quo Vadis part, each with its section (A.6, A.3.2 ...); a heading is in its own."""
    lines, section = [], ""
    for number, line in enumerate(text.splitlines(), 1):
        found = _SECTION.match(line)
        if found:
            section = found.group(1)
        elif line.startswith("# "):  # a part of its own (Tenno, what could not be found): no section
            section = ""
        if section:
            lines.append(Line(section, number, line))
    return lines


def assumptions(text: str) -> list[Line]:
    return [line for line in sectioned(text) if TAG in line.text]


def cites(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(_CITE.findall(text))


def option_homes() -> list[Home]:
    return [Home("option", o.name, cites(o.source) if DOC_NAME in o.source else ())
            for o in get_game("quovadis").options]


def data_homes(files: list[Path] = DATA) -> list[Home]:
    """Each data file's comments, read as one text (a citation may run over a line's end)."""
    homes = []
    for path in files:
        comments = " ".join(line.split("#", 1)[1].strip() for line in path.read_text(encoding="utf-8").splitlines()
                            if "#" in line)
        homes.append(Home("data", path.name, cites(comments) if DOC_NAME in comments else ()))
    return homes


def table_rows(text: str, section: str) -> list[list[str]]:
    """The cells of each body row of the table in `section` (not its header or rule)."""
    rows = [line.text for line in sectioned(text) if line.section == section and line.text.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def no_alternative_homes(text: str) -> list[Home]:
    return [Home("no alternative", row[1] if len(row) > 1 else "", cites(row[0]))
            for row in table_rows(text, NO_ALTERNATIVE)]


def homes_of(text: str, data: list[Path] = DATA) -> list[Home]:
    return option_homes() + data_homes(data) + no_alternative_homes(text)


def cited(item: Line, home: Home) -> bool:
    return any(section == item.section and phrase in item.text for section, phrase in home.cites)


def homeless(text: str, data: list[Path] = DATA) -> list[str]:
    homes = homes_of(text, data)
    return [f"line {item.number} ({item.section}): {item.text.strip()[:90]}"
            for item in assumptions(text) if not any(cited(item, home) for home in homes)]


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


# --- the rule file as it ships ---------------------------------------------------------------

def test_the_rule_file_has_its_assumptions_in_the_sections_they_belong_to():
    found = {(item.section, item.number) for item in assumptions(doc())}
    assert {section for section, _ in found} == {"A.3.2", "A.5", "A.6", "A.9", "A.12"}
    assert len(found) == 11
    assert not any(TAG in line for line in doc().split("## A.1 ")[0].splitlines()
                   if not line.startswith("* **[ASSUMPTION]** nothing found")), "only the legend before A.1"


def test_every_assumption_of_the_rule_file_is_an_option_a_data_value_or_a_row_without_an_alternative():
    missing = homeless(doc())
    assert not missing, (f"{len(missing)} [ASSUMPTION] items of {DOC_NAME} have no home; cite each as "
                         f'{DOC_NAME} SECTION "a phrase of its line" in a rule option\'s source or a data file\'s '
                         f"comment, or add a row to the table of {NO_ALTERNATIVE} with the reason: {missing}")


def test_every_citation_names_an_assumption_of_its_section():
    """A home cannot cite a line that is gone or was never an assumption (a stale or mistyped phrase)."""
    items = assumptions(doc())
    for home in homes_of(doc()):
        for section, phrase in home.cites:
            assert any(i.section == section and phrase in i.text for i in items), (home.kind, home.name, section,
                                                                                    phrase)


def test_an_option_marked_as_an_assumption_cites_the_items_it_settles_and_the_others_cite_none():
    for home, option in zip(option_homes(), get_game("quovadis").options):
        if option.source.startswith("[ASSUMPTION]"):
            assert home.cites, (option.name, option.source)
        else:
            assert not home.cites, (option.name, "an option the sources state settles no assumption")


def test_the_table_of_unknowns_names_the_home_that_cites_each_row():
    """A.12 says where each unknown lives; that option or data file is the one whose citation reaches it."""
    text = doc()
    homes = homes_of(text)
    rows = [line for line in assumptions(text) if line.section == "A.12" and line.text.startswith("|")]
    assert len(rows) == 6
    for row in rows:
        where = row.text.strip("|").split("|")[-1].strip()
        kind, _, name = where.partition(" `")
        name = Path(name.rstrip("`")).name
        citing = {(h.kind, h.name) for h in homes if cited(row, h)}
        assert citing == {({"option": "option", "data file": "data"}[kind], name)}, (row.text, citing)


def test_the_board_is_the_data_file_that_holds_the_proposed_layout():
    board = next(home for home in data_homes() if home.name == "board.toml")
    assert ("A.3.2", "Proposed board") in board.cites


def test_each_row_without_an_alternative_gives_its_reason():
    for home in no_alternative_homes(doc()):
        assert home.cites and home.name, home


# --- the check itself, on a rule file with one more assumption -------------------------------

NEW = "* A senator may leave by a path whose diamond is empty. **[ASSUMPTION]**\n"


def test_a_new_assumption_without_a_home_is_named_and_a_row_without_an_alternative_houses_it(tmp_path):
    text = doc().replace("\n## A.7 Caesar\n", "\n" + NEW + "\n## A.7 Caesar\n")
    assert text != doc()
    missing = homeless(text)
    assert len(missing) == 1 and "(A.6): * A senator may leave by a path whose diamond is empty" in missing[0]
    row = '| A.6 "whose diamond is empty" | the path is the same whether or not a laurel lies on it |\n'
    housed = text.replace("|---|---|\n\n---", "|---|---|\n" + row + "\n---")
    assert housed != text and homeless(housed) == []
    reasonless = housed.replace("| the path is the same whether or not a laurel lies on it |", "|  |")
    assert [h.name for h in no_alternative_homes(reasonless)] == [""]


def test_a_data_file_comment_houses_an_assumption_and_a_phrase_of_another_section_does_not(tmp_path):
    text = doc().replace("\n## A.7 Caesar\n", "\n" + NEW + "\n## A.7 Caesar\n")
    data = tmp_path / "paths.toml"
    data.write_text('# [ASSUMPTION] docs/rules/quovadis.md A.7 "whose diamond is empty"\nx = 1\n', encoding="utf-8")
    assert len(homeless(text, DATA + [data])) == 1  # cited under the wrong section
    data.write_text('# [ASSUMPTION] docs/rules/quovadis.md A.6\n# "whose diamond is empty"\nx = 1\n', encoding="utf-8")
    assert homeless(text, DATA + [data]) == []
    data.write_text('# A.6 "whose diamond is empty" (no rule file named)\nx = 1\n', encoding="utf-8")
    assert len(homeless(text, DATA + [data])) == 1
