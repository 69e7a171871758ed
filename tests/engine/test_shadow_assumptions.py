"""Every [ASSUMPTION] of Shadow's rules file has a home a table can find and change.

DESIGN: what a table may need to correct, "every rule marked [ASSUMPTION] in rules/", is a
data file or a named rule option, never a constant buried in code. Each home cites the item
it settles by section and by words of the item, as `§5.3 "only one marriage per daughter"`:

- an option's source: `[ASSUMPTION] docs/rules/shadow.md §5.3 "only one marriage per daughter"`;
- a comment of one of the game's data files (`board.toml`, `cards.toml`, `privileges.toml`) in
  the same form, on the line of the value;
- the "where" cell of the rules file's table of assumptions without an alternative (§13.2),
  whose last cell says why there is nothing to choose.

An [ASSUMPTION] added to the rules file without a home fails here, and so does a home whose
words are no longer in the item it cites (or are in more than one), a rules-file item that names
an option which does not cite it back, and a row of §13.1 (the file's list of where each
assumption lives) that names other homes than those that cite its item. The machinery, shared
with the other games, is in `assumptions.py`.
"""

from __future__ import annotations

import re

import pytest

from engine.games import get_game

from .assumptions import ROOT, TAG, Home, Rules

HOMES, NO_ALTERNATIVE = "13.1", "13.2"
RULES = Rules(ROOT / "docs" / "rules" / "shadow.md", heading=r"#{2,3} (\d+(?:\.\d+)*)\.?\s", keeps="####",
              cite=r"§(\d+(?:\.\d+)*)", mark="§", legend="| **[ASSUMPTION]** |", no_alternative=NO_ALTERNATIVE)
DATA = sorted((ROOT / "engine" / "games" / "shadow").glob("*.toml"))


def option_homes() -> list[Home]:
    return RULES.option_homes(get_game("shadow").options)


def every_home(doc: str) -> list[Home]:
    data = [home for path in DATA for home in RULES.data_homes(path.read_text(encoding="utf-8"), path.name)]
    return option_homes() + data + RULES.no_alternative_homes(doc)


def doc() -> str:
    return RULES.text()


# --- the rules file as it ships --------------------------------------------------------------

def test_every_assumption_of_the_rules_file_has_a_home():
    text = doc()
    found = RULES.tagged(text)
    assert sum(item.assumptions for item in found) == len(TAG.findall(text)) - 1  # all but the legend
    assert not any(TAG.search(line) for line in text.splitlines() if line.startswith("#"))  # no heading holds one
    assert len(found) >= 45
    wrong = RULES.homeless(text, every_home(text))
    assert not wrong, ("these [ASSUMPTION]s of docs/rules/shadow.md have no home: make each a named option "
                       "(its source citing the item), a data file value (its comment citing the item), or a row "
                       f"of the table of assumptions without an alternative (§{NO_ALTERNATIVE}): {wrong}")


def test_every_home_cites_words_of_one_item_it_settles():
    """A stale, mistyped or too-short citation fails: its words are in no item of its section, or in several."""
    text = doc()
    assert not RULES.stale(text, every_home(text))


def test_every_option_settling_an_assumption_says_so_and_the_others_cite_what_they_read():
    for option, home in zip(get_game("shadow").options, option_homes()):
        assert home.tag in {"HIGH", "MED", "LOW", "ASSUMPTION"}, (option.name, option.source)
        assert option.source.startswith(f"[{home.tag}] docs/rules/shadow.md §"), (option.name, option.source)


def test_every_option_the_rules_file_names_is_an_option_that_cites_that_item():
    homes = {home.name.split(" ", 1)[1]: home for home in option_homes()}
    named = 0
    for item in RULES.items(doc()):
        if item.section.startswith("13"):
            continue  # the lists of homes name options for items elsewhere
        for name in re.findall(r"\boption `(\w+)", item.text):
            named += 1
            assert name in homes, f"§{item.section} names option {name!r}, which Shadow does not have"
            assert homes[name].cites(item), f"option {name}'s source does not cite §{item.section}: {item.text!r}"
    assert named >= 2  # Rival's heir (§5.7) and the tie-break (§8)


def listed_homes(where: str) -> set[str]:
    """`option x`, `options x, y`, `data file.toml (what in it)`, or several of them, as home names."""
    parts = re.findall(r"\b(options?|data) ((?:`[\w.]+`(?:, )?)+)", re.sub(r"\([^)]*\)", "", where))
    assert parts, where
    return {f"{'data' if kind == 'data' else 'option'} {name}" for kind, names in parts
            for name in re.findall(r"`([\w.]+)`", names)}


