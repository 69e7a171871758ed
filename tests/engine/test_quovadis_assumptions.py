"""Every [ASSUMPTION] of the Quo Vadis rule file has a home: a rule option, a data file, or the file's
table of assumptions without an alternative (the machinery is in `assumptions.py`).

An item is an item of the file's Quo Vadis part (sections A.1 to A.12) that carries the tag, a heading
among them (A.3.2's); a home cites it by its section and a phrase of it, in double quotes: an option's
source (`docs/rules/quovadis.md A.6 "If the bag is empty"`), the comments of one of the game's TOML
files, read as one text so that a citation may run over a line's end, or the first cell of a row of
the table in A.12.1 (`A.6 "If the bag is empty"`). A new assumption written into the file without a
home fails here, naming it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games import get_game

from .assumptions import ROOT, TAG, Home, Rules

NO_ALTERNATIVE = "A.12.1"
RULES = Rules(ROOT / "docs" / "rules" / "quovadis.md", heading=r"#{2,4} (A\.\d+(?:\.\d+)*)\b", keeps="##",
              cite=r"\b(A\.\d+(?:\.\d+)*)", mark="", legend="* **[ASSUMPTION]** nothing found",
              no_alternative=NO_ALTERNATIVE, columns=2, headings_are_items=True)
DOC_NAME = RULES.name
DATA = sorted((ROOT / "engine" / "games" / "quovadis").glob("*.toml"))


def option_homes() -> list[Home]:
    return RULES.option_homes(get_game("quovadis").options)


def data_homes(files: list[Path] = DATA) -> list[Home]:
    """Each data file's comments, read as one text (a citation may run over a line's end); they house
    an assumption when they carry the tag and name the rule file."""
    homes = []
    for path in files:
        comments = " ".join(line.split("#", 1)[1].strip() for line in path.read_text(encoding="utf-8").splitlines()
                            if "#" in line)
        housing = TAG.search(comments) and DOC_NAME in comments
        homes.append(Home(f"data {path.name}", "ASSUMPTION" if housing else "",
                          RULES.citations(comments) if housing else ()))
    return homes


def homes_of(text: str, data: list[Path] = DATA) -> list[Home]:
    return option_homes() + data_homes(data) + RULES.no_alternative_homes(text)


def homeless(text: str, data: list[Path] = DATA) -> list[str]:
    return RULES.homeless(text, homes_of(text, data))


def doc() -> str:
    return RULES.text()


# --- the rule file as it ships ---------------------------------------------------------------

def test_the_rule_file_has_its_assumptions_in_the_sections_they_belong_to():
    found = {(item.section, item.line) for item in RULES.tagged(doc())}
    assert {section for section, _ in found} == {"A.3.2", "A.5", "A.6", "A.9", "A.12"}
    assert len(found) == 11
    assert not any(TAG.search(line) for line in doc().split("## A.1 ")[0].splitlines()
                   if not line.startswith(RULES.legend)), "only the legend before A.1"


def test_every_assumption_of_the_rule_file_is_an_option_a_data_value_or_a_row_without_an_alternative():
    missing = homeless(doc())
    assert not missing, (f"{len(missing)} [ASSUMPTION] items of {DOC_NAME} have no home; cite each as "
                         f'{DOC_NAME} SECTION "a phrase of its line" in a rule option\'s source or a data file\'s '
                         f"comment, or add a row to the table of {NO_ALTERNATIVE} with the reason: {missing}")


def test_every_citation_names_an_assumption_of_its_section():
    """A home cannot cite a line that is gone or was never an assumption (a stale or mistyped phrase)."""
    assert not RULES.stale(doc(), [home for home in homes_of(doc()) if home.tag == "ASSUMPTION"])


def test_an_option_marked_as_an_assumption_cites_the_items_it_settles_and_the_others_cite_none():
    for home, option in zip(option_homes(), get_game("quovadis").options):
        if option.source.startswith("[ASSUMPTION]"):
            assert home.tag == "ASSUMPTION" and home.citations, (option.name, option.source)
        else:
            assert not home.citations, (option.name, "an option the sources state settles no assumption")


def test_the_table_of_unknowns_names_the_home_that_cites_each_row():
    """A.12 says where each unknown lives; that option or data file is the one whose citation reaches it."""
    text = doc()
    homes = homes_of(text)
    rows = [item for item in RULES.tagged(text) if item.section == "A.12" and item.text.startswith("|")]
    assert len(rows) == 6
    kinds = {"option": "option", "data file": "data"}
    for row in rows:
        where = row.text.strip("|").split("|")[-1].strip()
        kind, _, name = where.partition(" `")
        name = Path(name.rstrip("`")).name
        citing = {home.name for home in homes if home.cites(row)}
        assert citing == {f"{kinds[kind]} {name}"}, (row.text, citing)


def test_the_board_is_the_data_file_that_holds_the_proposed_layout():
    board = next(home for home in data_homes() if home.name == "data board.toml")
    assert ("A.3.2", "Proposed board") in board.citations


def test_each_row_without_an_alternative_gives_its_reason():
    for home in RULES.no_alternative_homes(doc()):  # a row without its reason fails here
        assert home.citations and home.name, home


# --- the check itself, on a rule file with one more assumption -------------------------------

NEW = "* A senator may leave by a path whose diamond is empty. **[ASSUMPTION]**\n"


def test_a_new_assumption_without_a_home_is_named_and_a_row_without_an_alternative_houses_it(tmp_path):
    text = doc().replace("\n## A.7 Caesar\n", "\n" + NEW + "\n## A.7 Caesar\n")
    assert text != doc()
    missing = homeless(text)
    assert len(missing) == 1 and missing[0].startswith("A.6: '* A senator may leave by a path whose diamond is empty")
    row = '| A.6 "whose diamond is empty" | the path is the same whether or not a laurel lies on it |\n'
    housed = text.replace("|---|---|\n\n---", "|---|---|\n" + row + "\n---")
    assert housed != text and homeless(housed) == []
    reasonless = housed.replace("| the path is the same whether or not a laurel lies on it |", "|  |")
    with pytest.raises(AssertionError, match="a row needs 2 cells"):
        RULES.no_alternative_homes(reasonless)


def test_a_data_file_comment_houses_an_assumption_and_a_phrase_of_another_section_does_not(tmp_path):
    text = doc().replace("\n## A.7 Caesar\n", "\n" + NEW + "\n## A.7 Caesar\n")
    data = tmp_path / "paths.toml"
    data.write_text('# [ASSUMPTION] docs/rules/quovadis.md A.7 "whose diamond is empty"\nx = 1\n', encoding="utf-8")
    assert len(homeless(text, DATA + [data])) == 1  # cited under the wrong section
    data.write_text('# [ASSUMPTION] docs/rules/quovadis.md A.6\n# "whose diamond is empty"\nx = 1\n', encoding="utf-8")
    assert homeless(text, DATA + [data]) == []
    data.write_text('# A.6 "whose diamond is empty" (no rule file named)\nx = 1\n', encoding="utf-8")
    assert len(homeless(text, DATA + [data])) == 1
