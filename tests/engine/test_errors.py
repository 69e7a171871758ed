"""The engine's errors: a template and its fields, read in English as a str and in the reader's language."""

from __future__ import annotations

import pytest

from engine.errors import BadData, BadJournal, EngineError, IllegalAction, UnknownGame, read_toml
from engine.i18n import N_, _, reading


def test_an_error_reads_its_template_with_its_fields_and_keeps_both():
    error = IllegalAction(N_("{name} cannot pass now"), name="Blue")
    assert str(error) == "Blue cannot pass now" and error.args == ("Blue cannot pass now",)
    assert error.template == "{name} cannot pass now" and error.fields == {"name": "Blue"}


def test_an_error_without_fields_is_its_message_and_one_without_a_message_has_no_args():
    assert str(EngineError("plain {braces} kept")) == "plain {braces} kept"
    assert EngineError().args == () and str(EngineError()) == ""
    assert EngineError().render() == ""


def test_fields_that_are_lists_are_joined_and_words_are_translated_when_rendered():
    error = IllegalAction(N_("{name} cannot pass now"), name=["Blue", "Red", ""])
    assert str(error) == "Blue, Red,  cannot pass now" and error.fields["name"] == ["Blue", "Red", ""]
    with reading("zh_Hant"):
        expected = _("{name} cannot pass now").format(name=", ".join((_("Blue"), _("Red"), "")))
        assert error.render() == expected and "藍, 紅, " in expected
    counted = IllegalAction(N_("{name} cannot pass now"), name=3)
    assert str(counted) == "3 cannot pass now"


def test_a_wrapped_error_is_read_in_the_same_words_as_the_error_around_it():
    inner = IllegalAction(N_("{name} cannot pass now"), name="Blue")
    outer = BadJournal(N_("saved action {number} does not replay: {error}"), number=1, error=inner)
    assert str(outer) == "saved action 1 does not replay: Blue cannot pass now"
    with reading("zh_Hant"):
        rendered = outer.render()
    with reading("zh_Hant"):
        assert inner.render() in rendered and "Blue" not in rendered


def test_an_untranslated_template_renders_as_written():
    with reading("zh_Hant"):
        assert EngineError("no such message {n}", n=2).render() == "no such message 2"
        assert EngineError("just words").render() == "just words"


def test_an_unknown_game_reads_unquoted():
    assert str(UnknownGame(N_("no game {name}"), name="chess")) == "no game chess"
    assert str(UnknownGame()) == "unknown game"


def test_a_data_file_that_cannot_be_read_or_parsed_is_named(tmp_path):
    good = tmp_path / "cards.toml"
    good.write_text('[card]\nname = "Shogun"\n', encoding="utf-8")
    assert read_toml(good) == {"card": {"name": "Shogun"}}
    bad = tmp_path / "board.toml"
    bad.write_text("name = ", encoding="utf-8")
    with pytest.raises(BadData) as refused:
        read_toml(bad)
    assert str(refused.value) == "board.toml: Invalid value (at end of document)"
    with pytest.raises(BadData) as missing:
        read_toml(tmp_path / "gone.toml")
    assert str(missing.value).startswith("gone.toml: [Errno 2]")
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(BadData, match="^deep.toml: "):
        read_toml(deep)


def test_an_error_renders_its_own_words_even_in_a_reader_s_language():
    """No message is not the catalog's header (gettext of "" is), and a message with braces but no fields is
    shown as written; an error wrapped in another reads in English inside an English str."""
    with reading("zh_Hant"):
        assert EngineError().render() == ""
        assert EngineError("plain {braces} kept").render() == "plain {braces} kept"
        inner = IllegalAction(N_("{name} cannot pass now"), name="Blue")
        outer = BadJournal(N_("saved action {number} does not replay: {error}"), number=1, error=inner)
        assert str(outer) == "saved action 1 does not replay: Blue cannot pass now"


def test_a_data_file_is_read_as_utf_8_whatever_the_locale(tmp_path, c_locale):
    path = tmp_path / "privileges.toml"
    path.write_text('[toll]\nname = "Zölle"\n', encoding="utf-8")
    assert read_toml(path) == {"toll": {"name": "Zölle"}}
