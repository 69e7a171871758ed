"""Every [ASSUMPTION] of Tennō's rules file has a home a table can find and change.

DESIGN: what a table may need to correct, "every rule marked [ASSUMPTION] in rules/", is a
data file or a named rule option, never a constant buried in code. Each home cites the item
it settles by section and by the item's own words, as `B.5 "Geisha vs Geisha"`:

- an option's source: `[ASSUMPTION] docs/rules/tenno.md B.5 "Geisha vs Geisha"; B.9 "Geisha vs Geisha"`;
- a comment of the card data (`cards.toml`) in the same form;
- the "where" cell of the rules file's table of assumptions without an alternative, whose last
  cell says why there is nothing to choose.

An [ASSUMPTION] added to the rules file without a home fails here, and so does a home whose
words are no longer in the item it cites, or a rules-file item that names an option which does
not cite it back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.games import get_game
from engine.i18n import _, reading

from .test_catalogs import source_messages

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules" / "tenno.md"
DATA = ROOT / "engine" / "games" / "tenno" / "cards.toml"
TAG = "[ASSUMPTION]"
CITATION = re.compile(r'\b([A-Z]\.\d+) "([^"]+)"')
NO_ALTERNATIVE = "Assumptions without an alternative"
LEGEND = "* **[ASSUMPTION]** nothing found."  # the preamble's line that explains the tag


@dataclass
class Item:
    """One item of the rules file (a bullet, a numbered step, a table row, a paragraph)."""

    section: str  # "B.5"; "" before the first section
    text: str  # as written, its lines joined

    @property
    def words(self) -> str:
        return " ".join(self.text.replace("**", "").split()).lower()

    @property
    def assumptions(self) -> int:
        return self.text.count(TAG)


@dataclass(frozen=True)
class Home:
    """Where an assumption lives, and the items it cites: (section, words of the item)."""

    name: str
    tag: str  # ASSUMPTION for an assumption's home; an option may cite a MED or HIGH item too
    citations: tuple[tuple[str, str], ...]

    def cites(self, item: Item) -> bool:
        return any(section == item.section and words.lower() in item.words for section, words in self.citations)


def items(doc: str) -> list[Item]:
    found: list[Item] = []
    section, current = "", None
    for line in doc.splitlines():
        heading = re.match(r"#+ ", line)
        if heading:
            number = re.match(r"#+ ([A-Z]\.\d+)\b", line)
            section = number.group(1) if number else section if line.startswith("###") else ""
            current = None
        elif not line.strip():
            current = None
        elif current is not None and not re.match(r"\s*([*-]|\d+\.|\|)\s", line):
            current.text += " " + line.strip()  # a wrapped line of the same item
        else:
            current = Item(section, line.strip())
            found.append(current)
    return found


def option_homes() -> list[Home]:
    homes = []
    for option in get_game("tenno").options:
        tag = re.match(r"\[(\w+)\]", option.source)
        homes.append(Home(f"option {option.name}", tag.group(1) if tag else "",
                          tuple(CITATION.findall(option.source))))
    return homes


def data_homes(text: str, source: str = DATA.name) -> list[Home]:
    """The card data's comments that settle an assumption: `# ... [ASSUMPTION] B.x "words"`."""
    return [Home(f"{source} line {number}", "ASSUMPTION", tuple(CITATION.findall(line.split("#", 1)[1])))
            for number, line in enumerate(text.splitlines(), 1) if "#" in line and TAG in line.split("#", 1)[1]]


def no_alternative_homes(doc: str) -> list[Home]:
    """The rows of the table of assumptions without an alternative: where | what | why nothing to choose."""
    part = doc.split(f"### {NO_ALTERNATIVE}", 1)[1].split("\n#", 1)[0].split("\n---", 1)[0]
    homes = []
    for line in part.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or cells[0] == "where" or set(cells[0]) <= set("-"):
            continue
        assert len(cells) == 3 and cells[2], f"{NO_ALTERNATIVE}: a row needs where, what and why: {line!r}"
        homes.append(Home(f"no alternative: {cells[1]}", "ASSUMPTION", tuple(CITATION.findall(cells[0]))))
    return homes


def every_home(doc: str) -> list[Home]:
    return option_homes() + data_homes(DATA.read_text(encoding="utf-8")) + no_alternative_homes(doc)


def homeless(doc: str, homes: list[Home]) -> list[str]:
    """Each [ASSUMPTION] of the rules file that has fewer homes citing it than it has tags."""
    wrong = []
    for item in items(doc):
        if item.assumptions == 0 or item.text.startswith(LEGEND):
            continue
        settled = [home.name for home in homes if home.tag == "ASSUMPTION" and home.cites(item)]
        if not item.section or len(settled) < item.assumptions:
            wrong.append(f"{item.section or 'outside any section'}: {item.text[:90]!r} (homes: {settled})")
    return wrong


