"""Every [ASSUMPTION] of Tennō's rules file has a home a table can find and change.

DESIGN: what a table may need to correct, "every rule marked [ASSUMPTION] in rules/", is a
data file or a named rule option, never a constant buried in code. Each home cites the item
it settles by section and by the item's own words, as `B.5 "Geisha vs Geisha"`:

- an option's source: `[ASSUMPTION] docs/rules/tenno.md B.5 "Geisha vs Geisha"; B.9 "Geisha vs Geisha"`;
- a comment of the card data (`cards.toml`) in the same form;
- the "where" cell of the rules file's table of assumptions without an alternative, whose last
  cell says why there is nothing to choose.

An [ASSUMPTION] added to the rules file without a home fails here, and so does a home whose
words are no longer in the item it cites (or are in more than one), or a rules-file item that
names an option which does not cite it back. The machinery, shared with the other games, is in
`assumptions.py`.
"""

from __future__ import annotations

import re

from engine.games import get_game

from .assumptions import ROOT, TAG, Home, Rules

RULES = Rules(ROOT / "docs" / "rules" / "tenno.md", heading=r"#+ ([A-Z]\.\d+)\b", keeps="###",
              cite=r"\b([A-Z]\.\d+)", mark="", legend="* **[ASSUMPTION]** nothing found.",
              no_alternative="Assumptions without an alternative")
DATA = ROOT / "engine" / "games" / "tenno" / "cards.toml"


def option_homes() -> list[Home]:
    return RULES.option_homes(get_game("tenno").options)


def every_home(doc: str) -> list[Home]:
    data = RULES.data_homes(DATA.read_text(encoding="utf-8"), DATA.name)
    return option_homes() + data + RULES.no_alternative_homes(doc)


def test_every_assumption_of_the_rules_file_has_a_home():
    doc = RULES.text()
    found = RULES.tagged(doc)
    assert sum(item.assumptions for item in found) == len(TAG.findall(doc)) - 1  # every tag is in an item
    assert len(found) >= 18  # nine in the sections, nine again in B.9's table
    wrong = RULES.homeless(doc, every_home(doc))
    assert not wrong, ("these [ASSUMPTION]s of docs/rules/tenno.md have no home: make each a named option "
                       "(its source citing the item), a cards.toml value, or a row of the table of "
                       f"assumptions without an alternative: {wrong}")


def test_an_assumption_added_without_a_home_is_caught():
    doc = RULES.text()
    added = doc.replace("* **Samurai (7, 8), Daimyo (9):** no ability. **[HIGH]**",
                        "* **Samurai (7, 8), Daimyo (9):** no ability. **[HIGH]**\n"
                        "  * A Samurai may duel twice. **[ASSUMPTION]**")
    assert added != doc
    assert [w.split(":")[0] for w in RULES.homeless(added, every_home(doc))] == ["B.5"]
    doubled = doc.replace("Treat this as a tie with no rewards.",
                          "Treat this as a tie with no rewards. **[ASSUMPTION]**")
    assert RULES.homeless(doubled, every_home(doc)) and not RULES.homeless(doc, every_home(doc))
    homes = every_home(doc)
    without = [home for home in homes if home.name != "option geisha_pair"]
    assert [w.split(":")[0] for w in RULES.homeless(doc, without)] == ["B.5", "B.9"]


def test_a_data_comment_can_be_the_home_of_an_assumption():
    doc = "# Tenno\n\n## B.2 Components\n\n* Each colour has 11 cards. **[ASSUMPTION]**\n"
    assert RULES.homeless(doc, [])
    data = 'count = 11  # [ASSUMPTION] docs/rules/tenno.md B.2 "has 11 cards"\n'
    assert RULES.data_homes(data, DATA.name)[0].citations == (("B.2", "has 11 cards"),)
    assert not RULES.homeless(doc, RULES.data_homes(data, DATA.name))
    assert RULES.homeless(doc, RULES.data_homes(data.replace("B.2", "B.3"), DATA.name))  # another section's item


def test_every_home_cites_words_that_are_in_the_item_it_settles():
    doc = RULES.text()
    assert not RULES.stale(doc, every_home(doc))


def test_every_option_the_rules_file_names_is_an_option_that_cites_that_item():
    doc = RULES.text()
    homes = {home.name.split(" ", 1)[1]: home for home in option_homes()}
    named = 0
    for item in RULES.items(doc):
        for mention in re.finditer(r"\boptions? ((?:`\w+`(?:, )?)+)", item.text, re.I):
            for name in re.findall(r"`(\w+)`", mention.group(1)):
                named += 1
                assert name in homes, f"{item.section} names option {name!r}, which Tennō does not have"
                assert homes[name].cites(item), f"option {name}'s source does not cite {item.section}: {item.text!r}"
    assert named >= len(homes)  # each option is named where it settles an item, at least once


def test_the_no_alternative_table_holds_the_two_player_game_and_the_refill_order():
    rows = RULES.no_alternative_homes(RULES.text())
    assert [dict(row.citations) for row in rows] == [{"B.8": "uses identical rules", "B.9": "2-player changes"},
                                                     {"B.9": "refills first"}]