def test_the_list_of_homes_names_each_option_and_data_file_that_settles_its_items():
    """§13.1 is how a reader finds the option or data value to change: it must agree with the code."""
    text = doc()
    homes = [home for home in every_home(text) if home.tag == "ASSUMPTION"]
    found, listed = RULES.tagged(text), set()
    for cells in RULES.table(text, HOMES):
        assert len(cells) == 2, cells
        row = Home("row", "ASSUMPTION", RULES.citations(cells[0]))
        assert row.citations, cells
        for number, item in enumerate(found):
            if row.cites(item):
                assert number not in listed, f"§{item.section}: listed twice in §{HOMES}: {item.text!r}"
                listed.add(number)
                citing = {home.name for home in homes if home.cites(item)}
                assert citing == listed_homes(cells[1]), (item.text, citing, cells[1])
    no_alternative = RULES.no_alternative_homes(text)
    for number, item in enumerate(found):
        without = [home.name for home in no_alternative if home.cites(item)]
        assert (number in listed) != bool(without), (f"§{item.section}: in both §{HOMES} and §{NO_ALTERNATIVE}, "
                                                     f"or in neither: {item.text!r}")
    assert len(listed) >= 30


def test_the_table_without_an_alternative_gives_a_reason_for_each_row():
    rows = RULES.no_alternative_homes(doc())
    assert len(rows) == len(RULES.table(doc(), NO_ALTERNATIVE)) >= 15
    assert ("5.6", "Use a fixed order") in [citation for row in rows for citation in row.citations]
    assert all(len(cells[2].split()) >= 8 for cells in RULES.table(doc(), NO_ALTERNATIVE))


# --- the check itself, on a rules file changed by hand ---------------------------------------

def test_an_assumption_added_without_a_home_is_caught():
    text = doc()
    homes = every_home(text)
    assert not RULES.homeless(text, homes)
    added = text.replace("- Knights on **castle** spaces can never be pushed.",
                         "- Knights on **castle** spaces can never be pushed.\n"
                         "- A knight pushed twice in a round leaves the game. [ASSUMPTION]")
    assert added != text
    assert [w.split(":")[0] for w in RULES.homeless(added, homes)] == ["§5.4"]
    doubled = text.replace("Choose one:", "Choose one [ASSUMPTION: in turn order]:")
    assert doubled != text and [w.split(":")[0] for w in RULES.homeless(doubled, homes)] == ["§5.3"]
    without = [home for home in homes if home.name != "option repeat_proposals"]
    assert [w.split(":")[0] for w in RULES.homeless(text, without)] == ["§5.3"]
    noted = text.replace("\n   [ASSUMPTION] If every player has 0 influence, nothing changes.",
                         "\n   [ASSUMPTION] If every player has 0 influence, nothing changes. [ASSUMPTION] Nor VP.")
    assert noted != text and [w.split(":")[0] for w in RULES.homeless(noted, homes)] == ["§5.6"]


def test_a_data_comment_can_be_the_home_of_an_assumption_and_a_row_without_an_alternative_too():
    text = "# Shadow\n\n## 5. Phases\n\n### 5.4 Knights\n\n- A knight is pushed at most once. [ASSUMPTION]\n"
    assert RULES.homeless(text, [])
    data = 'knight_pushes = 1  # [ASSUMPTION] §5.4 "pushed at most once"\n'
    assert RULES.data_homes(data, "board.toml")[0].citations == (("5.4", "pushed at most once"),)
    assert not RULES.homeless(text, RULES.data_homes(data, "board.toml"))
    elsewhere = RULES.data_homes(data.replace("§5.4", "§5.5"), "board.toml")
    assert RULES.homeless(text, elsewhere)  # another section's item
    table_13 = ("\n## 13. Homes\n\n### 13.2 Assumptions without an alternative\n\n| where | assumption | why |\n"
                '|---|---|---|\n| §5.4 "pushed at most once" | one push | a pushed knight is in supply |\n')
    assert not RULES.homeless(text + table_13, RULES.no_alternative_homes(text + table_13))
    with pytest.raises(AssertionError, match="a row needs 3 cells"):
        RULES.no_alternative_homes(table_13.replace("a pushed knight is in supply", ""))


def test_a_citation_may_list_several_phrases_of_one_section():
    assert RULES.citations('§6.1 "Move", "Permit"; §7 "none"') == (("6.1", "Move"), ("6.1", "Permit"), ("7", "none"))

