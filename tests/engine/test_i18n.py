"""Language is per reader: a seat's words in its language, the table's in the table's."""

from __future__ import annotations

import threading

import pytest

from engine import i18n
from engine.game import waiting_line

from .test_game import _write_mo

NAMES = ["Red", "Blue"]


@pytest.fixture
def french(tmp_path, monkeypatch):
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    _write_mo(folder / "courtier.mo", {"Waiting for {name}": "On attend {name}"})
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_catalogs", {})  # catalogs loaded from the shipped folder are not this one's


@pytest.mark.parametrize("given, shipped", [
    (None, "en"), ("", "en"), ("C", "en"), ("POSIX", "en"), ("en_GB.UTF-8", "en"),
    ("zh_TW.UTF-8", "zh_Hant"), ("zh_HK", "zh_Hant"), ("zh-Hant", "zh_Hant"), ("zh_Hant_TW", "zh_Hant"),
    ("zh_CN.UTF-8", "zh_Hans"), ("zh_SG", "zh_Hans"), ("zh-hans", "zh_Hans"), ("zh", "zh_Hans"),
    ("fr_FR.UTF-8", "fr_FR"),
])
def test_locale_names_become_the_shipped_languages(given, shipped):
    assert i18n.normalize(given) == shipped


def test_the_system_locale_sets_the_default_language(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert i18n.system_language() == "zh_Hant"
    monkeypatch.setenv("LANGUAGE", "zh_CN:en")
    assert i18n.system_language() == "zh_Hans"


def test_a_reader_reads_its_own_language_and_the_table_keeps_its_own(french):
    i18n.set_language(None)
    with i18n.reading("fr"):
        assert waiting_line([1], NAMES) == "On attend Blue"
        with i18n.reading("en"):
            assert waiting_line([1], NAMES) == "Waiting for Blue"
        assert waiting_line([1], NAMES) == "On attend Blue"
    assert waiting_line([1], NAMES) == "Waiting for Blue"
    i18n.set_language("fr")
    assert i18n.table_language() == "fr" and waiting_line([1], NAMES) == "On attend Blue"
    with i18n.reading(None):  # no language of its own: the table's
        assert waiting_line([1], NAMES) == "On attend Blue"
    with i18n.reading("en"):
        assert waiting_line([1], NAMES) == "Waiting for Blue"


def test_a_readers_language_stays_on_its_own_thread(french):
    seen = {}
    inside = threading.Event()
    done = threading.Event()

    def other() -> None:
        assert inside.wait(10)
        seen["other"] = waiting_line([0], NAMES)
        done.set()

    thread = threading.Thread(target=other)
    thread.start()
    with i18n.reading("fr"):
        inside.set()
        assert done.wait(10)
        seen["mine"] = waiting_line([0], NAMES)
    thread.join()
    assert seen == {"mine": "On attend Red", "other": "Waiting for Red"}


def test_an_engine_error_is_english_as_a_str_and_the_readers_language_where_shown():
    from engine.errors import BadJournal, IllegalAction
    from engine.match import Match

    match = Match.new("tenno", 3, seed=2, options={"start_seat": 0})
    with pytest.raises(IllegalAction) as refused:
        match.apply({"seat": 1, "do": "pass"})
    assert str(refused.value).startswith("Blue cannot 'pass' now; the choices are: ")
    with i18n.reading("zh_Hans"):
        assert refused.value.render().startswith("蓝现在不能 'pass'；可选的是：")
    with pytest.raises(BadJournal) as bad:
        Match.replay(match.header, [{"seat": 1, "do": "pass"}])
    assert str(bad.value) == f"saved action 1 does not replay: {refused.value}"
    with i18n.reading("zh_Hant"):
        assert bad.value.render().startswith("存檔的第 1 個行動無法重播：藍現在不能 'pass'；")


@pytest.mark.parametrize("given, shipped", [("zh_TW@variant", "zh_Hant"), ("EN", "en"), ("en", "en")])
def test_a_locale_s_modifier_and_case_do_not_change_its_language(given, shipped):
    assert i18n.normalize(given) == shipped


@pytest.mark.parametrize("variable", ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"])
def test_each_locale_variable_names_the_language_and_the_first_of_a_list_counts(monkeypatch, variable):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, "zh_TW:en")
    assert i18n.system_language() == "zh_Hant"


def test_without_locale_variables_the_process_locale_names_the_language(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(i18n.locale, "getlocale", lambda: ("zh_TW", "UTF-8"))
    assert i18n.system_language() == "zh_Hant"

    def unknown():
        raise ValueError("unknown locale: klingon")

    monkeypatch.setattr(i18n.locale, "getlocale", unknown)
    assert i18n.system_language() == "en"


def test_a_catalog_is_loaded_once_and_a_language_without_one_reads_english(monkeypatch):
    monkeypatch.setattr(i18n, "_catalogs", {})
    shipped = i18n.catalog("zh_Hant")
    assert i18n.catalog("zh-Hant") is shipped and shipped.gettext("Blue") != "Blue"
    missing = i18n.catalog("xx_YY")
    assert missing.gettext("Blue") == "Blue" and i18n.catalog("xx_YY") is missing