def test_every_assumption_of_the_rules_file_has_a_home():
    doc = RULES.read_text(encoding="utf-8")
    found = [item for item in items(doc) if item.assumptions and not item.text.startswith(LEGEND)]
    assert sum(item.assumptions for item in found) == doc.count(TAG) - 1  # every tag is in an item
    assert len(found) >= 18  # nine in the sections, nine again in B.9's table
    wrong = homeless(doc, every_home(doc))
    assert not wrong, ("these [ASSUMPTION]s of docs/rules/tenno.md have no home: make each a named option "
                       "(its source citing the item), a cards.toml value, or a row of the table of "
                       f"assumptions without an alternative: {wrong}")


def test_an_assumption_added_without_a_home_is_caught():
    doc = RULES.read_text(encoding="utf-8")
    added = doc.replace("* **Samurai (7, 8), Daimyo (9):** no ability. **[HIGH]**",
                        "* **Samurai (7, 8), Daimyo (9):** no ability. **[HIGH]**\n"
                        "  * A Samurai may duel twice. **[ASSUMPTION]**")
    assert added != doc
    assert [w.split(":")[0] for w in homeless(added, every_home(doc))] == ["B.5"]
    doubled = doc.replace("Treat this as a tie with no rewards.", "Treat this as a tie with no rewards. **[ASSUMPTION]**")
    assert homeless(doubled, every_home(doc)) and not homeless(doc, every_home(doc))
    homes = every_home(doc)
    without = [home for home in homes if home.name != "option geisha_pair"]
    assert [w.split(":")[0] for w in homeless(doc, without)] == ["B.5", "B.9"]


def test_a_data_comment_can_be_the_home_of_an_assumption():
    doc = "# Tenno\n\n## B.2 Components\n\n* Each colour has 11 cards. **[ASSUMPTION]**\n"
    assert homeless(doc, [])
    data = 'count = 11  # [ASSUMPTION] docs/rules/tenno.md B.2 "has 11 cards"\n'
    assert data_homes(data)[0].citations == (("B.2", "has 11 cards"),)
    assert not homeless(doc, data_homes(data))


def test_every_home_cites_words_that_are_in_the_item_it_settles():
    doc = RULES.read_text(encoding="utf-8")
    all_items = items(doc)
    for home in every_home(doc):
        assert home.citations, f"{home.name} cites no item of docs/rules/tenno.md"
        for section, words in home.citations:
            cited = Home(home.name, home.tag, ((section, words),))
            matches = [item for item in all_items if cited.cites(item)]
            if home.tag == "ASSUMPTION":
                matches = [item for item in matches if item.assumptions]
            assert matches, f'{home.name}: no {home.tag} item of {section} holds the words "{words}"'


def test_every_option_the_rules_file_names_is_an_option_that_cites_that_item():
    doc = RULES.read_text(encoding="utf-8")
    homes = {home.name.split(" ", 1)[1]: home for home in option_homes()}
    named = 0
    for item in items(doc):
        for mention in re.finditer(r"\boptions? ((?:`\w+`(?:, )?)+)", item.text, re.I):
            for name in re.findall(r"`(\w+)`", mention.group(1)):
                named += 1
                assert name in homes, f"{item.section} names option {name!r}, which Tennō does not have"
                assert homes[name].cites(item), f"option {name}'s source does not cite {item.section}: {item.text!r}"
    assert named >= len(homes)  # each option is named where it settles an item, at least once


def test_the_no_alternative_table_holds_the_two_player_game_and_the_refill_order():
    rows = no_alternative_homes(RULES.read_text(encoding="utf-8"))
    assert [dict(row.citations) for row in rows] == [{"B.8": "uses identical rules", "B.9": "2-player changes"},
                                                     {"B.9": "refills first"}]


@pytest.mark.parametrize("lang, word", [("zh_Hant", "藝妓對上藝妓"), ("zh_Hans", "艺妓对上艺妓")])
def test_every_option_description_is_a_message_of_the_catalog_and_is_read_translated(lang, word):
    options = get_game("tenno").options
    messages = source_messages()
    assert all(option.doc in messages for option in options)  # marked N_: the catalog tests ask for both scripts
    with reading(lang):
        described = {option.name: _(option.doc) for option in options}
    assert word in described["geisha_pair"]
    assert all(text != option.doc for text, option in zip(described.values(), options))
