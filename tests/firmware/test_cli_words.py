"""The words the person setting up the table reads: argparse's own and the table file's, in the table's language."""

from __future__ import annotations

import argparse
import gettext
import os
import re

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

from engine import i18n
from firmware import argparse_words
from firmware.cli import main
from hardware.errors import TableConfigError, Words
from hardware.table import parse_table

from ..engine.test_catalogs import catalog

# argparse's messages that only a program's own mistake can show (a clash of option strings, a
# group merged twice ...): courtier's parser has none of these, so no user reads them.
PROGRAMMING_ERRORS = {
    ".__call__() not defined", "conflicting subparser: %s", "conflicting subparser alias: %s",
    "cannot merge actions - two groups are named %r", "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r", "invalid conflict_resolution value: %r",
    "conflicting option string: %s", "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments", "%r is not callable",
}

BAD_TABLE = '''[table]
name = "Kitchen"

[[seat]]
name = "Red"
buttons = { prev = 5, next = 6, ok = 13 }
screen = { driver = "ssd1306", bus = "i2c" }

[[seat]]
name = "Blue"
buttons = { prev = 16, next = 20, ok = 13 }
screen = { driver = "ssd1306", bus = "i2c", address = 0x3D }
'''


@pytest.fixture
def english_locale(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def test_argparse_knows_every_word_a_user_can_meet_in_this_python():
    found = set()
    for _line, message, _comments, _context in extract_from_file("python", argparse.__file__,
                                                                 keywords=DEFAULT_KEYWORDS):
        found.add(message[0] if isinstance(message, tuple) else message)
    ours = set(argparse_words.WORDS) | {singular for singular, _plural in argparse_words.PLURALS}
    assert found - PROGRAMMING_ERRORS <= ours, sorted(found - PROGRAMMING_ERRORS - ours)


PERCENT = re.compile(r"%(?:\(\w+\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")


def percent_faults(lang, path=None):
    """argparse's words whose translation drops or adds a %-placeholder (argparse fills them by %)."""
    ours = set(argparse_words.WORDS) | {singular for singular, _plural in argparse_words.PLURALS}
    wrong = []
    for message in catalog(lang, path):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if ids[0] not in ours:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = sorted(PERCENT.findall(ids[0]))
        wrong += [f"{ids[0]!r} -> {text!r}" for text in strings if sorted(PERCENT.findall(text)) != wanted]
    return wrong


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_every_translation_of_argparses_words_keeps_its_percent_placeholders(lang):
    assert not percent_faults(lang)


def test_a_lost_percent_placeholder_is_caught(tmp_path):
    po = tmp_path / "courtier.po"
    po.write_text('''msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"

msgid "%(prog)s: error: %(message)s\\n"
msgstr "錯誤：%(message)s\\n"

msgid "unrecognized arguments: %s"
msgstr "無法辨識的參數：%s"
''', encoding="utf-8")
    assert percent_faults("zh_Hant", po) == ["'%(prog)s: error: %(message)s\\n' -> '錯誤：%(message)s\\n'"]


def test_help_speaks_argparses_own_words_in_the_language_asked_for(capsys, english_locale):
    with pytest.raises(SystemExit):
        main(["demo", "--help", "--lang", "zh_Hant"])
    out = capsys.readouterr().out
    assert out.startswith("用法：courtier demo") and "位置參數" in out and "選項" in out
    assert "usage:" not in out and "positional arguments" not in out and "show this help message" not in out
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: courtier demo") and "positional arguments" in out


def test_an_argument_error_is_in_the_system_locales_language(capsys, monkeypatch, english_locale):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    with pytest.raises(SystemExit) as exit_:
        main(["demo"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "courtier demo：错误：缺少必需的参数：game" in err and "用法：" in err
    with pytest.raises(SystemExit):
        main(["demo", "tenno", "--bots", "clever", "--lang", "zh_Hant"])
    assert "參數 --bots：無效的選擇：'clever'（可選：" in capsys.readouterr().err


def test_parsing_leaves_the_process_gettext_as_it_found_it(capsys, english_locale):
    domain, language = gettext.textdomain(), os.environ.get("LANGUAGE")
    with pytest.raises(SystemExit):
        main(["demo", "--lang", "zh_Hant"])
    assert "錯誤" in capsys.readouterr().err
    assert (gettext.textdomain(), os.environ.get("LANGUAGE")) == (domain, language)
    assert gettext.gettext("usage: ") == "usage: "


def test_a_table_file_error_keeps_its_words_for_each_reader():
    with pytest.raises(TableConfigError) as err:
        parse_table(BAD_TABLE, source="kitchen.toml")
    english = 'kitchen.toml:9: seat 2 ("Blue"): buttons.ok: pin 13 is already used by seat 1 ("Red") buttons.ok'
    assert str(err.value) == english and err.value.render(lambda text: text) == english
    assert isinstance(err.value.words, Words)
    with i18n.reading("zh_Hant"):
        told = err.value.render(i18n._)
    assert told == 'kitchen.toml:9: 座位 2（"Blue"）: buttons.ok: 腳位 13 已被 座位 1（"Red"） buttons.ok 使用'


SEAT = '[[seat]]\nname = "Red"\nbuttons = { prev = 5, next = 6, ok = 13 }\n'
OLED = 'screen = { driver = "ssd1306", bus = "i2c" }\n'


@pytest.mark.parametrize(("text", "told"), [
    (SEAT + 'screen = { driver = "ssd1307", bus = "i2c" }\n',
     'screen.driver: 未知的值 \'ssd1307\'（应为其中之一：ssd1306, ssd1309, sh1106）'),
    (SEAT + 'screen = { driver = "ili9341", bus = "spi", width = 320, height = 240 }\n',
     "screen.driver: 座位的屏幕是单色 OLED（ssd1306, ssd1309, sh1106）；ili9341 可作公共屏幕"),
    (SEAT + OLED + '[public_screen]\ndriver = "ssd1322"\nbus = "i2c"\nwidth = 256\n',
     '[public_screen]: bus: ssd1322 是 SPI 屏幕；请设 bus = "spi"'),
    (SEAT + OLED + '[public_screen]\ndriver = "ssd1322"\nbus = "spi"\nwidth = 256\ngpio_light = 12\n',
     "[public_screen]: gpio_light: ssd1322 没有背光；只有 ili9341, st7789 有"),
])
def test_a_wrong_screen_driver_is_told_in_the_readers_words(text, told):
    with pytest.raises(TableConfigError) as err:
        parse_table(text, source="table.toml")
    with i18n.reading("zh_Hans"):
        assert err.value.render(i18n._).endswith(told)


def test_a_bad_table_file_is_told_in_the_language_asked_for_with_its_file_and_line(tmp_path, capsys,
                                                                                   english_locale):
    path = tmp_path / "kitchen.toml"
    path.write_text(BAD_TABLE.replace("0x3D", '"0x3D"'), encoding="utf-8")
    status = main(["play", "tenno", "--table", str(path), "--ui", "none", "--state-dir", str(tmp_path / "s"),
                   "--lang", "zh_Hant"])
    err = capsys.readouterr().err
    assert status != 0
    assert f"{path}:9: 座位 2（\"Blue\"）: screen.address: 必須是整數，不是字串" in err
    assert "must be" not in err
    path.write_text("[table\n", encoding="utf-8")
    main(["play", "--table", str(path), "--ui", "none", "--state-dir", str(tmp_path / "s"), "--lang", "zh_Hans"])
    assert f"{path}:1: TOML 无效，第 " in capsys.readouterr().err


def test_games_v_describes_each_rule_option_in_the_tables_language(capsys, english_locale):
    """An option's description is a catalog message (N_ where it is declared), read in --lang's language."""
    assert main(["games", "-v", "--lang", "zh_Hans"]) == 0
    out = capsys.readouterr().out
    assert "--option empty_bag=stays_empty  布袋已空时，月桂被取走的菱形位置" in out
    assert "--option short_supply=mover_chooses  I月桂供应区不足以奖赏" in out
    assert "（可选：stays_empty, " in out and "\n        出处：" in out and "source:" not in out
    i18n.set_language(None)
    assert main(["games", "-v"]) == 0
    assert "--option empty_bag=stays_empty  When the bag is empty" in capsys.readouterr().out
